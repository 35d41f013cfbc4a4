"""FOLD 1.2 reading (with structural validation) and writing.

Reading validates every field the compiler uses and raises :class:`CreasePatternSyntaxError` naming the field
and index. The edges are then planarised (see :func:`foldbench.crease.graph.pattern.build_crease_pattern`), so a
FOLD file whose faces are missing or stale still compiles; ``faces_vertices`` given in the file are checked to
be closed polygons over existing edges.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from foldbench import jsontext
from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.graph.pattern import ASSIGNMENTS, CreasePattern, build_crease_pattern
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = ["MAX_FILE_BYTES", "fold_angle_hints", "parse_fold_text", "pattern_from_fold", "read_fold", "write_fold"]

MAX_FILE_BYTES: int = 200_000_000
"""Inputs larger than this are refused before parsing."""


def parse_fold_text(text: str, source: str = "<text>") -> dict[str, Any]:
    """Parse FOLD JSON text into a dict, or raise a CSE error with line and column.

    >>> parse_fold_text('{"vertices_coords": []}')["vertices_coords"]
    []
    >>> parse_fold_text('')
    Traceback (most recent call last):
    ...
    foldbench.crease.errors.CreasePatternSyntaxError: CSE E_CP_SYNTAX_EMPTY: <text> is empty
    """
    if not text.strip():
        raise CreasePatternSyntaxError("E_CP_SYNTAX_EMPTY", f"{source} is empty", {"source": source})
    try:
        document = jsontext.loads(text)
    except json.JSONDecodeError as error:
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_JSON",
            f"{source} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}",
            {"source": source, "line": error.lineno, "column": error.colno},
        ) from None
    if not isinstance(document, dict):
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_NOT_OBJECT", f"{source}: a FOLD file is a JSON object, got {type(document).__name__}",
            {"source": source},
        )
    return document


def _fail(code: str, field: str, index: int | None, message: str) -> CreasePatternSyntaxError:
    where: dict[str, Any] = {"field": field}
    if index is not None:
        where["index"] = index
    location = f"{field}[{index}]" if index is not None else field
    return CreasePatternSyntaxError(code, f"{location}: {message}", where)


def _is_number(value: Any) -> bool:
    """A finite int or float (no bool); an integer too large for a float is not one."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


# Reading a small pattern's file, checking each number on its own costs as much as parsing the JSON: the
# _plain_* functions below look at a field's types and ranges in a few passes over whole lists, and answer None
# (or False) at the first doubt, leaving the field to the careful loop, which names the first bad entry. Both
# give the same arrays and the same errors.
_NUMBER_TYPES = frozenset({int, float})
_ANGLE_TYPES = frozenset({int, float, type(None)})
_LETTERS = frozenset(ASSIGNMENTS | {letter.lower() for letter in ASSIGNMENTS})


def _plain_points(coords: list[Any]) -> np.ndarray | None:
    """``coords`` as an ``(n, 2)`` array when every point is ``[x, y]`` of finite ints or floats (no bool)."""
    if not coords or {type(point) for point in coords} != {list} or {len(point) for point in coords} != {2}:
        return None
    if not {type(value) for point in coords for value in point} <= _NUMBER_TYPES:
        return None
    try:
        array = np.array(coords, dtype=float)
    except OverflowError:  # an integer beyond a float: the careful loop answers as it always has
        return None
    return array if np.isfinite(array).all() else None


def _plain_edges(edges: list[Any], vertex_count: int) -> np.ndarray | None:
    """``edges`` as an ``(m, 2)`` array when every edge is ``[u, v]`` of two different existing vertices (ints,
    no bool)."""
    if not edges or {type(edge) for edge in edges} != {list} or {len(edge) for edge in edges} != {2}:
        return None
    vertices = [vertex for edge in edges for vertex in edge]
    if {type(vertex) for vertex in vertices} != {int} or min(vertices) < 0 or max(vertices) >= vertex_count:
        return None
    if any(u == v for u, v in edges):
        return None
    return np.array(edges, dtype=np.int64)


