from __future__ import annotations

import pytest

from foldbench.errors import FoldbenchError, UnknownNameError
from foldbench.pft import find_plan, group_of, parse_actions, rule_violation, solve
from foldbench.pft.holes import ROTATION_FREE_SHAPES, Hole
from foldbench.tasks import make, resolve
from foldbench.tasks.mentalblackboard.sampling import hole_from_dict

TASKS = ["prediction", "backward-prediction", "planning", "generalization"]


def _items(name: str, n: int = 60, seed: int = 11, **knobs: object) -> list:
    return list(make(f"mentalblackboard/{name}").generate(n, seed, modalities=("text",), knobs=knobs))


@pytest.mark.parametrize("name", TASKS)
def test_same_seed_same_items_other_seed_other_items(name: str) -> None:
    one, two, other = _items(name, 20), _items(name, 20), _items(name, 20, seed=12)
    assert [i.model_dump_json() for i in one] == [i.model_dump_json() for i in two]
    assert [i.model_dump_json() for i in one] != [i.model_dump_json() for i in other]
    # item k does not depend on how many items are generated
    assert _items(name, 5)[4] == _items(name, 20)[4]


@pytest.mark.parametrize("name", ["prediction", "backward-prediction"])
def test_prediction_items_carry_the_engines_ground_truth(name: str) -> None:
    for item in _items(name):
        actions = parse_actions(item.inputs["actions"])
        assert rule_violation(actions) is None
        assert group_of(actions) == item.metadata["group"]
        holes = [hole_from_dict(h) for h in item.inputs["initial_holes"]]
        solution = solve(actions, holes)
        assert item.target["unfolding"] == [f.code for f in solution.unfolding]
        assert item.target["total_holes"] == len(item.target["result_holes"]) == len(solution.result_holes)
        if item.metadata["num_rotations"]:
            assert not {h.shape for h in holes} & ROTATION_FREE_SHAPES
        sides = {a.code[-1] for a in actions if a.code[0] in "HVD"}
        assert sides == ({"F"} if name == "prediction" else {"B"})
        assert "Step 0" in item.inputs["text"]


def test_groups_knob_is_respected_and_validated() -> None:
    assert {i.metadata["group"] for i in _items("prediction", 30, groups=[5, 9])} == {5, 9}
    with pytest.raises(FoldbenchError, match="groups"):
        _items("prediction", 1, groups=[10])


def test_planning_items_are_solvable_with_the_stated_fold_count() -> None:
    for item in _items("planning", 40):
        target = [hole_from_dict(h) for h in item.inputs["result_holes"]]
        plan = find_plan(target, item.inputs["num_folds"])
        assert plan is not None
        assert len(item.target["initial_holes"]) <= 2
        assert all(a.endswith("-F") for a in item.target["actions"])


def test_generalization_changes_exactly_one_attribute_of_one_hole() -> None:
    seen = set()
    for item in _items("generalization", 80):
        reference = [hole_from_dict(h) for h in item.inputs["reference"]["initial_holes"]]
        target = [hole_from_dict(h) for h in item.inputs["initial_holes"]]
        assert len(reference) == len(target)
        differences = [
            (field, a, b)
            for a, b in zip(reference, target, strict=True)
            for field in ("shape", "size", "location", "direction")
            if getattr(a, field) != getattr(b, field)
        ]
        changed = item.inputs["changed"]
        seen.add(changed)
        holes_changed = {(a, b) for _, a, b in differences}
        assert len(holes_changed) == 1
        if changed == "shape":  # a new shape may also change the canonical direction class
            assert {f for f, _, _ in differences} <= {"shape", "direction"}
        else:
            assert [f for f, _, _ in differences] == [changed]
        solution = solve(parse_actions(item.inputs["actions"]), target)
        assert item.target["result_holes"] == [
            {"shape": h.shape.value, "size": h.size.value, "direction": h.direction, "location": h.location}
            for h in solution.result_holes
        ]
    assert seen == {"shape", "size", "location", "direction"}


def test_unknown_task_names_suggest_the_right_one() -> None:
    with pytest.raises(UnknownNameError, match="Did you mean: mentalblackboard/prediction"):
        resolve("mentalblackboard/predicton")
    assert resolve("mentalblackboard/prediction") == "mentalblackboard/prediction-v1"


def test_unknown_modality_is_rejected() -> None:
    with pytest.raises(FoldbenchError, match="modality"):
        list(make("mentalblackboard/prediction").generate(1, 0, modalities=("smell",), knobs={}))


def test_hole_dict_round_trip() -> None:
    hole = Hole("ellipse", "large", 270, 9)  # type: ignore[arg-type]
    assert hole_from_dict({"shape": "ellipse", "size": "large", "direction": 90, "location": 9}) == hole
