"""The pictures of a spatial-relationship question: the crease pattern and the folded model (front view), each
drawn by :mod:`foldbench.crease.render` and then marked with labelled points.

Marks are placed with the renderer's own framing (the drawing's bounding box, 5 % margin, y up), so a mark sits
exactly where its point is drawn. A mark is a black dot with a white ring and its label in a white box beside it,
in a font a twentieth of the picture's side (19 px at the default 384 px).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from foldbench.crease.render import crease_pattern_png, folded_state_png
from foldbench.tasks.origamispace.relationship_questions import Mark
from foldbench.tasks.origamispace.relationships import FoldReference

__all__ = ["FRAME_MARGIN", "folded_picture", "pattern_picture", "to_pixels"]

FRAME_MARGIN: float = 0.05
"""The renderer's margin (a fraction of the picture's side)."""
MARK_COLOUR = "#000000"
RING_COLOUR = "#ffffff"


def to_pixels(points: np.ndarray, frame_points: np.ndarray, size: int) -> np.ndarray:
    """Pixel positions of ``points`` in a picture of ``size`` pixels framed on ``frame_points`` as the renderer
    frames it.

    >>> to_pixels(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[0.0, 0.0], [1.0, 1.0]]), 100).tolist()
    [[5.0, 95.0], [95.0, 5.0]]
    """
    frame_points = np.asarray(frame_points, float).reshape(-1, 2)
    low, high = frame_points.min(axis=0), frame_points.max(axis=0)
    span = float((high - low).max()) or 1.0
    scale = size * (1 - 2 * FRAME_MARGIN) / span
    mapped = (np.asarray(points, float).reshape(-1, 2) - (low + high) / 2) * scale
    mapped[:, 1] = -mapped[:, 1]
    return mapped + size / 2


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _draw_marks(image: Image.Image, marks: Sequence[Mark], frame_points: np.ndarray) -> Image.Image:
    image = image.copy()
    size = image.width
    draw = ImageDraw.Draw(image)
    font = _font(max(12, size // 20))
    radius = max(3, size // 80)
    pixels = to_pixels(np.array([[m.x, m.y] for m in marks]), frame_points, size) if marks else np.zeros((0, 2))
    for mark, (x, y) in zip(marks, pixels, strict=True):
        draw.ellipse((x - radius - 2, y - radius - 2, x + radius + 2, y + radius + 2), fill=RING_COLOUR)
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=MARK_COLOUR)
        left, top, right, bottom = draw.textbbox((0, 0), mark.label, font=font)
        width, height = right - left + 6, bottom - top + 6
        box_x = x + radius + 3 if x + radius + 3 + width <= size else x - radius - 3 - width
        box_y = y - radius - 3 - height if y - radius - 3 - height >= 0 else y + radius + 3
        draw.rectangle((box_x, box_y, box_x + width, box_y + height), fill=RING_COLOUR, outline=MARK_COLOUR)
        draw.text((box_x + 3 - left, box_y + 3 - top), mark.label, fill=MARK_COLOUR, font=font)
    return image


def pattern_picture(reference: FoldReference, marks: Sequence[Mark], size: int,
                    base: Image.Image | None = None) -> Image.Image:
    """The crease pattern with ``marks`` (paper coordinates); ``base`` is the unmarked picture when the caller
    has it already."""
    base = base if base is not None else crease_pattern_png(reference.compiled.pattern, size)
    return _draw_marks(base, marks, reference.compiled.pattern.vertices_coords)


def folded_picture(reference: FoldReference, marks: Sequence[Mark], size: int,
                   base: Image.Image | None = None) -> Image.Image:
    """The folded model seen from the front with ``marks`` (folded coordinates); ``base`` is the unmarked
    picture when the caller has it already."""
    base = base if base is not None else folded_state_png(reference.compiled, 0, "front", size)
    return _draw_marks(base, marks, reference.folded_points)
