"""Properties of the hole outlines: containment, direction, mirror symmetry and periodicity."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.errors import InvalidHoleError
from foldbench.pft.encoders.shapes import RADIUS_BY_SIZE, hole_outline, outline_of_hole, unit_outline
from foldbench.pft.grid import NUM_POSITIONS, triangle_vertices
from foldbench.pft.holes import Hole, Shape, Size

Polygons = list[list[tuple[float, float]]]

TOLERANCE = 1e-9
DIRECTIONAL = [s for s in Shape if s not in (Shape.CIRCLE, Shape.SQUARE)]
HALF_TURN_SYMMETRIC = [Shape.ELLIPSE, Shape.RECTANGLE]
FOUR_CLASS = [s for s in DIRECTIONAL if s not in HALF_TURN_SYMMETRIC]

shapes = st.sampled_from(list(Shape))
sizes = st.sampled_from(list(Size))
right_angles = st.sampled_from([0, 90, 180, 270])
any_direction = st.floats(min_value=-720, max_value=720, allow_nan=False)
centers = st.tuples(st.floats(-50, 50), st.floats(-50, 50))
units = st.floats(min_value=0.5, max_value=200)


def same_polygon(a: list[tuple[float, float]], b: list[tuple[float, float]], tolerance: float) -> bool:
    """Whether two closed polygons have the same vertex cycle (any start, either orientation)."""
    if len(a) != len(b):
        return False
    for candidate in (b, b[::-1]):
        for start in range(len(candidate)):
            if all(
                math.dist(p, candidate[(start + i) % len(candidate)]) <= tolerance for i, p in enumerate(a)
            ):
                return True
    return False


def same_outline(a: Polygons, b: Polygons, tolerance: float = TOLERANCE) -> bool:
    """Whether two outlines are the same set of polygons."""
    if len(a) != len(b):
        return False
    unmatched = list(b)
    for polygon in a:
        match = next((other for other in unmatched if same_polygon(polygon, other, tolerance)), None)
        if match is None:
            return False
        unmatched.remove(match)
    return True


def centroid(position: int) -> tuple[float, float]:
    vertices = triangle_vertices(position)
    return sum(v[0] for v in vertices) / 3, sum(v[1] for v in vertices) / 3


def strictly_inside(point: tuple[float, float], triangle: tuple[tuple[int, int], ...], margin: float) -> bool:
    """Whether ``point`` is inside ``triangle`` and at least ``margin`` away from each of its sides."""
    for i in range(3):
        (x0, y0), (x1, y1) = triangle[i], triangle[(i + 1) % 3]
        ox, oy = triangle[(i + 2) % 3]
        length = math.hypot(x1 - x0, y1 - y0)
        side = ((x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0)) / length
        opposite = (x1 - x0) * (oy - y0) - (y1 - y0) * (ox - x0)
        if side * math.copysign(1, opposite) < margin:
            return False
    return True


def turn_on_screen(outline: Polygons, center: tuple[float, float], degrees: float) -> Polygons:
    """Turn an outline counter-clockwise *as the viewer sees it* about ``center``, in y-down coordinates."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    cx, cy = center
    return [
        [(cx + (x - cx) * c + (y - cy) * s, cy - (x - cx) * s + (y - cy) * c) for x, y in polygon]
        for polygon in outline
    ]


def reflect(outline: Polygons, center: tuple[float, float], axis_degrees: float) -> Polygons:
    """Mirror an outline about the line through ``center`` at ``axis_degrees`` counter-clockwise from the
    viewer's right (y-down coordinates)."""
    ax, ay = math.cos(math.radians(axis_degrees)), -math.sin(math.radians(axis_degrees))
    cx, cy = center
    mirrored = []
    for polygon in outline:
        points = []
        for x, y in polygon:
            dx, dy = x - cx, y - cy
            along = dx * ax + dy * ay
            points.append((cx + 2 * along * ax - dx, cy + 2 * along * ay - dy))
        mirrored.append(points)
    return mirrored


@given(shapes, sizes, any_direction)
def test_every_outline_fits_inside_every_triangle(shape: Shape, size: Size, direction: float) -> None:
    for position in range(NUM_POSITIONS):
        triangle = triangle_vertices(position)
        outline = hole_outline(shape, size, direction, center=centroid(position), unit=1.0)
        for polygon in outline:
            assert len(polygon) >= 3
            for point in polygon:
                # at least 1/100 of a cell from each side, so edges drawn on top never touch a hole
                assert strictly_inside(point, triangle, 0.01), (shape, size, direction, position, point)


@given(shapes, sizes, right_angles)
def test_outline_of_hole_sits_at_its_triangle_centroid(shape: Shape, size: Size, direction: int) -> None:
    for location in (1, 2, 3, 16, 17, 32):
        unit, origin = 40.0, (7.0, 11.0)
        cx, cy = centroid(location - 1)
        expected = hole_outline(shape, size, direction, center=(7.0 + 40 * cx, 11.0 + 40 * cy), unit=unit)
        got = outline_of_hole(Hole(shape, size, direction, location), unit=unit, origin=origin)
        # the hole stores its canonical direction, which must draw the same outline
        assert same_outline([list(p) for p in got], expected, 1e-6)


