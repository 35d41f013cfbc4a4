from __future__ import annotations

import json
from pathlib import Path

import pytest

from foldbench.crease.errors import CreasePatternSyntaxError, GeometricallyImpossibleFold
from foldbench.crease.io.fold_format import parse_fold_text, pattern_from_fold, read_fold

from .builders import fold_document, square_with

SQUARE_DOC = {
    "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
    "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]],
    "edges_assignment": ["B", "B", "B", "B", "V"],
}


def _expect(document: dict, code: str, field: str | None = None, index: int | None = None) -> None:
    with pytest.raises(CreasePatternSyntaxError) as caught:
        pattern_from_fold(document)
    assert caught.value.code == code
    assert caught.value.error_class == "CSE"
    if field is not None:
        assert caught.value.where["field"] == field
    if index is not None:
        assert caught.value.where["index"] == index


def test_valid_document_reads() -> None:
    pattern = pattern_from_fold(SQUARE_DOC)
    assert (pattern.vertex_count, pattern.edge_count, pattern.face_count) == (4, 5, 2)
    assert sorted(pattern.edges_assignment) == ["B", "B", "B", "B", "V"]


def test_missing_field() -> None:
    _expect({"edges_vertices": []}, "E_CP_MISSING_FIELD", "vertices_coords")


def test_ill_typed_coordinate_names_its_index() -> None:
    _expect({**SQUARE_DOC, "vertices_coords": [[0, 0], [1, "x"], [1, 1], [0, 1]]},
            "E_CP_SYNTAX_INVALID_PARAM_TYPE", "vertices_coords", 1)


def test_dangling_vertex_index() -> None:
    _expect({**SQUARE_DOC, "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 9], [0, 2]]},
            "E_CP_SYNTAX_INVALID_LINE_REFERENCE", "edges_vertices", 3)


def test_unknown_assignment_letter() -> None:
    _expect({**SQUARE_DOC, "edges_assignment": ["B", "B", "B", "B", "X"]}, "E_CP_UNKNOWN_ASSIGNMENT",
            "edges_assignment", 4)


def test_wrong_assignment_count() -> None:
    _expect({**SQUARE_DOC, "edges_assignment": ["B"]}, "E_CP_SYNTAX_INVALID_PARAM_COUNT", "edges_assignment")


def test_face_that_is_not_a_closed_polygon() -> None:
    _expect({**SQUARE_DOC, "faces_vertices": [[0, 1, 3]]}, "E_CP_FACE_NOT_CLOSED", "faces_vertices", 0)


def test_a_partly_folded_crease_keeps_its_assignment_with_a_note() -> None:
    plain = pattern_from_fold(SQUARE_DOC)
    partial = pattern_from_fold({**SQUARE_DOC, "edges_foldAngle": [0, 0, 0, 0, 90]})
    assert partial.edges_assignment == plain.edges_assignment
    assert any("partly folded" in note for note in partial.notes)


def test_a_partly_folded_unassigned_crease_takes_the_sign_of_its_angle() -> None:
    letters = list(SQUARE_DOC["edges_assignment"])
    letters[4] = "U"
    mountain = pattern_from_fold({**SQUARE_DOC, "edges_assignment": letters, "edges_foldAngle": [0, 0, 0, 0, -45]})
    valley = pattern_from_fold({**SQUARE_DOC, "edges_assignment": letters, "edges_foldAngle": [0, 0, 0, 0, 45]})
    assert "M" in mountain.edges_assignment and "V" in valley.edges_assignment


def test_fold_angles_alone_give_assignments() -> None:
    document = {key: value for key, value in SQUARE_DOC.items() if key != "edges_assignment"}
    document["edges_foldAngle"] = [0, 0, 0, 0, -180]
    assert "M" in pattern_from_fold(document).edges_assignment


def test_malformed_json_names_line_and_column() -> None:
    with pytest.raises(CreasePatternSyntaxError) as caught:
        parse_fold_text('{\n  "vertices_coords": [,]\n}')
    assert caught.value.code == "E_CP_SYNTAX_JSON"
    assert caught.value.where["line"] == 2


@pytest.mark.parametrize("text", ["", "   \n", "[1, 2]"])
def test_empty_or_non_object_files(text: str) -> None:
    with pytest.raises(CreasePatternSyntaxError):
        parse_fold_text(text)


def test_disconnected_crease_is_a_structure_error() -> None:
    document = {
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0.2, 0.5], [0.4, 0.5]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5]],
        "edges_assignment": ["B", "B", "B", "B", "V"],
    }
    _expect(document, "E_CP_DISCONNECTED")


