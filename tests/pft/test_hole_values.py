"""A hole built from the engine's own values and one built from plain strings are the same hole, and a value out of
range is refused the same way whichever form it comes in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.errors import InvalidHoleError
from foldbench.pft.grid import NUM_POSITIONS
from foldbench.pft.holes import Hole, Shape, Size

PERIODS = {"circle": 90, "square": 90, "ellipse": 180, "rectangle": 180}

shapes = st.sampled_from(list(Shape))
sizes = st.sampled_from(list(Size))
locations = st.integers(1, NUM_POSITIONS)
directions = st.integers(-8, 8).map(lambda k: 90 * k)


@given(shapes, sizes, directions, locations)
def test_members_and_their_values_make_the_same_hole(shape: Shape, size: Size, direction: int, location: int) -> None:
    from_members = Hole(shape, size, direction, location)
    from_strings = Hole(shape.value, size.value, direction, location)  # type: ignore[arg-type]
    assert from_members == from_strings
    assert type(from_members.shape) is Shape and type(from_strings.size) is Size
    assert from_members.direction == direction % PERIODS.get(shape.value, 360)
    assert 0 <= from_members.direction < 360 and from_members.location == location


@given(shapes, sizes, st.integers(-720, 720).filter(lambda d: d % 90 != 0), locations)
def test_a_direction_between_quarter_turns_is_refused(shape: Shape, size: Size, direction: int, location: int) -> None:
    for form in (shape, shape.value):
        with pytest.raises(InvalidHoleError, match="direction"):
            Hole(form, size, direction, location)  # type: ignore[arg-type]


@pytest.mark.parametrize("location", [0, NUM_POSITIONS + 1, -3, True, 5.0, "5"])
def test_a_location_off_the_sheet_or_not_an_integer_is_refused(location: object) -> None:
    with pytest.raises(InvalidHoleError, match="location"):
        Hole(Shape.STAR, Size.SMALL, 90, location)  # type: ignore[arg-type]


@pytest.mark.parametrize("direction", [True, 90.0, "90"])
def test_a_direction_that_is_not_an_integer_is_refused(direction: object) -> None:
    with pytest.raises(InvalidHoleError, match="direction"):
        Hole(Shape.STAR, Size.SMALL, direction, 3)  # type: ignore[arg-type]
