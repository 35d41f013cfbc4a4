"""95 % intervals: Wilson for proportions, bootstrap over items for means and pooled ratios, paired differences."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.harness.metrics import aggregate, paired_differences
from foldbench.harness.stats import mean_interval, paired_difference, ratio_interval, wilson
from foldbench.harness.store import ScoreRow
from foldbench.tasks.spec import Metric, TaskSpec


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # by hand from (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96
        (0, 10, 0.0, 0.2775),  # p = 0: centre = half = 0.19207 / 1.38415
        (8, 10, 0.4902, 0.9433),  # centre 0.99207 / 1.38415 = 0.71674, half 1.96 · 0.16 / 1.38415 = 0.22656
        (10, 10, 0.7225, 1.0),
        (35, 100, 0.2636, 0.4475),
    ],
)
def test_wilson_matches_the_formula_worked_by_hand(successes: int, n: int, low: float, high: float) -> None:
    assert wilson(successes, n) == pytest.approx((low, high), abs=1e-4)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate(case: tuple[int, int]) -> None:
    successes, n = case
    low, high = wilson(successes, n)
    assert 0 <= low <= successes / n <= high <= 1


@given(st.integers(1, 200), st.integers(1, 9))
def test_wilson_narrows_as_items_grow(n: int, factor: int) -> None:
    base = wilson(n, 2 * n)
    more = wilson(n * (factor + 1), 2 * n * (factor + 1))
    assert more[1] - more[0] < base[1] - base[0]


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(0, 0)


unit_values = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(unit_values)
def test_the_bootstrap_interval_of_a_mean_contains_it(values: list[float]) -> None:
    low, high = mean_interval(np.array(values))
    mean = float(np.mean(values))
    assert low - 1e-12 <= mean <= high + 1e-12


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 5)), min_size=1, max_size=40))
def test_the_bootstrap_interval_of_a_pooled_ratio_contains_it(pairs: list[tuple[int, int]]) -> None:
    numerators = np.array([min(a, b) for a, b in pairs], dtype=float)
    denominators = np.array([b for _, b in pairs], dtype=float)
    low, high = ratio_interval(numerators, denominators)
    ratio = numerators.sum() / denominators.sum()
    assert -1e-12 <= low <= ratio + 1e-12 and ratio <= high + 1e-12 <= 1 + 1e-9


def test_the_bootstrap_narrows_with_more_items_and_is_deterministic() -> None:
    sample = np.random.default_rng(3).random(20)
    widths = []
    for copies in (1, 4, 16):
        low, high = mean_interval(np.tile(sample, copies))
        widths.append(high - low)
    assert widths[0] > widths[1] > widths[2] > 0
    assert mean_interval(sample) == mean_interval(sample)
    assert mean_interval(sample, seed=1) == mean_interval(sample, seed=1) != mean_interval(sample, seed=2)


def test_a_paired_difference_of_a_run_with_itself_is_exactly_zero() -> None:
    values = np.random.default_rng(0).integers(0, 2, 30).astype(float)
    same = paired_difference((values, np.ones(30)), (values, np.ones(30)))
    assert (same.value, same.low, same.high, same.n) == (0.0, 0.0, 0.0, 30)


def test_pairing_removes_the_item_difficulty_an_unpaired_comparison_keeps() -> None:
    # two runs over 40 items that differ on 8 items (the second fails them): the paired interval excludes 0
    first = np.array([1.0] * 20 + [0.0] * 20)
    second = first.copy()
    second[:8] = 0.0
    difference = paired_difference((first, np.ones(40)), (second, np.ones(40)))
    assert difference.value == pytest.approx(8 / 40)
    assert difference.low is not None and difference.high is not None
    assert 0 < difference.low <= difference.value <= difference.high
    # unpaired, the two proportions' Wilson intervals overlap widely
    assert wilson(20, 40)[0] < wilson(12, 40)[1]


def _row(item_id: str, values: dict[str, float | None], counts: dict[str, int] | None = None) -> ScoreRow:
    return ScoreRow(item_id, values, counts or {}, [], {}, None, None, "", 0.0, 1, None, None, False)


SPEC = TaskSpec(
    engine_version="e",
    metrics=(Metric("right"), Metric("closeness", "mean"), Metric("pooled", "pooled", "hit", "of")),
    headline="right",
)


def test_aggregate_pools_counts_and_leaves_out_missing_values() -> None:
    rows = [
        _row("a", {"right": 1.0, "closeness": 0.5}, {"hit": 1, "of": 4}),
        _row("b", {"right": 0.0, "closeness": None}, {"hit": 3, "of": 4}),
        _row("c", {"right": 1.0, "closeness": 1.0}),
    ]
    summary = aggregate(rows, SPEC)
    assert summary.n == 3
    assert summary.value("right") == pytest.approx(2 / 3) and summary.estimates["right"].n == 3
    assert summary.value("closeness") == pytest.approx(0.75) and summary.estimates["closeness"].n == 2
    assert summary.value("pooled") == pytest.approx(4 / 8)
    assert summary.estimates["right"].low == pytest.approx(wilson(2, 3)[0])
    skewed = aggregate([_row("a", {"right": 1.0}, {"hit": 1, "of": 1}), _row("b", {"right": 0.0}, {"hit": 0, "of": 9})],
                       SPEC)  # fmt: skip
    assert skewed.value("pooled") == pytest.approx(1 / 10)  # the mean of the item ratios would be 1/2


def test_paired_differences_use_the_items_both_runs_scored() -> None:
    first = [_row(f"i{k}", {"right": 1.0, "closeness": 1.0}, {"hit": 1, "of": 1}) for k in range(10)]
    second = [_row(f"i{k}", {"right": float(k % 2), "closeness": 0.5}, {"hit": 0, "of": 1}) for k in range(5, 15)]
    differences = paired_differences(first, second, SPEC)
    # the common items are 5-9, of which the second run got 5, 7 and 9 right
    assert differences["right"].n == 5 and differences["right"].value == pytest.approx(1 - 3 / 5)
    assert differences["closeness"].value == pytest.approx(0.5)
    assert differences["pooled"].value == pytest.approx(1.0)
