"""What a task declares about itself: its engine version, its metrics, the results it breaks down, and how its
conversation goes on (one turn, or feedback after each reply up to a turn budget).

The harness aggregates, reports and draws from these declarations alone; it knows no family's metric names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from foldbench.messages import Part

if TYPE_CHECKING:
    from foldbench.tasks.base import Item

__all__ = ["Feedback", "GalleryRenderer", "ManifestNotes", "Metric", "MetricKind", "Plot", "RoundPlot", "TaskSpec",
           "TurnScores"]

#: How a metric aggregates over items: ``proportion`` (the mean of per-item 0/1 values, Wilson interval),
#: ``mean`` (the mean of per-item values in [0, 1], bootstrap interval) or ``pooled`` (Σ numerator counts /
#: Σ denominator counts, bootstrap interval over items).
MetricKind = Literal["proportion", "mean", "pooled"]

#: Pictures of one scored item for a report's gallery: (item, stored answer or None) -> [(caption, PNG bytes)].
GalleryRenderer = Callable[["Item", Mapping[str, Any] | None], list[tuple[str, bytes]]]

#: The scores one stored turn of a conversation carries, read from the feedback the task gave on it (score name ->
#: value in [0, 1]), or None when the turn carries none (a failed request, or feedback without scores).
TurnScores = Callable[[str | None], Mapping[str, float] | None]

#: Facts a task states about a whole dataset in its manifest (e.g. its split), from the dataset's knobs.
ManifestNotes = Callable[[Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Metric:
    """One metric a task's scores carry.

    Attributes:
        name: the key in :attr:`Scores.values`.
        kind: how it aggregates (see :data:`MetricKind`).
        numerator / denominator: for ``pooled`` metrics, the names of the counts in :attr:`Scores.counts`.
        group: metrics sharing a group are also shown together in a table of their own (``"field"``).
        label: the name shown in that table (default: the metric's name).
    """

    name: str
    kind: MetricKind = "proportion"
    numerator: str | None = None
    denominator: str | None = None
    group: str | None = None
    label: str | None = None

    def __post_init__(self) -> None:
        if (self.kind == "pooled") != (self.numerator is not None and self.denominator is not None):
            raise ValueError(f"metric {self.name}: a pooled metric names its numerator and denominator, no other does")


@dataclass(frozen=True, slots=True)
class Plot:
    """A line plot of metrics against an item metadata key (e.g. accuracy against the number of folds)."""

    title: str
    by: str
    metrics: tuple[str, ...]
    x_label: str
    file: str


@dataclass(frozen=True, slots=True)
class RoundPlot:
    """A line plot of scores per round (turn) of a multi-turn task: for each round, the mean over items of each
    score with its 95 % bootstrap interval (as OrigamiSpace's figure 3 shows the score per interaction round).

    A conversation that ended before the last round keeps its last round's scores for the rounds after it (a
    solved item stays solved); a turn whose feedback carries no scores counts 0 for each.

    Attributes:
        title: the plot's title (and its report section).
        scores: the names of the scores to draw, as ``read`` returns them.
        read: the task's reader of one turn's scores from its stored feedback text.
        file: the picture's file name in the report.
        x_label: the horizontal axis' label.
    """

    title: str
    scores: tuple[str, ...]
    read: TurnScores = field(compare=False)
    file: str
    x_label: str = "round"


@dataclass(frozen=True, slots=True)
class Feedback:
    """What a multi-turn task says after a reply: the next user turn, and whether the conversation is over."""

    parts: tuple[Part, ...]
    done: bool = False

    @property
    def text(self) -> str:
        """The text parts joined (for the store and reports)."""
        return "\n".join(getattr(p, "text", f"<{type(p).__name__}>") for p in self.parts)


@dataclass(frozen=True, slots=True)
class TaskSpec:
    """What a task measures and how it is shown.

    Attributes:
        engine_version: the version of the engine that computes the ground truth (items must carry it).
        metrics: every metric the scores carry, in the order reports show them.
        headline: the metric that says whether an item was solved (1.0) and ranks runs.
        breakdowns: item metadata keys to break results down by (a table each, when they take 2+ values).
        plots: line plots for reports.
        round_plots: per-round plots for reports of multi-turn tasks (see :class:`RoundPlot`).
        gallery: draws a failed item for the report (optional).
        manifest_notes: facts about a whole dataset for its manifest, from its knobs (optional).
        max_turns: 1 for one-shot tasks; more for tasks that give feedback (``task.step``) after each reply.
    """

    engine_version: str
    metrics: tuple[Metric, ...]
    headline: str
    breakdowns: tuple[str, ...] = ()
    plots: tuple[Plot, ...] = ()
    round_plots: tuple[RoundPlot, ...] = ()
    gallery: GalleryRenderer | None = field(default=None, compare=False)
    manifest_notes: ManifestNotes | None = field(default=None, compare=False)
    max_turns: int = 1

    def __post_init__(self) -> None:
        names = [m.name for m in self.metrics]
        if len(set(names)) != len(names):
            raise ValueError(f"metric names repeat: {names}")
        if self.headline not in names:
            raise ValueError(f"headline metric {self.headline!r} is not one of {names}")
        for plot in self.plots:
            unknown = [m for m in plot.metrics if m not in names]
            if unknown:
                raise ValueError(f"plot {plot.title!r} draws undeclared metric(s) {unknown}")
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {self.max_turns}")
        if self.round_plots and self.max_turns < 2:
            raise ValueError("a per-round plot needs a multi-turn task (max_turns of 2 or more)")

    def metric(self, name: str) -> Metric:
        """The declared metric ``name``."""
        for metric in self.metrics:
            if metric.name == name:
                return metric
        raise KeyError(name)
