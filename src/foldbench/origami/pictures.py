"""Pictures of folded forms in the aligned paper frame, so the target and the current state share one scale.

A window is a square ``(x_min, y_min, side)`` of the paper frame. :data:`SAFE_WINDOW` holds every folded form of
the square (each folded point lies within the square's diagonal of the reference point, which stays in place);
:func:`episode_window` is a tighter window for one target: the square and the target, with a margin. Paper
colours and visible-face rules follow :mod:`foldbench.crease.render` (front side yellow, back side blue); the
back view is the mirror image seen from below.
"""

from __future__ import annotations

import io
import math
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw

from foldbench.crease.render import BACK_COLOUR, FRONT_COLOUR, crease_pattern_png
from foldbench.origami.actions import PAPER_SIZE
from foldbench.origami.folded import REFERENCE_POINT, AlignedFold

__all__ = ["SAFE_WINDOW", "Window", "crease_pattern_image", "episode_window", "fitted_window", "folded_image",
           "png_bytes"]

Window = tuple[float, float, float]
_REACH = PAPER_SIZE * math.sqrt(2)
SAFE_WINDOW: Window = (REFERENCE_POINT[0] - _REACH, REFERENCE_POINT[1] - _REACH, 2 * _REACH)
"""A window every folded form of the square fits in."""
_LINE = "#333333"
_SQUARE_OUTLINE = "#d0d0d0"


def episode_window(*folds: AlignedFold, margin: float = 0.06) -> Window:
    """The smallest square window holding the unfolded square and ``folds``, widened by ``margin`` each side."""
    points = np.vstack([*(f.vertices_coords for f in folds), [[0.0, 0.0], [PAPER_SIZE, PAPER_SIZE]]])
    low, high = points.min(axis=0), points.max(axis=0)
    side = float((high - low).max()) * (1 + 2 * margin)
    centre = (low + high) / 2
    return float(centre[0] - side / 2), float(centre[1] - side / 2), side


def fitted_window(fold: AlignedFold, margin: float = 0.02) -> Window:
    """The smallest square window holding the folded form alone, centred on it and widened by ``margin`` each side:
    the form fills the picture whatever its size, as a drawing framed on its own bounding box does."""
    points = np.asarray(fold.vertices_coords, float)
    low, high = points.min(axis=0), points.max(axis=0)
    side = max(float((high - low).max()), 1e-9) * (1 + 2 * margin)
    centre = (low + high) / 2
    return float(centre[0] - side / 2), float(centre[1] - side / 2), side


def _to_pixels(points: np.ndarray, window: Window, size: int, mirror: bool) -> np.ndarray:
    x_min, y_min, side = window
    scale = size / side
    pixels = np.empty_like(points, dtype=float)
    pixels[:, 0] = (points[:, 0] - x_min) * scale
    if mirror:
        pixels[:, 0] = size - pixels[:, 0]
    pixels[:, 1] = size - (points[:, 1] - y_min) * scale
    return pixels


def folded_image(aligned: AlignedFold, side: Literal["front", "back"] = "front", size: int = 256,
                 window: Window = SAFE_WINDOW, *, square_outline: bool = False) -> Image.Image:
    """The folded form seen from ``side`` in ``window`` (RGB, ``size`` x ``size``), optionally over a light outline
    of where the unfolded square lies."""
    compiled = aligned.compiled
    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    mirror = side == "back"
    if square_outline:
        outline = _to_pixels(np.array([[0, 0], [PAPER_SIZE, 0], [PAPER_SIZE, PAPER_SIZE], [0, PAPER_SIZE]], float),
                             window, size, mirror)
        draw.polygon([(float(x), float(y)) for x, y in outline.tolist()], outline=_SQUARE_OUTLINE)
    orders = compiled.cells_layer_order(0)
    visible = [(order[0] if side == "front" else order[-1]) if order else -1 for order in orders]
    if bool(compiled.folded.faces_flipped[aligned.reference_face]):  # alignment turned the stack over
        visible = [(order[-1] if side == "front" else order[0]) if order else -1 for order in orders]
    points = _to_pixels(aligned.transform(compiled.cells.points_coords), window, size, mirror)
    for cell, face in enumerate(visible):
        if face < 0:
            continue
        shows_front = not aligned.faces_flipped[face] if side == "front" else bool(aligned.faces_flipped[face])
        colour = FRONT_COLOUR if shows_front else BACK_COLOUR
        corners = [(float(points[p][0]), float(points[p][1])) for p in compiled.cells.cells_points[cell]]
        draw.polygon(corners, fill=colour, outline=colour)
    width = max(1, round(size / 256))
    for segment, (left, right) in enumerate(compiled.cells.segments_cells.tolist()):
        left_face = visible[left] if left >= 0 else -1
        right_face = visible[right] if right >= 0 else -1
        if left_face != right_face:
            a, b = compiled.cells.segments_points[segment]
            draw.line([(float(points[a][0]), float(points[a][1])), (float(points[b][0]), float(points[b][1]))],
                      fill=_LINE, width=width)
    return image


def crease_pattern_image(aligned: AlignedFold, size: int = 256) -> Image.Image:
    """The crease pattern (mountain red, valley blue, boundary black)."""
    return crease_pattern_png(aligned.compiled.pattern, size)


def png_bytes(image: Image.Image) -> bytes:
    """The image encoded as PNG."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
