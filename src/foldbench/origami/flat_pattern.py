"""The compiled flat pattern: the two-dimensional folded state the compiler computes, drawn as OrigamiSpace's
code-generation input (never the crease pattern itself).

The picture is the arrangement of the folded edges: every cell of the flat-folded model is shaded by how many
layers of paper stack there (lighter = fewer), the outline of the folded shape is drawn thick, the folded images
of the creases thin and dark, and the folded images of the paper's edge that fall inside the outline thin and
brown. The crease assignment (mountain or valley) is not drawn; the folded-shape pictures front and back show
which side of the paper faces the viewer.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from foldbench.crease.compiler import CompiledFold

__all__ = ["CREASE_LINE_COLOUR", "EDGE_LINE_COLOUR", "OUTLINE_COLOUR", "flat_pattern_lines", "flat_pattern_png",
           "layer_shade"]

OUTLINE_COLOUR = "#000000"
CREASE_LINE_COLOUR = "#3c3c3c"
EDGE_LINE_COLOUR = "#a0522d"
_LIGHTEST, _DARKEST = 236, 110
_MARGIN = 0.05


def layer_shade(layers: int, most: int) -> tuple[int, int, int]:
    """The grey of a cell covered by ``layers`` of paper when the thickest cell has ``most``.

    >>> layer_shade(1, 4), layer_shade(4, 4), layer_shade(1, 1)
    ((236, 236, 236), (110, 110, 110), (236, 236, 236))
    """
    level = round(_LIGHTEST - (_LIGHTEST - _DARKEST) * (layers - 1) / max(1, most - 1))
    return level, level, level


def flat_pattern_lines(compiled: CompiledFold) -> dict[str, np.ndarray]:
    """The segments the picture draws, in folded coordinates, by kind: ``outline`` (paper on one side only),
    ``crease`` (a crease lies on it) and ``edge`` (only the paper's edge lies on it); each ``(n, 2, 2)``."""
    cells, pattern = compiled.cells, compiled.pattern
    kinds: dict[str, list[np.ndarray]] = {"outline": [], "crease": [], "edge": []}
    for segment, (left, right) in enumerate(cells.segments_cells.tolist()):
        ends = cells.points_coords[cells.segments_points[segment]]
        if left < 0 or right < 0:
            kinds["outline"].append(ends)
        elif any(pattern.edges_assignment[edge] != "B" for edge in cells.segments_edges[segment]):
            kinds["crease"].append(ends)
        else:
            kinds["edge"].append(ends)
    return {kind: np.array(rows, float).reshape(-1, 2, 2) for kind, rows in kinds.items()}


def _to_pixels(points: np.ndarray, low: np.ndarray, high: np.ndarray, size: int) -> np.ndarray:
    span = float((high - low).max()) or 1.0
    scale = size * (1 - 2 * _MARGIN) / span
    mapped = (np.asarray(points, float) - (low + high) / 2) * scale
    mapped[..., 1] = -mapped[..., 1]
    return mapped + size / 2


def flat_pattern_png(compiled: CompiledFold, size: int = 512) -> Image.Image:
    """The compiled flat pattern as an RGB image of ``size`` x ``size`` pixels (y up, seen from the front)."""
    cells = compiled.cells
    coords = cells.points_coords
    low, high = coords.min(axis=0), coords.max(axis=0)
    pixels = _to_pixels(coords, low, high, size)
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    most = max((len(faces) for faces in cells.cells_faces), default=1)
    for points, faces in zip(cells.cells_points, cells.cells_faces, strict=True):
        if faces:
            draw.polygon([tuple(pixels[p]) for p in points], fill=layer_shade(len(faces), most))
    thin = max(1, round(size / 256))
    lines = flat_pattern_lines(compiled)
    for kind, colour, width in (("edge", EDGE_LINE_COLOUR, thin), ("crease", CREASE_LINE_COLOUR, thin),
                                ("outline", OUTLINE_COLOUR, 2 * thin)):
        for segment in _to_pixels(lines[kind], low, high, size):
            draw.line([tuple(segment[0]), tuple(segment[1])], fill=colour, width=width)
    return image
