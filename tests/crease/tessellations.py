"""Twist tessellations and hyperbolic paraboloids the tests build exactly.

Twist tessellations use Bateman's shrink-rotate construction on a regular tiling: every tile is shrunk about its
centre by ``scale`` and turned by ``twist`` radians; the gap left between two neighbouring tiles is a pleat
parallelogram, and the gap around each vertex of the tiling is the dual polygon, turned and shrunk. At every
crease vertex the tile's corner and the dual polygon's corner add up to 180 degrees (90 + 90 for squares,
60 + 120 for triangles), so Kawasaki holds exactly whatever the twist.

Assignment: a tile's sides all get one letter, neighbouring tiles opposite letters (the square and triangle
tilings are two-colourable); a pleat crease gets the tile's letter at the corner where it borders the pleat's
obtuse angle, the other letter where it borders the acute one (big-little-big), which both its ends agree on.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon, box

from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern

Point = tuple[float, float]


def _square_tiles(count: int) -> list[tuple[list[Point], int]]:
    """Unit squares ``[i, i+1] x [j, j+1]`` around the origin, coloured like a checkerboard."""
    tiles = []
    for i in range(-1, count + 1):
        for j in range(-1, count + 1):
            corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
            tiles.append(([(float(x), float(y)) for x, y in corners], (i + j) % 2))
    return tiles


def _triangle_tiles(count: int) -> list[tuple[list[Point], int]]:
    """Unit equilateral triangles of the triangle tiling, pointing up (colour 0) and down (colour 1)."""
    height = math.sqrt(3) / 2
    tiles = []
    for row in range(-1, count + 1):
        offset = (row % 2) * 0.5
        y0, y1 = row * height, (row + 1) * height
        for column in range(-2, count + 2):
            x0 = column + offset
            tiles.append(([(x0, y0), (x0 + 1, y0), (x0 + 0.5, y1)], 0))
            tiles.append(([(x0 + 0.5, y1), (x0 + 1, y0), (x0 + 1.5, y1)], 1))
    return tiles


def _key(point: Point) -> tuple[int, int]:
    return (round(point[0] * 1e6), round(point[1] * 1e6))


def shrink_rotate(
    tiling: str, count: int, twist: float, scale: float, *, window: tuple[float, float, float, float] | None = None,
) -> tuple[np.ndarray, list[str]]:
    """Segments and letters of a shrink-rotate twist tessellation, clipped to a rectangular paper.

    Args:
        tiling: ``"square"`` or ``"triangle"`` (triangle twists with hexagonal dual polygons).
        count: tiles along each side.
        twist: the tiles' rotation, radians.
        scale: the tiles' shrink factor (0 < scale < 1).
        window: the paper ``(xmin, ymin, xmax, ymax)`` in tiling units (default: ``count`` tiles square).
    """
    tiles = _square_tiles(count) if tiling == "square" else _triangle_tiles(count)
    cos, sin = math.cos(twist), math.sin(twist)

    def image(corner: Point, centre: Point) -> Point:
        dx, dy = corner[0] - centre[0], corner[1] - centre[1]
        return (centre[0] + scale * (cos * dx - sin * dy), centre[1] + scale * (sin * dx + cos * dy))

    creases: dict[tuple, tuple[Point, Point, str]] = {}
    tiles_at: dict[tuple[int, int], list[tuple[int, Point]]] = {}
    letters_of = ("M", "V")
    images = []
    for index, (corners, colour) in enumerate(tiles):
        centre = (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))
        moved = [image(corner, centre) for corner in corners]
        images.append(moved)
        for k, corner in enumerate(corners):
            tiles_at.setdefault(_key(corner), []).append((index, moved[k]))
        for k in range(len(moved)):
            a, b = moved[k], moved[(k + 1) % len(moved)]
            creases[(_key(a), _key(b))] = (a, b, letters_of[colour])
    # pleat creases join the images of one tiling vertex in neighbouring tiles (the dual polygon's sides)
    for around in tiles_at.values():
        for (first, p), (second, q) in ((x, y) for i, x in enumerate(around) for y in around[i + 1:]):
            if not _share_a_side(tiles[first][0], tiles[second][0]):
                continue
            letter = _pleat_letter(images[first], p, q, tiles[first][1])
            if _pleat_letter(images[second], q, p, tiles[second][1]) != letter:
                raise AssertionError("the two ends of a pleat crease ask for different letters")
            creases[(_key(p), _key(q))] = (p, q, letter)
    xmin, ymin, xmax, ymax = window or (0.0, 0.0, float(count), float(count) * (1.0 if tiling == "square"
                                                                                 else math.sqrt(3) / 2))
    paper = box(xmin, ymin, xmax, ymax)
    segments, letters = [], []
    for a, b, letter in creases.values():
        piece = LineString([a, b]).intersection(paper)
        if piece.is_empty or piece.length < 1e-9 or piece.geom_type != "LineString":
            continue
        (x1, y1), (x2, y2) = piece.coords
        if _on_boundary(piece, paper):
            continue
        segments.append([[x1, y1], [x2, y2]])
        letters.append(letter)
    outline = np.array(shapely.get_coordinates(paper.exterior))
    for a, b in zip(outline[:-1], outline[1:], strict=True):
        segments.append([a.tolist(), b.tolist()])
        letters.append("B")
    return np.array(segments, dtype=float), letters


def _on_boundary(piece: LineString, paper: Polygon) -> bool:
    return bool(paper.exterior.buffer(1e-9).contains(piece))


def _share_a_side(first: list[Point], second: list[Point]) -> bool:
    return len({_key(p) for p in first} & {_key(p) for p in second}) == 2


def _pleat_letter(moved: list[Point], corner: Point, other: Point, colour: int) -> str:
    """The letter of the pleat crease from ``corner`` (a corner of the turned tile ``moved``) to ``other``."""
    k = min(range(len(moved)), key=lambda i: math.dist(moved[i], corner))
    direction = np.subtract(other, corner)
    # the pleat's angle at this corner is the one between the crease and the tile side it shares a face with
    best = math.pi
    for neighbour in (moved[k - 1], moved[(k + 1) % len(moved)]):
        side = np.subtract(neighbour, corner)
        angle = math.acos(np.clip(np.dot(side, direction) / np.linalg.norm(side) / np.linalg.norm(direction),
                                  -1, 1))
        best = min(best, angle)
    letter, other_letter = ("M", "V") if colour == 0 else ("V", "M")
    return other_letter if best < math.pi / 2 else letter


def twist_tessellation(tiling: str = "square", count: int = 3, twist: float = math.radians(20),
                       scale: float = 0.5, **kwargs: object) -> CreasePattern:
    """A shrink-rotate twist tessellation as a crease pattern."""
    segments, letters = shrink_rotate(tiling, count, twist, scale, **kwargs)  # type: ignore[arg-type]
    return build_crease_pattern(segments, letters)


def hyperbolic_paraboloid(sides: int = 6, rings: int = 4) -> tuple[np.ndarray, list[str]]:
    """The pleated hyperbolic paraboloid: concentric regular polygons (the outermost is the paper's edge) with
    alternating mountains and valleys, and the radial diagonals through every corner to the centre.

    The letters pass every local check (Maekawa, Kawasaki, big-little-big) when ``sides`` is 2 modulo 4: at the
    centre the radials read ``V M M V M M ...`` (Maekawa), the first ring's sides are chosen so that each
    corner's two small sectors lie between creases that differ, and from the second ring on, rings alternate
    with the radials (a ring corner: both sides one letter, the inward radial the other, the outward radial
    the same). For other ``sides`` no such letters exist at the first ring (a parity argument); the pattern
    then breaks a local check. The paper still cannot fold flat: the pleats cannot all nest.
    """
    def corner(ring: int, k: int) -> tuple[float, float]:
        angle = 2 * math.pi * k / sides
        return (ring / rings * math.cos(angle), ring / rings * math.sin(angle))

    centre_letters = ["V" if k % 3 == 0 else "M" for k in range(sides)]
    first_ring = []
    for k in range(sides):  # side k joins corners k and k + 1
        if centre_letters[k] == "V" or centre_letters[(k + 1) % sides] == "V":
            first_ring.append("M")
        else:
            previous = first_ring[k - 1] if k else "M"
            first_ring.append("V" if previous == "M" else "M")
    segments, letters = [], []
    for k in range(sides):
        segments.append([(0.0, 0.0), corner(1, k)])
        letters.append(centre_letters[k])
    for ring in range(1, rings + 1):
        ring_letter = "B" if ring == rings else ("V" if ring % 2 == 0 else "M")
        for k in range(sides):
            segments.append([corner(ring, k), corner(ring, k + 1)])
            letters.append(ring_letter if ring > 1 else first_ring[k])
            if ring < rings:
                segments.append([corner(ring, k), corner(ring + 1, k)])
                letters.append("M" if ring % 2 else "V")
    return np.array(segments, dtype=float), letters


_ORIPA_LINE_TYPES = {"F": 0, "B": 1, "M": 2, "V": 3, "U": 4}


def oripa_coordinates(segments: np.ndarray, size: float = 400.0) -> np.ndarray:
    """Segments moved to ORIPA's frame: the paper centred on the origin with its longest side ``size``."""
    points = segments.reshape(-1, 2)
    low, high = points.min(axis=0), points.max(axis=0)
    return (segments - (low + high) / 2) / float((high - low).max()) * size


def cp_text(segments: np.ndarray, letters: list[str]) -> str:
    """An ORIPA ``.cp`` file: ``type x1 y1 x2 y2`` per line, every number written in full."""
    return "".join(f"{_ORIPA_LINE_TYPES[letter]} {a[0]!r} {a[1]!r} {b[0]!r} {b[1]!r}\n"
                   for (a, b), letter in zip(segments.tolist(), letters, strict=True))


def opx_text(segments: np.ndarray, letters: list[str]) -> str:
    """An ORIPA ``.opx`` file (Java XMLEncoder) with one ``OriLineProxy`` per segment."""
    def double(name: str, value: float) -> str:
        return f'<void property="{name}"><double>{value!r}</double></void>'

    lines = "".join(
        f'<object class="oripa.OriLineProxy"><void property="type"><int>{_ORIPA_LINE_TYPES[letter]}</int></void>'
        f'{double("x0", a[0])}{double("x1", b[0])}{double("y0", a[1])}{double("y1", b[1])}</object>'
        for (a, b), letter in zip(segments.tolist(), letters, strict=True))
    return ('<?xml version="1.0" encoding="UTF-8"?><java version="1.5.0" class="java.beans.XMLDecoder">'
            f'<object class="oripa.DataSet"><void property="lines"><array class="oripa.OriLineProxy" '
            f'length="{len(letters)}">{lines}</array></void></object></java>')
