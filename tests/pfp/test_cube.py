from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.pfp.cube import (
    FRONT,
    NET_LAYOUTS,
    NORMALS,
    RIGHT,
    ROTATIONS,
    TOP,
    VISIBLE,
    Cube,
    Net,
    all_views,
    canonical_up,
    fold_net,
    labellings,
    layout_variants,
    normalize_layout,
    rotate_cube,
    same_cube,
    unfold_cube,
    view_consistent,
    view_of,
)
from foldbench.pfp.errors import InvalidNetError
from foldbench.pfp.render_cubes import PATTERN_ORDERS, PATTERN_SHAPES, draw_net

ASYMMETRIC = tuple(i for i, order in enumerate(PATTERN_ORDERS) if order == 1)


def _matmul(a: tuple, b: tuple) -> tuple:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def test_the_24_rotations_form_a_group() -> None:
    assert len(set(ROTATIONS)) == 24
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert identity in ROTATIONS
    members = set(ROTATIONS)
    for a in ROTATIONS:
        assert round(np.linalg.det(np.array(a))) == 1
        assert any(_matmul(a, b) == identity for b in ROTATIONS)
        for b in ROTATIONS:
            assert _matmul(a, b) in members


def _free_hexominoes() -> set[tuple[tuple[int, int], ...]]:
    shapes: set[tuple[tuple[int, int], ...]] = {((0, 0),)}
    for _ in range(5):
        grown = set()
        for shape in shapes:
            for (c, r), (dc, dr) in product(shape, ((1, 0), (-1, 0), (0, 1), (0, -1))):
                cell = (c + dc, r + dr)
                if cell not in shape:
                    grown.add(normalize_layout([*shape, cell]))
        shapes = grown
    return {_canonical(s) for s in shapes}


