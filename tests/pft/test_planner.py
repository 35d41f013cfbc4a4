from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import InvalidHoleError, InvalidSequenceError
from foldbench.pft import Fold, FoldType, Hole, find_plan, solve
from foldbench.pft.holes import Shape
from foldbench.tasks.mentalblackboard.sampling import sample_actions, sample_holes


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 4), st.integers(1, 2), st.integers(0, 2**32 - 1))
def test_every_generated_pattern_has_a_plan_that_replays_to_it(folds: int, punches: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    actions = sample_actions(rng, folds, "front")
    holes = sample_holes(rng, solve(actions, []).folded, rotation=False, count=punches)
    target = solve(actions, holes).result_holes
    plan = find_plan(target, folds)
    assert plan is not None
    assert len(plan.folds) == folds and 1 <= len(plan.initial_holes) <= 2
    replayed = solve(plan.folds, plan.initial_holes).result_holes
    assert sorted(replayed, key=Hole.sort_key) == sorted(target, key=Hole.sort_key)


def _brute_force_one_fold(target: list[Hole]) -> bool:
    """Try every single fold and every one or two punches (replayed by the simulator), without the planner."""
    wanted = frozenset(target)
    for fold_type in FoldType:
        folded = solve([Fold(fold_type)], []).folded
        singles = [
            (position, frozenset(solve([Fold(fold_type)], [Hole(shape, size, d, position + 1)]).result_holes))
            for position in folded.occupied()
            for shape in {h.shape for h in target}
            for size in {h.size for h in target}
            for d in (0, 90, 180, 270)
        ]
        if any(result == wanted for _, result in singles):
            return True
        for (p1, r1), (p2, r2) in itertools.combinations(singles, 2):
            if p1 != p2 and r1 | r2 == wanted:
                return True
    return False


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 32), min_size=1, max_size=4, unique=True),
    st.sampled_from(list(Shape)),
    st.sampled_from([0, 90, 180, 270]),
)
def test_one_fold_planner_agrees_with_brute_force(locations: list[int], shape: Shape, direction: int) -> None:
    target = [Hole(shape, "small", direction, location) for location in locations]  # type: ignore[arg-type]
    assert (find_plan(target, 1) is not None) == _brute_force_one_fold(target)


def test_impossible_patterns_are_proved_impossible() -> None:
    assert find_plan([Hole("star", "small", 0, 1)], 1) is None
    # mirror images must point the mirrored way: two upright triangles across the horizontal midline are not a fold
    assert find_plan([Hole("triangle", "small", 0, 26), Hole("triangle", "small", 0, 2)], 1) is None
    assert find_plan([Hole("triangle", "small", 0, 26), Hole("triangle", "small", 180, 2)], 1) is not None


def test_bad_planning_requests_are_rejected() -> None:
    with pytest.raises(InvalidSequenceError):
        find_plan([Hole("star", "small", 0, 1)], 5)
    with pytest.raises(InvalidHoleError):
        find_plan([], 1)
    with pytest.raises(InvalidHoleError):
        find_plan([Hole("star", "small", 0, 1), Hole("circle", "small", 0, 1)], 1)