def _plain_angles(angles: list[Any]) -> bool:
    """Whether every fold angle is None or an int or float (no bool) within [-180, 180] (so finite)."""
    if not {type(angle) for angle in angles} <= _ANGLE_TYPES:
        return False
    return all(-180 <= angle <= 180 for angle in angles if angle is not None)


def _plain_faces(faces: list[Any], vertex_count: int, edge_keys: set[tuple[int, int]]) -> bool:
    """Whether every face is a list of at least 3 existing vertices (ints, no bool) whose sides are all edges."""
    if not faces:
        return True
    if {type(face) for face in faces} != {list} or min(len(face) for face in faces) < 3:
        return False
    vertices = [vertex for face in faces for vertex in face]
    if {type(vertex) for vertex in vertices} != {int} or min(vertices) < 0 or max(vertices) >= vertex_count:
        return False
    return {side for face in faces for side in zip(face, face[1:] + face[:1], strict=True)} <= edge_keys


def _validated_coordinates(document: dict[str, Any]) -> np.ndarray:
    coords = document.get("vertices_coords")
    if coords is None:
        raise _fail("E_CP_MISSING_FIELD", "vertices_coords", None, "missing")
    if not isinstance(coords, list):
        raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "vertices_coords", None, "must be a list of [x, y]")
    plain = _plain_points(coords)
    return _careful_coordinates(coords) if plain is None else plain


def _careful_coordinates(coords: list[Any]) -> np.ndarray:
    """The points checked one by one (the first bad one raises)."""
    for index, point in enumerate(coords):
        if not isinstance(point, list) or len(point) not in (2, 3) or not all(_is_number(c) for c in point):
            raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "vertices_coords", index,
                        f"expected [x, y] of finite numbers, got {json.dumps(point)[:60]}")
        if len(point) == 3 and point[2] != 0:
            raise _fail("E_CP_SYNTAX_VALUE_OUT_OF_RANGE", "vertices_coords", index,
                        "a crease pattern is flat: z must be 0")
    return np.array([point[:2] for point in coords], dtype=float).reshape(-1, 2)


def _validated_edges(document: dict[str, Any], vertex_count: int) -> np.ndarray:
    edges = document.get("edges_vertices")
    if edges is None:
        raise _fail("E_CP_MISSING_FIELD", "edges_vertices", None, "missing")
    if not isinstance(edges, list):
        raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "edges_vertices", None, "must be a list of [u, v]")
    plain = _plain_edges(edges, vertex_count)
    return _careful_edges(edges, vertex_count) if plain is None else plain


def _careful_edges(edges: list[Any], vertex_count: int) -> np.ndarray:
    """The edges checked one by one (the first bad one raises)."""
    for index, edge in enumerate(edges):
        if (not isinstance(edge, list) or len(edge) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in edge)):
            raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "edges_vertices", index,
                        f"expected [u, v] of integers, got {json.dumps(edge)[:60]}")
        for vertex in edge:
            if not 0 <= vertex < vertex_count:
                raise _fail("E_CP_SYNTAX_INVALID_LINE_REFERENCE", "edges_vertices", index,
                            f"vertex {vertex} does not exist ({vertex_count} vertices)")
        if edge[0] == edge[1]:
            raise _fail("E_CP_DEGENERATE_EDGE", "edges_vertices", index, f"edge joins vertex {edge[0]} to itself")
    return np.array(edges, dtype=np.int64).reshape(-1, 2)


