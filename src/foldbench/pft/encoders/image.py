"""The 2D image encoding of the paper folding test: one flat picture of the paper per step.

Each picture is a square of ``size`` pixels showing the 4×4 sheet from the front, on a light gray margin. A
grid position where paper lies is white, one with no paper (folded away) is black, every triangle has thin
gray edges, and each hole is a green shape at its triangle's centroid, sized and turned as
:mod:`foldbench.pft.encoders.shapes` describes. The step pictures are palette ("P") images, so encoding them
as PNG is fast and small; :func:`png_bytes` gives the same bytes for the same picture.

The numbered reference sheet (:func:`reference_sheet`) shows the flat sheet with each triangle's location
``1..32`` written at its centroid.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from foldbench.errors import InvalidHoleError, UsageError
from foldbench.pft.encoders.shapes import hole_center, outline_of_hole
from foldbench.pft.grid import NUM_POSITIONS, SIZE, location_of, triangle_vertices
from foldbench.pft.holes import Hole
from foldbench.pft.paper import Paper
from foldbench.pft.simulate import Solution

__all__ = [
    "EDGE_COLOR",
    "HOLE_COLOR",
    "MARGIN_COLOR",
    "NO_PAPER_COLOR",
    "NUMBER_COLOR",
    "PAPER_COLOR",
    "InvalidImageSizeError",
    "SheetLayout",
    "png_bytes",
    "reference_sheet",
    "render_paper",
    "render_result",
    "render_steps",
    "render_unfolding",
    "sheet_layout",
]

Color = tuple[int, int, int]

PAPER_COLOR: Color = (255, 255, 255)
NO_PAPER_COLOR: Color = (0, 0, 0)
EDGE_COLOR: Color = (128, 128, 128)
HOLE_COLOR: Color = (0, 180, 0)
MARGIN_COLOR: Color = (200, 200, 200)
NUMBER_COLOR: Color = (0, 0, 0)

# Palette indices of the step pictures.
_NO_PAPER, _PAPER, _EDGE, _HOLE, _MARGIN = range(5)
_PALETTE = [
    channel
    for color in (NO_PAPER_COLOR, PAPER_COLOR, EDGE_COLOR, HOLE_COLOR, MARGIN_COLOR)
    for channel in color
]

_MIN_SIZE = 64


class InvalidImageSizeError(UsageError, ValueError):
    """A picture size that is not an integer number of pixels, or too small to draw the sheet legibly."""


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where the sheet lies in a picture: its top-left corner at ``(margin, margin)``, cells ``cell`` pixels wide.

    Attributes:
        size: the picture's width and height in pixels.
        margin: pixels between the picture's edge and the sheet's top-left corner.
        cell: the side of one grid cell in pixels.
        edge_width: the width of the triangles' gray edges in pixels.
    """

    size: int
    margin: int
    cell: int
    edge_width: int

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        """The pixel coordinates of the sheet point ``(x, y)`` (grid units, ``y`` down)."""
        return self.margin + self.cell * x, self.margin + self.cell * y


def sheet_layout(size: int) -> SheetLayout:
    """The layout of a ``size``×``size`` picture: a margin of about 1/32 of the size, whole-pixel cells.

    Raises:
        InvalidImageSizeError: when ``size`` is not an integer of at least 64.

    >>> sheet_layout(512)
    SheetLayout(size=512, margin=16, cell=120, edge_width=1)
    >>> sheet_layout(64)  # the smallest picture: one-pixel edges, 15-pixel cells
    SheetLayout(size=64, margin=2, cell=15, edge_width=1)
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < _MIN_SIZE:
        raise InvalidImageSizeError(
            f"picture size must be an integer of at least {_MIN_SIZE} pixels, got {size!r}"
        )
    return _layout(size)


@cache
def _layout(size: int) -> SheetLayout:
    cell = (size - 2 * (size // 32)) // SIZE
    return SheetLayout(size, (size - SIZE * cell) // 2, cell, max(1, round(size / 512)))


@cache
def _triangle_pixels(size: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    layout = _layout(size)
    return tuple(tuple(layout.to_pixel(x, y) for x, y in triangle_vertices(p)) for p in range(NUM_POSITIONS))


def _edge_segments(layout: SheetLayout) -> list[tuple[float, float, float, float]]:
    """Every triangle edge once: the grid lines and each cell's cut."""
    segments = []
    for line in range(SIZE + 1):
        x0, y0 = layout.to_pixel(0, line)
        x1, y1 = layout.to_pixel(SIZE, line)
        segments.append((x0, y0, x1, y1))
        segments.append((y0, x0, y1, x1))
    for row in range(SIZE):
        for column in range(SIZE):
            if (row + column) % 2 == 0:  # "\" cell
                segments.append((*layout.to_pixel(column, row), *layout.to_pixel(column + 1, row + 1)))
            else:  # "/" cell
                segments.append((*layout.to_pixel(column, row + 1), *layout.to_pixel(column + 1, row)))
    return segments


