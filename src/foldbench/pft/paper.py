"""The folded paper: which triangles lie where, in which layer order, and how each is turned.

The state is two small tables. ``stacks[p]`` lists the triangles (named by their position on the flat sheet,
``0..31``) that lie at grid position ``p``, bottom (farthest from the viewer) to top. ``poses[t]`` is a code for
how triangle ``t`` is turned relative to the flat sheet, as it acts on hole directions (see
:mod:`foldbench.pft.holes`). Folds and rotations are table look-ups on these, so simulation is exact and fast.

A fold halves the bounding box of the paper as it lies. It is invalid, with a message that says why, when its
crease does not follow the triangle grid (a box edge of odd length, a diagonal of a box that is not square, or
one that crosses cells the wrong way), when it would move no paper, or when it would stack paper outside the
sheet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from foldbench.errors import InvalidFoldError
from foldbench.pft.actions import Action, Fold, FoldType, Rotation
from foldbench.pft.grid import BOUNDS, CENTROIDS3, NUM_POSITIONS, SIZE, Point, position_map
from foldbench.pft.holes import REFLECTION_BY_AXIS, DirectionMap

__all__ = ["Paper", "crease_of", "rotation_table", "direction_code", "direction_map_of"]

# Direction maps are coded 0..7 as 4 * (sign == -1) + offset // 90 so that the hot path composes integers.
_MAPS: tuple[DirectionMap, ...] = tuple(DirectionMap(1 if c < 4 else -1, 90 * (c % 4)) for c in range(8))


def direction_code(direction_map: DirectionMap) -> int:
    """The integer code ``0..7`` of a direction map."""
    return (4 if direction_map.sign < 0 else 0) + direction_map.offset // 90


def direction_map_of(code: int) -> DirectionMap:
    """The direction map of an integer code ``0..7``."""
    return _MAPS[code]


_THEN: tuple[tuple[int, ...], ...] = tuple(
    tuple(direction_code(_MAPS[a].then(_MAPS[b])) for b in range(8)) for a in range(8)
)
_REFLECTION_CODE = {axis: direction_code(m) for axis, m in REFLECTION_BY_AXIS.items()}
#: ``_THEN_BY_CODE[b][a]`` is the code of "a, then b".
_THEN_BY_CODE: tuple[tuple[int, ...], ...] = tuple(tuple(_THEN[a][b] for a in range(8)) for b in range(8))


def _rotate_point(degrees: int) -> Callable[[Point], Point]:
    turns = (degrees // 90) % 4

    def rotate(point: Point) -> Point:
        x, y = point
        for _ in range(turns):  # a quarter turn counter-clockwise on screen (y down): (x, y) -> (y, 4 - x)
            x, y = y, SIZE - x
        return x, y

    return rotate


@cache
def rotation_table(degrees: int) -> tuple[int, ...]:
    """Where each position goes when the paper turns ``degrees`` counter-clockwise about the sheet's centre."""
    table = position_map(_rotate_point(degrees))
    assert all(p is not None for p in table)
    return table  # type: ignore[return-value]


@cache
def _reflection_table(axis: str, value: int) -> tuple[int | None, ...]:
    """Mirror positions across a crease: ``y = value/2`` ("-"), ``x = value/2`` ("|"), ``x + y = value`` ("/"),
    ``y - x = value`` ("\\")."""
    if axis == "-":
        return position_map(lambda p: (p[0], value - p[1]))
    if axis == "|":
        return position_map(lambda p: (value - p[0], p[1]))
    if axis == "/":
        return position_map(lambda p: (value - p[1], value - p[0]))
    return position_map(lambda p: (p[1] - value, p[0] + value))


def crease_of(fold_type: FoldType, bounds: tuple[int, int, int, int]) -> tuple[str, int]:
    """The crease ``(axis, value)`` that halves ``bounds`` for ``fold_type`` (see :func:`_reflection_table`).

    Raises :class:`InvalidFoldError` when that crease does not follow the triangle grid.
    """
    xmin, ymin, xmax, ymax = bounds
    axis = fold_type.axis
    if axis == "-":
        if (ymin + ymax) % 2:
            raise InvalidFoldError(
                f"{fold_type.value}: the paper is {ymax - ymin} unit(s) tall, so its horizontal midline "
                f"y = {(ymin + ymax) / 2} is not a line of the triangle grid"
            )
        return axis, ymin + ymax
    if axis == "|":
        if (xmin + xmax) % 2:
            raise InvalidFoldError(
                f"{fold_type.value}: the paper is {xmax - xmin} unit(s) wide, so its vertical midline "
                f"x = {(xmin + xmax) / 2} is not a line of the triangle grid"
            )
        return axis, xmin + xmax
    if xmax - xmin != ymax - ymin:
        raise InvalidFoldError(
            f"{fold_type.value}: the paper's bounding box is {xmax - xmin}×{ymax - ymin}, not square, so its "
            "diagonal is not at 45° and does not follow the triangle grid"
        )
    value = xmax + ymin if axis == "/" else ymin - xmin
    if value % 2:
        raise InvalidFoldError(
            f"{fold_type.value}: the box diagonal crosses the cells against their cut, so it is not a line "
            "of the triangle grid"
        )
    return axis, value


