"""Reading a crease pattern a model wrote: untrusted FOLD JSON in, a compiled fold or a typed verdict out.

Nothing here raises for bad input. The document is checked for size before anything is built (a reply with a
million edges is refused in constant time), coordinates are checked to be finite and of sensible magnitude, and
the strict FOLD reader (:func:`foldbench.crease.io.fold_format.pattern_from_fold`) reports every other structural
problem as a syntax error (CSE) naming the field and index. The compiler then gives the geometric verdict (GIF,
PSI, or a precision problem) within a time budget.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.errors import CreasePatternError, CreasePatternSyntaxError
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.io.fold_format import pattern_from_fold

__all__ = [
    "MAX_COORDINATE",
    "MAX_GENERATED_EDGES",
    "MAX_GENERATED_VERTICES",
    "MAX_REPLY_CHARS",
    "COMPILE_TIMEOUT",
    "GeneratedFold",
    "compile_generated",
    "parse_generated_text",
]

MAX_GENERATED_VERTICES: int = 2000
"""A generated pattern with more vertices is refused before it is built (the benchmark's references have at most
1,000 faces, a few hundred by default), which keeps compiling an answer to seconds."""
MAX_GENERATED_EDGES: int = 4000
"""A generated pattern with more edges (or faces) is refused before it is built."""
MAX_COORDINATE: float = 1e6
"""Coordinates beyond this magnitude are refused: they carry no crease pattern a paper could hold and would
lose all precision once normalised."""
MAX_REPLY_CHARS: int = 1_000_000
"""FOLD text longer than this is refused before it is parsed."""
COMPILE_TIMEOUT: float = 5.0
"""Seconds the compiler may spend counting the folded states of a generated pattern."""


@dataclass(frozen=True)
class GeneratedFold:
    """What became of a generated crease pattern.

    Attributes:
        pattern: the planarised pattern, or None when the document is not a readable crease pattern (CSE).
        compiled: the compiled fold, or None when the pattern does not fold flat (or was not built).
        error: None, or the compiler's error record ``{class, code, message, where}``.
    """

    pattern: CreasePattern | None
    compiled: CompiledFold | None
    error: dict[str, Any] | None


def _syntax(code: str, message: str, where: dict[str, Any]) -> dict[str, Any]:
    return CreasePatternSyntaxError(code, message, where).to_dict()


def _size_error(document: dict[str, Any]) -> dict[str, Any] | None:
    limits = {"vertices_coords": MAX_GENERATED_VERTICES, "edges_vertices": MAX_GENERATED_EDGES,
              "edges_assignment": MAX_GENERATED_EDGES, "faces_vertices": MAX_GENERATED_EDGES}
    for field, limit in limits.items():
        value = document.get(field)
        if isinstance(value, list) and len(value) > limit:
            return _syntax("E_CP_TOO_LARGE", f"{field}: {len(value)} entries (limit {limit})",
                           {"field": field, "count": len(value), "limit": limit})
    return None


def _coordinate_error(document: dict[str, Any]) -> dict[str, Any] | None:
    coords = document.get("vertices_coords")
    if not isinstance(coords, list):
        return None
    for index, point in enumerate(coords):
        if not isinstance(point, list):
            return None  # the strict reader names the ill-typed entry
        for value in point:
            if isinstance(value, bool) or not isinstance(value, int | float):
                return None
            if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
                return _syntax("E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
                               f"vertices_coords[{index}]: {value!r} is not a finite coordinate within "
                               f"±{MAX_COORDINATE:g}", {"field": "vertices_coords", "index": index})
    return None


def parse_generated_text(text: str) -> dict[str, Any]:
    """FOLD JSON text as a document, or a syntax error record (``{"error": {...}}``) when it is not one.

    >>> parse_generated_text("[1, 2]")["error"]["code"]
    'E_CP_SYNTAX_NOT_OBJECT'
    """
    if len(text) > MAX_REPLY_CHARS:
        return {"error": _syntax("E_CP_TOO_LARGE", f"{len(text)} characters (limit {MAX_REPLY_CHARS})",
                                 {"field": "<text>", "count": len(text)})}
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as error:
        return {"error": _syntax("E_CP_SYNTAX_JSON", f"not valid JSON: {str(error)[:120]}", {"field": "<text>"})}
    if not isinstance(document, dict):
        return {"error": _syntax("E_CP_SYNTAX_NOT_OBJECT", f"a FOLD document is a JSON object, got "
                                 f"{type(document).__name__}", {"field": "<text>"})}
    return {"document": document}


def compile_generated(document: Any, *, timeout: float = COMPILE_TIMEOUT) -> GeneratedFold:
    """Check, build and compile a generated FOLD document; never raises for bad input.

    Args:
        document: the parsed JSON (any value: a non-object is a syntax error).
        timeout: seconds the compiler may spend counting states (the count is then a lower bound).

    >>> compile_generated({"vertices_coords": [[0, 0]], "edges_vertices": [[0, 5]]}).error["where"]
    {'field': 'edges_vertices', 'index': 0}
    >>> compile_generated(None).error["class"]
    'CSE'
    """
    if not isinstance(document, dict):
        return GeneratedFold(None, None, _syntax(
            "E_CP_SYNTAX_NOT_OBJECT", f"a FOLD document is a JSON object, got {type(document).__name__}",
            {"field": "<document>"}))
    early = _size_error(document) or _coordinate_error(document)
    if early is not None:
        return GeneratedFold(None, None, early)
    try:
        pattern = pattern_from_fold(document, "generated pattern")
    except CreasePatternError as error:
        return GeneratedFold(None, None, error.to_dict())
    try:
        compiled = compile_crease_pattern(pattern, timeout=timeout)
    except CreasePatternError as error:
        return GeneratedFold(pattern, None, error.to_dict())
    return GeneratedFold(pattern, compiled, None)
