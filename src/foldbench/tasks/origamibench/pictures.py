"""Pictures of fold-sequence states for the one-step task: front and back side by side, and the composite of a
question (the reference above, options A-D below).

Every state of a sequence is drawn the same way, so that one fold changes only what it moves: at one scale (the
unfolded square's diagonal fits the picture, so a folded state is drawn as large as it is), and with one face
of the paper (the one holding the sequence's anchor point) in its place on the unfolded square, front side up.
The compiler's own pictures (:mod:`foldbench.crease.render`) instead keep face 0 in place and fill the picture,
which turns and scales a state differently from the state before it. Colours are the compiler's: front side
yellow, back side blue, lines where the visible face changes.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Point, Polygon

from foldbench.crease.render import BACK_COLOUR, FRONT_COLOUR
from foldbench.crease.sequences import FoldSequence

__all__ = ["composite", "likeness_ranks", "pictures_look_alike", "png_bytes", "state_likeness", "state_picture",
           "state_png", "state_signature", "states_look_alike"]

_GAP = 6
_SIGNATURE_SIZE = 40
LOOK_ALIKE_LEVEL = 3.0
"""Two states look alike when their small grey renders (front and back) differ by less than this mean absolute
grey level (0-255)."""
_LINE = (51, 51, 51)
_RIGHT = (0, 170, 60)
_WRONG = (230, 0, 0)


@lru_cache(maxsize=256)
def _anchor(sequence: FoldSequence) -> tuple[float, float]:
    """A point of the paper (unit square) inside a face of the sequence's final pattern: every state is drawn
    with the face holding it in its place on the unfolded square, front side up."""
    pattern = sequence.final_pattern
    coords = pattern.vertices_coords
    faces = [Polygon(coords[list(face)]) for face in pattern.faces_vertices]
    largest = max(faces, key=lambda polygon: polygon.area)
    point = largest.representative_point()
    return float(point.x), float(point.y)


@lru_cache(maxsize=4096)
def _anchored_state(sequence: FoldSequence, state: int
                    ) -> tuple[np.ndarray, bool, tuple[tuple[int, ...], ...], np.ndarray, Any]:
    """What both views of a state read: the cell points in the paper frame of the anchor face (see :func:`_anchor`),
    whether that face is flipped, each cell's faces from top to bottom, the faces' flips and the cells. Computed
    once per state, not once per view, picture size and scale."""
    compiled = sequence.compiled(state)
    pattern = compiled.pattern
    anchor = Point(_anchor(sequence))
    coords = pattern.vertices_coords
    face = next((f for f, cycle in enumerate(pattern.faces_vertices) if Polygon(coords[list(cycle)]).covers(anchor)),
                0)
    matrix, shift = compiled.folded.faces_matrix[face], compiled.folded.faces_shift[face]
    anchor_flipped = bool(compiled.folded.faces_flipped[face])
    points = (compiled.cells.points_coords - shift) @ np.linalg.inv(matrix).T
    orders = tuple(tuple(order) for order in compiled.cells_layer_order(0))
    return points, anchor_flipped, orders, compiled.folded.faces_flipped, compiled.cells


@lru_cache(maxsize=4096)
def _view_geometry(sequence: FoldSequence, state: int, side: str
                   ) -> tuple[tuple[tuple[np.ndarray, bool], ...], tuple[np.ndarray, ...]]:
    """The visible cells (corner points, shows the paper's front side) and the lines where the visible face
    changes, in the paper frame of the anchor face (see :func:`_anchor`), mirrored for the back view (read-only:
    kept for every picture of the state)."""
    points, anchor_flipped, orders, flipped, state_cells = _anchored_state(sequence, state)
    from_front = (side == "front") != anchor_flipped
    if side == "back":
        points = points * np.array([-1.0, 1.0])
    visible = [(order[0] if from_front else order[-1]) if order else -1 for order in orders]
    cells = []
    for cell, top in enumerate(visible):
        if top >= 0:
            shows_front = (not flipped[top]) if from_front else bool(flipped[top])
            cells.append((points[list(state_cells.cells_points[cell])], shows_front))
    lines = []
    for segment, (left, right) in enumerate(state_cells.segments_cells.tolist()):
        if (visible[left] if left >= 0 else -1) != (visible[right] if right >= 0 else -1):
            lines.append(points[list(state_cells.segments_points[segment])])
    return tuple(cells), tuple(lines)


def _side_view(sequence: FoldSequence, state: int, side: str, size: int, fill: bool = False) -> Image.Image:
    """One side of a state at one scale for every state (the unfolded square's diagonal fits the picture), or,
    with ``fill``, scaled so that the state itself fills the picture."""
    cells, lines = _view_geometry(sequence, state, side)
    every = np.concatenate([corners for corners, _ in cells])
    centre = (every.min(axis=0) + every.max(axis=0)) / 2
    extent = float((every.max(axis=0) - every.min(axis=0)).max())
    scale = size * 0.92 / (extent if fill else max(math.sqrt(2.0), extent))

    def pixels(points: np.ndarray) -> list[tuple[float, float]]:
        mapped = (points - centre) * scale
        return list(zip((size / 2 + mapped[:, 0]).tolist(), (size / 2 - mapped[:, 1]).tolist(), strict=True))

    image = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(image)
    for corners, shows_front in cells:
        colour = FRONT_COLOUR if shows_front else BACK_COLOUR
        draw.polygon(pixels(corners), fill=colour, outline=colour)
    width = max(1, round(size / 200))
    for ends in lines:
        draw.line(pixels(ends), fill=_LINE, width=width)
    return image


@lru_cache(maxsize=4096)
def state_picture(sequence: FoldSequence, state: int, size: int, fill: bool = False) -> Image.Image:
    """The state's front view (left) and back view (right), each ``size`` pixels square, with a thin frame; every
    state at one scale, or with ``fill`` each state scaled to fill its views (so sizes say nothing)."""
    image = Image.new("RGB", (2 * size + _GAP, size), "white")
    image.paste(_side_view(sequence, state, "front", size, fill), (0, 0))
    image.paste(_side_view(sequence, state, "back", size, fill), (size + _GAP, 0))
    draw = ImageDraw.Draw(image)
    draw.line([(size + _GAP // 2, 0), (size + _GAP // 2, size)], fill=(200, 200, 200), width=1)
    return image


@lru_cache(maxsize=4096)
def state_signature(sequence: FoldSequence, state: int, fill: bool = False) -> np.ndarray:
    """A small grey render of both sides of a state (at the common scale, or filling the picture), for telling
    states apart."""
    picture = state_picture(sequence, state, 128, fill).convert("L").resize((2 * _SIGNATURE_SIZE, _SIGNATURE_SIZE),
                                                                       Image.Resampling.BILINEAR)
    return np.asarray(picture, dtype=float)


def pictures_look_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two state signatures are too close to tell apart (see :data:`LOOK_ALIKE_LEVEL`)."""
    return float(np.abs(a - b).mean()) < LOOK_ALIKE_LEVEL


@lru_cache(maxsize=1 << 16)
def states_look_alike(first: FoldSequence, first_state: int, second: FoldSequence, second_state: int) -> bool:
    """:func:`pictures_look_alike` of two states' signatures at the common scale, worked out once per pair of
    states (a one-step draw asks it of the same pairs again and again)."""
    return pictures_look_alike(state_signature(first, first_state), state_signature(second, second_state))


@lru_cache(maxsize=4096)
def state_likeness(sequence: FoldSequence, state: int, size: int, fill: bool = False
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The features by which a blind reader compares a state's picture (``size`` pixels a view, at the common
    scale or filling its views) with another: its grey levels on a small square and its ink mask (not white), as
    ``foldbench audit`` computes them."""
    from foldbench.tasks.choice import GREY_SIZE, MASK_SIZE, WHITE_LEVEL

    grey = state_picture(sequence, state, size, fill).convert("L")
    small = np.asarray(grey.resize((GREY_SIZE, GREY_SIZE), Image.Resampling.BOX), dtype=np.float32).ravel()
    mask = np.asarray(grey.resize((MASK_SIZE, MASK_SIZE), Image.Resampling.NEAREST)).ravel() < WHITE_LEVEL
    return small, mask


def likeness_ranks(reference: tuple[np.ndarray, np.ndarray], options: list[tuple[np.ndarray, np.ndarray]],
                   answer: int) -> tuple[int, int, int] | None:
    """The answer's place (0 = nearest, ``len(options) - 1`` = farthest) among the options by distance to the
    reference picture, in ink area, grey levels and outline overlap (ink-mask IoU); None when the answer ties
    with another option on one of them (a tie says nothing about the answer)."""
    grey, mask = reference
    area = float(mask.sum())
    distances = []
    for option_grey, option_mask in options:
        union = float((option_mask | mask).sum())
        overlap = 1.0 - (float((option_mask & mask).sum()) / union if union else 1.0)
        distances.append((abs(float(option_mask.sum()) - area), float(np.abs(option_grey - grey).sum()), overlap))
    table = np.array(distances)
    ranks = []
    for column in table.T:
        if np.isclose(column, column[answer], rtol=1e-6, atol=1e-6).sum() > 1:
            return None
        ranks.append(int((column < column[answer]).sum()))
    return ranks[0], ranks[1], ranks[2]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow without sized default fonts
        return ImageFont.load_default()


def composite(reference: Image.Image, options: list[Image.Image], marks: dict[int, tuple[int, int, int]] | None = None
              ) -> Image.Image:
    """The reference (labelled) above the options A-D in a 2 x 2 grid; ``marks`` frames options in a colour."""
    gap, label = 16, 24
    width = 2 * options[0].width + 3 * gap
    height = reference.height + 2 * options[0].height + 3 * label + 4 * gap
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = _font(18)
    draw.text((gap, gap // 2), "Reference", fill=(0, 0, 0), font=font)
    image.paste(reference, ((width - reference.width) // 2, gap // 2 + label))
    top = reference.height + label + 2 * gap
    for index, (letter, picture) in enumerate(zip("ABCD", options, strict=True)):
        x = gap + (index % 2) * (picture.width + gap)
        y = top + (index // 2) * (picture.height + label + gap)
        draw.text((x, y), letter, fill=(0, 0, 0), font=font)
        image.paste(picture, (x, y + label))
        colour = (marks or {}).get(index)
        if colour is not None:
            draw.rectangle([x - 3, y + label - 3, x + picture.width + 2, y + label + picture.height + 2],
                           outline=colour, width=4)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """The PNG encoding of ``image`` without metadata (same picture, same bytes)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


@lru_cache(maxsize=4096)
def state_png(sequence: FoldSequence, state: int, size: int, fill: bool = False) -> bytes:
    """:func:`png_bytes` of :func:`state_picture`, encoded once per state (a state is shown by many items)."""
    return png_bytes(state_picture(sequence, state, size, fill))


RIGHT_MARK = _RIGHT
WRONG_MARK = _WRONG
