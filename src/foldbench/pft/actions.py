"""The actions of the paper folding test: eight folds (toward or away from the viewer) and three rotations.

Codes are the benchmark's vocabulary: ``H1 H2 V1 V2 D1 D2 D3 D4`` with ``-F`` (toward the viewer, the flap lands
on top) or ``-B`` (away, the flap lands underneath), and ``R90 R180 R270`` (counter-clockwise as the viewer sees
it, about the sheet's centre).

==== ============================== ===================================================
code moves                          crease (halving the bounding box of the paper)
==== ============================== ===================================================
H1   top half down                  horizontal midline
H2   bottom half up                 horizontal midline
V1   left half right                vertical midline
V2   right half left                vertical midline
D1   top-left half to bottom-right  diagonal through the box's top-right and bottom-left
D2   top-right half to bottom-left  diagonal through the box's top-left and bottom-right
D3   bottom-left half to top-right  diagonal through the box's top-left and bottom-right
D4   bottom-right half to top-left  diagonal through the box's top-right and bottom-left
==== ============================== ===================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from foldbench.errors import InvalidActionError

__all__ = [
    "FoldType",
    "Fold",
    "Rotation",
    "Action",
    "Axis",
    "parse_action",
    "parse_actions",
    "format_actions",
    "opposite",
    "turned",
    "FOLD_TYPES",
    "ROTATION_DEGREES",
]


class FoldType(StrEnum):
    """The eight fold types, named by the motion of the moving half."""

    H1 = "H1"
    H2 = "H2"
    V1 = "V1"
    V2 = "V2"
    D1 = "D1"
    D2 = "D2"
    D3 = "D3"
    D4 = "D4"

    @property
    def axis(self) -> Axis:
        """The direction of the crease: ``"-"`` horizontal, ``"|"`` vertical, ``"/"`` or ``"\\\\"`` diagonal."""
        return _AXIS[self]

    @property
    def is_diagonal(self) -> bool:
        """Whether the crease is one of the box's diagonals."""
        return self.axis in ("/", "\\")

    @property
    def family(self) -> Literal["H", "V", "D"]:
        """``"H"``, ``"V"`` or ``"D"``."""
        return self.value[0]  # type: ignore[return-value]


Axis = Literal["-", "|", "/", "\\"]

_AXIS: dict[FoldType, Axis] = {
    FoldType.H1: "-",
    FoldType.H2: "-",
    FoldType.V1: "|",
    FoldType.V2: "|",
    FoldType.D1: "/",
    FoldType.D4: "/",
    FoldType.D2: "\\",
    FoldType.D3: "\\",
}

FOLD_TYPES: tuple[FoldType, ...] = tuple(FoldType)
ROTATION_DEGREES: tuple[int, ...] = (90, 180, 270)

_OPPOSITE = {
    FoldType.H1: FoldType.H2,
    FoldType.H2: FoldType.H1,
    FoldType.V1: FoldType.V2,
    FoldType.V2: FoldType.V1,
    FoldType.D1: FoldType.D4,
    FoldType.D4: FoldType.D1,
    FoldType.D2: FoldType.D3,
    FoldType.D3: FoldType.D2,
}

# A quarter turn counter-clockwise (as the viewer sees it) turns the motion up -> left -> down -> right -> up,
# and up-right -> up-left -> down-left -> down-right -> up-right.
_QUARTER_TURN = {
    FoldType.H2: FoldType.V2,
    FoldType.V2: FoldType.H1,
    FoldType.H1: FoldType.V1,
    FoldType.V1: FoldType.H2,
    FoldType.D3: FoldType.D4,
    FoldType.D4: FoldType.D2,
    FoldType.D2: FoldType.D1,
    FoldType.D1: FoldType.D3,
}


def opposite(fold_type: FoldType) -> FoldType:
    """The fold type whose motion is the reverse of ``fold_type``'s (``H1`` <-> ``H2``, ``D1`` <-> ``D4``, ...)."""
    return _OPPOSITE[fold_type]


def turned(fold_type: FoldType, degrees: int) -> FoldType:
    """The fold type seen after the paper turns ``degrees`` counter-clockwise (a multiple of 90).

    >>> turned(FoldType.H2, 90), turned(FoldType.D4, 90), turned(FoldType.H1, 0)
    (<FoldType.V2: 'V2'>, <FoldType.D2: 'D2'>, <FoldType.H1: 'H1'>)
    """
    if degrees % 90:
        raise InvalidActionError(f"rotation must be a multiple of 90 degrees, got {degrees}")
    for _ in range((degrees // 90) % 4):
        fold_type = _QUARTER_TURN[fold_type]
    return fold_type


@dataclass(frozen=True, slots=True)
class Fold:
    """One fold: a fold type, made toward the viewer (``front=True``, code ``-F``) or away (``-B``)."""

    type: FoldType
    front: bool = True

    @property
    def code(self) -> str:
        """The fold's code, e.g. ``"H1-F"``."""
        return f"{self.type.value}-{'F' if self.front else 'B'}"

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True, slots=True)
class Rotation:
    """A rotation of the whole folded paper, counter-clockwise about the sheet's centre."""

    degrees: int

    def __post_init__(self) -> None:
        if self.degrees not in ROTATION_DEGREES:
            raise InvalidActionError(f"rotation must be 90, 180 or 270 degrees, got {self.degrees}")

    @property
    def code(self) -> str:
        """The rotation's code, e.g. ``"R90"``."""
        return f"R{self.degrees}"

    def __str__(self) -> str:
        return self.code


Action = Fold | Rotation

_CODE = re.compile(r"^\s*(?:(?P<fold>[HVD][1-4])\s*-\s*(?P<side>[FB])|R(?P<deg>\d+))\s*$", re.IGNORECASE)


def parse_action(code: str) -> Action:
    """Parse one action code (``"H1-F"``, ``"d3-b"``, ``"R90"``).

    >>> parse_action("H1-F"), parse_action("R270")
    (Fold(type=<FoldType.H1: 'H1'>, front=True), Rotation(degrees=270))
    >>> parse_action("H3-F")
    Traceback (most recent call last):
    ...
    foldbench.errors.InvalidActionError: unknown action code 'H3-F' (expected H1..D4 with -F or -B, or R90/R180/R270)
    """
    match = _CODE.match(code) if isinstance(code, str) else None
    if match is None:
        raise InvalidActionError(f"unknown action code {code!r} (expected H1..D4 with -F or -B, or R90/R180/R270)")
    if match["deg"] is not None:
        return Rotation(int(match["deg"]))
    name = match["fold"].upper()
    if name not in FoldType.__members__:
        raise InvalidActionError(f"unknown action code {code!r} (expected H1..D4 with -F or -B, or R90/R180/R270)")
    return Fold(FoldType(name), match["side"].upper() == "F")


def parse_actions(codes: str | list[str]) -> list[Action]:
    """Parse a list of codes, or one string of codes separated by commas or spaces."""
    if isinstance(codes, str):
        codes = [c for c in re.split(r"[\s,]+", codes) if c]
    return [parse_action(c) for c in codes]


def format_actions(actions: list[Action] | tuple[Action, ...]) -> str:
    """The codes of ``actions`` joined by spaces."""
    return " ".join(a.code for a in actions)
