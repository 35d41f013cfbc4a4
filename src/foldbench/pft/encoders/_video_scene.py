"""The 3D scene of the folding animation: where each of the 32 triangles lies, at rest and in motion.

Each triangle of the flat sheet is placed by a rigid motion, a *pose*: a material point ``(u, v)`` lands at
``rotation @ (u, v, 0) + translation`` (world ``x`` right, ``y`` down, ``z`` toward the viewer). At rest the
motion is an isometry of the grid (integer matrices), and the triangle floats :data:`LAYER_GAP` per layer above
the table, in the stack order of the engine's :class:`~foldbench.pft.paper.Paper` (bottom = farthest from the
viewer). In motion:

* a fold turns its flap about the crease line by ``0..180°``, toward the viewer for ``-F`` and away for ``-B``,
  while every triangle's height eases to its layer in the next state;
* a rotation turns the whole paper in its plane, counter-clockwise as the viewer sees it, about ``(2, 2)``.

Both use the smoothstep easing ``3s² - 2s³`` and end *exactly* on the next state's poses.

Holes are marks on the material: a hole punched at a grid position goes through every layer there, so each
layer's triangle carries the hole's outline pulled back through that triangle's pose onto the flat sheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw

from foldbench.pft.actions import Fold, FoldType, Rotation
from foldbench.pft.encoders.shapes import hole_center, hole_outline
from foldbench.pft.grid import NUM_POSITIONS, SIZE, triangle_vertices
from foldbench.pft.paper import Paper, crease_of
from foldbench.pft.simulate import Solution

__all__ = [
    "LAYER_GAP",
    "MATERIAL_VERTICES",
    "SheetPoses",
    "edge_shade",
    "fold_motion",
    "hole_coverage",
    "material_hole_outlines",
    "rotation_motion",
    "state_poses",
    "turned_poses",
]

FloatArray = NDArray[np.float64]

#: Height between two layers of a stack, in grid units.
LAYER_GAP = 0.004

#: Each triangle's vertices on the flat sheet (``32 × 3 × 2``).
MATERIAL_VERTICES: FloatArray = np.array([triangle_vertices(p) for p in range(NUM_POSITIONS)], dtype=np.float64)

_CENTER = np.array([SIZE / 2, SIZE / 2, 0.0])


@dataclass(frozen=True, slots=True)
class SheetPoses:
    """The pose of every triangle: ``rotations`` (``32 × 3 × 3``) and ``translations`` (``32 × 3``)."""

    rotations: FloatArray
    translations: FloatArray


def _quarter_turn(degrees: int) -> NDArray[np.int64]:
    """The integer matrix of a counter-clockwise turn on screen (``y`` down) by a multiple of 90°."""
    cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[(degrees // 90) % 4]
    return np.array([[cos, sin], [-sin, cos]], dtype=np.int64)


def _reflection(axis: str, value: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The mirror ``x -> matrix @ x + offset`` across a crease ``(axis, value)`` of :func:`crease_of`."""
    if axis == "-":
        return np.array([[1, 0], [0, -1]]), np.array([0, value])
    if axis == "|":
        return np.array([[-1, 0], [0, 1]]), np.array([value, 0])
    if axis == "/":
        return np.array([[0, -1], [-1, 0]]), np.array([value, value])
    return np.array([[0, 1], [1, 0]]), np.array([-value, value])


def _heights(paper: Paper) -> FloatArray:
    heights = np.zeros(NUM_POSITIONS)
    for stack in paper.stacks:
        for layer, triangle in enumerate(stack):
            heights[triangle] = LAYER_GAP * layer
    return heights


def _poses(linear: NDArray[np.int64], offset: NDArray[np.int64], heights: FloatArray) -> SheetPoses:
    rotations = np.zeros((NUM_POSITIONS, 3, 3))
    rotations[:, :2, :2] = linear
    rotations[:, 2, 2] = linear[:, 0, 0] * linear[:, 1, 1] - linear[:, 0, 1] * linear[:, 1, 0]
    translations = np.zeros((NUM_POSITIONS, 3))
    translations[:, :2] = offset
    translations[:, 2] = heights
    return SheetPoses(rotations, translations)


