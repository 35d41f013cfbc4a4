"""The text encoding of the paper folding test: one 4×4 grid of cell pairs per step.

Each grid line is four cells separated by ``", "`` with a trailing comma; a cell is its left triangle then its
right one (``tri`` 0 then 1); ``1`` means paper lies there, ``0`` that it has been folded away. On the punching
grid a hole's letter replaces the digit of its triangle: upper case for large holes, lower case for small ones.
Directions are not encoded. The grids are: step 0 (the flat sheet), one after each fold or rotation (the action
itself is not named), then the punching grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from foldbench.pft.grid import SIZE
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.paper import Paper
from foldbench.pft.simulate import Solution

__all__ = ["HOLE_LETTERS", "grid_text", "encode_steps", "encode_prompt_block"]

#: The letter of each hole shape on the punching grid.
HOLE_LETTERS: dict[Shape, str] = {
    Shape.CIRCLE: "C",
    Shape.ELLIPSE: "E",
    Shape.STAR: "S",
    Shape.TRIANGLE: "A",
    Shape.TRAPEZOID: "Z",
    Shape.LETTER: "T",
    Shape.SQUARE: "Q",
    Shape.RECTANGLE: "R",
    Shape.TEXT: "X",
}


def _hole_letter(hole: Hole) -> str:
    letter = HOLE_LETTERS[hole.shape]
    return letter if hole.size is Size.LARGE else letter.lower()


def _format_marks(marks: Sequence[str]) -> str:
    lines = []
    for row in range(SIZE):
        base = 2 * SIZE * row
        lines.append(", ".join(marks[base + 2 * c] + marks[base + 2 * c + 1] for c in range(SIZE)) + ",")
    return "\n".join(lines)


@cache
def _plain_grid(occupancy: int) -> str:
    """The grid of a paper without holes, by its occupancy mask."""
    return _format_marks(["1" if occupancy >> p & 1 else "0" for p in range(2 * SIZE * SIZE)])


def grid_text(paper: Paper, holes: Sequence[Hole] = ()) -> str:
    """The grid of one step.

    >>> print(grid_text(Paper.flat()))
    11, 11, 11, 11,
    11, 11, 11, 11,
    11, 11, 11, 11,
    11, 11, 11, 11,
    """
    if not holes:
        return _plain_grid(paper.occupancy())
    marks = ["1" if stack else "0" for stack in paper.stacks]
    for hole in holes:
        marks[hole.location - 1] = _hole_letter(hole)
    return _format_marks(marks)


def encode_steps(solution: Solution) -> list[str]:
    """The grids of a configuration: the flat sheet, one per action, then the punching grid."""
    grids = [grid_text(paper) for paper in solution.states]
    grids.append(grid_text(solution.folded, solution.initial_holes))
    return grids


def encode_prompt_block(solution: Solution) -> str:
    """The grids as one block of text with step headings, ready to put in a prompt."""
    grids = encode_steps(solution)
    parts = [f"Step 0 (flat sheet):\n{grids[0]}"]
    parts += [f"Step {i}:\n{grid}" for i, grid in enumerate(grids[1:-1], start=1)]
    parts.append(f"Hole punching:\n{grids[-1]}")
    return "\n\n".join(parts)
