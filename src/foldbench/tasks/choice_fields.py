"""Where a multiple-choice item keeps each part of its question: the one module that spells those keys.

A choice item stores its question in the usual item fields, each part under its own key:

* the right answer: ``target["answer"]`` (an option letter, or for a probe one of the offered answers);
* the answers offered as text: ``inputs["choices"]``, and the question asked: ``inputs["question"]`` (perception
  probes only);
* one record per option as the model is shown it: ``inputs["options"]``; one record per option that the engine
  checks and the model never sees: ``target["options"]``;
* the pictures: ``inputs["images"]``, with its ``"question"`` pictures, its ``"options"`` pictures (in letter order)
  and its ``"reference"`` picture;
* the subtask: ``metadata["subtask"]``, and a probe's question type: ``metadata["question"]``.

Each part has a writer here that returns the dictionary fragment holding it (``{"options": [...]}``), which a task
splices into its own record at the place its items have always kept it, so a dataset's JSON stays byte for byte
what it was; and a reader that takes it back out of a record, tolerating any JSON (a part that is missing or
malformed reads as empty). :class:`~foldbench.tasks.choice_question.ChoiceQuestion` gathers the readers into one
typed record and composes the writers (``item_fields``); every other module uses those two modules, never the keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "PROBE_INPUT_KEYS",
    "QUESTION_KIND_KEY",
    "SUBTASK_KEY",
    "answer_field",
    "answer_of",
    "choice_images",
    "images_field",
    "last_reference",
    "offered",
    "offered_choices",
    "option_pictures",
    "option_records",
    "option_sources",
    "option_sources_field",
    "options_field",
    "picture_fields",
    "probe_question_text",
    "question_kind_field",
    "question_kind_of",
    "question_pictures",
    "question_text_field",
    "reference_picture",
    "stated_reference",
    "subtask_field",
    "subtask_of",
    "without_probe_fields",
]

_ANSWER = "answer"
_CHOICES = "choices"
_OPTIONS = "options"
_IMAGES = "images"
_REFERENCE = "reference"
_QUESTION = "question"

SUBTASK_KEY = "subtask"
"""The metadata key of an item's subtask (a breakdown name, and what a paper table's cell selects on)."""
QUESTION_KIND_KEY = _QUESTION
"""The metadata key of a probe's question type (a breakdown name)."""
PROBE_INPUT_KEYS = frozenset({_QUESTION, _CHOICES})
"""The input keys a probe adds to its source item's inputs: its question and the answers it offers."""


# ---- writers: the fragment of an item field holding one part ---------------------------------------------------
def answer_field(answer: str) -> dict[str, str]:
    """The target fragment holding the right answer.

    >>> answer_field("B")
    {'answer': 'B'}
    """
    return {_ANSWER: answer}


def offered_choices(choices: Sequence[str]) -> dict[str, list[str]]:
    """The inputs fragment of a probe item that offers ``choices`` as text.

    >>> offered_choices(("2", "3"))
    {'choices': ['2', '3']}
    """
    return {_CHOICES: list(choices)}


def question_text_field(text: str) -> dict[str, str]:
    """The inputs fragment holding a probe's question, as the model is asked it.

    >>> question_text_field("How many holes?")
    {'question': 'How many holes?'}
    """
    return {_QUESTION: text}


def options_field(records: Sequence[Any]) -> dict[str, list[Any]]:
    """The inputs fragment holding one record per option, in letter order, as the model is shown them.

    >>> options_field(["1-2-3", "2-1-3"])
    {'options': ['1-2-3', '2-1-3']}
    """
    return {_OPTIONS: list(records)}


def option_sources_field(records: Sequence[Any]) -> dict[str, list[Any]]:
    """The target fragment holding one record per option that the engine checks (what the option was made
    from), never shown to a model.

    >>> option_sources_field([{"state": 2}])
    {'options': [{'state': 2}]}
    """
    return {_OPTIONS: list(records)}


def picture_fields(
    *, question: Sequence[str] | None = None, options: Sequence[str] | None = None, reference: str | None = None
) -> dict[str, Any]:
    """The ``inputs["images"]`` fragment holding the question pictures, the option pictures (in letter order) and
    the reference picture the options are compared with, in that order; a part given as None is left out.

    >>> picture_fields(options=["a.png", "b.png"], reference="r.png")
    {'options': ['a.png', 'b.png'], 'reference': 'r.png'}
    >>> picture_fields(question=[], options=[])
    {'question': [], 'options': []}
    """
    images: dict[str, Any] = {}
    if question is not None:
        images[_QUESTION] = list(question)
    if options is not None:
        images[_OPTIONS] = list(options)
    if reference is not None:
        images[_REFERENCE] = reference
    return images


