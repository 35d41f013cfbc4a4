"""Every valid configuration of the paper folding test, by the groups of MentalBlackboard's Table 8.

A *pattern* is a string of ``F`` (a fold: 8 types × toward/away) and ``R`` (a rotation: 90/180/270). The groups:

===== =================================== ==================== ==================
group patterns                            foldbench count      the paper's count
===== =================================== ==================== ==================
1     F                                   16                   16
2     FF                                  160                  160
3     FFF                                 1,408                1,408
4     FFFF                                10,752               10,752
5     FR                                  48                   48
6     FRF, FFR                            768                  768
7     FFRF, FRFF, FFFR, FRFR, FRFRF       10,368               10,368
8     FRFFR, FFRFR                        9,216                18,432
9     FRFRFR                              13,824               27,648
===== =================================== ==================== ==================

The paper's table prints FRFR in group 6, but only counting it in group 7 gives its totals. For groups 8 and 9
the rules of :mod:`foldbench.pft.rules` allow exactly half the paper's count: with rotations, rule R5 requires
three folds to start with a diagonal and rule R3 forbids diagonals anywhere else, which leaves
4 × 3 × 4 × 4 × 3 (FRFFR) + 4 × 4 × 3 × 4 × 3 (FFRFR) = 1,152 skeletons × 2³ sides = 9,216, and
4 × 3 × 4 × 3 × 4 × 3 × 2³ = 13,824 for FRFRFR. Every one of them is also geometrically possible. The paper's
figures are exactly twice these; no reading of its stated rules that keeps groups 5-7 right gives them, so we
keep the rules and report the difference.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache

from foldbench.errors import UnknownNameError
from foldbench.pft.actions import FOLD_TYPES, ROTATION_DEGREES, Action, Fold, FoldType, Rotation
from foldbench.pft.rules import is_valid

__all__ = ["GROUPS", "PAPER_COUNTS", "configurations", "count_group", "group_of", "pattern_of"]

#: The action patterns of each group.
GROUPS: dict[int, tuple[str, ...]] = {
    1: ("F",),
    2: ("FF",),
    3: ("FFF",),
    4: ("FFFF",),
    5: ("FR",),
    6: ("FRF", "FFR"),
    7: ("FFRF", "FRFF", "FFFR", "FRFR", "FRFRF"),
    8: ("FRFFR", "FFRFR"),
    9: ("FRFRFR",),
}

#: The counts printed in MentalBlackboard's Table 8.
PAPER_COUNTS: dict[int, int] = {1: 16, 2: 160, 3: 1408, 4: 10752, 5: 48, 6: 768, 7: 10368, 8: 18432, 9: 27648}

_GROUP_OF_PATTERN = {pattern: group for group, patterns in GROUPS.items() for pattern in patterns}


def pattern_of(actions: list[Action] | tuple[Action, ...]) -> str:
    """The ``F``/``R`` pattern of a sequence."""
    return "".join("R" if isinstance(a, Rotation) else "F" for a in actions)


def group_of(actions: list[Action] | tuple[Action, ...]) -> int | None:
    """The Table 8 group of a sequence's pattern, or None if the pattern is in no group."""
    return _GROUP_OF_PATTERN.get(pattern_of(actions))


def _skeletons(pattern: str) -> Iterator[tuple[FoldType | int, ...]]:
    choices = [FOLD_TYPES if c == "F" else ROTATION_DEGREES for c in pattern]
    yield from itertools.product(*choices)


def configurations(group: int) -> Iterator[tuple[Action, ...]]:
    """Every valid sequence of a group, each fold both toward (F) and away (B), in a fixed order.

    Validity does not depend on the side a fold is made to, so each fold-type skeleton is checked once.
    """
    if group not in GROUPS:
        raise UnknownNameError("configuration group", str(group), [str(g) for g in GROUPS])
    for forward in _valid_skeletons(group):
        fold_slots = [i for i, a in enumerate(forward) if isinstance(a, Fold)]
        for sides in itertools.product((True, False), repeat=len(fold_slots)):
            actions = list(forward)
            for slot, front in zip(fold_slots, sides, strict=True):
                actions[slot] = Fold(forward[slot].type, front)  # type: ignore[union-attr]
            yield tuple(actions)


@cache
def _valid_skeletons(group: int) -> tuple[tuple[Action, ...], ...]:
    """The valid sequences of a group with every fold made toward the viewer, in :func:`configurations`' order.

    Checking the rules is most of the cost of enumerating a group (about a second for all nine), so it is done once
    per process; the actions are immutable, so the sequences can be shared."""
    found = []
    for pattern in GROUPS[group]:
        for skeleton in _skeletons(pattern):
            forward: tuple[Action, ...] = tuple(Fold(s) if isinstance(s, FoldType) else Rotation(s) for s in skeleton)
            if is_valid(forward):
                found.append(forward)
    return tuple(found)


def count_group(group: int) -> int:
    """How many valid configurations a group has."""
    return sum(1 for _ in configurations(group))
