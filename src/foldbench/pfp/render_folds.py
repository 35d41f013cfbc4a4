"""Pictures of fold-and-cut puzzles: the flat sheet, each folded state, the cut, and unfolded patterns."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw
from shapely.geometry.base import BaseGeometry

from foldbench.pfp.drawing import (
    CREASE,
    CUT,
    FAINT,
    INK,
    PAPER,
    PAPER_BACK,
    Frame,
    draw_geometry,
    draw_outline,
    new_panel,
)
from foldbench.pfp.folding import Crease, FoldState
from foldbench.pfp.puzzle import cut_region
from foldbench.pfp.shapes import Cutout

__all__ = ["draw_cut_state", "draw_cutouts_alone", "draw_pattern", "draw_state", "draw_step_filled", "filling"]


def _crease_ends(crease: Crease, outline: BaseGeometry) -> list[tuple[float, float]] | None:
    """The ends of the crease's line across ``outline`` (sheet coordinates), or None when it misses it."""
    (px, py), (nx, ny) = crease.point, crease.normal
    tx, ty = -ny, nx
    from shapely.geometry import LineString

    line = LineString([(px - 1e3 * tx, py - 1e3 * ty), (px + 1e3 * tx, py + 1e3 * ty)]).intersection(outline)
    if line.is_empty:
        return None
    minx, miny, maxx, maxy = line.bounds
    return [(minx, miny), (maxx, maxy)] if (tx * ty) >= 0 else [(minx, maxy), (maxx, miny)]


def _crease_segment(frame: Frame, crease: Crease, outline: BaseGeometry) -> list[tuple[float, float]] | None:
    ends = _crease_ends(crease, outline)
    return None if ends is None else [frame.point(x, y) for x, y in ends]


def draw_state(
    state: FoldState, size: int, *, previous: FoldState | None = None, creases: Sequence[Crease] = ()
) -> Image.Image:
    """A folded state: layers bottom to top (front side light, back side dark), the outline before the fold in
    grey, and the creases of the fold that made it in red."""
    image = new_panel(size)
    draw = ImageDraw.Draw(image)
    frame = Frame(size)
    if previous is not None:
        draw_outline(draw, frame, previous.silhouette, color=FAINT, width=1)
    for layer in state.layers:
        draw_geometry(draw, frame, layer.position, fill=PAPER_BACK if layer.parity % 2 else PAPER, width=2)
    if previous is not None:
        for crease in creases:
            segment = _crease_segment(frame, crease, previous.silhouette)
            if segment:
                draw.line(segment, fill=CREASE, width=2)
    return image


def filling(
    outline: BaseGeometry, placement: tuple[float, float, float] = (1.0, 0.0, 0.0)
) -> tuple[float, float, float, float, float, float]:
    """The affine map (shapely's 6-tuple) that centres ``outline``'s bounding box and scales its longer side to the
    sheet's side: a state drawn through it fills its picture whatever its size on the sheet. ``placement``
    ``(size, dx, dy)`` then shrinks it by ``size`` and moves it by ``(dx, dy)`` sheet units."""
    from foldbench.pfp.tolerance import SHEET_SIZE

    minx, miny, maxx, maxy = outline.bounds
    size, dx, dy = placement
    scale = size * SHEET_SIZE / max(maxx - minx, maxy - miny)
    return (scale, 0.0, 0.0, scale, dx - scale * (minx + maxx) / 2, dy - scale * (miny + maxy) / 2)


def draw_step_filled(
    state: FoldState,
    previous: FoldState,
    creases: Sequence[Crease],
    size: int,
    placement: tuple[float, float, float] = (1.0, 0.0, 0.0),
) -> Image.Image:
    """One fold step enlarged to fill its picture (through :func:`filling` of the paper before the fold, with
    ``placement``): that paper's outline in grey, the layers after the fold (front light, back dark) and the fold's
    creases in red."""
    from shapely import affinity

    matrix = filling(previous.silhouette, placement)
    image = new_panel(size)
    draw = ImageDraw.Draw(image)
    frame = Frame(size)
    draw_outline(draw, frame, affinity.affine_transform(previous.silhouette, matrix), color=FAINT, width=1)
    for layer in state.layers:
        fill = PAPER_BACK if layer.parity % 2 else PAPER
        draw_geometry(draw, frame, affinity.affine_transform(layer.position, matrix), fill=fill, width=2)
    scale, _, _, _, dx, dy = matrix
    for crease in creases:
        ends = _crease_ends(crease, previous.silhouette)
        if ends:
            draw.line([frame.point(scale * x + dx, scale * y + dy) for x, y in ends], fill=CREASE, width=2)
    return image


def draw_cut_state(state: FoldState, cut: BaseGeometry, size: int) -> Image.Image:
    """The folded paper with the cutouts (clipped to the paper) in blue."""
    image = draw_state(state, size)
    draw = ImageDraw.Draw(image)
    draw_geometry(draw, Frame(size), cut.intersection(state.silhouette), fill=CUT, outline=INK, width=1)
    return image


def draw_pattern(pattern: BaseGeometry, size: int) -> Image.Image:
    """An unfolded sheet with its holes."""
    image = new_panel(size)
    draw_geometry(ImageDraw.Draw(image), Frame(size), pattern, fill=PAPER, width=2)
    return image


def draw_cutouts_alone(cutouts: tuple[Cutout, ...], size: int) -> Image.Image:
    """The cutouts' shapes in blue, where they were placed, without the paper."""
    image = new_panel(size)
    draw_geometry(ImageDraw.Draw(image), Frame(size), cut_region(cutouts), fill=CUT, width=1)
    return image