def _on_moving_side(fold_type: FoldType, axis: str, value: int, position: int) -> bool:
    cx3, cy3 = CENTROIDS3[position]
    if axis == "-":
        return (2 * cy3 < 3 * value) if fold_type is FoldType.H1 else (2 * cy3 > 3 * value)
    if axis == "|":
        return (2 * cx3 < 3 * value) if fold_type is FoldType.V1 else (2 * cx3 > 3 * value)
    if axis == "/":
        return (cx3 + cy3 < 3 * value) if fold_type is FoldType.D1 else (cx3 + cy3 > 3 * value)
    return (cy3 - cx3 < 3 * value) if fold_type is FoldType.D2 else (cy3 - cx3 > 3 * value)


@cache
def _moving_side(fold_type: FoldType, axis: str, value: int) -> frozenset[int]:
    """The grid positions on the side of the crease that ``fold_type`` moves."""
    return frozenset(p for p in range(NUM_POSITIONS) if _on_moving_side(fold_type, axis, value, p))


@cache
def _bounds_of(occupancy: int) -> tuple[int, int, int, int]:
    """The bounding box of the positions whose bits are set in ``occupancy``."""
    boxes = [BOUNDS[p] for p in range(NUM_POSITIONS) if occupancy >> p & 1]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


@dataclass(frozen=True, slots=True)
class Paper:
    """The paper as it lies: layer stacks per grid position, a pose per triangle, and the turn so far.

    Attributes:
        stacks: for each grid position, the triangles lying there, bottom to top.
        poses: for each triangle of the flat sheet, the code of its direction map (flat sheet -> now).
        rotation: the total counter-clockwise turn of all rotations so far, in degrees mod 360.
    """

    stacks: tuple[tuple[int, ...], ...]
    poses: tuple[int, ...]
    rotation: int = 0

    @classmethod
    def flat(cls) -> Paper:
        """The unfolded sheet, every triangle in place."""
        return cls(tuple((p,) for p in range(NUM_POSITIONS)), (0,) * NUM_POSITIONS, 0)

    def occupied(self) -> list[int]:
        """The grid positions that have paper."""
        return [p for p, stack in enumerate(self.stacks) if stack]

    def occupancy(self) -> int:
        """A bit mask of the positions that have paper (bit ``p`` for position ``p``)."""
        mask = 0
        for position, stack in enumerate(self.stacks):
            if stack:
                mask |= 1 << position
        return mask

    def bounds(self) -> tuple[int, int, int, int]:
        """The bounding box ``(xmin, ymin, xmax, ymax)`` of the paper."""
        return _bounds_of(self.occupancy())

    def positions(self) -> list[int]:
        """For each triangle of the flat sheet, the grid position where it lies now."""
        where = [0] * NUM_POSITIONS
        for position, stack in enumerate(self.stacks):
            for triangle in stack:
                where[triangle] = position
        return where

    def facing_back(self, triangle: int) -> bool:
        """Whether ``triangle`` shows its back to the viewer (it has been turned over an odd number of times)."""
        return self.poses[triangle] >= 4

    def pose(self, triangle: int) -> DirectionMap:
        """How ``triangle`` is turned relative to the flat sheet, as a map of hole directions."""
        return _MAPS[self.poses[triangle]]

    def apply(self, action: Action) -> Paper:
        """The paper after one fold or rotation."""
        if isinstance(action, Rotation):
            return self.rotate(action.degrees)
        return self.fold(action)[0]

    def rotate(self, degrees: int) -> Paper:
        """The paper turned ``degrees`` counter-clockwise about the sheet's centre."""
        table = rotation_table(degrees)
        stacks: list[tuple[int, ...]] = [()] * NUM_POSITIONS
        for position, stack in enumerate(self.stacks):
            stacks[table[position]] = stack
        code = direction_code(DirectionMap.rotation(degrees))
        poses = tuple(_THEN[pose][code] for pose in self.poses)
        return Paper(tuple(stacks), poses, (self.rotation + degrees) % 360)

    def fold(self, fold: Fold) -> tuple[Paper, frozenset[int]]:
        """The paper after ``fold``, and the set of triangles the fold moved (its flap).

        Raises :class:`InvalidFoldError` when the fold cannot be made (see the module docstring).
        """
        axis, value = crease_of(fold.type, self.bounds())
        mirror = _reflection_table(axis, value)
        side = _moving_side(fold.type, axis, value)
        moving = [p for p in side if self.stacks[p]]
        if not moving:
            raise InvalidFoldError(f"{fold.code}: there is no paper on the side this fold moves")
        stacks = list(self.stacks)
        flap: set[int] = set()
        landing: dict[int, tuple[int, ...]] = {}
        for position in moving:
            target = mirror[position]
            if target is None:
                raise InvalidFoldError(f"{fold.code}: the flap would land outside the sheet")
            landing[target] = self.stacks[position][::-1]
            flap.update(self.stacks[position])
            stacks[position] = ()
        for target, layers in landing.items():
            stacks[target] = stacks[target] + layers if fold.front else layers + stacks[target]
        reflect = _THEN_BY_CODE[_REFLECTION_CODE[axis]]
        poses = list(self.poses)
        for triangle in flap:
            poses[triangle] = reflect[poses[triangle]]
        return Paper(tuple(stacks), tuple(poses), self.rotation), frozenset(flap)
