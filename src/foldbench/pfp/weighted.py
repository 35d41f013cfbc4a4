"""Weighted random draws that take the same numbers from a generator as ``Generator.choice`` with ``p``, faster.

``choice`` checks and normalises its weights on every call; a sampler that draws from the same few weights
thousands of times normalises them once (:func:`cumulative`) and draws with :func:`weighted_index`, which gives
the same index from the same single uniform number, so the items it makes do not change.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["cumulative", "weighted_index"]


def cumulative(weights: Sequence[float] | np.ndarray) -> np.ndarray:
    """The normalised running sums of ``weights``, computed as ``Generator.choice`` computes them.

    >>> cumulative([0.2, 0.3, 0.5]).tolist()
    [0.2, 0.5, 1.0]
    """
    sums = np.asarray(weights, dtype=np.float64).cumsum()
    sums /= sums[-1]
    return sums


def weighted_index(rng: np.random.Generator, sums: np.ndarray) -> int:
    """``int(rng.choice(len(weights), p=weights))`` for ``sums = cumulative(weights)``: the same index, drawn from
    the same one uniform number.

    >>> weighted_index(np.random.default_rng(0), cumulative([0.2, 0.3, 0.5]))
    2
    """
    return int(sums.searchsorted(rng.random(), side="right"))
