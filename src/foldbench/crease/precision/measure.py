"""Measure how precise an input is, from the input itself (rule 8 of :mod:`foldbench.crease.precision.tolerance`).

Drawing programs and models write coordinates with noise. Exact patterns still show it: creases meant to be
parallel or collinear point in directions that differ by a tiny angle, and a vertex's alternating sector sums
miss 180 degrees by a tiny amount. Both angles, times the lengths of the creases involved, estimate how far the
endpoints were moved. Angles below the policy's ``exact_angle`` are floating-point rounding (no noise); angles
above its ``noise_angle_limit`` are design features (:class:`~foldbench.crease.precision.policy.PrecisionPolicy`).
"""

from __future__ import annotations

import math

import numpy as np

from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = [
    "FEW_DIRECTIONS", "MAX_WRITTEN_DECIMALS", "direction_noise", "kawasaki_explained_by", "kawasaki_noise",
    "written_precision",
]

MAX_WRITTEN_DECIMALS: int = DEFAULT_POLICY.max_written_decimals
"""The default policy's ``max_written_decimals``: coordinates written with more decimals are taken as exact."""


def direction_noise(segments: np.ndarray, policy: PrecisionPolicy = DEFAULT_POLICY) -> float:
    """How far endpoints seem displaced, judged from groups of nearly parallel segments (paper size = 1).

    Segments whose directions (modulo 180 degrees) differ by less than ``policy.noise_angle_limit`` form a group; each
    segment's deviation from the length-weighted mean direction of its group, times its length, estimates the
    displacement of its endpoints. Returns the largest estimate (0 for exact input).

    >>> exact = np.array([[[0, 0], [1, 0]], [[0, 1], [1, 1]], [[0, 0], [0, 1]]], float)
    >>> direction_noise(exact)
    0.0
    >>> noisy = exact + np.array([[[0, 0], [0, 0]], [[0, 0], [0, 2e-6]], [[0, 0], [0, 0]]])
    >>> 0.5e-6 < direction_noise(noisy) < 2e-6
    True
    """
    segments = np.asarray(segments, dtype=float).reshape(-1, 2, 2)
    vectors = segments[:, 1] - segments[:, 0]
    lengths = np.hypot(vectors[:, 0], vectors[:, 1])
    keep = lengths > 0
    if keep.sum() < 2:
        return 0.0
    vectors, lengths = vectors[keep], lengths[keep]
    angles = np.mod(np.arctan2(vectors[:, 1], vectors[:, 0]), math.pi)
    order = np.argsort(angles)
    angles, lengths = angles[order], lengths[order]
    if len(angles) <= FEW_DIRECTIONS:
        return _worst_group_deviation(angles.tolist(), lengths, policy)
    # close the circle of directions: the last group may continue past pi into the first one
    gaps = np.diff(np.concatenate([angles, [angles[0] + math.pi]]))
    breaks = np.flatnonzero(gaps >= policy.noise_angle_limit)
    if not len(breaks):
        return 0.0  # every direction within the limit of the next: one long fan, no parallel groups
    start = int(breaks[-1]) + 1
    rolled = np.roll(np.arange(len(angles)), -start)
    unwrapped = angles[rolled] + np.where(rolled < start, math.pi, 0.0)
    rolled_gaps = np.diff(unwrapped)
    group_starts = np.concatenate([[0], np.flatnonzero(rolled_gaps >= policy.noise_angle_limit) + 1])
    group_ends = np.concatenate([group_starts[1:], [len(unwrapped)]])
    worst = 0.0
    for first, last in zip(group_starts.tolist(), group_ends.tolist(), strict=True):
        if last - first < 2:
            continue
        group_angles = unwrapped[first:last]
        group_lengths = lengths[rolled[first:last]]
        if group_angles[-1] - group_angles[0] < policy.exact_angle:
            continue
        mean = float(np.average(group_angles, weights=group_lengths))
        deviation = np.abs(group_angles - mean)
        deviation[deviation < policy.exact_angle] = 0.0
        worst = max(worst, float((deviation * group_lengths).max()) / 2)
    return worst


FEW_DIRECTIONS: int = 128
"""Up to this many segments, :func:`direction_noise` finds its groups in plain Python lists (the same
differences and comparisons as its array operations, without their fixed cost per call)."""