def choice_images(options: Sequence[str], *, reference: str | None = None, **others: Any) -> dict[str, Any]:
    """The ``inputs["images"]`` record of a choice item: one picture per option, the reference picture the options
    are compared with (when the item shows one), then any other pictures (``composite``, ...).

    >>> choice_images(["a.png", "b.png"], reference="r.png", composite="c.png")
    {'options': ['a.png', 'b.png'], 'reference': 'r.png', 'composite': 'c.png'}
    """
    return {**picture_fields(options=options, reference=reference), **others}


def images_field(pictures: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The inputs fragment holding an item's pictures (:func:`picture_fields` and any of the task's own).

    >>> images_field({"composite": "c.png"})
    {'images': {'composite': 'c.png'}}
    """
    return {_IMAGES: dict(pictures)}


def subtask_field(subtask: str) -> dict[str, str]:
    """The metadata fragment holding an item's subtask.

    >>> subtask_field("2-fold")
    {'subtask': '2-fold'}
    """
    return {SUBTASK_KEY: subtask}


def question_kind_field(kind: str) -> dict[str, str]:
    """The metadata fragment holding a probe's question type.

    >>> question_kind_field("holes")
    {'question': 'holes'}
    """
    return {QUESTION_KIND_KEY: kind}


# ---- readers: one part taken back out of a record (any JSON; missing or malformed reads as empty) --------------
def answer_of(target: Mapping[str, Any]) -> str | None:
    """The right answer an item's target holds, or None when it holds no text answer."""
    return _text(target.get(_ANSWER))


def offered(inputs: Mapping[str, Any]) -> tuple[str, ...]:
    """The answers a probe item offers as text; empty when it offers none (or they are not all text)."""
    choices = inputs.get(_CHOICES)
    return tuple(choices) if isinstance(choices, list) and all(isinstance(c, str) for c in choices) else ()


def probe_question_text(inputs: Mapping[str, Any]) -> str | None:
    """A probe's question as the model is asked it, or None."""
    return _text(inputs.get(_QUESTION))


def option_records(inputs: Mapping[str, Any]) -> tuple[Any, ...]:
    """The option records an item shows (:func:`options_field`), in letter order; empty when it has none."""
    records = inputs.get(_OPTIONS)
    return tuple(records) if isinstance(records, list) else ()


def option_sources(target: Mapping[str, Any]) -> tuple[Any, ...]:
    """The option records an item's engine checks (:func:`option_sources_field`); empty when it has none."""
    records = target.get(_OPTIONS)
    return tuple(records) if isinstance(records, list) else ()


def option_pictures(inputs: Mapping[str, Any]) -> list[str]:
    """The option pictures of a choice item (:func:`picture_fields`), in letter order; empty when it has none."""
    options = _images(inputs).get(_OPTIONS)
    return [str(path) for path in options] if isinstance(options, list) else []


def question_pictures(inputs: Mapping[str, Any]) -> list[str]:
    """The question pictures of a choice item (:func:`picture_fields`), in order; empty when it has none (or they
    are not all text)."""
    question = _images(inputs).get(_QUESTION)
    return list(question) if isinstance(question, list) and all(isinstance(p, str) for p in question) else []


def stated_reference(inputs: Mapping[str, Any]) -> str | None:
    """The reference picture an item names as such (:func:`picture_fields`), or None."""
    reference = _images(inputs).get(_REFERENCE)
    return reference if isinstance(reference, str) else None


def reference_picture(inputs: Mapping[str, Any]) -> str | None:
    """The picture a choice item shows as its reference or question (a dataset-relative path), or None.

    It is the item's ``reference`` picture when it names one, else the last of its ``question`` pictures (the
    state the options are asked about, e.g. a folded and punched sheet), else None.

    >>> reference_picture({"images": {"options": ["a.png"], "reference": "r.png"}})
    'r.png'
    >>> reference_picture({"images": {"options": ["a.png"], "question": ["q0.png", "q1.png"]}})
    'q1.png'
    >>> reference_picture({"images": {"options": ["a.png"], "question": []}}) is None
    True
    """
    return last_reference(stated_reference(inputs), question_pictures(inputs))


def last_reference(reference: str | None, question: Sequence[str]) -> str | None:
    """``reference`` when given, else the last question picture when it is a path, else None."""
    if reference:
        return reference
    return question[-1] if question and question[-1] else None


def subtask_of(metadata: Mapping[str, Any]) -> str | None:
    """An item's subtask (:func:`subtask_field`), or None when its task has none."""
    return _text(metadata.get(SUBTASK_KEY))


def question_kind_of(metadata: Mapping[str, Any]) -> str | None:
    """A probe's question type (:func:`question_kind_field`), or None."""
    return _text(metadata.get(QUESTION_KIND_KEY))


def without_probe_fields(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A probe item's inputs without its question text and offered answers: its source item's inputs.

    >>> without_probe_fields({"puzzle": 1, "question": "How many?", "choices": ["1", "2"]})
    {'puzzle': 1}
    """
    return {key: value for key, value in inputs.items() if key not in PROBE_INPUT_KEYS}


def _images(inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    images = inputs.get(_IMAGES)
    return images if isinstance(images, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
