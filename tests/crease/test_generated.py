"""Untrusted FOLD documents: every bad input is a syntax verdict naming the field and index, never an exception."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern
from foldbench.crease.io.generated import (
    MAX_GENERATED_EDGES,
    MAX_REPLY_CHARS,
    compile_generated,
    parse_generated_text,
)
from foldbench.crease.score.similarity import prepare_reference, score_generated

SQUARE = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
          "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]],
          "edges_assignment": ["B", "B", "B", "B", "V"]}


@pytest.fixture(scope="module")
def reference():
    segments = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]], [[0, 0], [1, 1]]],
                        float)
    return prepare_reference(build_crease_pattern(segments, "BBBBV"))


def test_valid_document_compiles() -> None:
    generated = compile_generated(SQUARE)
    assert generated.error is None and generated.compiled is not None


@pytest.mark.parametrize(("document", "code", "field", "index"), [
    ({**SQUARE, "vertices_coords": [[0, 0], [1, "x"], [1, 1], [0, 1]]}, "E_CP_SYNTAX_INVALID_PARAM_TYPE",
     "vertices_coords", 1),
    ({**SQUARE, "edges_vertices": [[0, 1], [1, 2], [2, 7], [3, 0], [0, 2]]}, "E_CP_SYNTAX_INVALID_LINE_REFERENCE",
     "edges_vertices", 2),
    ({**SQUARE, "edges_vertices": [[0, 1], [1, 2], [2, 3], [-1, 0], [0, 2]]}, "E_CP_SYNTAX_INVALID_LINE_REFERENCE",
     "edges_vertices", 3),
    ({**SQUARE, "vertices_coords": [[0, 0], [1, 0], [1, math.nan], [0, 1]]}, "E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
     "vertices_coords", 2),
    ({**SQUARE, "vertices_coords": [[0, 0], [1e300, 0], [1, 1], [0, 1]]}, "E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
     "vertices_coords", 1),
    ({**SQUARE, "edges_assignment": ["B", "B", "B", "B", "Q"]}, "E_CP_UNKNOWN_ASSIGNMENT", "edges_assignment", 4),
    ({**SQUARE, "edges_vertices": "0-1"}, "E_CP_SYNTAX_INVALID_PARAM_TYPE", "edges_vertices", None),
    ({"edges_vertices": [[0, 1]]}, "E_CP_MISSING_FIELD", "vertices_coords", None),
    ({**SQUARE, "faces_vertices": [[0, 1, 9]]}, "E_CP_SYNTAX_INVALID_LINE_REFERENCE", "faces_vertices", 0),
])
def test_bad_fields_are_named(document, code, field, index) -> None:
    generated = compile_generated(document)
    assert generated.error is not None and generated.error["class"] == "CSE"
    assert generated.error["code"] == code
    assert generated.error["where"]["field"] == field
    assert generated.error["where"].get("index") == index


def test_pattern_without_faces_is_a_syntax_error() -> None:
    lines = {"vertices_coords": [[0, 0], [1, 0], [2, 0]], "edges_vertices": [[0, 1], [1, 2]],
             "edges_assignment": ["B", "B"]}
    assert compile_generated(lines).error["class"] == "CSE"


def test_million_edges_are_refused_before_building(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("an oversize document reached the FOLD reader")

    monkeypatch.setattr("foldbench.crease.io.generated.pattern_from_fold", never)
    document = {"vertices_coords": [[0, 0], [1, 0]], "edges_vertices": [[0, 1]] * 1_000_000,
                "edges_assignment": ["B"] * 1_000_000}
    generated = compile_generated(document)
    assert generated.error["code"] == "E_CP_TOO_LARGE"
    assert generated.error["where"]["field"] == "edges_vertices"
    assert generated.error["where"]["count"] > MAX_GENERATED_EDGES


@pytest.mark.parametrize(("text", "code"), [
    ("not json at all", "E_CP_SYNTAX_JSON"), ("[1, 2, 3]", "E_CP_SYNTAX_NOT_OBJECT"),
    ("{" * 100_000, "E_CP_SYNTAX_JSON"), (" " * (MAX_REPLY_CHARS + 1), "E_CP_TOO_LARGE"),
])
def test_unreadable_text_is_a_syntax_verdict(text: str, code: str) -> None:
    assert parse_generated_text(text)["error"]["code"] == code


def test_blocked_dimensions_score_zero(reference) -> None:
    score = score_generated("not even a dict", reference)
    assert score.error_class == "CSE" and not score.passed
    assert score.total == 0.0 and set(score.dimensions.values()) == {0.0}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=4),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=30,
)
fold_like = st.fixed_dictionaries({}, optional={
    "vertices_coords": st.lists(st.lists(st.integers(-2, 3) | st.floats(-2, 3), min_size=1, max_size=3),
                                max_size=8) | json_values,
    "edges_vertices": st.lists(st.lists(st.integers(-1, 8), min_size=1, max_size=3), max_size=10) | json_values,
    "edges_assignment": st.lists(st.sampled_from(["B", "M", "V", "F", "U", "x", 3]), max_size=10) | json_values,
    "faces_vertices": st.lists(st.lists(st.integers(-1, 8), max_size=5), max_size=4) | json_values,
})


@settings(max_examples=300, deadline=None)
@given(document=json_values | fold_like)
def test_arbitrary_json_never_raises(document, reference) -> None:
    score = score_generated(document, reference)
    assert score.error is None or score.error["class"] in {"CSE", "GIF", "PSI", "AFS", "PRECISION"}
    assert 0.0 <= score.total <= 1.0 + 1e-9
    json.dumps(score.to_dict())


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    parsed = parse_generated_text(text)
    assert ("error" in parsed) != ("document" in parsed)


@st.composite
def random_graphs(draw):
    count = draw(st.integers(2, 8))
    coords = draw(st.lists(st.lists(st.sampled_from([0, 0.25, 0.5, 0.75, 1, 0.3333]), min_size=2, max_size=2),
                           min_size=count, max_size=count))
    edges = draw(st.lists(st.lists(st.integers(0, count - 1), min_size=2, max_size=2), max_size=12))
    letters = draw(st.lists(st.sampled_from("BMVFU"), min_size=len(edges), max_size=len(edges)))
    return {"vertices_coords": coords, "edges_vertices": edges, "edges_assignment": letters}


@settings(max_examples=200, deadline=None)
@given(document=random_graphs())
def test_random_graphs_get_a_verdict_and_never_raise(document, reference) -> None:
    score = score_generated(document, reference)
    assert (score.error is None) == score.passed or score.error_class == "AFS"
    assert 0.0 <= score.total <= 1.0 + 1e-9
