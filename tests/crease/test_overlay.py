from __future__ import annotations

import pytest

from foldbench.crease import overlay
from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import PrecisionProblem
from foldbench.crease.folding import fold_faces
from foldbench.crease.overlay import build_overlay, folded_tolerance_levels
from foldbench.crease.tolerance import FOLDED_DISTANCE_TOLERANCE, FOLDED_TOLERANCE_FLOOR

from .builders import square_with


def _pleat(width: float):  # type: ignore[no-untyped-def]
    return square_with([((0.5, 0), (0.5, 1), "M"), ((0.5 + width, 0), (0.5 + width, 1), "V"),
                        ((0.2, 0), (0.2, 1), "V")])


def test_a_pleat_narrower_than_the_default_tolerance_is_resolved_at_a_finer_level() -> None:
    wide, narrow = compile_crease_pattern(_pleat(0.1)), compile_crease_pattern(_pleat(3e-7))
    assert wide.folded_tolerance == FOLDED_DISTANCE_TOLERANCE
    assert narrow.folded_tolerance < 3e-7  # the strip's two folded edges stay apart
    assert narrow.state_count == wide.state_count
    assert len(narrow.constraints.variables_faces) == len(wide.constraints.variables_faces)
    assert any("folded tolerance" in warning for warning in narrow.warnings)


def test_levels_go_down_to_the_floor_then_up() -> None:
    pattern = _pleat(0.1)
    levels = list(folded_tolerance_levels(pattern, fold_faces(pattern)))
    descending = [level for level in levels if level <= FOLDED_DISTANCE_TOLERANCE]
    assert descending == sorted(descending, reverse=True) and descending[-1] >= FOLDED_TOLERANCE_FLOOR
    coarser = levels[len(descending):]
    assert coarser == sorted(coarser) and all(level < 0.1 for level in coarser)


def test_no_answer_from_an_overlay_that_failed_its_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    def always_inconsistent(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PrecisionProblem("E_PRECISION_CELLS", "inconsistent", {})

    monkeypatch.setattr(overlay, "build_cells", always_inconsistent)
    pattern = _pleat(0.1)
    with pytest.raises(PrecisionProblem) as caught:
        build_overlay(pattern, fold_faces(pattern))
    tried = caught.value.where["tried"]
    assert caught.value.code == "E_PRECISION_TOLERANCE"
    assert len(tried) == len(list(folded_tolerance_levels(pattern, fold_faces(pattern))))
    assert {entry["reason"] for entry in tried} <= {"E_PRECISION_CELLS", "unstable"}


def test_a_flat_slit_into_a_face_changes_nothing() -> None:
    plain = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V")]))
    slit = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V"), ((0.25, 0), (0.25, 0.3), "F")]))
    assert slit.pattern.edge_count == plain.pattern.edge_count + 2  # the slit, and the split boundary edge
    assert slit.state_count == plain.state_count == 1
    assert len(slit.constraints.variables_faces) == len(plain.constraints.variables_faces)
