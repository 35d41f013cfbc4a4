"""Crease-pattern compiler: FOLD (and ORIPA .cp/.opx, SVG) in, flat-folded states or precise errors out.

Pipeline: read, measure the input's precision and planarise (:mod:`.importers`, :mod:`.fold_format`,
:mod:`.precision`, :mod:`.pattern`), check each vertex (:mod:`.local_checks`), fold the faces (:mod:`.folding`),
overlay the folded edges into cells at a tolerance the folded geometry supports (:mod:`.overlay`, :mod:`.cells`),
build layer-order variables and constraints (:mod:`.layer_constraints`), solve them by components within an
optional time budget (:mod:`.solver`), then export and render (:mod:`.compiler`, :mod:`.render`).
:func:`summarize` returns the compile summary every caller shares. Errors follow OrigamiSpace's four classes
(:mod:`.errors`); every tolerance is a field of one :class:`PrecisionPolicy` (:mod:`.policy`, the rules in
:mod:`.tolerance`), which the pattern carries through the stages.

>>> import numpy as np
>>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
>>> compile_crease_pattern(build_crease_pattern(square, "BBBB")).state_count
1
"""

from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.errors import (
    AmbiguousFoldedState,
    CreasePatternError,
    CreasePatternSyntaxError,
    GeometricallyImpossibleFold,
    PrecisionProblem,
    SelfIntersection,
)
from foldbench.crease.fold_format import pattern_from_fold, read_fold
from foldbench.crease.importers import read_crease_pattern
from foldbench.crease.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.policy import DEFAULT_POLICY, PrecisionPolicy
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
