from __future__ import annotations

import pytest

from foldbench.errors import InvalidSequenceError
from foldbench.pft import PAPER_COUNTS, check_sequence, count_group, parse_actions, rule_violation


@pytest.mark.parametrize("group", [1, 2, 3, 4, 5, 6, 7])
def test_groups_one_to_seven_match_table_8(group: int) -> None:
    assert count_group(group) == PAPER_COUNTS[group]


def test_groups_eight_and_nine_are_the_documented_half_of_the_paper() -> None:
    assert count_group(8) == 9216 == PAPER_COUNTS[8] // 2
    assert count_group(9) == 13824 == PAPER_COUNTS[9] // 2


@pytest.mark.parametrize(
    ("codes", "rule"),
    [
        ("H1-F H1-F H2-F", "F1"),
        ("V1-F V2-F V1-F", "F1"),
        ("H1-F D1-F", "F4"),
        ("D1-F D4-F", "F3"),
        ("D1-F D1-F", "F3"),
        ("H1-F H2-F V1-F D1-F", "F4"),
        ("D1-F D2-F H1-F H2-F", "F5"),
        ("R90 H1-F", "R1"),
        ("H1-F R90 R90", "R2"),
        ("H1-F R90 D1-F", "R3"),
        ("H1-F V1-F R90 H1-F", "R5"),
        ("D1-F R90 H1-F R90 V1-F R90 H1-F", "R4"),
        ("H1-F H2-F H1-F", "F1"),
        ("H1-F H1-F H1-F", "F1"),
    ],
)
def test_broken_rules_are_named(codes: str, rule: str) -> None:
    message = rule_violation(parse_actions(codes))
    assert message is not None and message.startswith(rule + ":"), message
    with pytest.raises(InvalidSequenceError):
        check_sequence(parse_actions(codes))


@pytest.mark.parametrize(
    "codes",
    [
        "D1-F",
        "D1-B D2-F",
        "H1-F V1-F D1-F",
        "D1-F D2-F H1-F V2-F",
        "H2-F R90",
        "D3-F R90 H1-F R180 V1-F R270",
        "D1-F H1-F V1-F R90",
    ],
)
def test_valid_sequences_pass(codes: str) -> None:
    assert rule_violation(parse_actions(codes)) is None


def test_geometric_checks_explain_why() -> None:
    # Three folds along one axis shrink the paper to one unit: its midline is off the grid.
    from foldbench.errors import InvalidFoldError
    from foldbench.pft.simulate import fold_states

    with pytest.raises(InvalidFoldError, match="not a line of the triangle grid"):
        fold_states(parse_actions("H1-F H1-F H1-F"))
    with pytest.raises(InvalidFoldError, match="not square"):
        fold_states(parse_actions("H1-F D1-F"))
    with pytest.raises(InvalidFoldError, match="no paper"):
        fold_states(parse_actions("D1-F D1-F"))
