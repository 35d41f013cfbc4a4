from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from foldbench.pft.grid import NUM_POSITIONS, position_of_row_col_tri, row_col_tri, triangle_vertices


def _area(position: int) -> Fraction:
    (x1, y1), (x2, y2), (x3, y3) = triangle_vertices(position)
    return abs(Fraction((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1), 2))


def test_triangles_tile_the_sheet() -> None:
    assert sum(_area(p) for p in range(NUM_POSITIONS)) == 16
    assert all(_area(p) == Fraction(1, 2) for p in range(NUM_POSITIONS))
    # every unit cell holds exactly two triangles, inside it
    for position in range(NUM_POSITIONS):
        row, column, _ = row_col_tri(position)
        assert all(column <= x <= column + 1 and row <= y <= row + 1 for x, y in triangle_vertices(position))


def test_left_triangle_comes_first() -> None:
    for row in range(4):
        for column in range(4):
            left = triangle_vertices(position_of_row_col_tri(row, column, 0))
            right = triangle_vertices(position_of_row_col_tri(row, column, 1))
            assert sum(x for x, _ in left) < sum(x for x, _ in right)
            diagonal = "\\" if (row + column) % 2 == 0 else "/"
            top_left = (column, row)
            # in a "\" cell the left triangle is the lower one; in a "/" cell it is the upper one
            lower_left_corner = (column, row + 1)
            assert lower_left_corner in left
            assert (top_left in left) and ((column + 1, row) in left) == (diagonal == "/")


def test_locations_are_numbered_row_by_row() -> None:
    # Location 1 is the top-left cell's left triangle; 32 the bottom-right cell's right triangle.
    assert position_of_row_col_tri(0, 0, 0) + 1 == 1
    assert position_of_row_col_tri(0, 3, 1) + 1 == 8
    assert position_of_row_col_tri(1, 0, 0) + 1 == 9
    assert position_of_row_col_tri(3, 3, 1) + 1 == 32


@given(st.integers(0, NUM_POSITIONS - 1))
def test_row_col_tri_round_trips(position: int) -> None:
    assert position_of_row_col_tri(*row_col_tri(position)) == position
