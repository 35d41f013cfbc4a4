"""The compile summary: one plain record of what the compiler found, shared by the CLI, the environments and
the scorers (no printing, no exit codes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from foldbench.crease.budget import BudgetExceeded, StageCallback, enter_stage, time_budget
from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.layers.solver import ProgressCallback

__all__ = ["EMPTY_SUMMARY_FIELDS", "ErrorRecord", "compile_with_summary", "summarize"]


ErrorRecord = TypedDict("ErrorRecord", {"class": str, "code": str, "message": str, "where": dict[str, Any]})
"""The ``error`` of a summary: OrigamiSpace's class (CSE, GIF, PSI, AFS, or PRECISION), a stable code, a
message, and where the problem lies (see :meth:`foldbench.crease.errors.CreasePatternError.to_dict`)."""

EMPTY_SUMMARY_FIELDS: tuple[str, ...] = ("vertices", "edges", "faces", "variables", "components", "states",
                                         "constraints")
"""The summary fields that are None when the pattern has an error."""


def compile_with_summary(
    pattern: CreasePattern | str | Path, *, limit: int | None = None, timeout: float | None = None,
    require_unique: bool = False, repair: bool = False, progress: ProgressCallback | None = None,
    budget: float | None = None, on_stage: StageCallback | None = None,
) -> tuple[dict[str, Any], CompiledFold | None]:
    """Read (when given a path) and compile a crease pattern; return its summary and the compiled fold.

    The summary is :meth:`CompiledFold.summary` plus ``error``: None, or the typed error as a record
    ``{class, code, message, where}``; with an error, the fields of :data:`EMPTY_SUMMARY_FIELDS` are None and
    the compiled fold is None.

    ``budget`` (seconds) bounds every stage, reading and planarising included (``timeout`` bounds only the
    count). A run it stops has ``stopped`` True, ``stage`` naming the stage, ``known`` what was found by then,
    and an ``E_TIME_BUDGET`` error; ``on_stage`` is told each stage as it starts. A count the budget ends is
    a lower bound as with ``timeout``, with ``stage`` ``"counting"``.
    """
    try:
        with time_budget(budget, on_stage):
            if not isinstance(pattern, CreasePattern):
                enter_stage("reading")
                pattern = read_crease_pattern(pattern, repair=repair)
            compiled = compile_crease_pattern(pattern, limit=limit, require_unique=require_unique,
                                              timeout=timeout, progress=progress)
    except CreasePatternError as error:
        return {**dict.fromkeys(EMPTY_SUMMARY_FIELDS), "error": error.to_dict()}, None
    except BudgetExceeded as stopped:
        known = stopped.known
        return {**dict.fromkeys(EMPTY_SUMMARY_FIELDS), **{k: known[k] for k in EMPTY_SUMMARY_FIELDS if k in known},
                "stopped": True, "stage": stopped.stage, "known": known, "error": stopped.to_dict()}, None
    return {**compiled.summary(), "error": None}, compiled


def summarize(
    pattern: CreasePattern | str | Path, *, limit: int | None = None, timeout: float | None = None,
    require_unique: bool = False, repair: bool = False,
) -> dict[str, Any]:
    """The compile summary of a crease pattern (or a pattern file): counts, states, tolerances, timings,
    warnings and ``error`` (None or ``{class, code, message, where}``). Never raises for a bad pattern.

    >>> import numpy as np
    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> summary = summarize(build_crease_pattern(square, "BBBB"))
    >>> summary["states"], summary["error"]
    (1, None)
    """
    return compile_with_summary(pattern, limit=limit, timeout=timeout, require_unique=require_unique,
                                repair=repair)[0]
