"""Weighted draws give the index ``Generator.choice`` gives with the same weights, from the same numbers."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from foldbench.pfp.weighted import cumulative, weighted_index


@given(st.lists(st.floats(0.01, 10.0), min_size=1, max_size=6), st.integers(0, 2**32 - 1), st.integers(1, 30))
def test_a_weighted_index_is_choice_s_index_and_uses_the_same_numbers(
    weights: list[float], seed: int, draws: int
) -> None:
    p = np.array(weights) / np.sum(weights)
    ours, numpy_s = np.random.default_rng(seed), np.random.default_rng(seed)
    sums = cumulative(p)
    drawn = [weighted_index(ours, sums) for _ in range(draws)]
    assert drawn == [int(numpy_s.choice(len(p), p=p)) for _ in range(draws)]
    assert ours.bit_generator.state == numpy_s.bit_generator.state


def test_the_samplers_weights_draw_every_index_and_only_those() -> None:
    rng = np.random.default_rng(3)
    sums = cumulative([0.2, 0.3, 0.5])
    counts = np.bincount([weighted_index(rng, sums) for _ in range(3000)], minlength=3)
    assert len(counts) == 3 and counts.min() > 0
    assert abs(counts[2] / 3000 - 0.5) < 0.05
