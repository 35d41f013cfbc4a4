"""The cube-net engine: the 24 rotations of the cube, its 11 nets, folding and unfolding patterned nets, and the
three faces seen from the standard viewpoint. Everything is integer arithmetic.

Axes: x to the right, y up, z toward the viewer. A face is named by its outward normal; a pattern on a face
points along an ``up`` vector lying in the face. A pattern with rotational symmetry of order 2 or 4 looks the
same turned by a half or a quarter turn, so its ``up`` is reduced (:func:`canonical_up`).

A net is six cells of a square grid, ``(column, row)`` with rows going down the page, each holding a pattern
turned ``turns`` quarter turns counter-clockwise. It is folded with its first cell facing the viewer (pattern up
on the page = up on the cube) and every other cell folded away from the viewer about the edge it shares with
the cell it hangs from, so the printed side ends up outside.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from foldbench.pfp.errors import InvalidNetError

__all__ = [
    "all_views",
    "FRONT",
    "NET_LAYOUTS",
    "NORMALS",
    "RIGHT",
    "ROTATIONS",
    "TOP",
    "VISIBLE",
    "Cell",
    "Cube",
    "Net",
    "Rotation",
    "Vector",
    "View",
    "canonical_up",
    "fold_net",
    "labellings",
    "layout_variants",
    "normalize_layout",
    "rotate_cube",
    "same_cube",
    "unfold_cube",
    "view_consistent",
    "view_of",
]

Vector = tuple[int, int, int]
Rotation = tuple[Vector, Vector, Vector]
Cell = tuple[int, int]
FRONT: Vector = (0, 0, 1)
TOP: Vector = (0, 1, 0)
RIGHT: Vector = (1, 0, 0)
NORMALS: tuple[Vector, ...] = (FRONT, (0, 0, -1), RIGHT, (-1, 0, 0), TOP, (0, -1, 0))
VISIBLE: tuple[Vector, ...] = (FRONT, TOP, RIGHT)
_SCREEN_UP: dict[Vector, Vector] = {FRONT: (0, 1, 0), TOP: (0, 0, -1), RIGHT: (0, 1, 0)}
_IDENTITY: Rotation = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
_QUARTER_X: Rotation = ((1, 0, 0), (0, 0, -1), (0, 1, 0))
_QUARTER_Y: Rotation = ((0, 0, 1), (0, 1, 0), (-1, 0, 0))
# The rotation (in a cell's own frame) that carries a neighbour cell from the page to its face of the cube.
_HINGES: dict[Cell, Rotation] = {
    (1, 0): ((0, 0, 1), (0, 1, 0), (-1, 0, 0)),
    (-1, 0): ((0, 0, -1), (0, 1, 0), (1, 0, 0)),
    (0, -1): ((1, 0, 0), (0, 0, 1), (0, -1, 0)),
    (0, 1): ((1, 0, 0), (0, 0, -1), (0, 1, 0)),
}

#: The 11 nets of the cube (six 1-4-1, three 2-3-1, one 2-2-2, one 3-3), one drawing each.
NET_LAYOUTS: tuple[str, ...] = (
    "#...|####|#...",
    "#...|####|.#..",
    "#...|####|..#.",
    "#...|####|...#",
    ".#..|####|.#..",
    ".#..|####|..#.",
    "##..|.###|.#..",
    "##..|.###|..#.",
    "##..|.###|...#",
    "##..|.##.|..##",
    "###..|..###",
)


def _mul(a: Rotation, b: Rotation) -> Rotation:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))  # type: ignore[return-value]


def _apply(rotation: Rotation, v: Vector) -> Vector:
    (a, b, c), (d, e, f), (g, h, i) = rotation
    x, y, z = v
    return (a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z)


def _cross(a: Vector, b: Vector) -> Vector:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _neg(v: Vector) -> Vector:
    return (-v[0], -v[1], -v[2])


def _generate_rotations() -> tuple[Rotation, ...]:
    found = {_IDENTITY}
    frontier = [_IDENTITY]
    while frontier:
        current = frontier.pop()
        for generator in (_QUARTER_X, _QUARTER_Y):
            product = _mul(generator, current)
            if product not in found:
                found.add(product)
                frontier.append(product)
    return tuple(sorted(found, reverse=True))


ROTATIONS: tuple[Rotation, ...] = _generate_rotations()
"""The 24 rotations of the cube as integer matrices (the identity first)."""


def canonical_up(up: Vector, order: int) -> Vector:
    """The ``up`` vector of a pattern with rotational symmetry ``order``, reduced so equal-looking faces compare
    equal: any vector for order 4 becomes ``(0, 0, 0)``, and ``up`` and ``-up`` agree for order 2.

    >>> canonical_up((0, -1, 0), 2), canonical_up((1, 0, 0), 4)
    ((0, 1, 0), (0, 0, 0))
    """
    if order == 4:
        return (0, 0, 0)
    if order == 2:
        return max(up, _neg(up))
    return up


@dataclass(frozen=True, slots=True)
class Cube:
    """A patterned cube: for each normal in :data:`NORMALS` order, ``(pattern, up)``; ``orders`` gives each
    pattern's rotational symmetry (indexed by pattern)."""

    faces: tuple[tuple[int, Vector], ...]
    orders: tuple[int, ...]

    def face(self, normal: Vector) -> tuple[int, Vector]:
        """The pattern on the face with outward ``normal`` and its (canonical) up vector."""
        return self.faces[NORMALS.index(normal)]


