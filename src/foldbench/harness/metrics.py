"""Aggregate per-item scores into a run's metrics, overall and per group, as the task's spec declares them.

A ``pooled`` metric is Σ numerator counts / Σ denominator counts over items; a ``proportion`` or ``mean`` metric
is the mean of its per-item values (items where it does not apply are left out). Every metric comes with its
95 % interval (see :mod:`foldbench.harness.stats`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from foldbench.harness.stats import (
    Estimate,
    bootstrap_indices,
    mean_interval,
    paired_difference,
    ratio_interval,
    wilson,
)
from foldbench.harness.store import ScoreRow
from foldbench.tasks.spec import Metric, TaskSpec

__all__ = ["Summary", "aggregate", "aggregate_by", "cost_summary", "metric_arrays", "paired_differences"]


@dataclass(frozen=True, slots=True)
class Summary:
    """The metrics of a set of scored items: ``n`` items, and an estimate per declared metric."""

    n: int
    estimates: Mapping[str, Estimate]

    def value(self, name: str) -> float | None:
        """The point value of a metric (None when it does not apply)."""
        estimate = self.estimates.get(name)
        return estimate.value if estimate is not None else None


def metric_arrays(rows: Sequence[ScoreRow], metric: Metric) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-item (numerator, denominator) arrays of a metric, and the mask of items where it applies.

    A mean or proportion is (value, 1) where the value is present; a pooled metric is its two counts (an item
    without the denominator count contributes 0 / 0).
    """
    n = len(rows)
    numerators, denominators, present = np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool)
    for index, row in enumerate(rows):
        if metric.kind == "pooled":
            assert metric.numerator is not None and metric.denominator is not None
            if metric.denominator in row.counts:
                numerators[index] = row.counts.get(metric.numerator, 0)
                denominators[index] = row.counts[metric.denominator]
                present[index] = True
        else:
            value = row.values.get(metric.name)
            if value is not None:
                numerators[index], denominators[index], present[index] = float(value), 1.0, True
    return numerators, denominators, present


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _estimate(rows: Sequence[ScoreRow], metric: Metric, indices: np.ndarray | None) -> Estimate:
    numerators, denominators, present = metric_arrays(rows, metric)
    numerators, denominators = numerators[present], denominators[present]
    n = int(present.sum())
    total = float(denominators.sum())
    if n == 0 or total <= 0:
        return Estimate(None, None, None, n)
    value = float(numerators.sum()) / total
    if metric.kind == "proportion" and np.all((numerators == 0) | (numerators == 1)):
        low, high = wilson(int(numerators.sum()), n)
        return Estimate(value, low, high, n)
    if indices is None or n != len(rows):
        indices = bootstrap_indices(n)
    if metric.kind == "pooled":
        low, high = ratio_interval(numerators, denominators, indices)
    else:
        low, high = mean_interval(numerators, indices)
    return Estimate(value, _finite(low), _finite(high), n)


def aggregate(rows: Iterable[ScoreRow], spec: TaskSpec) -> Summary:
    """The declared metrics of a set of scored items, each with its 95 % interval."""
    rows = list(rows)
    needs_bootstrap = any(m.kind != "proportion" for m in spec.metrics)
    indices = bootstrap_indices(len(rows)) if rows and needs_bootstrap else None
    return Summary(len(rows), {m.name: _estimate(rows, m, indices) for m in spec.metrics})


def aggregate_by(rows: Sequence[ScoreRow], key: str, spec: TaskSpec) -> dict[Any, Summary]:
    """Metrics per value of the item metadata ``key`` (items without it are left out), ordered by value."""
    groups: dict[Any, list[ScoreRow]] = defaultdict(list)
    for row in rows:
        if key in row.metadata:
            groups[row.metadata[key]].append(row)
    return {value: aggregate(groups[value], spec) for value in sorted(groups, key=lambda v: (str(type(v)), v))}


def paired_differences(first: Sequence[ScoreRow], second: Sequence[ScoreRow], spec: TaskSpec) -> dict[str, Estimate]:
    """For each declared metric, ``first − second`` over the items both runs scored, with its paired-bootstrap
    95 % interval (items where the metric does not apply in either run are left out)."""
    by_id = {row.item_id: row for row in second}
    common = [(row, by_id[row.item_id]) for row in first if row.item_id in by_id]
    one, two = [a for a, _ in common], [b for _, b in common]
    result = {}
    for metric in spec.metrics:
        num_a, den_a, present_a = metric_arrays(one, metric)
        num_b, den_b, present_b = metric_arrays(two, metric)
        both = present_a & present_b
        result[metric.name] = paired_difference((num_a[both], den_a[both]), (num_b[both], den_b[both]))
    return result


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