def test_unit_outlines_lie_in_the_unit_disc_and_reach_its_edge() -> None:
    for shape in Shape:
        radii = [math.hypot(u, v) for polygon in unit_outline(shape) for u, v in polygon]
        assert max(radii) <= 1.0 + TOLERANCE, shape
        assert max(radii) >= 0.9, shape  # every shape uses most of its disc, so sizes are comparable


def test_large_holes_are_175_to_200_percent_of_small_ones() -> None:
    assert 1.75 <= RADIUS_BY_SIZE[Size.LARGE] / RADIUS_BY_SIZE[Size.SMALL] <= 2.0
    for shape in Shape:
        small = hole_outline(shape, "small", 0, unit=1.0)
        large = hole_outline(shape, "large", 0, unit=1.0)
        extent_small = max(math.hypot(x, y) for polygon in small for x, y in polygon)
        extent_large = max(math.hypot(x, y) for polygon in large for x, y in polygon)
        assert 1.75 - TOLERANCE <= extent_large / extent_small <= 2.0, shape


@pytest.mark.parametrize("shape", DIRECTIONAL)
def test_quarter_turn_changes_directional_shapes(shape: Shape) -> None:
    assert not same_outline(
        hole_outline(shape, "large", 0, unit=10.0), hole_outline(shape, "large", 90, unit=10.0), 1e-3
    )


@pytest.mark.parametrize("shape", FOUR_CLASS)
def test_half_turn_changes_shapes_with_four_directions(shape: Shape) -> None:
    assert not same_outline(
        hole_outline(shape, "small", 0, unit=10.0), hole_outline(shape, "small", 180, unit=10.0), 1e-3
    )


@pytest.mark.parametrize("shape", HALF_TURN_SYMMETRIC)
@given(size=sizes, direction=any_direction, center=centers, unit=units)
def test_ellipse_and_rectangle_repeat_every_half_turn(
    shape: Shape, size: Size, direction: float, center: tuple[float, float], unit: float
) -> None:
    first = hole_outline(shape, size, direction, center, unit)
    second = hole_outline(shape, size, direction + 180, center, unit)
    assert same_outline(first, second, 1e-9 * (unit + 100))


@pytest.mark.parametrize("shape", [Shape.CIRCLE, Shape.SQUARE])
@given(size=sizes, center=centers, unit=units)
def test_circle_and_square_look_the_same_at_every_direction(
    shape: Shape, size: Size, center: tuple[float, float], unit: float
) -> None:
    upright = hole_outline(shape, size, 0, center, unit)
    for direction in (90, 180, 270, -90, 450):
        assert same_outline(upright, hole_outline(shape, size, direction, center, unit), 1e-9 * (unit + 100))


@given(shapes, sizes, any_direction, centers, units)
def test_every_outline_is_mirror_symmetric_about_its_pointing_axis(
    shape: Shape, size: Size, direction: float, center: tuple[float, float], unit: float
) -> None:
    outline = hole_outline(shape, size, direction, center, unit)
    # at direction 0 the pointing axis is vertical (90° from the viewer's right); it turns with the shape
    assert same_outline(reflect(outline, center, 90 + direction), outline, 1e-9 * (unit + 100))


@given(shapes, sizes, any_direction, centers, units)
def test_direction_turns_the_upright_shape_counter_clockwise_as_seen(
    shape: Shape, size: Size, direction: float, center: tuple[float, float], unit: float
) -> None:
    upright = hole_outline(shape, size, 0, center, unit)
    expected = turn_on_screen(upright, center, direction)
    assert same_outline(hole_outline(shape, size, direction, center, unit), expected, 1e-9 * (unit + 100))


@pytest.mark.parametrize(
    ("direction", "pointing"), [(0, (0, -1)), (90, (-1, 0)), (180, (0, 1)), (270, (1, 0)), (-90, (1, 0))]
)
def test_triangle_points_up_left_down_right_on_screen(direction: int, pointing: tuple[int, int]) -> None:
    (polygon,) = hole_outline("triangle", "large", direction, center=(0.0, 0.0), unit=100.0)
    apex = max(polygon, key=lambda p: p[0] * pointing[0] + p[1] * pointing[1])
    assert math.isclose(apex[0], 21 * pointing[0], abs_tol=1e-9)
    assert math.isclose(apex[1], 21 * pointing[1], abs_tol=1e-9)


def test_the_letter_bar_is_on_the_pointing_side() -> None:
    (polygon,) = hole_outline("letter", "large", 0, unit=1.0)
    top = min(y for _, y in polygon)
    width_at_top = max(x for x, y in polygon if y == top) - min(x for x, y in polygon if y == top)
    bottom = max(y for _, y in polygon)
    width_at_bottom = max(x for x, y in polygon if y == bottom) - min(x for x, y in polygon if y == bottom)
    assert width_at_top > 3 * width_at_bottom  # the T's bar above its stem


def test_unknown_shape_or_size_is_a_typed_error() -> None:
    with pytest.raises(InvalidHoleError, match="hexagon"):
        hole_outline("hexagon", "small", 0)
    with pytest.raises(InvalidHoleError, match="medium"):
        hole_outline("circle", "medium", 0)
