"""95 % intervals for a run's metrics: Wilson for proportions, the percentile bootstrap over items for pooled and
mean metrics, and the paired bootstrap for the difference between two runs over the same items.

Bootstraps are vectorised (one index matrix of ``resamples × n`` draws, shared by every metric of a set of items)
and seeded, so the same scores always give the same interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "RESAMPLES",
    "Z95",
    "Estimate",
    "bootstrap_indices",
    "mean_interval",
    "paired_difference",
    "ratio_interval",
    "wilson",
]

#: The standard normal quantile of 97.5 %.
Z95 = 1.959963984540054

#: Bootstrap resamples (enough for stable 2.5 % / 97.5 % percentiles at report precision).
RESAMPLES = 2000


@dataclass(frozen=True, slots=True)
class Estimate:
    """A metric's value over ``n`` items with its 95 % interval (all None when no item has the metric)."""

    value: float | None
    low: float | None
    high: float | None
    n: int


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` (``n`` ≥ 1).

    (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)

    >>> low, high = wilson(0, 10)
    >>> low, round(high, 4)
    (0.0, 0.2775)
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def bootstrap_indices(n: int, *, resamples: int = RESAMPLES, seed: int = 0) -> np.ndarray:
    """A ``resamples × n`` matrix of item indices drawn with replacement (seeded)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, n]))
    return rng.integers(0, n, size=(resamples, n), dtype=np.int32)


def _percentiles(samples: np.ndarray) -> tuple[float, float]:
    samples = samples[np.isfinite(samples)]
    if samples.size == 0:
        return math.nan, math.nan
    low, high = np.percentile(samples, [2.5, 97.5])
    return float(low), float(high)


def mean_interval(values: np.ndarray, indices: np.ndarray | None = None, *, seed: int = 0) -> tuple[float, float]:
    """The percentile-bootstrap interval of the mean of ``values`` (resampling items)."""
    values = np.asarray(values, dtype=float)
    indices = bootstrap_indices(len(values), seed=seed) if indices is None else indices
    return _percentiles(values[indices].mean(axis=1))


def ratio_interval(
    numerators: np.ndarray, denominators: np.ndarray, indices: np.ndarray | None = None, *, seed: int = 0
) -> tuple[float, float]:
    """The percentile-bootstrap interval of Σ numerators / Σ denominators (resampling items; a resample whose
    denominators sum to 0 is left out)."""
    numerators = np.asarray(numerators, dtype=float)
    denominators = np.asarray(denominators, dtype=float)
    indices = bootstrap_indices(len(numerators), seed=seed) if indices is None else indices
    totals = denominators[indices].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(totals > 0, numerators[indices].sum(axis=1) / totals, np.nan)
    return _percentiles(ratios)


def paired_difference(
    first: tuple[np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> Estimate:
    """The difference ``first − second`` of two ratio statistics over the same items, with its paired-bootstrap
    interval (both resampled with the same item indices).

    Each statistic is (per-item numerators, per-item denominators): a mean is (values, ones), a pooled metric its
    counts. The arrays are aligned item by item.

    >>> ones, zeros = np.ones(20), np.zeros(20)
    >>> paired_difference((ones, ones), (zeros, ones)).value
    1.0
    """
    n = len(first[0])
    if n == 0:
        return Estimate(None, None, None, 0)
    first_den, second_den = float(np.sum(first[1])), float(np.sum(second[1]))
    if first_den <= 0 or second_den <= 0:
        return Estimate(None, None, None, n)
    value = float(np.sum(first[0])) / first_den - float(np.sum(second[0])) / second_den
    indices = bootstrap_indices(n, resamples=resamples, seed=seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        one = first[0][indices].sum(axis=1) / first[1][indices].sum(axis=1)
        two = second[0][indices].sum(axis=1) / second[1][indices].sum(axis=1)
    low, high = _percentiles(one - two)
    return Estimate(value, low, high, n)
