"""The typed contract of a multiple-choice item: how a task writes one, and what every layer (the audits, the
VLMEvalKit export, the probes, the paper tables, the pairing of runs) reads of it.

Where each part of the question is kept (``target["answer"]``, ``inputs["options"]``, ``metadata["subtask"]``, ...)
is spelled in :mod:`foldbench.tasks.choice_fields` alone:

* reading: :meth:`ChoiceQuestion.of` takes the question out of an :class:`~foldbench.tasks.base.Item` and
  :meth:`ChoiceQuestion.of_record` out of a line of ``items.jsonl``; :meth:`ChoiceQuestion.subtask_in` and
  :meth:`ChoiceQuestion.question_kind_in` read an item's metadata alone (a stored score row);
* writing: :meth:`ChoiceQuestion.item_fields` gives the ``inputs``/``target``/``metadata`` a question is stored
  as, the inverse of :meth:`ChoiceQuestion.of_record`; a task whose items have kept those parts in other places
  among its own fields since before this contract splices the same writers' fragments
  (:func:`~foldbench.tasks.choice_fields.options_field`, ...) where its JSON has them, so no dataset changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict, model_validator

from foldbench.tasks import choice_fields as fields
from foldbench.tasks.base import Item
from foldbench.tasks.choice_fields import offered_choices

__all__ = ["ChoiceQuestion", "ItemFields", "offered_choices"]


class ItemFields(NamedTuple):
    """The three item fields a choice question is stored in (see :meth:`ChoiceQuestion.item_fields`)."""

    inputs: dict[str, Any]
    target: dict[str, Any]
    metadata: dict[str, Any]


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

    SUBTASK_KEY: ClassVar[str] = fields.SUBTASK_KEY
    """The metadata key of the subtask (a breakdown name; what a paper table's cell selects on)."""
    QUESTION_KIND_KEY: ClassVar[str] = fields.QUESTION_KIND_KEY
    """The metadata key of a probe's question type (a breakdown name)."""

    answer: str
    """The right answer: an option letter, or one of :attr:`choices`."""
    choices: tuple[str, ...] = ()
    """The answers offered as text (perception probes); empty when the options are lettered."""
    question_text: str | None = None
    """The question a probe asks, as the model reads it (perception probes)."""
    option_records: tuple[Any, ...] = ()
    """One record per option, as the item shows it (may be empty)."""
    option_sources: tuple[Any, ...] = ()
    """One record per option that the engine checks and the model never sees (may be empty)."""
    option_pictures: tuple[str, ...] = ()
    """One dataset-relative picture per option, in letter order (may be empty)."""
    question_pictures: tuple[str, ...] = ()
    """The pictures of the question itself, in order (may be empty)."""
    reference: str | None = None
    """The picture the item names as the one the options are compared with, if any (see
    :attr:`reference_picture`)."""
    subtask: str | None = None
    """The item's subtask, when its task has subtasks."""
    question_kind: str | None = None
    """A probe's question type."""

    @model_validator(mode="after")
    def _answer_is_a_letter_or_offered(self) -> ChoiceQuestion:
        if not self.choices and not _is_letter(self.answer):
            raise ValueError(f"answer {self.answer!r} is not an option letter and no answers are offered as text")
        return self

    @property
    def reference_picture(self) -> str | None:
        """The picture the options are compared with: :attr:`reference` when the item names one, else the last
        question picture, else None."""
        return fields.last_reference(self.reference, self.question_pictures)

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
        answer = fields.answer_of(target)
        offered = fields.offered(inputs)
        if answer is None or (not offered and not _is_letter(answer)):
            return None
        return cls(
            answer=answer,
            choices=offered,
            question_text=fields.probe_question_text(inputs),
            option_records=fields.option_records(inputs),
            option_sources=fields.option_sources(target),
            option_pictures=tuple(fields.option_pictures(inputs)),
            question_pictures=tuple(fields.question_pictures(inputs)),
            reference=fields.stated_reference(inputs),
            subtask=fields.subtask_of(metadata),
            question_kind=fields.question_kind_of(metadata),
        )

    @staticmethod
    def subtask_in(metadata: Mapping[str, Any]) -> str | None:
        """The subtask an item's metadata names (e.g. a stored score row's), or None."""
        return fields.subtask_of(metadata)

    @staticmethod
    def question_kind_in(metadata: Mapping[str, Any]) -> str | None:
        """The probe question type an item's metadata names (e.g. a stored score row's), or None."""
        return fields.question_kind_of(metadata)

    def item_fields(self) -> ItemFields:
        """The ``inputs``, ``target`` and ``metadata`` this question is stored as: every part it has, through the
        writers of :mod:`foldbench.tasks.choice_fields`. :meth:`of_record` reads them back as this question.

        A new task may build its item from these (adding fields of its own); a task whose items kept those parts
        in other places since before this contract splices the same writers' fragments where its JSON has them.

        >>> question = ChoiceQuestion(answer="B", option_records=("1-2", "2-1"), subtask="easy")
        >>> question.item_fields().inputs
        {'options': ['1-2', '2-1']}
        >>> ChoiceQuestion.of_record(question.item_fields()._asdict()) == question
        True
        """
        inputs: dict[str, Any] = {}
        if self.option_records:
            inputs.update(fields.options_field(self.option_records))
        if self.choices:
            inputs.update(fields.offered_choices(self.choices))
        if self.question_text is not None:
            inputs.update(fields.question_text_field(self.question_text))
        pictures = fields.picture_fields(
            question=self.question_pictures or None, options=self.option_pictures or None, reference=self.reference
        )
        if pictures:
            inputs.update(fields.images_field(pictures))
        target: dict[str, Any] = fields.answer_field(self.answer)
        if self.option_sources:
            target.update(fields.option_sources_field(self.option_sources))
        metadata: dict[str, Any] = {}
        if self.subtask is not None:
            metadata.update(fields.subtask_field(self.subtask))
        if self.question_kind is not None:
            metadata.update(fields.question_kind_field(self.question_kind))
        return ItemFields(inputs, target, metadata)


def _is_letter(answer: str) -> bool:
    """Whether ``answer`` is one option letter A-Z."""
    return len(answer) == 1 and "A" <= answer <= "Z"


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
