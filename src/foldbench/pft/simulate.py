"""Simulate a fold sequence, punch holes, and unfold: the paper folding test's ground truth.

:func:`solve` is the engine's main entry point. The result holes are every layer's hole mapped back onto the
flat sheet. Rotations are *not* undone: the unfolded sheet keeps the final orientation, and result locations and
directions are read in it. The unfolding steps are the folds in reverse order, each in its opposite direction,
turned by the rotations that came after it, with the fold's own ``-F``/``-B`` suffix.

Result holes are listed in the order the unfolding reveals them: the punched holes first, then, after each
unfolding step, the copies that step uncovers (in the order of the holes they mirror).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from foldbench.errors import InvalidFoldError, InvalidHoleError
from foldbench.pft.actions import Action, Fold, Rotation, opposite, turned
from foldbench.pft.grid import location_of
from foldbench.pft.holes import DirectionMap, Hole
from foldbench.pft.paper import Paper, direction_map_of, rotation_table

__all__ = ["Solution", "UnfoldingStep", "solve", "fold_states", "unfolding_of"]


@dataclass(frozen=True, slots=True)
class UnfoldingStep:
    """The paper part-way through unfolding, with the holes visible on it (locations as the viewer sees them)."""

    paper: Paper
    holes: tuple[Hole, ...]
    undone: Fold | None


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved configuration.

    Attributes:
        actions: the folds and rotations, in order.
        initial_holes: the holes punched through the folded paper.
        states: the paper before any action, then after each action (``len(actions) + 1`` states).
        flaps: for each action, the triangles a fold moved (empty for a rotation).
        unfolding: the unfolding steps, in the order they are made.
        result_holes: the holes on the unfolded sheet, in the order the unfolding reveals them.
    """

    actions: tuple[Action, ...]
    initial_holes: tuple[Hole, ...]
    states: tuple[Paper, ...]
    flaps: tuple[frozenset[int], ...]
    unfolding: tuple[Fold, ...]
    result_holes: tuple[Hole, ...]

    @property
    def folded(self) -> Paper:
        """The paper after the last action, when the holes are punched."""
        return self.states[-1]

    def unfolding_steps(self) -> list[UnfoldingStep]:
        """The paper and its visible holes before unfolding, then after each unfolding step."""
        return _unfolding_steps(self)


def fold_states(actions: Sequence[Action]) -> tuple[tuple[Paper, ...], tuple[frozenset[int], ...]]:
    """The paper before and after each action, and each action's flap.

    Raises :class:`InvalidFoldError` (naming the step) when a fold cannot be made.
    """
    paper = Paper.flat()
    states = [paper]
    flaps: list[frozenset[int]] = []
    for index, action in enumerate(actions, start=1):
        if isinstance(action, Rotation):
            paper = paper.rotate(action.degrees)
            flaps.append(frozenset())
        else:
            try:
                paper, flap = paper.fold(action)
            except InvalidFoldError as error:
                raise InvalidFoldError(f"step {index}: {error}") from None
            flaps.append(flap)
        states.append(paper)
    return tuple(states), tuple(flaps)


def unfolding_of(actions: Sequence[Action]) -> tuple[Fold, ...]:
    """The unfolding steps of a sequence: folds reversed, each opposite and turned by the later rotations.

    >>> from foldbench.pft.actions import parse_actions
    >>> [f.code for f in unfolding_of(parse_actions("H1-F R90 V1-B"))]
    ['V2-B', 'V2-F']
    >>> unfolding_of([])
    ()
    """
    steps: list[Fold] = []
    later_turn = 0
    for action in reversed(actions):
        if isinstance(action, Rotation):
            later_turn += action.degrees
        else:
            steps.append(Fold(turned(opposite(action.type), later_turn), action.front))
    return tuple(steps)


