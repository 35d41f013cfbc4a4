"""Paper Folding Puzzles engines: exact fold-and-cut (base sheets, mirror and corner folds, cutouts, unfolding)
and the cube-net engine (11 nets, 24 rotations, folding and unfolding patterned nets)."""

from foldbench.pfp.cube import (
    NET_LAYOUTS,
    ROTATIONS,
    Cube,
    Net,
    fold_net,
    labellings,
    layout_variants,
    rotate_cube,
    same_cube,
    unfold_cube,
    view_consistent,
    view_of,
)
from foldbench.pfp.errors import InvalidNetError, PfpError, PfpGenerationError, PfpKnobError
from foldbench.pfp.folding import (
    Crease,
    FoldState,
    apply_step,
    flat_state,
    fold_region,
    step_problem,
    unfold_cut,
)
from foldbench.pfp.memo import FoldMemo
from foldbench.pfp.puzzle import Puzzle, holes_of, legibility_problem, pattern_of, quality_problem, refold_mismatch
from foldbench.pfp.sequences import SYMMETRIC_CODES, replay, resolve_code, sample_sequence
from foldbench.pfp.shapes import CUTOUT_SHAPES, SHEET_SHAPES, Cutout, cutout_polygon, sheet_polygon

__all__ = [
    "CUTOUT_SHAPES",
    "ENGINE_VERSION",
    "NET_LAYOUTS",
    "ROTATIONS",
    "SHEET_SHAPES",
    "SYMMETRIC_CODES",
    "Crease",
    "Cube",
    "Cutout",
    "FoldMemo",
    "FoldState",
    "InvalidNetError",
    "Net",
    "PfpError",
    "PfpGenerationError",
    "PfpKnobError",
    "Puzzle",
    "apply_step",
    "cutout_polygon",
    "flat_state",
    "fold_net",
    "fold_region",
    "holes_of",
    "labellings",
    "legibility_problem",
    "layout_variants",
    "pattern_of",
    "quality_problem",
    "refold_mismatch",
    "replay",
    "resolve_code",
    "rotate_cube",
    "same_cube",
    "sample_sequence",
    "sheet_polygon",
    "step_problem",
    "unfold_cube",
    "unfold_cut",
    "view_consistent",
    "view_of",
]

ENGINE_VERSION = "pfp-3"
