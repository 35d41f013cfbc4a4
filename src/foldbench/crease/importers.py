"""Import crease patterns drawn as line segments: ORIPA ``.cp`` and ``.opx``, crease-pattern ``.svg``.

Every importer returns segments plus FOLD assignments and hands them to
:func:`foldbench.crease.pattern.build_crease_pattern`, which planarises them with the one tolerance policy.

Line types: ORIPA ``1`` boundary (cut), ``2`` mountain, ``3`` valley, ``0`` auxiliary (flat), ``4``
unassigned. SVG stroke colours: black ``B``, red ``M``, blue ``V``, grey ``F``, anything else (green, ...)
``U``. SVG ``<line>``, ``<polyline>``, ``<polygon>`` and straight ``<path>`` commands (M/L/H/V/Z) are read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np

from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.fold_format import MAX_FILE_BYTES, read_fold
from foldbench.crease.pattern import CreasePattern, build_crease_pattern

__all__ = ["SUPPORTED_SUFFIXES", "parse_cp_text", "parse_opx_text", "parse_svg_text", "read_crease_pattern"]

SUPPORTED_SUFFIXES: tuple[str, ...] = (".fold", ".cp", ".opx", ".svg")
_ORIPA_TYPES = {0: "F", 1: "B", 2: "M", 3: "V", 4: "U"}
_COLOURS = {
    "black": "B",
    "#000": "B",
    "#000000": "B",
    "red": "M",
    "#f00": "M",
    "#ff0000": "M",
    "blue": "V",
    "#00f": "V",
    "#0000ff": "V",
    "gray": "F",
    "grey": "F",
    "#808080": "F",
    "#888": "F",
    "#888888": "F",
    "lightgray": "F",
}

Segments = tuple[np.ndarray, list[str]]


def parse_cp_text(text: str, source: str = "<cp>") -> Segments:
    """ORIPA ``.cp``: one segment per line, ``type x1 y1 x2 y2``.

    >>> segments, letters = parse_cp_text("1 0 0 1 0\\n3 0 0 1 1\\n")
    >>> segments.shape, letters
    ((2, 2, 2), ['B', 'V'])
    """
    segments, letters = [], []
    for line_number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 5:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_INVALID_PARAM_COUNT",
                f"{source} line {line_number}: expected 'type x1 y1 x2 y2', got {len(fields)} fields",
                {"source": source, "line": line_number},
            )
        try:
            kind = int(fields[0])
            numbers = [float(value) for value in fields[1:]]
        except ValueError:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_INVALID_PARAM_TYPE",
                f"{source} line {line_number}: not numbers: {line.strip()!r}",
                {"source": source, "line": line_number},
            ) from None
        if kind not in _ORIPA_TYPES or not all(np.isfinite(numbers)):
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
                f"{source} line {line_number}: unknown line type {kind}",
                {"source": source, "line": line_number},
            )
        segments.append([numbers[:2], numbers[2:]])
        letters.append(_ORIPA_TYPES[kind])
    return np.array(segments, dtype=float).reshape(-1, 2, 2), letters


def parse_opx_text(text: str, source: str = "<opx>") -> Segments:
    """ORIPA ``.opx`` (Java XMLEncoder): ``OriLineProxy`` objects with ``type``, ``x0``, ``y0``, ``x1``, ``y1``."""
    root = _parse_xml(text, source)
    segments, letters = [], []
    for index, proxy in enumerate(
        element for element in root.iter("object") if element.get("class", "").endswith("OriLineProxy")
    ):
        values: dict[str, float] = {"type": 0, "x0": 0.0, "y0": 0.0, "x1": 0.0, "y1": 0.0}
        for prop in proxy.findall("void"):
            name = prop.get("property")
            child = next(iter(prop), None)
            if name in values and child is not None and child.text is not None:
                try:
                    values[name] = float(child.text)
                except ValueError:
                    raise CreasePatternSyntaxError(
                        "E_CP_SYNTAX_INVALID_PARAM_TYPE",
                        f"{source} line {index}: {name}={child.text!r}",
                        {"source": source, "line": index, "field": name},
                    ) from None
        kind = int(values["type"])
        if kind not in _ORIPA_TYPES:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
                f"{source} line {index}: unknown line type {kind}",
                {"source": source, "line": index},
            )
        segments.append([[values["x0"], values["y0"]], [values["x1"], values["y1"]]])
        letters.append(_ORIPA_TYPES[kind])
    return np.array(segments, dtype=float).reshape(-1, 2, 2), letters


def _parse_xml(text: str, source: str) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        line, column = error.position
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_UNEXPECTED_TOKEN",
            f"{source} is not valid XML at line {line}, column {column}",
            {"source": source, "line": line, "column": column},
        ) from None


def _stroke(element: ElementTree.Element, inherited: str | None) -> str | None:
    stroke = element.get("stroke")
    style = element.get("style", "")
    match = re.search(r"stroke\s*:\s*([^;]+)", style)
    if match:
        stroke = match.group(1)
    return stroke.strip().lower() if stroke else inherited


def _path_points(d: str) -> list[list[tuple[float, float]]]:
    """Polylines of a straight-segment SVG path (M, L, H, V, Z, absolute and relative)."""
    tokens = re.findall(r"[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", d)
    runs: list[list[tuple[float, float]]] = []
    x = y = 0.0
    command = "M"
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.isalpha():
            command = token
            index += 1
            if command in "Zz" and runs and runs[-1]:
                runs[-1].append(runs[-1][0])
            continue
        if command in "Mm":
            dx, dy = float(tokens[index]), float(tokens[index + 1])
            x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
            runs.append([(x, y)])
            index += 2
            command = "l" if command == "m" else "L"
        elif command in "Ll":
            dx, dy = float(tokens[index]), float(tokens[index + 1])
            x, y = (x + dx, y + dy) if command == "l" else (dx, dy)
            runs[-1].append((x, y))
            index += 2
        elif command in "Hh":
            x = x + float(tokens[index]) if command == "h" else float(tokens[index])
            runs[-1].append((x, y))
            index += 1
        elif command in "Vv":
            y = y + float(tokens[index]) if command == "v" else float(tokens[index])
            runs[-1].append((x, y))
            index += 1
        else:
            raise ValueError(f"unsupported path command {command!r}")
    return runs


def parse_svg_text(text: str, source: str = "<svg>") -> Segments:
    """Crease-pattern SVG: straight strokes coloured by assignment (group strokes are inherited)."""
    root = _parse_xml(text, source)
    segments: list[list[list[float]]] = []
    letters: list[str] = []

    def letter_of(stroke: str | None) -> str:
        return _COLOURS.get(stroke or "", "U")

    def visit(element: ElementTree.Element, inherited: str | None) -> None:
        tag = element.tag.rsplit("}", 1)[-1]
        stroke = _stroke(element, inherited)
        try:
            if tag == "line":
                coords = [float(element.get(name, "0")) for name in ("x1", "y1", "x2", "y2")]
                segments.append([coords[:2], coords[2:]])
                letters.append(letter_of(stroke))
            elif tag in ("polyline", "polygon"):
                numbers = [
                    float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", element.get("points", ""))
                ]
                points = list(zip(numbers[0::2], numbers[1::2], strict=False))
                if tag == "polygon" and points:
                    points.append(points[0])
                for a, b in zip(points, points[1:], strict=False):
                    segments.append([list(a), list(b)])
                    letters.append(letter_of(stroke))
            elif tag == "path":
                for run in _path_points(element.get("d", "")):
                    for a, b in zip(run, run[1:], strict=False):
                        segments.append([list(a), list(b)])
                        letters.append(letter_of(stroke))
        except (ValueError, IndexError) as error:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_INVALID_PARAM_TYPE",
                f"{source}: unreadable <{tag}> element: {error}",
                {"source": source, "element": tag},
            ) from None
        for child in element:
            visit(child, stroke)

    visit(root, None)
    array = np.array(segments, dtype=float).reshape(-1, 2, 2)
    if not np.isfinite(array).all():
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_VALUE_OUT_OF_RANGE", f"{source}: non-finite coordinate", {"source": source}
        )
    return array, letters


def read_crease_pattern(path: str | Path, *, repair: bool = False) -> CreasePattern:
    """Read a crease pattern from ``.fold``, ``.cp``, ``.opx`` or ``.svg`` (by suffix).

    Drawings (``.cp``, ``.opx``, ``.svg``) are always planarised; a ``.fold`` graph with crossing edges is an
    error unless ``repair`` (see :func:`~foldbench.crease.fold_format.pattern_from_fold`).

    Raises:
        CreasePatternSyntaxError: unknown suffix, unreadable or malformed file (with the location).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise CreasePatternSyntaxError(
            "E_CP_UNKNOWN_FORMAT",
            f"{path.name}: unknown format {suffix!r} (expected {', '.join(SUPPORTED_SUFFIXES)})",
            {"source": str(path)},
        )
    if not path.is_file():
        raise CreasePatternSyntaxError("E_CP_NO_FILE", f"{path} is not a file", {"source": str(path)})
    if suffix == ".fold":
        return read_fold(path, repair=repair)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise CreasePatternSyntaxError("E_CP_FILE_TOO_LARGE", f"{path.name} is too large", {"source": str(path)})
    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        raise CreasePatternSyntaxError("E_CP_SYNTAX_EMPTY", f"{path.name} is empty", {"source": str(path)})
    parser = {".cp": parse_cp_text, ".opx": parse_opx_text, ".svg": parse_svg_text}[suffix]
    segments, letters = parser(text, path.name)
    return build_crease_pattern(segments, letters, source=path.name)
