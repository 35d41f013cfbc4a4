"""Changed copies of a patterned cube, the raw material of cube distractors: two faces' patterns swapped, or one
face's pattern turned. Whether a copy is usable is decided by the task (over all 24 rotations)."""

from __future__ import annotations

import numpy as np

from foldbench.pfp.cube import NORMALS, Cube, Vector, canonical_up

__all__ = ["modified_cube", "random_cube", "relabelled", "swap_faces", "tangents", "turn_face"]


def tangents(normal: Vector) -> tuple[Vector, ...]:
    """The four unit vectors lying in the face with outward ``normal``.

    >>> len(tangents((0, 0, 1)))
    4
    """
    return tuple(v for v in NORMALS if v != normal and v != (-normal[0], -normal[1], -normal[2]))


def _with(cube: Cube, changes: dict[Vector, tuple[int, Vector]]) -> Cube:
    faces = tuple(
        (changes[n][0], canonical_up(changes[n][1], cube.orders[changes[n][0]])) if n in changes else face
        for n, face in zip(NORMALS, cube.faces, strict=True)
    )
    return Cube(faces, cube.orders)


def swap_faces(rng: np.random.Generator, cube: Cube, first: Vector, second: Vector) -> Cube:
    """The cube with the patterns of two faces exchanged, each laid in its new face pointing a random way.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> swap_faces(np.random.default_rng(0), cube, NORMALS[0], NORMALS[0]) == cube
    True
    """
    a, b = cube.face(first)[0], cube.face(second)[0]
    ups_first, ups_second = tangents(first), tangents(second)
    return _with(
        cube,
        {
            first: (b, ups_first[int(rng.integers(4))]),
            second: (a, ups_second[int(rng.integers(4))]),
        },
    )


def turn_face(cube: Cube, normal: Vector, turns: int) -> Cube:
    """The cube with the pattern on one face turned ``turns`` quarter turns about its normal.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> turn_face(cube, NORMALS[0], 1) == cube
    True
    """
    pattern, up = cube.face(normal)
    if up == (0, 0, 0):
        return cube
    for _ in range(turns % 4):
        up = (
            normal[1] * up[2] - normal[2] * up[1],
            normal[2] * up[0] - normal[0] * up[2],
            normal[0] * up[1] - normal[1] * up[0],
        )
    return _with(cube, {normal: (pattern, up)})


def random_cube(rng: np.random.Generator, patterns: tuple[int, ...], orders: tuple[int, ...]) -> Cube:
    """A cube with the six given patterns on random faces pointing random ways.

    >>> sorted(p for p, _ in random_cube(np.random.default_rng(0), tuple(range(6)), (4,) * 6).faces)
    [0, 1, 2, 3, 4, 5]
    """
    order = rng.permutation(6)
    faces = {}
    for normal, k in zip(NORMALS, order, strict=True):
        faces[normal] = (patterns[int(k)], tangents(normal)[int(rng.integers(4))])
    return _with(Cube(tuple((0, (0, 0, 0)) for _ in NORMALS), orders), faces)


def modified_cube(rng: np.random.Generator, cube: Cube, faces: tuple[Vector, ...]) -> Cube:
    """One random change (a swap or a turn) among the faces ``faces``.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> modified_cube(np.random.default_rng(0), cube, (NORMALS[0],)) == cube
    True
    """
    if len(faces) >= 2 and rng.random() < 0.55:
        i, j = rng.choice(len(faces), size=2, replace=False)
        return swap_faces(rng, cube, faces[int(i)], faces[int(j)])
    normal = faces[int(rng.integers(len(faces)))]
    return turn_face(cube, normal, int(rng.integers(1, 4)))


def relabelled(rng: np.random.Generator, cube: Cube, labelling: tuple[int, ...]) -> Cube:
    """The cube's patterns rearranged by ``labelling`` (entry ``i``: which current face's pattern goes on face
    ``NORMALS[i]``), each pointing a random way. Any labelling other than the identity's class gives a cube that
    no rotation turns into the original.

    >>> cube = Cube(tuple((k, (0, 0, 0)) for k in range(6)), (4,) * 6)
    >>> relabelled(np.random.default_rng(0), cube, tuple(range(6))) == cube
    True
    """
    patterns = [pattern for pattern, _ in cube.faces]
    faces = {n: (patterns[k], tangents(n)[int(rng.integers(4))]) for n, k in zip(NORMALS, labelling, strict=True)}
    return _with(cube, faces)
