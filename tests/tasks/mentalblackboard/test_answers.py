"""Reading MentalBlackboard answers: every lenient variant docs/families/mentalblackboard.md promises, what makes one
hole malformed (it stays in the answer and costs that hole), and what is a parse failure (no readable hole list)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.pft.holes import Hole, Shape, Size
from foldbench.tasks.base import ParseFailure
from foldbench.tasks.mentalblackboard.answers import (
    PlanningAnswer,
    PredictionAnswer,
    parse_planning,
    parse_prediction,
)


def _reply(holes: list[dict[str, Any]], unfolding: list[str] | None = None, **extra: Any) -> str:
    return json.dumps({"unfolding": unfolding or ["H1-F"], "result_holes": holes, **extra})


def _one_hole(**fields: Any) -> Hole:
    hole = {"shape": "star", "size": "small", "direction": 90, "location": 5, **fields}
    answer = parse_prediction(_reply([hole]))
    assert isinstance(answer, PredictionAnswer), answer
    (parsed,) = answer.holes()
    return parsed


def _fails(**fields: Any) -> str:
    """The problem of a malformed hole: the answer still parses, lists the hole, and has no well-formed hole."""
    hole = {"shape": "star", "size": "small", "direction": 90, "location": 5, **fields}
    answer = parse_prediction(_reply([hole]))
    assert isinstance(answer, PredictionAnswer), answer
    assert len(answer.result_holes) == 1 and answer.declared_total == 1 and answer.holes() == []
    (listed,) = answer.result_holes
    assert listed.problem is not None
    return listed.problem


@pytest.mark.parametrize("direction", ["90", " 90 ", "90 degrees", "90degree", 90, 450, -270])
def test_a_direction_as_a_string_or_an_equivalent_angle_is_read(direction: Any) -> None:
    assert _one_hole(direction=direction).direction == 90


@pytest.mark.parametrize(("shape", "size"), [("STAR", "SMALL"), ("Star", "Small"), (" star ", "small ")])
def test_shape_and_size_ignore_case_and_spaces(shape: str, size: str) -> None:
    assert _one_hole(shape=shape, size=size) == Hole(Shape.STAR, Size.SMALL, 90, 5)


@pytest.mark.parametrize(("shape", "direction", "expected"), [("ellipse", "0, 180", 0), ("rectangle", "90,270", 90)])
def test_both_directions_of_a_two_class_shape_are_read_as_its_class(shape: str, direction: str, expected: int) -> None:
    assert _one_hole(shape=shape, direction=direction).direction == expected


@pytest.mark.parametrize("shape", ["star", "letter", "triangle", "trapezoid", "text"])
def test_two_directions_are_refused_for_a_four_class_shape(shape: str) -> None:
    assert "direction" in _fails(shape=shape, direction="0, 180")


@pytest.mark.parametrize("direction", ["0, 90", "45", 45, "north", "90, 180, 270", True, 12.5])
def test_a_direction_that_is_not_one_class_is_refused(direction: Any) -> None:
    _fails(shape="ellipse", direction=direction)


@pytest.mark.parametrize("shape", ["circle", "square"])
@pytest.mark.parametrize("direction", [None, "", "  "])
def test_circle_and_square_may_omit_the_direction(shape: str, direction: Any) -> None:
    assert _one_hole(shape=shape, direction=direction).direction == 0


def test_a_directed_shape_may_not_omit_its_direction() -> None:
    assert "needs a direction" in _fails(direction=None)


def test_a_circle_may_leave_out_the_direction_key() -> None:
    reply = json.dumps({"unfolding": [], "result_holes": [{"shape": "circle", "size": "large", "location": 3}]})
    answer = parse_prediction(reply)
    assert isinstance(answer, PredictionAnswer) and answer.holes() == [Hole(Shape.CIRCLE, Size.LARGE, 0, 3)]


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ([0, 0, 0], 1),  # locations run row by row, two per cell, the left triangle first
        ([0, 0, 1], 2),
        ([0, 1, 0], 3),
        ([1, 2, 1], 14),  # 8 per row: 8 + 2·2 + 1 + 1
        ([3, 3, 1], 32),
        ("17", 17),
        (" 9 ", 9),
        (32, 32),
    ],
)
def test_a_location_as_row_column_tri_or_a_string_is_read(location: Any, expected: int) -> None:
    assert _one_hole(location=location).location == expected


@pytest.mark.parametrize("location", [0, 33, -1, [4, 0, 0], [0, 4, 0], [0, 0, 2], [1, 2], "12a", True, 5.0])
def test_a_location_off_the_paper_or_malformed_is_refused(location: Any) -> None:
    _fails(location=location)


@pytest.mark.parametrize(
    "keys",
    [
        ("totalNumberofHoles", "unfoldingTypes", "resultHoles"),
        ("totalNumberOfHoles", "UnfoldingTypes", "ResultHoles"),
        ("total_holes", "unfolding", "result_holes"),
        ("Total Holes", "unfolding_steps", "result holes"),
    ],
)
def test_the_published_key_names_are_read(keys: tuple[str, str, str]) -> None:
    total, unfolding, holes = keys
    reply = json.dumps(
        {
            total: 1,
            unfolding: ["h1-f", "V2-b"],
            holes: [{"shape": "circle", "size": "large", "direction": "", "location": 3}],
        }
    )
    answer = parse_prediction(reply)
    assert isinstance(answer, PredictionAnswer), answer
    assert answer.declared_total == 1 and answer.unfolding == ["H1-F", "V2-B"]
    assert answer.holes() == [Hole(Shape.CIRCLE, Size.LARGE, 0, 3)]


def test_the_published_planning_keys_are_read() -> None:
    reply = json.dumps(
        {
            "foldingTypes": ["D1-F"],
            "initialHoles": [{"shape": "star", "size": "small", "direction": "0", "location": 9}],
        }
    )
    answer = parse_planning(reply)
    assert isinstance(answer, PlanningAnswer), answer
    assert answer.folds == ["D1-F"] and answer.holes() == [Hole(Shape.STAR, Size.SMALL, 0, 9)]


def test_the_declared_total_may_be_a_string_and_defaults_to_the_list_length() -> None:
    hole = {"shape": "circle", "size": "large", "direction": "", "location": 3}
    declared = parse_prediction(_reply([hole], total_holes="4"))
    assert isinstance(declared, PredictionAnswer) and declared.declared_total == 4
    implicit = parse_prediction(_reply([hole]))
    assert isinstance(implicit, PredictionAnswer) and implicit.declared_total == 1


@pytest.mark.parametrize("step", ["R90", "H3-F", "fold top", 7, "H1"])
def test_an_unfolding_step_that_is_not_a_fold_code_is_kept_as_given(step: Any) -> None:
    answer = parse_prediction(_reply([], unfolding=["h1-f", step]))
    assert isinstance(answer, PredictionAnswer)
    assert answer.unfolding == ["H1-F", str(step)]


def test_two_holes_at_one_location_are_both_kept() -> None:
    holes = [
        {"shape": "circle", "size": "large", "direction": 0, "location": 3},
        {"shape": "star", "size": "small", "direction": 0, "location": 3},
    ]
    answer = parse_prediction(_reply(holes))
    assert isinstance(answer, PredictionAnswer) and [h.location for h in answer.holes()] == [3, 3]


def test_a_hole_that_is_no_object_is_malformed_and_the_others_are_read() -> None:
    answer = parse_prediction(_reply(["star at 5", {"shape": "star", "size": "small", "direction": 0, "location": 6}]))
    assert isinstance(answer, PredictionAnswer) and answer.declared_total == 2
    assert answer.holes() == [Hole(Shape.STAR, Size.SMALL, 0, 6)] and answer.result_holes[0].problem


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("", "empty"),
        ("The holes are at 3 and 5.", "no_json"),
        ('{"unfolding": ["H1-F"], "result_holes": [', "invalid_json"),
        ('{"unfolding": ["H1-F"]}', "schema"),
        ('{"unfolding": ["H1-F"], "result_holes": "a star at 5"}', "schema"),
        ('{"totalNumberofHoles": 2}', "schema"),
    ],
)
def test_anything_else_is_a_typed_parse_failure(reply: str, kind: str) -> None:
    failure = parse_prediction(reply)
    assert isinstance(failure, ParseFailure) and failure.kind == kind


def test_the_last_complete_object_is_the_answer() -> None:
    draft = _reply([{"shape": "circle", "size": "large", "direction": "", "location": 3}])
    final = _reply([{"shape": "circle", "size": "large", "direction": 0, "location": 4}])
    answer = parse_prediction(f"Draft: {draft}\nCorrected:\n```json\n{final}\n```\nDone.")
    assert isinstance(answer, PredictionAnswer) and answer.holes()[0].location == 4


@given(
    shape=st.sampled_from(list(Shape)),
    size=st.sampled_from(list(Size)),
    direction=st.sampled_from([0, 90, 180, 270]),
    location=st.integers(1, 32),
    upper=st.booleans(),
    as_string=st.booleans(),
)
def test_variants_read_as_the_same_hole(
    shape: Shape, size: Size, direction: int, location: int, upper: bool, as_string: bool
) -> None:
    row, rest = divmod(location - 1, 8)
    column, tri = divmod(rest, 2)
    variant = {
        "shape": shape.value.upper() if upper else shape.value,
        "size": size.value.upper() if upper else size.value,
        "direction": str(direction) if as_string else direction,
        "location": [row, column, tri],
    }
    assert _one_hole(**variant) == Hole(shape, size, direction, location)


CORRUPTIONS = (
    {"direction": 45},
    {"direction": "0, 90, 180, 270"},
    {"shape": "hexagon"},
    {"size": "medium"},
    {"location": 33},
    {"location": [4, 0, 0]},
)


@given(
    holes=st.lists(
        st.fixed_dictionaries(
            {
                "shape": st.sampled_from(["star", "letter", "triangle", "trapezoid", "text"]),
                "size": st.sampled_from(["small", "large"]),
                "direction": st.sampled_from([0, 90, 180, 270]),
                "location": st.integers(1, 32),
            }
        ),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
)
def test_one_corrupted_hole_leaves_every_other_hole_read(holes: list[dict[str, Any]], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(holes) - 1))
    corrupted = [*holes[:index], {**holes[index], **data.draw(st.sampled_from(CORRUPTIONS))}, *holes[index + 1 :]]
    answer = parse_prediction(_reply(corrupted))
    assert isinstance(answer, PredictionAnswer)
    assert answer.declared_total == len(holes)
    assert [h.problem is not None for h in answer.result_holes] == [i == index for i in range(len(holes))]
    others = [Hole(Shape(h["shape"]), Size(h["size"]), h["direction"], h["location"]) for h in holes]
    assert answer.holes() == others[:index] + others[index + 1 :]


@pytest.mark.parametrize("direction", [45, "north", "0, 90, 180, 270", None])
def test_a_circle_or_square_takes_any_direction_without_being_malformed(direction: Any) -> None:
    # They look the same at every angle: the paper's scorer matches any direction against theirs.
    for shape in ("circle", "square"):
        answer = parse_prediction(_reply([{"shape": shape, "size": "small", "direction": direction, "location": 4}]))
        assert isinstance(answer, PredictionAnswer) and answer.result_holes[0].problem is None
        assert answer.holes() == [Hole(Shape(shape), Size.SMALL, 0, 4)]


@pytest.mark.parametrize("order", [(1, 1.0, True), (True, 1.0, 1), (1.0, True, 1)])
def test_equal_values_of_other_types_are_read_by_their_own_type(order: tuple[Any, ...]) -> None:
    # 1 == 1.0 == True, but only the integer is a location: a hole read before must not answer for another
    read = {}
    for location in order:
        answer = parse_prediction(_reply([{"shape": "star", "size": "small", "direction": 90, "location": location}]))
        assert isinstance(answer, PredictionAnswer)
        read[repr(location)] = answer.result_holes[0].location
    assert read == {"1": 1, "1.0": None, "True": None}


_FIELD_VALUES = st.sampled_from(
    ["circle", "Star ", "ellipse", "blob", "small", "LARGE", 0, 90, 270, 45, "0, 180", None, "", 5, "7", 33, 1.0,
     True, [0, 1, 1], {"x": 1}]
)  # fmt: skip
_REPLY_OBJECTS = st.dictionaries(
    st.sampled_from(["totalNumberofHoles", "total_holes", "unfoldingTypes", "unfolding", "resultHoles", "other"]),
    st.one_of(
        _FIELD_VALUES,
        st.lists(st.one_of(_FIELD_VALUES, st.sampled_from(["H1-F", "h2-b", " D1-F "]))),
        st.lists(
            st.one_of(
                st.dictionaries(st.sampled_from(["shape", "Size", "direction", "location", "problem"]), _FIELD_VALUES),
                _FIELD_VALUES,
            ),
            max_size=6,
        ),
    ),
)


@given(_REPLY_OBJECTS)
def test_a_reply_reads_as_its_validation_by_the_answer_model(data: dict[str, Any]) -> None:
    """The reader builds answers without a validation pass; they equal what validating the same object gives."""
    from foldbench.tasks.mentalblackboard.answers import _PREDICTION_KEYS, _normalise_keys

    parsed = parse_prediction(json.dumps(data))
    try:
        validated: PredictionAnswer | None = PredictionAnswer.model_validate(_normalise_keys(data, _PREDICTION_KEYS))
    except ValueError:
        validated = None
    if validated is None:
        assert isinstance(parsed, ParseFailure) and parsed.kind == "schema"
        return
    assert isinstance(parsed, PredictionAnswer)
    assert parsed == validated and parsed.model_fields_set == validated.model_fields_set
    assert parsed.model_dump_json() == validated.model_dump_json()
    for ours, theirs in zip(parsed.result_holes, validated.result_holes, strict=True):
        assert ours == theirs and ours.model_fields_set == theirs.model_fields_set