def _canonical(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    images = []
    for flip in (1, -1):
        current = [(flip * c, r) for c, r in cells]
        for _ in range(4):
            images.append(tuple(sorted(normalize_layout(current))))
            current = [(-r, c) for c, r in current]
    return min(images)


def test_exactly_eleven_of_the_35_hexominoes_fold_into_a_cube() -> None:
    hexominoes = _free_hexominoes()
    assert len(hexominoes) == 35
    folding = set()
    for cells in hexominoes:
        try:
            fold_net(Net(normalize_layout(cells), tuple(range(6)), (0,) * 6), (4,) * 6)
        except InvalidNetError:
            continue
        folding.add(cells)
    assert len(folding) == 11
    engine_nets = {_canonical(layout_variants(i)[0]) for i in range(len(NET_LAYOUTS))}
    assert engine_nets == folding


@pytest.mark.parametrize("index", range(11))
def test_folding_respects_adjacency_and_opposition(index: int) -> None:
    # Physical facts: cells sharing an edge become perpendicular faces; three cells in a row put the outer two on
    # opposite faces.
    for cells in layout_variants(index):
        cube = fold_net(Net(cells, tuple(range(6)), (0,) * 6), (4,) * 6)
        normal_of = {cell: NORMALS[[p for p, _ in cube.faces].index(k)] for k, cell in enumerate(cells)}
        for (c, r), normal in normal_of.items():
            for dc, dr in ((1, 0), (0, 1)):
                near = normal_of.get((c + dc, r + dr))
                far = normal_of.get((c + 2 * dc, r + 2 * dr))
                if near is not None:
                    assert sum(a * b for a, b in zip(normal, near, strict=True)) == 0
                    if far is not None:
                        assert far == tuple(-x for x in normal)


def test_pattern_orientation_on_a_cross_net_matches_paper_folding() -> None:
    # The cross: root in the middle of the row, a flap above it, one to its right, and the back at the far end.
    #   .1..
    #   0234      0 left, 1 top, 2 front (root), 3 right, 4 back, 5 bottom
    #   .5..
    cells = ((1, 1), (0, 1), (1, 0), (2, 1), (3, 1), (1, 2))
    arrow = ASYMMETRIC[0]
    patterns = (arrow, *[p for p in ASYMMETRIC[1:6]])
    cube = fold_net(Net(cells, patterns, (0,) * 6), PATTERN_ORDERS)
    view = view_of(cube)
    # A flap above the front folds back to become the top: its page-up points away from the viewer, which is how
    # the top face is drawn, so it shows unturned; the right flap keeps pointing up.
    assert view == ((patterns[0], 0), (patterns[2], 0), (patterns[3], 0))
    assert cube.face((0, 0, -1)) == (patterns[4], (0, 1, 0))
    # The bottom flap's page-up points at the front face.
    assert cube.face((0, -1, 0)) == (patterns[5], (0, 0, 1))
    # Turning the pattern on the net turns it on the cube, counter-clockwise as seen from outside.
    turned = fold_net(Net(cells, patterns, (1, 0, 0, 0, 0, 0)), PATTERN_ORDERS)
    assert view_of(turned)[0] == (patterns[0], 1)


def test_there_are_30_labellings_and_each_is_a_different_cube() -> None:
    classes = labellings()
    assert len(classes) == 30 == 720 // 24
    orders = (4,) * 6
    cubes = [Cube(tuple((p, (0, 0, 0)) for p in labelling), orders) for labelling in classes]
    for i in range(30):
        for j in range(i):
            assert not same_cube(cubes[i], cubes[j])


nets = st.builds(
    lambda index, variant, patterns, turns: Net(
        layout_variants(index)[variant % len(layout_variants(index))], tuple(patterns), tuple(turns)
    ),
    st.integers(0, 10),
    st.integers(0, 7),
    st.permutations(range(12)).map(lambda p: p[:6]),
    st.lists(st.integers(0, 3), min_size=6, max_size=6),
)


@settings(max_examples=60, deadline=None)
@given(nets, st.integers(0, 10), st.integers(0, 7), st.integers(0, 23))
def test_unfolding_a_folded_net_gives_an_equivalent_net(net: Net, index: int, variant: int, turn: int) -> None:
    cube = fold_net(net, PATTERN_ORDERS)
    again = unfold_cube(cube, net.cells)
    assert fold_net(again, PATTERN_ORDERS) == cube
    assert again.patterns == net.patterns
    for pattern, a, b in zip(net.patterns, net.turns, again.turns, strict=True):
        assert (a - b) % (4 // PATTERN_ORDERS[pattern]) == 0
    layouts = layout_variants(index)
    other = unfold_cube(rotate_cube(cube, ROTATIONS[turn]), layouts[variant % len(layouts)])
    assert same_cube(fold_net(other, PATTERN_ORDERS), cube)


@settings(max_examples=30, deadline=None)
@given(nets)
def test_every_orientation_is_consistent_and_asymmetric_cubes_show_24_views(net: Net) -> None:
    cube = fold_net(net, PATTERN_ORDERS)
    views = [view_of(rotate_cube(cube, r)) for r in ROTATIONS]
    assert all(view_consistent(cube, v) for v in views)
    if all(PATTERN_ORDERS[p] == 1 for p in net.patterns):
        assert len(set(views)) == 24


def _turned_by_definition(cube: Cube, rotation: tuple) -> Cube:
    """The cube turned the slow, plain way: every face and its up vector multiplied by the rotation matrix."""
    def times(v: tuple) -> tuple:
        return tuple(sum(rotation[i][k] * v[k] for k in range(3)) for i in range(3))

    moved = {times(n): (pattern, times(up)) for n, (pattern, up) in zip(NORMALS, cube.faces, strict=True)}
    return Cube(tuple((moved[n][0], canonical_up(moved[n][1], cube.orders[moved[n][0]])) for n in NORMALS),
                cube.orders)


def _seen_by_definition(cube: Cube) -> tuple:
    """The visible faces read the plain way: the fewest quarter turns, from screen-up, that show each face's up."""
    screen_up = {FRONT: (0, 1, 0), TOP: (0, 0, -1), RIGHT: (0, 1, 0)}
    seen = []
    for normal in VISIBLE:
        pattern, up = cube.face(normal)
        pointing, turns = screen_up[normal], 0
        while canonical_up(pointing, cube.orders[pattern]) != up:
            n, turns = normal, turns + 1
            assert turns < 4, f"no turn of the face {normal} shows its up vector {up}"
            pointing = (n[1] * pointing[2] - n[2] * pointing[1], n[2] * pointing[0] - n[0] * pointing[2],
                        n[0] * pointing[1] - n[1] * pointing[0])
        seen.append((pattern, turns))
    return tuple(seen)


@settings(max_examples=40, deadline=None)
@given(nets, st.lists(st.integers(0, 23), min_size=1, max_size=4))
def test_turning_and_viewing_agree_with_the_plain_matrix_definitions(net: Net, turns: list[int]) -> None:
    cube = fold_net(net, PATTERN_ORDERS)
    for turn in turns:  # turned cubes carry canonical up vectors of every pattern symmetry in every face
        cube = rotate_cube(cube, ROTATIONS[turn])
    for rotation in ROTATIONS:
        assert rotate_cube(cube, rotation) == _turned_by_definition(cube, rotation)
        assert view_of(rotate_cube(cube, rotation)) == _seen_by_definition(_turned_by_definition(cube, rotation))
    views = {_seen_by_definition(_turned_by_definition(cube, rotation)) for rotation in ROTATIONS}
    assert all_views(cube) == views
    assert all(view_consistent(cube, view) for view in views)
    front, top, right = next(iter(views))
    assert view_consistent(cube, (front, top, (right[0], (right[1] + 1) % 4))) == (
        (front, top, (right[0], (right[1] + 1) % 4)) in views
    )


def test_a_view_with_a_turned_face_is_not_consistent() -> None:
    net = Net(layout_variants(4)[0], ASYMMETRIC[:6], (0,) * 6)
    cube = fold_net(net, PATTERN_ORDERS)
    (front, top, right) = view_of(cube)
    assert not view_consistent(cube, (front, top, (right[0], (right[1] + 1) % 4)))
    assert not view_consistent(cube, (front, right, top))


def test_bad_layouts_are_rejected() -> None:
    with pytest.raises(InvalidNetError, match="overlap"):
        fold_net(Net(((0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)), tuple(range(6)), (0,) * 6), (4,) * 6)
    with pytest.raises(InvalidNetError, match="connected"):
        fold_net(Net(((0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (5, 5)), tuple(range(6)), (0,) * 6), (4,) * 6)


@pytest.mark.parametrize("pattern", range(len(PATTERN_SHAPES)))
def test_drawn_patterns_have_their_declared_symmetry(pattern: int) -> None:
    base = _cell_picture(pattern, 0)
    half = _cell_picture(pattern, 2)
    quarter = _cell_picture(pattern, 1)
    same_half = _same(base, half)
    same_quarter = _same(base, quarter)
    assert (same_quarter, same_half) == {1: (False, False), 2: (False, True), 4: (True, True)}[PATTERN_ORDERS[pattern]]


def _cell_picture(pattern: int, turns: int) -> np.ndarray:
    net = Net(
        ((0, 1), (1, 1), (2, 1), (3, 1), (0, 0), (0, 2)),
        (pattern, *[p for p in range(12) if p != pattern][:5]),
        (turns, 0, 0, 0, 0, 0),
    )
    image = np.array(draw_net(net, 400))
    columns = np.where((image != 0).any(axis=0))[0]
    rows = np.where((image != 0).any(axis=1))[0]
    cell = (columns.max() - columns.min() + 1) // 4
    top = rows.min() + cell
    left = columns.min()
    return image[top + 6 : top + cell - 6, left + 6 : left + cell - 6] == (7 + pattern % 6)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return float((a != b).mean()) < 0.02


def test_the_front_face_is_the_first_cell() -> None:
    net = Net(layout_variants(0)[0], (0, 1, 2, 3, 4, 5), (0,) * 6)
    assert fold_net(net, PATTERN_ORDERS).face(FRONT)[0] == 0
    assert {TOP, RIGHT} <= set(NORMALS)
