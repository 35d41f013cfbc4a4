"""Aggregate per-item scores into a run's metrics, overall and per group.

A metric whose per-item counts pool exactly (partial accuracy = ΣM / Σ(G + max(0, P − G)), step-wise unfolding
accuracy = Σ correct steps / Σ true steps) is pooled over items, as the benchmark defines it; every other metric is
the mean of its per-item values (items where it does not apply are left out).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from foldbench.harness.store import ScoreRow

__all__ = ["POOLED", "GROUPING_KEYS", "aggregate", "aggregate_by", "cost_summary"]

#: Metrics pooled from counts: name -> (numerator count, denominator count).
POOLED: dict[str, tuple[str, str]] = {
    "partial_accuracy": ("holes_matched", "partial_denominator"),
    "shape_accuracy": ("shape_matched", "partial_denominator"),
    "size_accuracy": ("size_matched", "partial_denominator"),
    "location_accuracy": ("location_matched", "partial_denominator"),
    "direction_accuracy": ("direction_matched", "partial_denominator"),
    "unfolding_steps": ("unfolding_steps_correct", "unfolding_steps_total"),
}

#: Item metadata keys that reports break results down by, when items carry them.
GROUPING_KEYS = ("group", "num_folds", "fold_families", "pattern", "changed", "type", "subtask")


def aggregate(rows: Iterable[ScoreRow]) -> dict[str, Any]:
    """The metrics of a set of scored items, with ``n`` (the number of items)."""
    rows = list(rows)
    result: dict[str, Any] = {"n": len(rows)}
    if not rows:
        return result
    totals: dict[str, int] = defaultdict(int)
    sums: dict[str, float] = defaultdict(float)
    present: dict[str, int] = defaultdict(int)
    names: list[str] = []
    for row in rows:
        for key, count in row.counts.items():
            totals[key] += int(count)
        for key, value in row.values.items():
            if key not in names:
                names.append(key)
            if value is not None:
                sums[key] += float(value)
                present[key] += 1
    for name in names:
        pooled = POOLED.get(name)
        if pooled and pooled[1] in totals:
            numerator, denominator = totals[pooled[0]], totals[pooled[1]]
            result[name] = numerator / denominator if denominator else None
        else:
            result[name] = sums[name] / present[name] if present[name] else None
    return result


def aggregate_by(rows: Sequence[ScoreRow], key: str) -> dict[Any, dict[str, Any]]:
    """Metrics per value of the item metadata ``key`` (items without it are left out), ordered by value."""
    groups: dict[Any, list[ScoreRow]] = defaultdict(list)
    for row in rows:
        if key in row.metadata:
            groups[row.metadata[key]].append(row)
    return {value: aggregate(groups[value]) for value in sorted(groups, key=lambda v: (str(type(v)), v))}


def cost_summary(rows: Sequence[ScoreRow]) -> Mapping[str, Any]:
    """Latency and token totals of a run's replies (those answered from the store count their original cost)."""
    latencies = sorted(r.latency_s for r in rows)
    prompt_tokens = [r.prompt_tokens for r in rows if r.prompt_tokens is not None]
    completion_tokens = [r.completion_tokens for r in rows if r.completion_tokens is not None]

    def quantile(q: float) -> float | None:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else None

    return {
        "replies": len(rows),
        "from_store": sum(r.cached for r in rows),
        "latency_median_s": quantile(0.5),
        "latency_p90_s": quantile(0.9),
        "latency_total_s": sum(latencies),
        "attempts_total": sum(r.attempts for r in rows),
        "prompt_tokens": sum(prompt_tokens) if prompt_tokens else None,
        "completion_tokens": sum(completion_tokens) if completion_tokens else None,
    }
