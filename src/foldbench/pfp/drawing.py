"""Shared drawing primitives of the PFP pictures: one palette, panels, shapely geometry on Pillow, PNG bytes.

Every picture is a palette ("P") image so PNG encoding is fast; the same picture always gives the same bytes
(only the IHDR, PLTE, IDAT and IEND chunks are written).
"""

from __future__ import annotations

import io
from functools import cache

import numpy as np
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.tolerance import SHEET_SIZE

__all__ = [
    "BACKGROUND",
    "CREASE",
    "CUT",
    "FAINT",
    "INK",
    "PALETTE",
    "PAPER",
    "PAPER_BACK",
    "PATTERN_COLORS",
    "Frame",
    "composite",
    "draw_geometry",
    "draw_outline",
    "font",
    "hstack",
    "RIGHT_MARK",
    "WRONG_MARK",
    "new_panel",
    "png_bytes",
    "question_panel",
]

BACKGROUND, PAPER, PAPER_BACK, INK, CUT, FAINT, CREASE = range(7)
PATTERN_COLORS = (7, 8, 9, 10, 11, 12)
RIGHT_MARK, WRONG_MARK = 13, 14
_COLORS = (
    (255, 255, 255),
    (214, 214, 214),
    (160, 160, 160),
    (0, 0, 0),
    (40, 110, 230),
    (150, 150, 150),
    (220, 40, 40),
    (220, 50, 50),
    (30, 140, 60),
    (40, 90, 220),
    (230, 160, 20),
    (140, 60, 170),
    (20, 160, 170),
    (0, 170, 60),
    (230, 0, 0),
)
PALETTE: list[int] = [channel for color in _COLORS for channel in color]


def new_panel(width: int, height: int | None = None) -> Image.Image:
    """A blank white palette picture.

    >>> new_panel(4).size
    (4, 4)
    """
    image = Image.new("P", (width, height or width), BACKGROUND)
    image.putpalette(PALETTE)
    return image


class Frame:
    """Maps the sheet frame (origin in the middle, y up, ``SHEET_SIZE`` wide plus a margin) to pixels."""

    def __init__(self, size: int, *, margin: float = 0.1) -> None:
        self.size = size
        self.scale = size / (SHEET_SIZE * (1 + 2 * margin))

    def point(self, x: float, y: float) -> tuple[float, float]:
        """The pixel position of a sheet point."""
        return self.size / 2 + x * self.scale, self.size / 2 - y * self.scale

    def ring(self, coords: object) -> list[float]:
        """The pixel positions of a ring of sheet points (a ring geometry or its coordinates), flattened
        ``[x0, y0, x1, y1, ...]``."""
        points = shapely.get_coordinates(coords) if isinstance(coords, BaseGeometry) else np.asarray(coords)[:, :2]
        return (points * np.array([self.scale, -self.scale]) + self.size / 2).ravel().tolist()


def _polygons(geometry: BaseGeometry) -> list[Polygon]:
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return [geometry]
    return [g for g in getattr(geometry, "geoms", []) if isinstance(g, Polygon)]


def draw_geometry(
    draw: ImageDraw.ImageDraw,
    frame: Frame,
    geometry: BaseGeometry,
    *,
    fill: int,
    outline: int | None = INK,
    width: int = 2,
) -> None:
    """Fill the polygons of ``geometry`` (holes left white) and outline them."""
    for polygon in _polygons(geometry):
        rings = [frame.ring(ring) for ring in (polygon.exterior, *polygon.interiors)]
        draw.polygon(rings[0], fill=fill)
        for interior in rings[1:]:
            draw.polygon(interior, fill=BACKGROUND)
        if outline is not None:
            for ring in rings:
                draw.line(ring, fill=outline, width=width)


def draw_outline(draw: ImageDraw.ImageDraw, frame: Frame, geometry: BaseGeometry, *, color: int, width: int) -> None:
    """Outline the polygons of ``geometry`` (exteriors and holes)."""
    for polygon in _polygons(geometry):
        for ring in (polygon.exterior, *polygon.interiors):
            draw.line(frame.ring(ring), fill=color, width=width)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels."""
    return ImageFont.load_default(size=size)


@cache
def question_panel(size: int) -> Image.Image:
    """A panel with a large question mark (shared: paste it, do not draw on it)."""
    image = new_panel(size)
    draw = ImageDraw.Draw(image)
    text_font = font(max(10, size // 2))
    left, top, right, bottom = draw.textbbox((0, 0), "?", font=text_font)
    draw.text(((size - left - right) / 2, (size - top - bottom) / 2), "?", fill=INK, font=text_font)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """The PNG encoding of ``image``, with no metadata chunks (same picture, same bytes).

    >>> png_bytes(new_panel(1))[:4]
    b'\\x89PNG'
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def composite(
    question: list[Image.Image],
    options: list[Image.Image],
    *,
    gap: int = 12,
    marks: dict[int, int] | None = None,
) -> Image.Image:
    """The question row (pictures left to right) above the options row, each option labelled A, B, C, D.

    ``marks`` frames chosen options in a palette colour (option index -> colour), for report galleries.
    """
    label_height = 28
    top_width = sum(p.width for p in question) + gap * (len(question) - 1)
    option_width = sum(p.width for p in options) + gap * (len(options) - 1)
    width = max(top_width, option_width) + 2 * gap
    top_height = max(p.height for p in question)
    option_height = max(p.height for p in options)
    image = new_panel(width, top_height + option_height + label_height + 4 * gap)
    draw = ImageDraw.Draw(image)
    x = (width - top_width) // 2
    for picture in question:
        image.paste(picture, (x, gap))
        x += picture.width + gap
    y = top_height + 2 * gap
    draw.line([(gap, y - gap // 2), (width - gap, y - gap // 2)], fill=FAINT, width=1)
    x = (width - option_width) // 2
    label_font = font(20)
    for letter, picture in zip("ABCD", options, strict=False):
        image.paste(picture, (x, y))
        color = (marks or {}).get("ABCD".index(letter))
        if color is None:
            draw.rectangle([x, y, x + picture.width - 1, y + picture.height - 1], outline=FAINT, width=1)
        else:
            draw.rectangle([x - 3, y - 3, x + picture.width + 2, y + picture.height + 2], outline=color, width=4)
        left, _, right, _ = draw.textbbox((0, 0), letter, font=label_font)
        draw.text((x + (picture.width - left - right) / 2, y + picture.height + 4), letter, fill=INK, font=label_font)
        x += picture.width + gap
    return image


def hstack(pictures: list[Image.Image], *, gap: int = 4) -> Image.Image:
    """Pictures side by side on white."""
    width = sum(p.width for p in pictures) + gap * (len(pictures) - 1)
    image = new_panel(width, max(p.height for p in pictures))
    x = 0
    for picture in pictures:
        image.paste(picture, (x, 0))
        x += picture.width + gap
    return image
