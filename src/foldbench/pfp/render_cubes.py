"""Face patterns and pictures of patterned nets and cubes.

The twelve face patterns are drawn in a unit square (``u`` right, ``v`` up). :data:`PATTERN_ORDERS` gives each
one's rotational symmetry (1: every quarter turn looks different, 2: a half turn looks the same, 4: any turn looks
the same); the cube engine uses it to decide when two faces look alike. Cubes are drawn in an oblique projection
showing the front, top and right faces.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from foldbench.pfp.cube import Net, View
from foldbench.pfp.drawing import BACKGROUND, INK, PATTERN_COLORS, new_panel

__all__ = ["PATTERN_NAMES", "PATTERN_ORDERS", "PATTERN_SHAPES", "draw_cube_view", "draw_net", "turned"]

Shape = list[tuple[float, float]]


def _disc(cx: float, cy: float, r: float, start: float = 0.0, stop: float = 360.0, sides: int = 24) -> Shape:
    return [
        (
            cx + r * math.cos(math.radians(start + (stop - start) * k / sides)),
            cy + r * math.sin(math.radians(start + (stop - start) * k / sides)),
        )
        for k in range(sides + (0 if stop - start == 360 else 1))
    ]


PATTERN_SHAPES: dict[str, list[Shape]] = {
    "arrow": [[(0.5, 0.9), (0.18, 0.55), (0.4, 0.55), (0.4, 0.1), (0.6, 0.1), (0.6, 0.55), (0.82, 0.55)]],
    "ell": [[(0.22, 0.88), (0.44, 0.88), (0.44, 0.36), (0.8, 0.36), (0.8, 0.14), (0.22, 0.14)]],
    "corner": [[(0.1, 0.9), (0.65, 0.9), (0.1, 0.35)]],
    "flag": [[(0.2, 0.1), (0.3, 0.1), (0.3, 0.9), (0.2, 0.9)], [(0.3, 0.9), (0.85, 0.72), (0.3, 0.54)]],
    "tee": [
        [(0.15, 0.86), (0.85, 0.86), (0.85, 0.68), (0.59, 0.68), (0.59, 0.12), (0.41, 0.12), (0.41, 0.68), (0.15, 0.68)]
    ],
    "dome": [_disc(0.5, 0.45, 0.36, 0.0, 180.0) + [(0.14, 0.3), (0.86, 0.3)][::-1]],
    "dot": [_disc(0.28, 0.72, 0.15)],
    "steps": [
        [(0.12, 0.12), (0.88, 0.12), (0.88, 0.88), (0.64, 0.88), (0.64, 0.64), (0.38, 0.64), (0.38, 0.38), (0.12, 0.38)]
    ],
    "bar": [[(0.1, 0.4), (0.9, 0.4), (0.9, 0.6), (0.1, 0.6)]],
    "band": [[(0.1, 0.22), (0.22, 0.1), (0.9, 0.78), (0.78, 0.9)]],
    "plus": [
        [
            (0.4, 0.1),
            (0.6, 0.1),
            (0.6, 0.4),
            (0.9, 0.4),
            (0.9, 0.6),
            (0.6, 0.6),
            (0.6, 0.9),
            (0.4, 0.9),
            (0.4, 0.6),
            (0.1, 0.6),
            (0.1, 0.4),
            (0.4, 0.4),
        ]
    ],
    "disc": [_disc(0.5, 0.5, 0.32)],
}
PATTERN_NAMES: tuple[str, ...] = tuple(PATTERN_SHAPES)
PATTERN_ORDERS: tuple[int, ...] = (1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 4)


def turned(u: float, v: float, turns: int) -> tuple[float, float]:
    """A unit-square point turned ``turns`` quarter turns counter-clockwise about the centre.

    >>> turned(1.0, 0.5, 1)
    (0.5, 1.0)
    """
    for _ in range(turns % 4):
        u, v = 1.0 - v, u
    return u, v


def _draw_pattern(draw: ImageDraw.ImageDraw, pattern: int, turns: int, to_pixel: object) -> None:
    color = PATTERN_COLORS[pattern % len(PATTERN_COLORS)]
    for shape in PATTERN_SHAPES[PATTERN_NAMES[pattern]]:
        draw.polygon([to_pixel(*turned(u, v, turns)) for u, v in shape], fill=color)  # type: ignore[operator]


def draw_net(net: Net, size: int) -> Image.Image:
    """A patterned net centred in a square picture."""
    image = new_panel(size)
    draw = ImageDraw.Draw(image)
    columns = 1 + max(c for c, _ in net.cells)
    rows = 1 + max(r for _, r in net.cells)
    cell = size * 0.9 / max(columns, rows, 4)
    ox = (size - columns * cell) / 2
    oy = (size - rows * cell) / 2
    for (col, row), pattern, turns in zip(net.cells, net.patterns, net.turns, strict=True):
        x0, y0 = ox + col * cell, oy + row * cell
        draw.rectangle([x0, y0, x0 + cell, y0 + cell], fill=BACKGROUND, outline=INK, width=2)
        _draw_pattern(draw, pattern, turns, lambda u, v, x0=x0, y0=y0: (x0 + u * cell, y0 + (1 - v) * cell))
    return image


_FACE_FRAMES = (
    ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)),
    ((0.0, 1.0, 1.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0)),
    ((1.0, 0.0, 1.0), (0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),
)


def draw_cube_view(view: View, size: int) -> Image.Image:
    """A cube showing ``view`` on its front, top and right faces (oblique projection)."""
    image = new_panel(size)
    draw = ImageDraw.Draw(image)
    edge = size * 0.58
    ox, oy = size * 0.14, size * 0.86

    def project(x: float, y: float, z: float) -> tuple[float, float]:
        depth = 1.0 - z
        return ox + edge * (x + 0.42 * depth), oy - edge * (y + 0.32 * depth)

    for (origin, right, up), (pattern, turns) in zip(_FACE_FRAMES, view, strict=True):

        def face_point(
            u: float,
            v: float,
            origin: tuple[float, ...] = origin,
            right: tuple[float, ...] = right,
            up: tuple[float, ...] = up,
        ) -> tuple[float, float]:
            return project(*(origin[i] + u * right[i] + v * up[i] for i in range(3)))

        corners = [face_point(0, 0), face_point(1, 0), face_point(1, 1), face_point(0, 1)]
        draw.polygon(corners, fill=BACKGROUND, outline=INK, width=2)
        _draw_pattern(draw, pattern, turns, face_point)
    return image
