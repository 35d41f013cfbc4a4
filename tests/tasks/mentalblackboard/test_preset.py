"""``preset=paper`` generates each task's composition as the paper states it; the figures below are the paper's
(sections 4, 6.1 and 6.3) and the counts of its published records, written out here, not read from the code."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from foldbench.errors import InvalidKnobError
from foldbench.pft.actions import Fold, Rotation, parse_actions
from foldbench.tasks.base import Item
from foldbench.tasks.mentalblackboard.tasks import (
    BackwardPredictionTask,
    GeneralizationTask,
    PlanningTask,
    PredictionTask,
)

PAPER = {"preset": "paper"}
SIX_SHAPES = {"circle", "ellipse", "trapezoid", "letter", "triangle", "star"}


@cache
def _items(task: type, n: int) -> tuple[Item, ...]:
    return tuple(task().generate(n, seed=11, modalities=("text",), knobs=PAPER))


def _folds(item: Item, key: str = "actions") -> list[Fold]:
    source = item.inputs if key in item.inputs else item.target
    return [a for a in parse_actions(source[key]) if isinstance(a, Fold)]


def test_prediction_is_100_items_per_configuration_group_folded_forward() -> None:
    items = _items(PredictionTask, 900)
    assert Counter(item.metadata["group"] for item in items) == {group: 100 for group in range(1, 10)}
    assert all(fold.front for item in items for fold in _folds(item))


def test_backward_prediction_is_180_items_20_per_group_folded_backward() -> None:
    items = _items(BackwardPredictionTask, 180)
    assert Counter(item.metadata["group"] for item in items) == {group: 20 for group in range(1, 10)}
    assert all(not fold.front for item in items for fold in _folds(item))


def test_planning_is_400_items_100_per_fold_count_with_the_published_punches() -> None:
    items = _items(PlanningTask, 400)
    assert Counter(item.inputs["num_folds"] for item in items) == {1: 100, 2: 100, 3: 100, 4: 100}
    # Punches per fold count in the published planning records (1 / 2 / 3 punches).
    published = {1: {1: 32, 2: 34, 3: 34}, 2: {1: 40, 2: 53, 3: 7}, 3: {1: 70, 2: 30}, 4: {1: 100}}
    for folds, expected in published.items():
        punches = Counter(len(item.target["initial_holes"]) for item in items if item.inputs["num_folds"] == folds)
        assert punches == expected, folds
    assert {h["shape"] for item in items for h in item.target["initial_holes"]} <= SIX_SHAPES
    assert max(len(item.inputs["result_holes"]) for item in items) <= 16
    assert all(len(_folds(item)) == len(item.target["actions"]) for item in items)  # no rotation
    assert all(item.inputs["max_holes"] == 2 for item in items)
    three = [item for item in items if len(item.target["initial_holes"]) == 3]
    assert len(three) == 41 and all("solvable" in item.metadata for item in three)


def _changed(item: Item) -> set[str]:
    before, after = item.inputs["reference"]["initial_holes"], item.inputs["initial_holes"]
    return {key for old, new in zip(before, after, strict=True) for key in old if old[key] != new[key]}


def test_generalization_is_240_analogies_over_groups_1_2_5_equal_per_changed_attribute() -> None:
    items = _items(GeneralizationTask, 240)
    cells = Counter((item.metadata["group"], item.metadata["changed"]) for item in items)
    assert cells == {
        (group, attribute): 20 for group in (1, 2, 5) for attribute in ("shape", "size", "location", "direction")
    }
    for item in items:
        assert _changed(item) == {item.metadata["changed"]}, item.id
        patterns = "".join("R" if isinstance(a, Rotation) else "F" for a in parse_actions(item.inputs["actions"]))
        assert patterns == {1: "F", 2: "FF", 5: "FR"}[item.metadata["group"]]
    assert {h["shape"] for item in items for h in item.inputs["initial_holes"]} <= SIX_SHAPES


def test_a_shorter_preset_dataset_is_balanced_and_its_items_are_the_first_of_the_full_one() -> None:
    short = tuple(PredictionTask().generate(18, seed=11, modalities=("text",), knobs=PAPER))
    assert Counter(item.metadata["group"] for item in short) == {group: 2 for group in range(1, 10)}
    assert short == _items(PredictionTask, 900)[:18]


@pytest.mark.parametrize("knob", [{"groups": "1,2"}, {"sides": "back"}])
def test_the_preset_refuses_knobs_that_would_change_its_composition(knob: dict[str, str]) -> None:
    with pytest.raises(InvalidKnobError, match="preset=paper"):
        list(PredictionTask().generate(1, seed=0, knobs={**PAPER, **knob}))
