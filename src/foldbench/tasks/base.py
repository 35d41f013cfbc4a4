"""The task protocol every benchmark family implements, and the records it works on.

A task turns engine states into questions and scores answers to them:

* ``generate(n, seed, ...)`` -> items (plain data with their ground truth), ``assets(item)`` -> their files;
* ``render(item, modality)`` -> a :class:`Prompt` (text and images, in our own words);
* ``parse(text)`` -> an answer (a pydantic model), or a :class:`ParseFailure` that scores as wrong;
* ``score(item, answer)`` -> per-item scores (the benchmark's own metrics);
* ``oracle(item)`` -> the engine's answer (it must score 100%); ``random_answer(item, rng)`` -> a well-formed
  random answer (the chance baseline);
* ``spec`` -> a :class:`TaskSpec`: engine version, metrics, headline, breakdowns, plots, gallery, turn budget;
* multi-turn tasks (``spec.max_turns > 1``) also give ``step(item, reply, turn)`` -> :class:`Feedback`.

The message types (:class:`Prompt`, :class:`Conversation`, parts) live in :mod:`foldbench.messages`, and
:class:`ParseFailure` in :mod:`foldbench.text.replies` (below the environments, which read replies too); both are
re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from foldbench.errors import InvalidKnobError
from foldbench.messages import Conversation, ImagePart, Message, Prompt, TextPart, VideoPart
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.spec import Feedback, Metric, Plot, RoundPlot, TaskSpec
from foldbench.text.replies import ParseFailure

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Conversation",
    "Feedback",
    "Item",
    "Message",
    "Metric",
    "MultiTurnTask",
    "Plot",
    "RoundPlot",
    "TaskSpec",
    "Task",
    "Prompt",
    "TextPart",
    "ImagePart",
    "VideoPart",
    "ParseFailure",
    "Scores",
    "check_modalities",
    "in_default_suite",
]


class Item(BaseModel):
    """One benchmark question: plain, JSON-serialisable data with its ground truth.

    Same task id, seed and engine version give the same item, byte for byte.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    """Unique within its dataset, e.g. ``"prediction-00017"``."""
    task: str
    """The versioned task id, e.g. ``"mentalblackboard/prediction-v1"``."""
    seed: int
    """The seed this item alone is generated from (derived from the dataset seed and the item's index)."""
    engine_version: str
    """The version of the engine that computed the ground truth."""
    inputs: dict[str, Any]
    """What the question shows: task-specific fields, plus encodings per modality (text, image paths)."""
    target: dict[str, Any]
    """The ground truth."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Facts for grouping results (configuration group, fold families, ...), never shown to a model."""


@dataclass(frozen=True, slots=True)
class Scores:
    """Per-item scores: named values in [0, 1] (None where a metric does not apply) and count-based details
    (numerators and denominators) that aggregate exactly across items."""

    values: Mapping[str, float | None]
    counts: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


@runtime_checkable
class Task(Protocol):
    """A benchmark task (see the module docstring for the contract of each method).

    A task may set the class attribute ``in_default_suite = False`` to stay out of ``foldbench suite`` unless it is
    asked for by name (see :func:`in_default_suite`); every task is in it otherwise.
    """

    id: str
    """Versioned id, ``family/name-vN``."""
    modalities: tuple[str, ...]
    """The encodings this task can write (``"text"``, ``"image"``, ...)."""
    knob_schema: type[Knobs]
    """The schema of the knobs ``generate`` accepts (see :mod:`foldbench.tasks.knobs`)."""

    @property
    def spec(self) -> TaskSpec:
        """What the task measures (metrics, headline, breakdowns, plots, gallery, turn budget)."""
        ...

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...], knobs: Mapping[str, Any], start: int = 0
    ) -> Iterator[Item]:
        """Yield items ``start .. n-1`` of the dataset seeded with ``seed``; item ``i`` depends only on
        ``(seed, i)`` and the knobs, so ranges can be generated in parallel."""
        ...

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The files an item refers to, as ``(relative path, bytes)``."""
        ...

    def render(self, item: Item, modality: str) -> Prompt:
        """The prompt for ``item`` in ``modality``."""
        ...

    def parse(self, item: Item, text: str) -> BaseModel | ParseFailure:
        """A model's reply read strictly as an answer, or the reason it cannot be."""
        ...

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """The item's scores for an answer (a parse failure scores as wrong)."""
        ...

    def oracle(self, item: Item) -> BaseModel:
        """The engine's own answer; scores 100%."""
        ...

    def random_answer(self, item: Item, rng: np.random.Generator) -> BaseModel:
        """A well-formed answer of the right type, drawn at random."""
        ...


def in_default_suite(task: object) -> bool:
    """Whether ``foldbench suite`` runs ``task`` (a task or its class) when no ``--tasks`` are given.

    True unless the task sets the class attribute ``in_default_suite = False``.
    """
    return getattr(task, "in_default_suite", True) is not False


@runtime_checkable
class MultiTurnTask(Task, Protocol):
    """A task that answers each reply with feedback, until it is done or the turn budget is spent."""

    def step(self, item: Item, reply: str, turn: int) -> Feedback:
        """The feedback on reply number ``turn`` (0-based) to ``item``."""
        ...


def check_modalities(
    task_id: str,
    requested: Sequence[str],
    available: Sequence[str],
    error_type: type[InvalidKnobError] = InvalidKnobError,
) -> None:
    """Raise ``error_type`` (an :class:`InvalidKnobError`) naming the first requested modality a task does not have.

    >>> check_modalities("family/name-v1", ["text"], ["text", "image"])
    """
    unknown = [m for m in requested if m not in available]
    if unknown:
        raise error_type(f"{task_id} has no modality {unknown[0]!r} (it has {', '.join(available)})")