def state_poses(solution: Solution) -> list[SheetPoses]:
    """The poses of the paper before the first action and after each action (``len(actions) + 1``)."""
    linear = np.tile(np.eye(2, dtype=np.int64), (NUM_POSITIONS, 1, 1))
    offset = np.zeros((NUM_POSITIONS, 2), dtype=np.int64)
    result = [_poses(linear, offset, _heights(solution.states[0]))]
    for index, action in enumerate(solution.actions):
        if isinstance(action, Rotation):
            turn = _quarter_turn(action.degrees)
            center = np.array([SIZE // 2, SIZE // 2])
            linear = turn @ linear
            offset = (offset - center) @ turn.T + center
        else:
            axis, value = crease_of(action.type, solution.states[index].bounds())
            mirror, shift = _reflection(axis, value)
            moved = np.zeros(NUM_POSITIONS, dtype=bool)
            moved[list(solution.flaps[index])] = True
            linear = np.where(moved[:, None, None], mirror @ linear, linear)
            offset = np.where(moved[:, None], offset @ mirror.T + shift, offset)
        result.append(_poses(linear, offset, _heights(solution.states[index + 1])))
    return result


def _ease(progress: float) -> float:
    s = min(max(progress, 0.0), 1.0)
    return s * s * (3.0 - 2.0 * s)


def _crease_line(fold_type: FoldType, axis: str, value: int) -> tuple[FloatArray, FloatArray]:
    """A point of the crease (world, on the table) and the unit vector from the crease into the moving half."""
    half = value / 2
    root = 1 / math.sqrt(2)
    if axis == "-":
        return np.array([0.0, half, 0.0]), np.array([0.0, -1.0 if fold_type is FoldType.H1 else 1.0, 0.0])
    if axis == "|":
        return np.array([half, 0.0, 0.0]), np.array([-1.0 if fold_type is FoldType.V1 else 1.0, 0.0, 0.0])
    if axis == "/":  # x + y = value
        sign = -1.0 if fold_type is FoldType.D1 else 1.0
        return np.array([half, half, 0.0]), np.array([sign * root, sign * root, 0.0])
    sign = 1.0 if fold_type is FoldType.D2 else -1.0  # y - x = value
    return np.array([0.0, float(value), 0.0]), np.array([sign * root, -sign * root, 0.0])


def _axis_rotation(axis: FloatArray, angle: float) -> FloatArray:
    """Rodrigues' rotation matrix about the unit vector ``axis`` by ``angle`` radians."""
    cross = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]], [-axis[1], axis[0], 0.0]])
    return np.eye(3) * math.cos(angle) + math.sin(angle) * cross + (1.0 - math.cos(angle)) * np.outer(axis, axis)


def fold_motion(
    start: SheetPoses, end: SheetPoses, paper: Paper, fold: Fold, flap: frozenset[int], progress: float
) -> SheetPoses:
    """The poses part-way (``progress`` 0..1) through ``fold`` made on ``paper``.

    The flap turns about the crease, toward the viewer (``+z``) for ``-F`` and away for ``-B``; the residual
    between the turned flap and its landing layer, and every other triangle's change of layer, are eased in.
    At ``progress >= 1`` the result is ``end`` itself.
    """
    if progress >= 1.0:
        return end
    eased = _ease(progress)
    axis, value = crease_of(fold.type, paper.bounds())
    point, moving = _crease_line(fold.type, axis, value)
    hinge = (1.0 if fold.front else -1.0) * np.array([moving[1], -moving[0], 0.0])  # moving × z
    turning = _axis_rotation(hinge, math.pi * eased)
    half_turn = _axis_rotation(hinge, math.pi)
    rotations = start.rotations.copy()
    translations = start.translations + eased * (end.translations - start.translations)
    members = np.array(sorted(flap), dtype=np.int64)
    relative = start.translations[members] - point
    landed = relative @ half_turn.T + point
    rotations[members] = turning @ start.rotations[members]
    translations[members] = relative @ turning.T + point + eased * (end.translations[members] - landed)
    return SheetPoses(rotations, translations)


def rotation_motion(start: SheetPoses, end: SheetPoses, rotation: Rotation, progress: float) -> SheetPoses:
    """The poses part-way (``progress`` 0..1) through turning the paper; ``end`` itself at ``progress >= 1``."""
    if progress >= 1.0:
        return end
    angle = math.radians(rotation.degrees) * _ease(progress)
    cos, sin = math.cos(angle), math.sin(angle)
    turn = np.array([[cos, sin, 0.0], [-sin, cos, 0.0], [0.0, 0.0, 1.0]])
    return SheetPoses(turn @ start.rotations, (start.translations - _CENTER) @ turn.T + _CENTER)