def _check_holes(paper: Paper, holes: Sequence[Hole]) -> None:
    seen: set[int] = set()
    for index, hole in enumerate(holes, start=1):
        if hole.location in seen:
            raise InvalidHoleError(f"hole {index}: two holes are punched at location {hole.location}")
        seen.add(hole.location)
        if not paper.stacks[hole.location - 1]:
            raise InvalidHoleError(
                f"hole {index}: there is no paper at location {hole.location} after the last action "
                f"(paper lies at {', '.join(str(location_of(p)) for p in paper.occupied())})"
            )


def _hole_instances(
    solution_flaps: Sequence[frozenset[int]], folded: Paper, holes: Sequence[Hole]
) -> list[tuple[int, tuple[int, ...]]]:
    """Track each hole through the unfolding: a list of (hole index, triangles it goes through), in reveal order."""
    instances = [(index, folded.stacks[hole.location - 1]) for index, hole in enumerate(holes)]
    for flap in reversed(solution_flaps):
        if not flap:
            continue
        kept: list[tuple[int, tuple[int, ...]]] = []
        copies: list[tuple[int, tuple[int, ...]]] = []
        for index, triangles in instances:
            stay = tuple(t for t in triangles if t not in flap)
            moved = tuple(t for t in triangles if t in flap)
            if stay:
                kept.append((index, stay))
                if moved:
                    copies.append((index, moved))
            else:
                kept.append((index, moved))
        instances = kept + copies
    return instances


def solve(actions: Sequence[Action], holes: Sequence[Hole]) -> Solution:
    """Fold, punch and unfold: the result holes and unfolding steps of a configuration.

    The sequence is checked geometrically (each fold must be possible); the benchmark's validation rules are
    checked separately by :func:`foldbench.pft.rules.check_sequence`.

    >>> from foldbench.pft.actions import parse_actions
    >>> solution = solve(parse_actions("V1-F"), [Hole("triangle", "small", 90, 5)])
    >>> [(h.location, h.direction) for h in solution.result_holes], [f.code for f in solution.unfolding]
    ([(5, 90), (4, 270)], ['V2-F'])
    """
    actions = tuple(actions)
    holes = tuple(holes)
    states, flaps = fold_states(actions)
    folded = states[-1]
    _check_holes(folded, holes)
    turn_table = rotation_table(folded.rotation) if folded.rotation else None
    turn = DirectionMap.rotation(folded.rotation)
    results: list[Hole] = []
    for index, triangles in _hole_instances(flaps, folded, holes):
        hole = holes[index]
        triangle = triangles[0]
        to_flat = direction_map_of(folded.poses[triangle]).inverse()
        final_position = turn_table[triangle] if turn_table else triangle
        results.append(hole.moved(location_of(final_position), to_flat.then(turn)))
    return Solution(actions, holes, states, flaps, unfolding_of(actions), tuple(results))


def _unfolding_steps(solution: Solution) -> list[UnfoldingStep]:
    actions = solution.actions
    folded = solution.folded
    instances = _hole_instances(solution.flaps, folded, solution.initial_holes)
    final_poses = folded.poses
    steps: list[UnfoldingStep] = []
    unfolding = iter(solution.unfolding)
    later_turn = 0
    undone: Fold | None = None
    for index in range(len(actions), -1, -1):
        if index < len(actions):
            action = actions[index]
            if isinstance(action, Rotation):
                later_turn += action.degrees
                continue
            undone = next(unfolding)
        paper = solution.states[index]
        if later_turn % 360:
            paper = paper.rotate(later_turn % 360)
        where = paper.positions()
        visible: dict[int, Hole] = {}
        for hole_index, triangles in instances:
            triangle = triangles[0]
            position = where[triangle]
            if position in visible:
                continue
            back_to_flat = direction_map_of(final_poses[triangle]).inverse()
            to_now = back_to_flat.then(direction_map_of(paper.poses[triangle]))
            visible[position] = solution.initial_holes[hole_index].moved(location_of(position), to_now)
        steps.append(UnfoldingStep(paper, tuple(visible.values()), undone))
    return steps
