"""Import crease patterns drawn as line segments: ORIPA ``.cp`` and ``.opx``, crease-pattern ``.svg``.

Every importer returns segments plus FOLD assignments and hands them to
:func:`foldbench.crease.graph.pattern.build_crease_pattern`, which planarises them with the one tolerance policy.

Line types: ORIPA ``1`` boundary (cut), ``2`` mountain, ``3`` valley, ``0`` auxiliary (flat), ``4``
unassigned. SVG stroke colours (names, ``#rgb``, ``#rrggbb``, ``rgb(...)``), as drawing programs and Origami
Simulator write them: black ``B``, red ``M``, blue ``V``, grey, yellow (facet lines) and magenta (undriven
creases) ``F``, anything else ``U`` (green included: Flat-Folder draws unassigned creases green). SVG
``<line>``, ``<polyline>``, ``<polygon>``, ``<rect>`` and straight ``<path>`` commands (M/L/H/V/Z) are read,
through the ``transform`` attributes of the element and its groups (``matrix``, ``translate``, ``scale``,
``rotate``, ``skewX``, ``skewY``); curves, circles and ellipses are not creases and are skipped.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from foldbench.crease.errors import CreasePatternSyntaxError
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.io.fold_format import MAX_FILE_BYTES, read_fold
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

if TYPE_CHECKING:
    import xml.etree.ElementTree as ElementTree

__all__ = ["SUPPORTED_SUFFIXES", "parse_cp_text", "parse_opx_text", "parse_svg_text", "read_crease_pattern"]

SUPPORTED_SUFFIXES: tuple[str, ...] = (".fold", ".cp", ".opx", ".svg")
_ORIPA_TYPES = {0: "F", 1: "B", 2: "M", 3: "V", 4: "U"}
_NAMED_COLOURS = {
    "black": (0, 0, 0), "red": (255, 0, 0), "blue": (0, 0, 255), "lime": (0, 255, 0), "green": (0, 128, 0),
    "yellow": (255, 255, 0), "magenta": (255, 0, 255), "fuchsia": (255, 0, 255), "gray": (128, 128, 128),
    "grey": (128, 128, 128), "lightgray": (211, 211, 211), "lightgrey": (211, 211, 211),
    "darkgray": (169, 169, 169), "darkgrey": (169, 169, 169), "silver": (192, 192, 192), "white": (255, 255, 255),
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
                "E_CP_SYNTAX_INVALID_PARAM_TYPE", f"{source} line {line_number}: not numbers: {line.strip()!r}",
                {"source": source, "line": line_number},
            ) from None
        if kind not in _ORIPA_TYPES or not all(np.isfinite(numbers)):
            problem = f"unknown line type {kind}" if kind not in _ORIPA_TYPES else "a coordinate is not a finite number"
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_VALUE_OUT_OF_RANGE", f"{source} line {line_number}: {problem}",
                {"source": source, "line": line_number},
            )
        segments.append([numbers[:2], numbers[2:]])
        letters.append(_ORIPA_TYPES[kind])
    return np.array(segments, dtype=float).reshape(-1, 2, 2), letters


def parse_opx_text(text: str, source: str = "<opx>") -> Segments:
    """ORIPA ``.opx`` (Java XMLEncoder): ``OriLineProxy`` objects with ``type``, ``x0``, ``y0``, ``x1``, ``y1``."""
    root = _parse_xml(text, source)
    segments, letters = [], []
    for index, proxy in enumerate(element for element in root.iter("object")
                                  if element.get("class", "").endswith("OriLineProxy")):
        values: dict[str, float] = {"type": 0, "x0": 0.0, "y0": 0.0, "x1": 0.0, "y1": 0.0}
        for prop in proxy.findall("void"):
            name = prop.get("property")
            child = next(iter(prop), None)
            if name in values and child is not None and child.text is not None:
                try:
                    values[name] = float(child.text)
                except ValueError:
                    raise CreasePatternSyntaxError(
                        "E_CP_SYNTAX_INVALID_PARAM_TYPE", f"{source} line {index}: {name}={child.text!r}",
                        {"source": source, "line": index, "field": name},
                    ) from None
                if not math.isfinite(values[name]):
                    raise CreasePatternSyntaxError(
                        "E_CP_SYNTAX_VALUE_OUT_OF_RANGE",
                        f"{source} line {index}: {name}={child.text.strip()!r} is not a finite coordinate",
                        {"source": source, "line": index, "field": name},
                    )
        kind = int(values["type"])
        if kind not in _ORIPA_TYPES:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_VALUE_OUT_OF_RANGE", f"{source} line {index}: unknown line type {kind}",
                {"source": source, "line": index},
            )
        segments.append([[values["x0"], values["y0"]], [values["x1"], values["y1"]]])
        letters.append(_ORIPA_TYPES[kind])
    return np.array(segments, dtype=float).reshape(-1, 2, 2), letters


def _parse_xml(text: str, source: str) -> ElementTree.Element:
    import xml.etree.ElementTree as ElementTree  # only ORIPA .opx and SVG files are XML

    try:
        return ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        line, column = error.position
        raise CreasePatternSyntaxError(
            "E_CP_SYNTAX_UNEXPECTED_TOKEN", f"{source} is not valid XML at line {line}, column {column}",
            {"source": source, "line": line, "column": column},
        ) from None


def _rgb(colour: str) -> tuple[int, int, int] | None:
    """A CSS colour as RGB (names, ``#rgb``, ``#rrggbb``, ``rgb(r, g, b)`` with numbers or percentages)."""
    colour = colour.strip().lower()
    if colour in _NAMED_COLOURS:
        return _NAMED_COLOURS[colour]
    if re.fullmatch(r"#[0-9a-f]{3}", colour):
        return (int(colour[1] * 2, 16), int(colour[2] * 2, 16), int(colour[3] * 2, 16))
    if re.fullmatch(r"#[0-9a-f]{6}", colour):
        return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    match = re.fullmatch(r"rgba?\(\s*([\d.]+%?)\s*,\s*([\d.]+%?)\s*,\s*([\d.]+%?)\s*(?:,[^)]*)?\)", colour)
    if match:
        return tuple(round(float(v[:-1]) * 2.55) if v.endswith("%") else round(float(v))  # type: ignore[return-value]
                     for v in match.groups())
    return None


def assignment_of_colour(colour: str | None) -> str:
    """The FOLD assignment a stroke colour stands for (see the module docstring).

    >>> [assignment_of_colour(c) for c in ("#F00", "rgb(0, 0, 255)", "black", "#ffff00", "lime", "orange")]
    ['M', 'V', 'B', 'F', 'U', 'U']
    """
    rgb = _rgb(colour) if colour else None
    if rgb is None:
        return "U"
    red, green, blue = rgb
    if max(rgb) < 64:
        return "B"
    if abs(red - green) < 24 and abs(green - blue) < 24:
        return "F"  # greys
    if red >= 160 and green < 100 and blue < 100:
        return "M"
    if blue >= 160 and red < 100 and green < 100:
        return "V"
    if red >= 160 and green >= 160 and blue < 100:
        return "F"  # yellow: facet lines
    if red >= 160 and blue >= 160 and green < 100:
        return "F"  # magenta: undriven creases
    return "U"  # green (unassigned in Flat-Folder's drawings, though Origami Simulator draws cuts green), ...


def _transform(text: str | None) -> np.ndarray:
    """The 3x3 matrix of an SVG ``transform`` attribute (identity when absent)."""
    matrix = np.eye(3)
    if not text:
        return matrix
    for name, arguments in re.findall(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)", text):
        values = [float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", arguments)]
        step = np.eye(3)
        if name == "matrix" and len(values) == 6:
            a, b, c, d, e, f = values
            step = np.array([[a, c, e], [b, d, f], [0, 0, 1]])
        elif name == "translate" and values:
            step[0, 2], step[1, 2] = values[0], values[1] if len(values) > 1 else 0.0
        elif name == "scale" and values:
            step[0, 0], step[1, 1] = values[0], values[1] if len(values) > 1 else values[0]
        elif name == "rotate" and values:
            angle = np.radians(values[0])
            rotation = np.array([[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1]])
            if len(values) == 3:
                cx, cy = values[1], values[2]
                step = (np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]]) @ rotation
                        @ np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]]))
            else:
                step = rotation
        elif name == "skewX" and values:
            step[0, 1] = np.tan(np.radians(values[0]))
        elif name == "skewY" and values:
            step[1, 0] = np.tan(np.radians(values[0]))
        matrix = matrix @ step
    return matrix


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
    """Crease-pattern SVG: straight strokes coloured by assignment (group strokes and transforms are inherited).

    >>> svg = ('<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(10, 0)">'
    ...        '<rect x="0" y="0" width="4" height="4" stroke="#000"/></g>'
    ...        '<line x1="10" y1="0" x2="14" y2="4" style="stroke: rgb(255, 0, 0)"/></svg>')
    >>> segments, letters = parse_svg_text(svg)
    >>> segments[0].tolist(), letters
    ([[10.0, 0.0], [14.0, 0.0]], ['B', 'B', 'B', 'B', 'M'])
    """
    root = _parse_xml(text, source)
    segments: list[list[list[float]]] = []
    letters: list[str] = []

    def add_run(points: list[tuple[float, float]], matrix: np.ndarray, letter: str) -> None:
        if len(points) < 2:
            return
        moved = (np.column_stack([np.array(points, dtype=float), np.ones(len(points))]) @ matrix.T)[:, :2]
        for a, b in zip(moved[:-1].tolist(), moved[1:].tolist(), strict=True):
            segments.append([a, b])
            letters.append(letter)

    def visit(element: ElementTree.Element, inherited: str | None, parent_matrix: np.ndarray
              ) -> tuple[str | None, np.ndarray] | None:
        """Read one element; returns what its children inherit (None: skip them)."""
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag in ("defs", "clipPath", "mask", "symbol", "marker", "pattern", "title", "desc", "metadata"):
            return None
        stroke = _stroke(element, inherited)
        letter = assignment_of_colour(stroke)
        try:
            matrix = parent_matrix @ _transform(element.get("transform"))
            if tag == "line":
                coords = [_length(element.get(name, "0")) for name in ("x1", "y1", "x2", "y2")]
                add_run([(coords[0], coords[1]), (coords[2], coords[3])], matrix, letter)
            elif tag in ("polyline", "polygon"):
                numbers = [float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?",
                                                        element.get("points", ""))]
                points = list(zip(numbers[0::2], numbers[1::2], strict=False))
                if tag == "polygon" and points:
                    points.append(points[0])
                add_run(points, matrix, letter)
            elif tag == "rect":
                x, y = _length(element.get("x", "0")), _length(element.get("y", "0"))
                width, height = _length(element.get("width", "0")), _length(element.get("height", "0"))
                if width > 0 and height > 0:
                    add_run([(x, y), (x + width, y), (x + width, y + height), (x, y + height), (x, y)], matrix,
                            letter)
            elif tag == "path":
                for run in _path_points(element.get("d", "")):
                    add_run(run, matrix, letter)
        except (ValueError, IndexError) as error:
            raise CreasePatternSyntaxError(
                "E_CP_SYNTAX_INVALID_PARAM_TYPE", f"{source}: unreadable <{tag}> element: {error}",
                {"source": source, "element": tag},
            ) from None
        return stroke, matrix

    # Document order without recursion: an SVG nested 100,000 deep is read like a flat one.
    stack: list[tuple[ElementTree.Element, str | None, np.ndarray]] = [(root, None, np.eye(3))]
    while stack:
        element, inherited, matrix = stack.pop()
        passed_on = visit(element, inherited, matrix)
        if passed_on is not None:
            stack.extend((child, *passed_on) for child in reversed(element))
    array = np.array(segments, dtype=float).reshape(-1, 2, 2)
    if not np.isfinite(array).all():
        raise CreasePatternSyntaxError("E_CP_SYNTAX_VALUE_OUT_OF_RANGE", f"{source}: non-finite coordinate",
                                       {"source": source})
    return array, letters