def turned_poses(poses: SheetPoses, degrees: int) -> SheetPoses:
    """The poses with the whole paper turned ``degrees`` (a multiple of 90) counter-clockwise about ``(2, 2)``."""
    if degrees % 360 == 0:
        return poses
    turn = np.eye(3)
    turn[:2, :2] = _quarter_turn(degrees)
    return SheetPoses(turn @ poses.rotations, (poses.translations - _CENTER) @ turn.T + _CENTER)


def material_hole_outlines(solution: Solution) -> list[list[FloatArray]]:
    """For each triangle of the flat sheet, the outlines (arrays ``k × 2``, grid units) of the holes it carries.

    A hole punched at grid position ``p`` of the folded paper is drawn on every triangle stacked there, pulled
    back through that triangle's pose onto the flat sheet.

    >>> from foldbench.pft.simulate import solve
    >>> sum(len(outlines) for outlines in material_hole_outlines(solve([], [])))  # nothing punched
    0
    """
    final = state_poses(solution)[-1]
    outlines: list[list[FloatArray]] = [[] for _ in range(NUM_POSITIONS)]
    for hole in solution.initial_holes:
        polygons = [
            np.array(polygon)
            for polygon in hole_outline(hole.shape, hole.size, hole.direction, hole_center(hole.location), 1.0)
        ]
        for triangle in solution.folded.stacks[hole.location - 1]:
            linear = final.rotations[triangle, :2, :2]
            offset = final.translations[triangle, :2]
            # The pose's linear part is orthogonal, so its inverse is its transpose.
            outlines[triangle].extend((polygon - offset) @ linear for polygon in polygons)
    return outlines


_SUPERSAMPLE = 3


def hole_coverage(solution: Solution, texels_per_unit: int) -> NDArray[np.float32]:
    """How much of each texel of the flat sheet (``4t × 4t`` for ``t`` texels per unit) lies inside a hole."""
    side = SIZE * texels_per_unit
    image = Image.new("L", (side * _SUPERSAMPLE, side * _SUPERSAMPLE), 0)
    draw = ImageDraw.Draw(image)
    scale = texels_per_unit * _SUPERSAMPLE
    for outlines in material_hole_outlines(solution):
        for polygon in outlines:
            draw.polygon([(float(x) * scale, float(y) * scale) for x, y in polygon], fill=255)
    reduced = image.reduce(_SUPERSAMPLE)
    return np.asarray(reduced, dtype=np.float32) / np.float32(255.0)


def edge_shade(texels_per_unit: int, line_width: float, ink: float) -> NDArray[np.float32]:
    """The paper's shade multiplier over the flat sheet: 1, darkened by ``ink`` on the triangles' edges.

    Lines are ``line_width`` grid units wide with a soft (one texel) border; the sheet's outline counts double.

    >>> shade = edge_shade(16, 0.2, 0.5)
    >>> float(shade[0, 32]), float(shade[10, 5])  # on the sheet's top edge; near the first triangle's centroid
    (0.5, 1.0)
    """
    side = SIZE * texels_per_unit
    centers = (np.arange(side) + 0.5) / texels_per_unit
    u, v = np.meshgrid(centers, centers)
    column, row = np.minimum(np.floor(u), SIZE - 1), np.minimum(np.floor(v), SIZE - 1)
    local_u, local_v = u - column, v - row
    backslash = (row + column) % 2 == 0
    diagonal = np.where(backslash, np.abs(local_u - local_v), np.abs(local_u + local_v - 1)) / math.sqrt(2)
    grid = np.minimum(np.abs(u - np.round(u)), np.abs(v - np.round(v)))
    border = np.minimum(np.minimum(u, SIZE - u), np.minimum(v, SIZE - v)) / 2
    distance = np.minimum(np.minimum(diagonal, grid), border)
    softness = 1.0 / texels_per_unit
    coverage = np.clip((line_width / 2 - distance) / softness + 0.5, 0.0, 1.0)
    return (1.0 - ink * coverage).astype(np.float32)
