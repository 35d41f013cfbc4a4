"""The planning oracle: find folds and initial holes that produce a given unfolded hole pattern.

The planning task gives the unfolded result and the number of folds (no rotations, at most two punches); the
answer is a fold sequence and the holes punched after it. Which side a fold is made to does not change where the
holes end up, so the search runs over the valid fold-type sequences of that length (all ``-F``) and is
exhaustive: :func:`find_plan` returns ``None`` only when no sequence of the given length with at most
``max_holes`` punches reproduces the pattern.

For a sequence, punching the folded paper at a grid position makes a hole in exactly the triangles stacked
there; so a pattern is reachable iff its holes fall into at most ``max_holes`` stacks, fill each stack
completely, agree on shape and size within a stack, and map back to one direction per stack.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from foldbench.errors import InvalidHoleError, InvalidSequenceError
from foldbench.pft.actions import Fold
from foldbench.pft.enumeration import configurations
from foldbench.pft.holes import Hole
from foldbench.pft.paper import Paper, direction_map_of
from foldbench.pft.simulate import fold_states, solve

__all__ = ["Plan", "find_plan", "iter_plans", "MAX_PLAN_FOLDS"]

#: Planning uses the rotation-free groups 1-4.
MAX_PLAN_FOLDS = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """An answer to a planning item: the folds, then the holes punched through the folded paper."""

    folds: tuple[Fold, ...]
    initial_holes: tuple[Hole, ...]


@cache
def _folded_papers(num_folds: int) -> tuple[tuple[tuple[Fold, ...], Paper, tuple[int, ...]], ...]:
    """Every valid all-forward sequence of ``num_folds`` folds, its folded paper and where each triangle lies."""
    found = []
    for actions in configurations(num_folds):
        if all(isinstance(a, Fold) and a.front for a in actions):
            folds = tuple(a for a in actions if isinstance(a, Fold))
            paper = fold_states(folds)[0][-1]
            found.append((folds, paper, tuple(paper.positions())))
    return tuple(found)


def _punches(paper: Paper, where: Sequence[int], target: Sequence[Hole], max_holes: int) -> tuple[Hole, ...] | None:
    groups: dict[int, list[Hole]] = {}
    for hole in target:
        groups.setdefault(where[hole.location - 1], []).append(hole)
        if len(groups) > max_holes:
            return None
    punches: list[Hole] = []
    for position, holes in groups.items():
        if len(holes) != len(paper.stacks[position]):
            return None  # the punch would also go through triangles the pattern leaves whole
        first = holes[0]
        directions = set()
        for hole in holes:
            if hole.shape is not first.shape or hole.size is not first.size:
                return None
            directions.add(direction_map_of(paper.poses[hole.location - 1])(hole.direction))
        punched = {Hole(first.shape, first.size, d, position + 1) for d in directions}
        if len(punched) != 1:
            return None
        punches.extend(punched)
    return tuple(sorted(punches, key=Hole.sort_key))


def _check_target(target: Sequence[Hole], num_folds: int) -> None:
    if not 1 <= num_folds <= MAX_PLAN_FOLDS:
        raise InvalidSequenceError(f"planning supports 1 to {MAX_PLAN_FOLDS} folds, got {num_folds}")
    if not target:
        raise InvalidHoleError("the target pattern has no hole")
    locations = [h.location for h in target]
    if len(set(locations)) != len(locations):
        raise InvalidHoleError("the target pattern has two holes at one location")


def iter_plans(target: Sequence[Hole], num_folds: int, *, max_holes: int = 2) -> Iterator[Plan]:
    """Every plan (all-forward fold sequence + punches) that reproduces ``target`` exactly."""
    _check_target(target, num_folds)
    for folds, paper, where in _folded_papers(num_folds):
        punches = _punches(paper, where, target, max_holes)
        if punches is not None:
            yield Plan(folds, punches)


def find_plan(target: Sequence[Hole], num_folds: int, *, max_holes: int = 2) -> Plan | None:
    """A plan that reproduces ``target`` with exactly ``num_folds`` folds, or None when there is none.

    The plan is checked by replaying it in the engine before it is returned.

    >>> from foldbench.pft.holes import Hole
    >>> plan = find_plan([Hole("star", "small", 0, 26), Hole("star", "small", 180, 2)], 1)
    >>> [f.code for f in plan.folds], [(h.location, h.direction) for h in plan.initial_holes]
    (['H1-F'], [(26, 0)])
    >>> find_plan([Hole("star", "small", 0, 26)], 1) is None  # one fold always doubles every hole
    True
    """
    for plan in iter_plans(target, num_folds, max_holes=max_holes):
        replayed = solve(plan.folds, plan.initial_holes).result_holes
        assert sorted(replayed, key=Hole.sort_key) == sorted(target, key=Hole.sort_key), plan
        return plan
    return None
