"""A run asked several times (``eval --repeats N``): each metric's mean and standard deviation over the repeats,
and the best of the N repeats, as the papers report them.

Each repeat is summarised on its own (every declared metric over the items that repeat scored); the mean and
the sample standard deviation (n − 1) are then taken over the repeats' values, as OrigamiSpace's Table 1 gives
"mean ± std of three runs". *Best of N* is the whole repeat with the highest headline value (ties to the earlier
repeat), as Paper Folding Puzzles reports "the best of three runs": its metrics are that repeat's, not a
per-item maximum.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from foldbench.harness.metrics import Summary, aggregate
from foldbench.harness.store import ScoreRow
from foldbench.tasks.spec import TaskSpec

__all__ = ["RepeatSummary", "format_mean_std", "mean_std", "repeat_summary"]


def mean_std(values: Iterable[float | None]) -> tuple[float | None, float | None]:
    """The mean and sample standard deviation (n − 1) of the values present (None: no value; std None below two).

    >>> mean_std([0.25, None, 0.75])
    (0.5, 0.3535533905932738)
    >>> mean_std([None])
    (None, None)
    """
    present = [v for v in values if v is not None]
    if not present:
        return None, None
    mean = sum(present) / len(present)
    if len(present) < 2:
        return mean, None
    variance = sum((v - mean) ** 2 for v in present) / (len(present) - 1)
    return mean, math.sqrt(variance)


def format_mean_std(mean: float | None, std: float | None, *, digits: int = 1, scale: float = 100.0) -> str:
    """``mean ± std`` (in percent by default); a dash when there is no value, the mean alone without a std.

    >>> format_mean_std(0.3333, 0.05)
    '33.3 ± 5.0'
    >>> format_mean_std(None, None)
    '—'
    """
    if mean is None:
        return "—"
    if std is None:
        return f"{scale * mean:.{digits}f}"
    return f"{scale * mean:.{digits}f} ± {scale * std:.{digits}f}"


@dataclass(frozen=True, slots=True)
class RepeatSummary:
    """A run's metrics over its repeats.

    Attributes:
        per_repeat: each repeat's summary, by repeat index.
        mean / std: each metric's mean and sample standard deviation over the repeats (None where absent).
        best_repeat: the repeat with the highest headline value (the earlier one on a tie).
    """

    per_repeat: Mapping[int, Summary]
    mean: Mapping[str, float | None]
    std: Mapping[str, float | None]
    best_repeat: int

    @property
    def repeats(self) -> int:
        """How many repeats have scores."""
        return len(self.per_repeat)

    @property
    def best(self) -> Summary:
        """The summary of the best repeat."""
        return self.per_repeat[self.best_repeat]


def repeat_summary(rows: Iterable[ScoreRow], spec: TaskSpec) -> RepeatSummary | None:
    """The mean ± std over repeats and the best repeat of a run's scored rows (all repeats); None without rows."""
    by_repeat: dict[int, list[ScoreRow]] = defaultdict(list)
    for row in rows:
        by_repeat[row.repeat].append(row)
    if not by_repeat:
        return None
    per_repeat = {repeat: aggregate(by_repeat[repeat], spec) for repeat in sorted(by_repeat)}
    mean, std = {}, {}
    for metric in spec.metrics:
        mean[metric.name], std[metric.name] = mean_std(s.value(metric.name) for s in per_repeat.values())

    def headline(repeat: int) -> float:
        value = per_repeat[repeat].value(spec.headline)
        return -math.inf if value is None else value

    best = max(per_repeat, key=lambda repeat: (headline(repeat), -repeat))
    return RepeatSummary(per_repeat, mean, std, best)