@cache
def _edge_mask(size: int) -> Image.Image:
    layout = _layout(size)
    mask = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    for segment in _edge_segments(layout):
        draw.line(segment, fill=1, width=layout.edge_width)
    return mask


@cache
def _base(size: int, color_index: int) -> Image.Image:
    """The sheet with every triangle in one colour and all edges drawn."""
    layout = _layout(size)
    image = Image.new("P", (size, size), _MARGIN)
    image.putpalette(_PALETTE)
    end = layout.margin + SIZE * layout.cell - 1
    ImageDraw.Draw(image).rectangle((layout.margin, layout.margin, end, end), fill=color_index)
    image.paste(_EDGE, mask=_edge_mask(size))
    return image


def render_paper(paper: Paper, holes: Sequence[Hole] = (), *, size: int = 512) -> Image.Image:
    """The paper as it lies, seen from the front: paper white, folded-away positions black, holes green.

    Args:
        paper: the paper state (only which positions have paper matters).
        holes: holes to draw, located as the viewer sees them.
        size: the picture's width and height in pixels (at least 64).

    Raises:
        InvalidHoleError: when a hole is at a location with no paper.
    """
    layout = sheet_layout(size)
    present = [bool(stack) for stack in paper.stacks]
    for hole in holes:
        if not present[hole.location - 1]:
            raise InvalidHoleError(
                f"cannot draw the {hole.shape.value} hole at location {hole.location}: "
                "there is no paper there"
            )
    if all(present):
        image = _base(size, _PAPER).copy()
        draw = ImageDraw.Draw(image)
    else:
        image = _base(size, _NO_PAPER).copy()
        draw = ImageDraw.Draw(image)
        triangles = _triangle_pixels(size)
        for position, has_paper in enumerate(present):
            if has_paper:
                draw.polygon(triangles[position], fill=_PAPER)
        image.paste(_EDGE, mask=_edge_mask(size))
    origin = (float(layout.margin), float(layout.margin))
    for hole in holes:
        for polygon in outline_of_hole(hole, unit=layout.cell, origin=origin):
            draw.polygon(polygon, fill=_HOLE)
    return image


def render_steps(solution: Solution, *, size: int = 512) -> list[Image.Image]:
    """The folding pictures: the flat sheet, the paper after each action, then the punched paper."""
    pictures = [render_paper(state, size=size) for state in solution.states]
    pictures.append(render_paper(solution.folded, solution.initial_holes, size=size))
    return pictures


def render_result(holes: Sequence[Hole], *, size: int = 512) -> Image.Image:
    """The fully unfolded sheet with ``holes`` (the ground truth, or a model's answer drawn for comparison)."""
    return render_paper(Paper.flat(), holes, size=size)


def render_unfolding(solution: Solution, *, size: int = 512) -> list[Image.Image]:
    """The unfolding pictures: the punched paper, then the paper after each unfolding step."""
    return [render_paper(step.paper, step.holes, size=size) for step in solution.unfolding_steps()]


@cache
def _reference_sheet(size: int) -> Image.Image:
    layout = _layout(size)
    image = _base(size, _PAPER).convert("RGB")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=max(8, round(layout.cell * 0.24)))
    for position in range(NUM_POSITIONS):
        label = str(location_of(position))
        x, y = layout.to_pixel(*hole_center(location_of(position)))
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        draw.text((x - (left + right) / 2, y - (top + bottom) / 2), label, fill=NUMBER_COLOR, font=font)
    return image


def reference_sheet(*, size: int = 512) -> Image.Image:
    """The flat sheet with each triangle's location number ``1..32`` written at its centroid (an RGB image)."""
    sheet_layout(size)
    return _reference_sheet(size).copy()


def png_bytes(image: Image.Image, *, compress_level: int = 1) -> bytes:
    """The PNG encoding of ``image``: no timestamp or text chunks, so the same picture gives the same bytes.

    >>> png_bytes(Image.new("P", (1, 1)))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()
