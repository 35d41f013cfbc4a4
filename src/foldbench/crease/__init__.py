"""Crease-pattern compiler: FOLD (and ORIPA .cp/.opx, SVG) in, flat-folded states or precise errors out.

Pipeline, one sub-package per step: read (:mod:`.io`: FOLD, ORIPA and SVG files, collections, model-written FOLD);
build the plane graph and check each vertex (:mod:`.graph`); measure the input's precision and choose the folded
tolerance under one :class:`PrecisionPolicy` that the pattern carries through every stage (:mod:`.precision`);
fold the faces, overlay them into cells, build the layer-order variables and constraints and solve them by
components within an optional time budget (:mod:`.layers`, :mod:`.budget`); then export and render
(:mod:`.compiler`, :mod:`.render`). :func:`summarize` returns the compile summary every caller shares. Errors
follow OrigamiSpace's four classes (:mod:`.errors`). Scoring a generated pattern against a reference is in
:mod:`.score`.

The names below are imported from their modules on first use (PEP 562), so importing one part of the package
(``foldbench fold`` needs no simple folds, a task needs no compiler summary) does not import the rest.

>>> import numpy as np
>>> from foldbench.crease import build_crease_pattern, compile_crease_pattern
>>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
>>> compile_crease_pattern(build_crease_pattern(square, "BBBB")).state_count
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.lazy_names import lazy_exports

if TYPE_CHECKING:
    from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
    from foldbench.crease.errors import (
        AmbiguousFoldedState,
        CreasePatternError,
        CreasePatternSyntaxError,
        GeometricallyImpossibleFold,
        PrecisionProblem,
        SelfIntersection,
    )
    from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
    from foldbench.crease.io.fold_format import pattern_from_fold, read_fold
    from foldbench.crease.io.importers import read_crease_pattern
    from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy
    from foldbench.crease.simple_folds import random_simple_folds, simple_fold_pattern
    from foldbench.crease.summary import compile_with_summary, summarize

__all__ = [
    "DEFAULT_POLICY",
    "AmbiguousFoldedState",
    "CompiledFold",
    "CreasePattern",
    "CreasePatternError",
    "CreasePatternSyntaxError",
    "GeometricallyImpossibleFold",
    "PrecisionPolicy",
    "PrecisionProblem",
    "SelfIntersection",
    "build_crease_pattern",
    "compile_crease_pattern",
    "compile_with_summary",
    "pattern_from_fold",
    "random_simple_folds",
    "read_crease_pattern",
    "read_fold",
    "simple_fold_pattern",
    "summarize",
]

_HOMES: dict[str, str] = {
    **dict.fromkeys(["CompiledFold", "compile_crease_pattern"], ".compiler"),
    **dict.fromkeys(["AmbiguousFoldedState", "CreasePatternError", "CreasePatternSyntaxError",
                     "GeometricallyImpossibleFold", "PrecisionProblem", "SelfIntersection"], ".errors"),
    **dict.fromkeys(["CreasePattern", "build_crease_pattern"], ".graph.pattern"),
    **dict.fromkeys(["pattern_from_fold", "read_fold"], ".io.fold_format"),
    "read_crease_pattern": ".io.importers",
    **dict.fromkeys(["DEFAULT_POLICY", "PrecisionPolicy"], ".precision.policy"),
    **dict.fromkeys(["random_simple_folds", "simple_fold_pattern"], ".simple_folds"),
    **dict.fromkeys(["compile_with_summary", "summarize"], ".summary"),
}
"""The module each public name comes from (relative to ``foldbench.crease``)."""


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