def _length(value: str) -> float:
    """An SVG length in user units (a trailing ``px`` is allowed)."""
    value = value.strip()
    return float(value[:-2] if value.endswith("px") else value)


def read_crease_pattern(
    path: str | Path, *, repair: bool = False, policy: PrecisionPolicy = DEFAULT_POLICY
) -> CreasePattern:
    """Read a crease pattern from ``.fold``, ``.cp``, ``.opx`` or ``.svg`` (by suffix).

    Drawings (``.cp``, ``.opx``, ``.svg``) are always planarised; a ``.fold`` graph with crossing edges is an
    error unless ``repair`` (see :func:`~foldbench.crease.io.fold_format.pattern_from_fold`). ``policy`` is the
    precision policy the pattern is built with and carries to the compiler.

    Raises:
        CreasePatternSyntaxError: unknown suffix, unreadable or malformed file (with the location).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise CreasePatternSyntaxError(
            "E_CP_UNKNOWN_FORMAT", f"{path.name}: unknown format {suffix!r} (expected {', '.join(SUPPORTED_SUFFIXES)})",
            {"source": str(path)},
        )
    if not path.is_file():
        raise CreasePatternSyntaxError("E_CP_NO_FILE", f"{path} is not a file", {"source": str(path)})
    if suffix == ".fold":
        return read_fold(path, repair=repair, policy=policy)
    if path.stat().st_size > MAX_FILE_BYTES:
        raise CreasePatternSyntaxError("E_CP_FILE_TOO_LARGE", f"{path.name} is too large", {"source": str(path)})
    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        raise CreasePatternSyntaxError("E_CP_SYNTAX_EMPTY", f"{path.name} is empty", {"source": str(path)})
    parser = {".cp": parse_cp_text, ".opx": parse_opx_text, ".svg": parse_svg_text}[suffix]
    segments, letters = parser(text, path.name)
    return build_crease_pattern(segments, letters, source=path.name, policy=policy)
