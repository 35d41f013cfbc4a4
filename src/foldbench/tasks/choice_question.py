"""The typed contract of a multiple-choice item: what every layer (audit, export, human pages) reads of it.

A choice item stores its question in the usual item fields (the JSON of a dataset is unchanged):

* ``target["answer"]`` — the right answer: an option letter (A–D in foldbench's tasks), or (perception probes)
  one of the answers offered as text;
* ``inputs["choices"]`` — the answers offered as text (perception probes only);
* ``inputs["options"]`` — one record per option (a value, a name, a folding: whatever the task shows);
* ``inputs["images"]`` — one picture per option and the reference picture
  (:func:`~foldbench.tasks.choice.choice_images`);
* ``metadata["subtask"]`` and ``metadata["question"]`` — the subtask and the probe's question type.

:meth:`ChoiceQuestion.of` reads them from an :class:`~foldbench.tasks.base.Item` and
:meth:`ChoiceQuestion.of_record` from a line of ``items.jsonl``, so no other layer spells out those keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from foldbench.tasks.base import Item
from foldbench.tasks.choice import option_pictures, reference_picture

__all__ = ["ChoiceQuestion", "offered_choices"]

_CHOICES = "choices"


def offered_choices(choices: list[str] | tuple[str, ...]) -> dict[str, list[str]]:
    """The input field of a probe item that offers ``choices`` as text (read back as
    :attr:`ChoiceQuestion.choices`).

    >>> offered_choices(("2", "3"))
    {'choices': ['2', '3']}
    """
    return {_CHOICES: list(choices)}


class ChoiceQuestion(BaseModel):
    """A multiple-choice item as the layers above the tasks see it.

    >>> record = {"inputs": {"choices": ["2", "3"]}, "target": {"answer": "3"}, "metadata": {"question": "holes"}}
    >>> question = ChoiceQuestion.of_record(record)
    >>> question.choices, question.answer_index, question.question_kind
    (('2', '3'), 1, 'holes')
    >>> ChoiceQuestion.of_record({"inputs": {}, "target": {"total_holes": 2}}) is None
    True
    """

    model_config = ConfigDict(frozen=True)

    answer: str
    """The right answer: an option letter, or one of :attr:`choices`."""
    choices: tuple[str, ...] = ()
    """The answers offered as text (perception probes); empty when the options are lettered."""
    option_records: tuple[Any, ...] = ()
    """One record per option, as the item stores it (may be empty)."""
    option_pictures: tuple[str, ...] = ()
    """One dataset-relative picture per option, in letter order (may be empty)."""
    reference_picture: str | None = None
    """The picture the options are compared with, when the item shows one."""
    subtask: str | None = None
    """The item's subtask, when its task has subtasks."""
    question_kind: str | None = None
    """A probe's question type."""

    @property
    def is_probe(self) -> bool:
        """Whether the answers are offered as text (a perception probe) rather than as letters."""
        return bool(self.choices)

    @property
    def answer_index(self) -> int | None:
        """The position of the right answer among the options (a letter's place in the alphabet when they are
        lettered), or None when it is not among them."""
        if self.choices:
            return self.choices.index(self.answer) if self.answer in self.choices else None
        return ord(self.answer) - ord("A") if _is_letter(self.answer) else None

    @classmethod
    def of(cls, item: Item) -> ChoiceQuestion | None:
        """The choice question of ``item``, or None when it is not a choice item."""
        return cls.of_record({"inputs": item.inputs, "target": item.target, "metadata": item.metadata})

    @classmethod
    def of_record(cls, record: Mapping[str, Any]) -> ChoiceQuestion | None:
        """The choice question of a stored item record (one parsed line of ``items.jsonl``), or None when it has
        neither a letter answer nor offered answers."""
        inputs = _mapping(record.get("inputs"))
        target = _mapping(record.get("target"))
        metadata = _mapping(record.get("metadata"))
        answer = target.get("answer")
        if not isinstance(answer, str):
            return None
        choices = inputs.get(_CHOICES)
        offered = tuple(choices) if isinstance(choices, list) and all(isinstance(c, str) for c in choices) else ()
        if not offered and not _is_letter(answer):
            return None
        options = inputs.get("options")
        return cls(
            answer=answer,
            choices=offered,
            option_records=tuple(options) if isinstance(options, list) else (),
            option_pictures=tuple(option_pictures(inputs)),
            reference_picture=reference_picture(inputs),
            subtask=_text(metadata.get("subtask")),
            question_kind=_text(metadata.get("question")),
        )


def _is_letter(answer: str) -> bool:
    """Whether ``answer`` is one option letter A-Z."""
    return len(answer) == 1 and "A" <= answer <= "Z"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