def test_crease_outside_the_paper() -> None:
    document = {
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [2, 0]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4]],
        "edges_assignment": ["B", "B", "B", "B", "V"],
    }
    with pytest.raises(GeometricallyImpossibleFold) as caught:
        pattern_from_fold(document)
    assert caught.value.code == "E_GEOM_CREASE_OUTSIDE_PAPER"


def test_reversed_edges_and_split_creases_read_like_the_plain_pattern() -> None:
    plain = square_with([((0, 0.5), (1, 0.5), "V")])
    document = {
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0.5], [1, 0.5], [0.3, 0.5]],
        "edges_vertices": [[1, 0], [5, 1], [2, 5], [3, 2], [4, 3], [4, 0], [6, 4], [5, 6]],
        "edges_assignment": ["B", "B", "B", "B", "B", "B", "V", "V"],
    }
    split = pattern_from_fold(document)
    assert split.face_count == plain.face_count == 2
    assert not split.notes


def test_read_fold_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "square.fold"
    path.write_text(json.dumps(fold_document(square_with([((0, 0), (1, 1), "M")]))))
    assert read_fold(path).face_count == 2


def test_huge_file_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from foldbench.crease.io import fold_format
    path = tmp_path / "huge.fold"
    path.write_text(json.dumps(SQUARE_DOC))
    monkeypatch.setattr(fold_format, "MAX_FILE_BYTES", 10)
    with pytest.raises(CreasePatternSyntaxError) as caught:
        read_fold(path)
    assert caught.value.code == "E_CP_FILE_TOO_LARGE"


CROSSING_DOC = {
    "vertices_coords": [[0, 0], [2, 0], [2, 2], [0, 2]],
    "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]],
    "edges_assignment": ["B", "B", "B", "B", "U", "U"],
}


def test_crossing_fold_edges_are_a_structure_error_with_the_edges_and_the_point() -> None:
    with pytest.raises(CreasePatternSyntaxError) as caught:
        pattern_from_fold(CROSSING_DOC)
    error = caught.value
    assert error.code == "E_CP_NOT_PLANAR" and error.where["field"] == "edges_vertices"
    assert {error.where["index"], *error.where["edges"]} == {4, 5}
    assert error.where["coordinates"] == pytest.approx([1.0, 1.0])


def test_a_vertex_on_another_edge_is_a_structure_error() -> None:
    document = {  # the crease ends at (1, 0.5), in the middle of the right side, which is not split there
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0.5], [1, 0.5]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [4, 5]],
        "edges_assignment": ["B", "B", "B", "B", "B", "V"],
    }
    with pytest.raises(CreasePatternSyntaxError) as caught:
        pattern_from_fold(document)
    assert caught.value.code == "E_CP_NOT_PLANAR" and caught.value.where["index"] == 1


def test_a_long_edge_drawn_over_its_pieces_is_merged_without_repair() -> None:
    document = {  # the bottom side is given whole (0-1) and in two pieces (0-4, 4-1) where the crease meets it
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0], [0.5, 1]],
        "edges_vertices": [[0, 4], [4, 1], [0, 1], [1, 2], [2, 5], [5, 3], [3, 0], [4, 5]],
        "edges_assignment": ["B", "B", "B", "B", "B", "B", "B", "V"],
    }
    pattern = pattern_from_fold(document)
    assert pattern.face_count == 2 and pattern.edge_count == 7
    assert any("planarised" in note for note in pattern.notes)


def test_repair_planarises_crossing_fold_edges_with_a_note() -> None:
    pattern = pattern_from_fold(CROSSING_DOC, repair=True)
    assert pattern.face_count == 4 and pattern.vertex_count == 5
    assert any("planarised" in note for note in pattern.notes)


def test_duplicate_fold_edges_merge_without_repair() -> None:
    document = {**SQUARE_DOC, "edges_vertices": [*SQUARE_DOC["edges_vertices"], [2, 0]],
                "edges_assignment": [*SQUARE_DOC["edges_assignment"], "V"]}
    pattern = pattern_from_fold(document)
    assert pattern.edge_count == 5 and any("planarised" in note for note in pattern.notes)


def test_too_many_segments_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from foldbench.crease.graph import pattern as pattern_module
    monkeypatch.setattr(pattern_module, "MAX_SEGMENTS", 4)
    with pytest.raises(CreasePatternSyntaxError) as caught:
        pattern_from_fold(SQUARE_DOC)
    assert caught.value.code == "E_CP_TOO_LARGE" and caught.value.where["segments"] == 5
