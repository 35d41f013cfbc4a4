"""Render a crease pattern and a folded state (front and back) as SVG text or PNG images.

Crease colours: mountain red, valley blue, boundary black, flat and unassigned grey. A folded state is painted
cell by cell with the face on top as seen from the chosen side, in the colour of the paper side that face
shows (front side :data:`FRONT_COLOUR`, back side :data:`BACK_COLOUR`); lines are drawn where the visible face
changes. The back view is the mirror image seen from below. Coordinates are drawn with y pointing up.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from foldbench.crease.compiler import CompiledFold
from foldbench.crease.graph.pattern import CreasePattern

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "ASSIGNMENT_COLOURS",
    "BACK_COLOUR",
    "FRONT_COLOUR",
    "crease_pattern_png",
    "crease_pattern_svg",
    "folded_state_png",
    "folded_state_svg",
    "save_image",
]

ASSIGNMENT_COLOURS: dict[str, str] = {"M": "#d62728", "V": "#1f5fd6", "B": "#000000", "F": "#9a9a9a", "U": "#9a9a9a"}
FRONT_COLOUR: str = "#f4d27a"
"""Colour of the paper's front side (the side face 0 shows)."""
BACK_COLOUR: str = "#7fa8d9"
"""Colour of the paper's back side."""
_LINE_COLOUR = "#333333"
Side = Literal["front", "back"]


def _frame(points: np.ndarray, size: int, margin: float = 0.05, mirror: bool = False) -> np.ndarray:
    """Map points into a ``size`` x ``size`` picture (y up, optional left-right mirror)."""
    points = np.asarray(points, dtype=float).reshape(-1, 2).copy()
    if mirror:
        points[:, 0] = -points[:, 0]
    low, high = points.min(axis=0), points.max(axis=0)
    span = float((high - low).max()) or 1.0
    scale = size * (1 - 2 * margin) / span
    centre = (low + high) / 2
    mapped = (points - centre) * scale
    mapped[:, 1] = -mapped[:, 1]
    return mapped + size / 2


def _crease_lines(pattern: CreasePattern, size: int) -> list[tuple[tuple[float, float, float, float], str]]:
    coords = _frame(pattern.vertices_coords, size)
    order = sorted(range(pattern.edge_count), key=lambda e: pattern.edges_assignment[e] in "MVB")
    lines = []
    for edge in order:
        a, b = pattern.edges_vertices[edge]
        lines.append(((*coords[a], *coords[b]), ASSIGNMENT_COLOURS[pattern.edges_assignment[edge]]))
    return lines


def crease_pattern_svg(pattern: CreasePattern, size: int = 512) -> str:
    """The crease pattern as an SVG document.

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> crease_pattern_svg(build_crease_pattern(square, "BBBB"), 64).count("<line")
    4
    """
    width = max(1.0, size / 256)
    body = [f'<rect width="{size}" height="{size}" fill="white"/>']
    for (x1, y1, x2, y2), colour in _crease_lines(pattern, size):
        body.append(f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}" stroke="{colour}" '
                    f'stroke-width="{width:.2f}" stroke-linecap="round"/>')
    return _svg(size, body)


def _svg(size: int, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}">\n' + "\n".join(body) + "\n</svg>\n")


def _visible_cells(compiled: CompiledFold, state: int, side: Side) -> tuple[list[int], np.ndarray]:
    """The face seen in each cell from ``side`` (-1 for a cell without paper) and the cell coordinates."""
    orders = compiled.cells_layer_order(state)
    visible = [(order[0] if side == "front" else order[-1]) if order else -1 for order in orders]
    return visible, compiled.cells.points_coords


def _folded_shapes(
    compiled: CompiledFold, state: int, side: Side, size: int
) -> tuple[list[tuple[list[tuple[float, float]], str]], list[tuple[float, float, float, float]]]:
    visible, points = _visible_cells(compiled, state, side)
    coords = _frame(points, size, mirror=side == "back")
    flipped = compiled.folded.faces_flipped
    polygons = []
    for cell, face in enumerate(visible):
        if face < 0:
            continue
        shows_front = (not flipped[face]) if side == "front" else bool(flipped[face])
        corners = [(float(coords[p][0]), float(coords[p][1])) for p in compiled.cells.cells_points[cell]]
        polygons.append((corners, FRONT_COLOUR if shows_front else BACK_COLOUR))
    lines = []
    for segment, (left, right) in enumerate(compiled.cells.segments_cells.tolist()):
        left_face = visible[left] if left >= 0 else -1
        right_face = visible[right] if right >= 0 else -1
        if left_face != right_face:
            a, b = compiled.cells.segments_points[segment]
            lines.append((float(coords[a][0]), float(coords[a][1]), float(coords[b][0]), float(coords[b][1])))
    return polygons, lines


def folded_state_svg(compiled: CompiledFold, state: int = 0, side: Side = "front", size: int = 512) -> str:
    """A folded state seen from the front or the back, as an SVG document."""
    polygons, lines = _folded_shapes(compiled, state, side, size)
    body = [f'<rect width="{size}" height="{size}" fill="white"/>']
    for corners, colour in polygons:
        path = " ".join(f"{x:.3f},{y:.3f}" for x, y in corners)
        body.append(f'<polygon points="{path}" fill="{colour}" stroke="{colour}" stroke-width="0.5"/>')
    width = max(1.0, size / 256)
    for x1, y1, x2, y2 in lines:
        body.append(f'<line x1="{x1:.3f}" y1="{y1:.3f}" x2="{x2:.3f}" y2="{y2:.3f}" stroke="{_LINE_COLOUR}" '
                    f'stroke-width="{width:.2f}" stroke-linecap="round"/>')
    return _svg(size, body)


def crease_pattern_png(pattern: CreasePattern, size: int = 512) -> Image.Image:
    """The crease pattern as an RGB image of ``size`` x ``size`` pixels."""
    from PIL import Image, ImageDraw  # Pillow only for PNG renders

    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    width = max(1, round(size / 256))
    for (x1, y1, x2, y2), colour in _crease_lines(pattern, size):
        draw.line([(x1, y1), (x2, y2)], fill=colour, width=width)
    return image


def folded_state_png(compiled: CompiledFold, state: int = 0, side: Side = "front", size: int = 512) -> Image.Image:
    """A folded state seen from the front or the back, as an RGB image of ``size`` x ``size`` pixels."""
    from PIL import Image, ImageDraw

    polygons, lines = _folded_shapes(compiled, state, side, size)
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    for corners, colour in polygons:
        draw.polygon(corners, fill=colour, outline=colour)
    width = max(1, round(size / 256))
    for x1, y1, x2, y2 in lines:
        draw.line([(x1, y1), (x2, y2)], fill=_LINE_COLOUR, width=width)
    return image


def save_image(content: str | Image.Image, path: str | Path) -> Path:
    """Write SVG text or a PIL image to ``path``; return the path."""
    path = Path(path)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        content.save(path)
    return path