def _make_cube(faces: Mapping[Vector, tuple[int, Vector]], orders: tuple[int, ...]) -> Cube:
    return Cube(tuple((faces[n][0], canonical_up(faces[n][1], orders[faces[n][0]])) for n in NORMALS), orders)


def rotate_cube(cube: Cube, rotation: Rotation) -> Cube:
    """The cube turned by ``rotation``.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> rotate_cube(cube, ROTATIONS[0]) == cube
    True
    """
    orders = cube.orders
    faces: list[tuple[int, Vector]] = [(0, (0, 0, 0))] * len(NORMALS)
    for target, (pattern, up) in zip(_targets(rotation), cube.faces, strict=True):
        faces[target] = (pattern, canonical_up(_apply(rotation, up), orders[pattern]))
    return Cube(tuple(faces), orders)


@cache
def _targets(rotation: Rotation) -> tuple[int, ...]:
    """For each normal of :data:`NORMALS`, the index of the normal ``rotation`` carries it to."""
    targets = tuple(NORMALS.index(_apply(rotation, n)) for n in NORMALS)
    if len(set(targets)) != len(NORMALS):
        raise ValueError(f"{rotation} is not a rotation of the cube")
    return targets


@cache
def _sources(rotation: Rotation) -> tuple[int, ...]:
    """For each face of :data:`VISIBLE`, the index in :data:`NORMALS` of the face ``rotation`` brings there."""
    targets = _targets(rotation)
    return tuple(targets.index(NORMALS.index(normal)) for normal in VISIBLE)


@dataclass(frozen=True, slots=True)
class Net:
    """A patterned net: ``cells[i]`` holds pattern ``patterns[i]`` turned ``turns[i]`` quarter turns."""

    cells: tuple[Cell, ...]
    patterns: tuple[int, ...]
    turns: tuple[int, ...]


def _turn(normal: Vector, v: Vector, turns: int) -> Vector:
    for _ in range(turns % 4):
        v = _cross(normal, v)
    return v


@cache
def _cell_frames(cells: tuple[Cell, ...]) -> tuple[Rotation, ...]:
    """The rotation carrying each cell's page frame to its place on the cube (first cell: identity)."""
    frames: dict[Cell, Rotation] = {cells[0]: _IDENTITY}
    frontier = [cells[0]]
    members = set(cells)
    while frontier:
        cell = frontier.pop(0)
        for (dc, dr), hinge in _HINGES.items():
            neighbour = (cell[0] + dc, cell[1] + dr)
            if neighbour in members and neighbour not in frames:
                frames[neighbour] = _mul(frames[cell], hinge)
                frontier.append(neighbour)
    if len(frames) != len(cells) or len(cells) != 6:
        raise InvalidNetError(f"cells {list(cells)} are not six edge-connected squares")
    normals = {_apply(frames[c], FRONT) for c in cells}
    if len(normals) != 6:
        raise InvalidNetError(f"cells {list(cells)} overlap when folded: not a net of the cube")
    return tuple(frames[c] for c in cells)


def fold_net(net: Net, orders: tuple[int, ...]) -> Cube:
    """The cube a patterned net folds into (first cell in front).

    >>> net = Net(((0, 1), (1, 1), (2, 1), (3, 1), (0, 0), (0, 2)), (0, 1, 2, 3, 4, 5), (0,) * 6)
    >>> fold_net(net, (4,) * 6).face((0, 0, 1))
    (0, (0, 0, 0))
    """
    frames = _cell_frames(net.cells)
    faces = {}
    for frame, pattern, turns in zip(frames, net.patterns, net.turns, strict=True):
        normal = _apply(frame, FRONT)
        faces[normal] = (pattern, _apply(frame, _turn(FRONT, TOP, turns)))
    return _make_cube(faces, orders)


def unfold_cube(cube: Cube, cells: tuple[Cell, ...]) -> Net:
    """The patterned net with layout ``cells`` that folds back into ``cube`` exactly (first cell in front).

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> unfold_cube(cube, ((0, 1), (1, 1), (2, 1), (3, 1), (0, 0), (0, 2))).patterns[0]
    0
    """
    frames = _cell_frames(cells)
    patterns, turns = [], []
    for frame in frames:
        normal = _apply(frame, FRONT)
        pattern, up = cube.face(normal)
        order = cube.orders[pattern]
        turn = next(t for t in range(4) if canonical_up(_apply(frame, _turn(FRONT, TOP, t)), order) == up)
        patterns.append(pattern)
        turns.append(turn)
    return Net(cells, tuple(patterns), tuple(turns))


View = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
"""What the viewer sees: ``(pattern, quarter turns)`` on the front, top and right faces."""


def view_of(cube: Cube) -> View:
    """The three visible faces of a cube, each as ``(pattern, turns)`` counter-clockwise from screen-up
    (turns reduced by the pattern's symmetry).

    >>> view_of(Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6))
    ((0, 0), (4, 0), (2, 0))
    """
    seen = []
    for normal in VISIBLE:
        pattern, up = cube.face(normal)
        seen.append((pattern, _screen_turn(normal, up, cube.orders[pattern])))
    return tuple(seen)  # type: ignore[return-value]


@cache
def _screen_turn(normal: Vector, up: Vector, order: int) -> int:
    """The quarter turns (counter-clockwise from screen-up, the fewest) that bring a pattern of symmetry ``order``
    on the visible face ``normal`` to point along its canonical ``up``."""
    return next(t for t in range(4) if canonical_up(_turn(normal, _SCREEN_UP[normal], t), order) == up)


def _rotated_view(cube: Cube, rotation: Rotation) -> View:
    """``view_of(rotate_cube(cube, rotation))``, reading only the three faces that end up visible."""
    seen = []
    orders = cube.orders
    for normal, source in zip(VISIBLE, _sources(rotation), strict=True):
        pattern, up = cube.faces[source]
        order = orders[pattern]
        seen.append((pattern, _screen_turn(normal, canonical_up(_apply(rotation, up), order), order)))
    return tuple(seen)  # type: ignore[return-value]


def view_consistent(cube: Cube, view: View) -> bool:
    """Whether some rotation of ``cube`` shows exactly ``view`` (checked over all 24 rotations).

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> view_consistent(cube, ((0, 0), (1, 0), (2, 0)))
    False
    """
    return any(_rotated_view(cube, rotation) == view for rotation in ROTATIONS)


def all_views(cube: Cube) -> frozenset[View]:
    """Every view the cube can show (one per rotation; :func:`view_consistent` is membership in this set).

    >>> len(all_views(Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)))
    24
    """
    return frozenset(_rotated_view(cube, rotation) for rotation in ROTATIONS)


def same_cube(first: Cube, second: Cube) -> bool:
    """Whether two patterned cubes are the same cube in different orientations.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> same_cube(cube, rotate_cube(cube, ROTATIONS[5]))
    True
    """
    return any(rotate_cube(first, rotation) == second for rotation in ROTATIONS)


def normalize_layout(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """Cells moved to start at column and row 0, sorted by row then column.

    >>> normalize_layout([(3, 2), (2, 2)])
    ((0, 0), (1, 0))
    """
    min_col = min(c for c, _ in cells)
    min_row = min(r for _, r in cells)
    return tuple(sorted(((c - min_col, r - min_row) for c, r in cells), key=lambda cell: (cell[1], cell[0])))


def _parse_layout(drawing: str) -> tuple[Cell, ...]:
    return normalize_layout(
        [(col, row) for row, line in enumerate(drawing.split("|")) for col, char in enumerate(line) if char == "#"]
    )


def _symmetries(cells: tuple[Cell, ...]) -> Iterator[tuple[Cell, ...]]:
    for flip in (False, True):
        current = [(-c, r) if flip else (c, r) for c, r in cells]
        for _ in range(4):
            yield normalize_layout(current)
            current = [(-r, c) for c, r in current]


@cache
def layout_variants(net_index: int) -> tuple[tuple[Cell, ...], ...]:
    """Every distinct drawing of net ``net_index`` (0..10) turned and mirrored on the page.

    >>> len(layout_variants(9))
    4
    """
    return tuple(sorted(set(_symmetries(_parse_layout(NET_LAYOUTS[net_index])))))


@cache
def labellings() -> tuple[tuple[int, ...], ...]:
    """The 30 ways to put six distinct patterns on a cube's faces up to rotation, as permutations: entry ``i`` is
    the pattern on normal ``NORMALS[i]`` (the smallest permutation of each class).

    >>> len(labellings())
    30
    """
    seen: set[tuple[int, ...]] = set()
    classes = []
    orders = (4,) * 6
    for permutation in permutations(range(6)):
        if permutation in seen:
            continue
        cube = Cube(tuple((p, (0, 0, 0)) for p in permutation), orders)
        members = {tuple(f[0] for f in rotate_cube(cube, r).faces) for r in ROTATIONS}
        seen |= members
        classes.append(permutation)
    return tuple(classes)