def _worst_group_deviation(angles: list[float], lengths: np.ndarray, policy: PrecisionPolicy) -> float:
    """:func:`direction_noise` from its sorted directions ``angles`` (modulo 180 degrees) and their ``lengths``,
    the groups found one direction at a time."""
    count, limit = len(angles), policy.noise_angle_limit
    closing = angles[0] + math.pi
    breaks = [i for i in range(count) if (angles[i + 1] if i + 1 < count else closing) - angles[i] >= limit]
    if not breaks:
        return 0.0  # every direction within the limit of the next: one long fan, no parallel groups
    start = breaks[-1] + 1
    rolled = [*range(start, count), *range(start)]
    unwrapped = [angles[i] + (math.pi if i < start else 0.0) for i in rolled]
    group_starts = [0, *(i + 1 for i in range(count - 1) if unwrapped[i + 1] - unwrapped[i] >= limit)]
    worst = 0.0
    for first, last in zip(group_starts, [*group_starts[1:], count], strict=True):
        if last - first < 2 or unwrapped[last - 1] - unwrapped[first] < policy.exact_angle:
            continue
        group_angles = np.array(unwrapped[first:last])
        group_lengths = lengths[rolled[first:last]]
        mean = float(np.average(group_angles, weights=group_lengths))
        deviation = np.abs(group_angles - mean)
        deviation[deviation < policy.exact_angle] = 0.0
        worst = max(worst, float((deviation * group_lengths).max()) / 2)
    return worst


def kawasaki_noise(
    errors: dict[int, float], shortest_crease_at: dict[int, float], policy: PrecisionPolicy = DEFAULT_POLICY
) -> float:
    """How far endpoints seem displaced, judged from the vertices' Kawasaki errors (paper size = 1).

    A vertex whose alternating sum misses 180 degrees by ``e`` radians has creases turned by about ``e`` in
    all; moving an endpoint of a crease of length ``L`` by ``d`` turns it by ``d / L``. Errors below the
    policy's ``exact_angle`` are rounding; errors up to its ``kawasaki_impossible`` are what the local checks accept as
    approximately flat, so they are noise too (larger ones are a verdict, not noise).

    >>> kawasaki_noise({0: 4e-6, 1: 1e-15, 2: 0.3}, {0: 0.5, 1: 0.5, 2: 0.5})
    1e-06
    """
    worst = 0.0
    for vertex, error in errors.items():
        if policy.exact_angle <= error < policy.kawasaki_impossible:
            worst = max(worst, error * shortest_crease_at.get(vertex, 0.0) / 2)
    return worst


def written_precision(points: np.ndarray, scale: float, policy: PrecisionPolicy = DEFAULT_POLICY) -> float:
    """Half the last decimal digit the input's coordinates are written to, as a fraction of the paper size.

    Coordinates rounded to ``k`` decimals (1 <= k <= the policy's ``max_written_decimals``) may each be off by
    half a unit of the last digit (a coordinate within ``written_digit_match`` of such a number counts).
    Integers are taken as exact (designs drawn on an integer grid), and so are coordinates that need more
    decimals. Returns 0 when no such rounding is seen.

    >>> written_precision(np.array([[0.0, 0.123], [100.0, 57.7]]), 100.0)
    5e-06
    >>> written_precision(np.array([[0.0, 0.0], [200.0, 346.41016151377545]]), 400.0)
    0.0
    >>> written_precision(np.array([[0.0, 0.0], [200.0, 400.0]]), 400.0)
    0.0
    """
    values = np.asarray(points, dtype=float).ravel()
    values = values[np.isfinite(values)]
    if not len(values) or scale <= 0:
        return 0.0
    powers = [10.0**decimals for decimals in range(0, policy.max_written_decimals + 1)]
    if len(values) <= WRITTEN_AT_ONCE:  # every number of decimals in one array (row k: the values times 10**k)
        shifted = values[None, :] * np.array(powers)[:, None]
        fits = np.flatnonzero((np.abs(shifted - np.round(shifted))
                               <= policy.written_digit_match * np.maximum(1.0, np.abs(shifted))).all(axis=1))
        first = int(fits[0]) if len(fits) else None
    else:  # one number of decimals at a time, stopping at the first that fits
        first = next((decimals for decimals, power in enumerate(powers)
                      if _written_with(values * power, policy.written_digit_match)), None)
    if first is None:
        return 0.0
    return 0.0 if first == 0 else 0.5 * 10.0**-first / scale


WRITTEN_AT_ONCE: int = 512
"""Up to this many coordinates, :func:`written_precision` tries every number of decimals in one array operation
(the same products and comparisons as one number at a time); above it, one at a time, stopping at the first
that fits (an integer grid stops at once)."""


def _written_with(shifted: np.ndarray, match: float) -> bool:
    """Whether every shifted value lies within ``match`` (relative, at least absolute) of an integer."""
    return bool(np.all(np.abs(shifted - np.round(shifted)) <= match * np.maximum(1.0, np.abs(shifted))))


def kawasaki_explained_by(precision: float, crease_lengths: np.ndarray) -> float:
    """The largest Kawasaki error (radians) that moving every point by ``precision`` can cause at a vertex
    whose creases have these lengths: each crease turns by up to ``2 * precision / length``.

    >>> round(kawasaki_explained_by(1e-3, np.array([0.1, 0.1, 0.2, 0.2])), 6)
    0.06
    """
    lengths = np.asarray(crease_lengths, dtype=float)
    lengths = lengths[lengths > 0]
    return float(np.sum(2 * precision / lengths)) if len(lengths) else 0.0
