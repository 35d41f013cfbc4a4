"""Reading a FOLD document: the one-pass checks of whole fields give the same arrays and the same errors as
the entry-by-entry checks, on well-formed and broken documents alike."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.io import fold_format
from foldbench.crease.io.fold_format import pattern_from_fold

# entries a hostile or careless file may hold where a number, an index or a letter belongs
ODD_VALUES = st.sampled_from([True, False, None, "1", [], {}, math.nan, math.inf, -math.inf, 10**400, -(10**400),
                              2**70, 1e308, -0.0])
NUMBERS = st.one_of(st.integers(-50, 50), st.floats(-1e6, 1e6, allow_nan=False), ODD_VALUES)


def _outcome(call: Any) -> tuple[str, Any]:
    """What a check answers: its value, or the error's code, place and message."""
    try:
        value = call()
    except CreasePatternSyntaxError as error:
        return "error", (error.code, error.where, error.message)
    if isinstance(value, np.ndarray):
        return "array", (value.dtype.str, value.shape, value.tobytes())
    return "value", value


def _same(fast: Any, careful: Any) -> None:
    assert _outcome(fast) == _outcome(careful)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(NUMBERS, min_size=1, max_size=4), ODD_VALUES), max_size=6))
def test_coordinates_read_as_by_the_careful_loop(coords: list[Any]) -> None:
    document = {"vertices_coords": coords}
    _same(lambda: fold_format._validated_coordinates(document), lambda: fold_format._careful_coordinates(coords))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(st.one_of(st.integers(-2, 7), ODD_VALUES), min_size=1, max_size=3),
                          ODD_VALUES), max_size=6),
       st.integers(0, 6))
def test_edges_read_as_by_the_careful_loop(edges: list[Any], vertex_count: int) -> None:
    document = {"edges_vertices": edges}
    _same(lambda: fold_format._validated_edges(document, vertex_count),
          lambda: fold_format._careful_edges(edges, vertex_count))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(list("BMVFUCJbmvfucjXx")), st.just("MV"), st.just(""), ODD_VALUES),
                max_size=6))
def test_letters_read_as_by_the_careful_loop(letters: list[Any]) -> None:
    document = {"edges_assignment": letters}
    _same(lambda: fold_format._validated_assignments(document, len(letters)),
          lambda: fold_format._careful_letters(letters))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(-200, 200), st.floats(-181, 181, allow_nan=False), st.none(), ODD_VALUES),
                max_size=6))
def test_fold_angles_checked_as_by_the_careful_loop(angles: list[Any]) -> None:
    document = {"edges_foldAngle": angles, "edges_assignment": ["U"] * len(angles)}
    _same(lambda: fold_format._validated_assignments(document, len(angles)),
          lambda: (fold_format._careful_angles(angles), ["U"] * len(angles))[1])


SQUARE_EDGES = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]], dtype=np.int64)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(st.one_of(st.integers(-1, 4), ODD_VALUES), max_size=5), ODD_VALUES),
                max_size=4))
def test_faces_checked_as_by_the_careful_loop(faces: list[Any]) -> None:
    document = {"faces_vertices": faces}
    pairs = SQUARE_EDGES.tolist()
    keys = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
    _same(lambda: fold_format._check_faces(document, 4, SQUARE_EDGES),
          lambda: fold_format._careful_faces(faces, 4, keys))


def test_well_formed_fields_take_the_one_pass_checks() -> None:
    """The fields a written pattern holds are read without the entry-by-entry loops (which would name an entry)."""
    coords = [[0, 0], [1, 0], [1, 1], [0.0, 1.5]]
    assert fold_format._plain_points(coords) is not None
    assert fold_format._plain_edges(SQUARE_EDGES.tolist(), 4) is not None
    assert fold_format._plain_angles([180, -180.0, 0, None])
    assert fold_format._plain_faces([[0, 1, 2], [0, 2, 3]], 4, {(0, 1), (1, 2), (2, 0), (0, 2), (2, 3), (3, 0)})


@pytest.mark.parametrize("field, value", [("vertices_coords", [[10**400, 0], [1, 0], [1, 1]]),
                                          ("edges_foldAngle", [10**400, None, None])])
def test_an_integer_beyond_a_float_is_a_syntax_error(field: str, value: list[Any]) -> None:
    document: dict[str, Any] = {"vertices_coords": [[0, 0], [1, 0], [1, 1]], "edges_vertices": [[0, 1], [1, 2], [2, 0]],
                                "edges_assignment": ["B", "B", "B"], field: value}
    with pytest.raises(CreasePatternSyntaxError) as caught:
        pattern_from_fold(document)
    assert caught.value.code == "E_CP_SYNTAX_INVALID_PARAM_TYPE"
    assert caught.value.where == {"field": field, "index": 0}
