from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.errors import InvalidActionError
from foldbench.pft import Fold, FoldType, Rotation, parse_action, parse_actions, turned, unfolding_of

NAMES = {
    "horizontal top to bottom": "H1",
    "horizontal bottom to top": "H2",
    "vertical left to right": "V1",
    "vertical right to left": "V2",
    "diagonal top left to bottom right": "D1",
    "diagonal top right to bottom left": "D2",
    "diagonal bottom left to top right": "D3",
    "diagonal bottom right to top left": "D4",
}
# MentalBlackboard, Tables 9-11: folding type -> unfolding type after a counter-clockwise rotation.
TABLES = {
    90: [
        ("horizontal top to bottom", "vertical right to left"),
        ("horizontal bottom to top", "vertical left to right"),
        ("vertical left to right", "horizontal top to bottom"),
        ("vertical right to left", "horizontal bottom to top"),
        ("diagonal top left to bottom right", "diagonal top right to bottom left"),
        ("diagonal top right to bottom left", "diagonal bottom right to top left"),
        ("diagonal bottom left to top right", "diagonal top left to bottom right"),
        ("diagonal bottom right to top left", "diagonal bottom left to top right"),
    ],
    180: [(name, name) for name in NAMES],
    270: [
        ("horizontal top to bottom", "vertical left to right"),
        ("horizontal bottom to top", "vertical right to left"),
        ("vertical left to right", "horizontal bottom to top"),
        ("vertical right to left", "horizontal top to bottom"),
        ("diagonal top left to bottom right", "diagonal bottom left to top right"),
        ("diagonal top right to bottom left", "diagonal top left to bottom right"),
        ("diagonal bottom left to top right", "diagonal bottom right to top left"),
        ("diagonal bottom right to top left", "diagonal top right to bottom left"),
    ],
}


@pytest.mark.parametrize("degrees", [90, 180, 270])
def test_unfolding_after_rotation_follows_the_papers_tables(degrees: int) -> None:
    for fold_name, unfold_name in TABLES[degrees]:
        steps = unfolding_of([Fold(FoldType(NAMES[fold_name])), Rotation(degrees)])
        assert [s.type.value for s in steps] == [NAMES[unfold_name]]


def test_without_rotation_unfolding_reverses_order_and_direction() -> None:
    steps = unfolding_of(parse_actions("H1-F V2-B D1-F"))
    assert [s.code for s in steps] == ["D4-F", "V1-B", "H2-F"]


@given(st.sampled_from(list(FoldType)), st.sampled_from([0, 90, 180, 270]), st.sampled_from([0, 90, 180, 270]))
def test_turns_compose(fold_type: FoldType, a: int, b: int) -> None:
    assert turned(turned(fold_type, a), b) == turned(fold_type, a + b)
    assert turned(fold_type, 360) == fold_type


@given(st.sampled_from(list(FoldType)), st.booleans())
def test_codes_round_trip(fold_type: FoldType, front: bool) -> None:
    fold = Fold(fold_type, front)
    assert parse_action(fold.code) == fold
    assert parse_action(fold.code.lower()) == fold


@pytest.mark.parametrize("bad", ["H3-F", "D5-B", "H1", "H1-X", "R45", "R360", "", "fold", "H1-F-B"])
def test_unknown_codes_are_rejected(bad: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(bad)
