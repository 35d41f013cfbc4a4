"""Every registered task checks its knobs against a schema: unknown and ill-typed knobs are refused in one clear
line before anything is generated, and the defaults are accepted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make, task_ids
from foldbench.tasks.dataset import write_dataset
from foldbench.tasks.knobs import Knobs

TASK_IDS = task_ids()


def _first_item(task_id: str, knobs: dict[str, Any]) -> Any:
    task = make(task_id)
    return next(iter(task.generate(1, 5, modalities=task.modalities[:1], knobs=knobs)))


def _refusal(task_id: str, knobs: dict[str, Any]) -> str:
    with pytest.raises(InvalidKnobError) as error:
        _first_item(task_id, knobs)
    message = str(error.value)
    assert "\n" not in message and message.startswith(task_id)
    return message


def test_every_task_is_covered() -> None:
    assert any(t.startswith("mentalblackboard/") for t in TASK_IDS) and any(t.startswith("pfp/") for t in TASK_IDS)


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_the_schema_forbids_unknown_fields(task_id: str) -> None:
    schema = make(task_id).knob_schema
    assert issubclass(schema, Knobs) and schema.model_config.get("extra") == "forbid"
    assert schema.model_fields, "a task without knobs needs no schema of its own"


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_an_unknown_knob_is_refused(task_id: str) -> None:
    message = _refusal(task_id, {"bogus": 1})
    assert "unknown knob 'bogus'" in message


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_a_misspelt_knob_gets_a_suggestion(task_id: str) -> None:
    for name in make(task_id).knob_schema.model_fields:
        misspelt = name[:-1] + ("x" if name[-1] != "x" else "y")
        message = _refusal(task_id, {misspelt: 1})
        assert f"unknown knob '{misspelt}'" in message and f"Did you mean: {name}?" in message


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_an_ill_typed_knob_is_refused_by_name(task_id: str) -> None:
    for name in make(task_id).knob_schema.model_fields:
        for wrong in ({"a": 1}, [[1]], {"nested": []}):
            message = _refusal(task_id, {name: wrong})
            assert f"knob '{name}'" in message, message


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_the_defaults_are_accepted_and_are_the_defaults(task_id: str) -> None:
    schema = make(task_id).knob_schema
    explicit = {name: field.default for name, field in schema.model_fields.items() if field.default is not None}
    assert _first_item(task_id, {}) == _first_item(task_id, explicit)
    assert _first_item(task_id, {}) == _first_item(task_id, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_a_bad_knob_writes_nothing(task_id: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidKnobError):
        write_dataset(
            task_id, tmp_path / "out", n=2, seed=0, modalities=make(task_id).modalities[:1], knobs={"bogus": 1}
        )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("task_id", "knobs", "words"),
    [
        ("mentalblackboard/prediction", {"sides": "sideways"}, ["'sides'", "'front', 'back' or 'mixed'"]),
        ("mentalblackboard/prediction", {"groups": [0, 10]}, ["'groups'", "1..9"]),
        ("mentalblackboard/prediction", {"groups": "1,x"}, ["'groups'", "integer"]),
        ("mentalblackboard/prediction", {"size": 95}, ["'size'", "even"]),
        ("mentalblackboard/prediction", {"size": True}, ["'size'", "not true or false"]),
        ("mentalblackboard/planning", {"max_holes": 3}, ["'max_holes'", "1 or 2"]),
        ("mentalblackboard/planning", {"sides": "back"}, ["unknown knob 'sides'"]),
        ("mentalblackboard/planning", {"folds": "5"}, ["'folds'", "1..4"]),
        ("pfp/single-step", {"panels": "yes"}, ["'panels'", "boolean"]),
        ("pfp/single-step", {"cutouts": "many"}, ["'cutouts'", "integer"]),
        ("pfp/folding-3d", {"shapes": "square"}, ["unknown knob 'shapes'"]),
    ],
)
def test_bad_values_name_the_knob(task_id: str, knobs: dict[str, Any], words: list[str]) -> None:
    message = _refusal(make(task_id).id, knobs)
    for word in words:
        assert word in message, message


def test_lists_may_be_given_as_comma_separated_text() -> None:
    assert _first_item("mentalblackboard/prediction", {"groups": "2"}).metadata["group"] == 2
    item = _first_item("pfp/single-step", {"subtasks": "2-fold", "shapes": "square", "cutouts": "1"})
    assert item.metadata["subtask"] == "2-fold"