def _validated_assignments(document: dict[str, Any], edge_count: int) -> list[str]:
    assignments = document.get("edges_assignment")
    angles = document.get("edges_foldAngle")
    if angles is not None:
        if not isinstance(angles, list) or len(angles) != edge_count:
            raise _fail("E_CP_SYNTAX_INVALID_PARAM_COUNT", "edges_foldAngle", None,
                        f"expected a list of {edge_count} numbers")
        if not _plain_angles(angles):
            _careful_angles(angles)
    if assignments is None:
        if angles is None:
            return ["U"] * edge_count
        return ["U" if a is None else ("V" if a > 0 else "M" if a < 0 else "F") for a in angles]
    if not isinstance(assignments, list) or len(assignments) != edge_count:
        raise _fail("E_CP_SYNTAX_INVALID_PARAM_COUNT", "edges_assignment", None,
                    f"expected a list of {edge_count} letters, one per edge")
    try:
        plain = set(assignments) <= _LETTERS
    except TypeError:  # an unhashable entry: the careful loop names it
        plain = False
    return [letter.upper() for letter in assignments] if plain else _careful_letters(assignments)


def _careful_angles(angles: list[Any]) -> None:
    """The fold angles checked one by one (the first bad one raises)."""
    for index, angle in enumerate(angles):
        if angle is not None and not _is_number(angle):
            raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "edges_foldAngle", index, f"not a number: {angle!r}")
        if angle is not None and abs(angle) > 180:
            raise _fail("E_CP_SYNTAX_VALUE_OUT_OF_RANGE", "edges_foldAngle", index,
                        f"{angle} is outside [-180, 180]")


def _careful_letters(assignments: list[Any]) -> list[str]:
    """The letters checked one by one (the first unknown one raises)."""
    letters = []
    for index, letter in enumerate(assignments):
        if not isinstance(letter, str) or letter.upper() not in ASSIGNMENTS:
            raise _fail("E_CP_UNKNOWN_ASSIGNMENT", "edges_assignment", index,
                        f"unknown assignment {letter!r} (expected one of B M V F U C J)")
        letters.append(letter.upper())
    return letters


def fold_angle_hints(
    letters: list[str], angles: list[Any] | None, policy: PrecisionPolicy = DEFAULT_POLICY
) -> tuple[list[str], list[str]]:
    """Read fold angles that are not a flat fold (±180, to the policy's ``flat_fold_angle``) as hints: a partly
    folded mountain is still a mountain.

    An unassigned crease takes the letter of its angle's sign; an assigned one keeps its letter (a sign that
    disagrees is noted). Returns the letters and the notes saying what was read.

    >>> letters, notes = fold_angle_hints(["M", "U", "V"], [-90, 45, -30])
    >>> letters, [note.split(" (")[0][:24] for note in notes]
    (['M', 'V', 'V'], ['2 crease(s) partly folde', '1 crease(s) whose fold a'])
    """
    if angles is None:
        return letters, []
    letters = list(letters)
    partial: list[int] = []
    disagreeing: list[int] = []
    for index, (letter, angle) in enumerate(zip(letters, angles, strict=False)):
        if angle is None or angle == 0 or abs(angle) >= 180 - policy.flat_fold_angle:
            if letter == "U" and angle is not None and angle != 0:
                letters[index] = "V" if angle > 0 else "M"
            continue
        hinted = "V" if angle > 0 else "M"
        if letter == "U":
            letters[index] = hinted
            partial.append(index)
        elif letter in "MV":
            (partial if letter == hinted else disagreeing).append(index)
    notes = []
    if partial:
        notes.append(f"{len(partial)} crease(s) partly folded (edges {partial[:10]}): read as flat folds by their "
                     "assignment or the sign of their angle")
    if disagreeing:
        notes.append(f"{len(disagreeing)} crease(s) whose fold angle's sign disagrees with the assignment "
                     f"(edges {disagreeing[:10]}): the assignment is kept")
    return letters, notes


def _check_faces(document: dict[str, Any], vertex_count: int, edges: np.ndarray) -> None:
    faces = document.get("faces_vertices")
    if faces is None:
        return
    if not isinstance(faces, list):
        raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "faces_vertices", None, "must be a list of vertex lists")
    pairs = edges.tolist()
    edge_keys = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
    if not _plain_faces(faces, vertex_count, edge_keys):
        _careful_faces(faces, vertex_count, edge_keys)


def _careful_faces(faces: list[Any], vertex_count: int, edge_keys: set[tuple[int, int]]) -> None:
    """The faces checked one by one (the first bad one raises)."""
    for index, face in enumerate(faces):
        if not isinstance(face, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in face):
            raise _fail("E_CP_SYNTAX_INVALID_PARAM_TYPE", "faces_vertices", index, "expected a list of integers")
        if len(face) < 3:
            raise _fail("E_CP_FACE_NOT_CLOSED", "faces_vertices", index, f"a face needs 3 vertices, got {len(face)}")
        for vertex in face:
            if not 0 <= vertex < vertex_count:
                raise _fail("E_CP_SYNTAX_INVALID_LINE_REFERENCE", "faces_vertices", index,
                            f"vertex {vertex} does not exist ({vertex_count} vertices)")
        for position, vertex in enumerate(face):
            following = face[(position + 1) % len(face)]
            if (vertex, following) not in edge_keys:
                raise _fail("E_CP_FACE_NOT_CLOSED", "faces_vertices", index,
                            f"side {vertex}-{following} is not an edge, so the face is not a closed polygon")


def pattern_from_fold(
    document: dict[str, Any], source: str = "<fold>", *, repair: bool = False,
    policy: PrecisionPolicy = DEFAULT_POLICY,
) -> CreasePattern:
    """Validate a FOLD document and build its crease pattern (first frame if the top level has no geometry),
    with the precision ``policy``.

    A FOLD file is a graph, so edges that cross or touch another edge's interior are a structure error
    (``E_CP_NOT_PLANAR``) unless ``repair`` is set, which planarises them as for a drawing. Duplicate edges
    merge either way, with a note.

    >>> doc = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
    ...        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]],
    ...        "edges_assignment": ["B", "B", "B", "B", "V"]}
    >>> pattern_from_fold(doc).face_count
    2
    >>> pattern_from_fold({"edges_vertices": []})
    Traceback (most recent call last):
    ...
    foldbench.crease.errors.CreasePatternSyntaxError: CSE E_CP_MISSING_FIELD: vertices_coords: missing
    """
    if "vertices_coords" not in document and isinstance(document.get("file_frames"), list):
        frames = document["file_frames"]
        if frames and isinstance(frames[0], dict):
            document = {**frames[0]}
    coords = _validated_coordinates(document)
    edges = _validated_edges(document, len(coords))
    assignments, notes = fold_angle_hints(_validated_assignments(document, len(edges)),
                                          document.get("edges_foldAngle"), policy)
    _check_faces(document, len(coords), edges)
    pattern = build_crease_pattern(coords[edges], assignments, source=source, split_crossings=repair, policy=policy)
    return replace(pattern, notes=pattern.notes + tuple(notes)) if notes else pattern


def read_fold(path: str | Path, *, repair: bool = False, policy: PrecisionPolicy = DEFAULT_POLICY) -> CreasePattern:
    """Read a ``.fold`` file into a crease pattern built with the precision ``policy`` (CSE errors name the file,
    field and index)."""
    path = Path(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise CreasePatternSyntaxError(
            "E_CP_FILE_TOO_LARGE", f"{path.name} is {path.stat().st_size} bytes (limit {MAX_FILE_BYTES})",
            {"source": str(path)},
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_ENCODING", f"{path.name} is not UTF-8 text (byte {error.start})",
            {"source": str(path), "byte": error.start},
        ) from None
    return pattern_from_fold(parse_fold_text(text, path.name), path.name, repair=repair, policy=policy)


def write_fold(document: dict[str, Any], path: str | Path) -> None:
    """Write a FOLD dict as JSON (one line per top-level field)."""
    Path(path).write_text(json.dumps(document, indent=1), encoding="utf-8")
