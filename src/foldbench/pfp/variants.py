"""Changed copies of a fold-and-cut puzzle, the raw material of distractors.

Each function returns a new :class:`~foldbench.pfp.puzzle.Puzzle` (or None when the change is impossible here);
whether the result is usable as a distractor (visibly different, clean paper) is decided by the task that asks.
The kinds follow the published recipe: a different symmetry axis, or a changed number, size, shape or position of
cutouts, or a cut that differs on the layers seen from the back (broken mirror symmetry).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, get_args

import numpy as np

from foldbench.pfp.cutouts import sample_cutouts
from foldbench.pfp.folding import FoldState, apply_step, flat_state, step_problem
from foldbench.pfp.puzzle import Puzzle
from foldbench.pfp.sequences import (
    Step,
    corner_crease,
    resolve_code,
    sample_corner_step,
    sample_symmetric_step,
)
from foldbench.pfp.shapes import CUTOUT_SHAPES, Cutout, sheet_polygon

__all__ = [
    "VARIANT_KINDS",
    "VariantKind",
    "altered_sequence",
    "changed_cutouts",
    "make_variant",
    "perturbed_corner_step",
]

VariantKind = Literal["axis", "back", "count", "size", "shape", "position"]
VARIANT_KINDS: tuple[VariantKind, ...] = get_args(VariantKind)


def altered_sequence(
    rng: np.random.Generator,
    sheet: str,
    steps: tuple[Step, ...],
    index: int,
    states: tuple[FoldState, ...] | None = None,
) -> tuple[tuple[Step, ...], tuple[FoldState, ...]] | None:
    """The fold sequence with step ``index`` replaced by another fold of its family; later symmetric steps keep
    their codes (re-placed on the new paper). None when no such sequence is valid. ``states``, when given, are
    the states of ``steps`` (the unchanged ones are reused instead of folded again).

    >>> steps, states = altered_sequence(np.random.default_rng(0), "square", (), 0)
    >>> steps, len(states)
    ((), 1)
    """
    known = min(index, len(steps)) if states is not None else 0
    new_states = list(states[: known + 1]) if states is not None else [flat_state(sheet_polygon(sheet))]
    new_steps: list[Step] = list(steps[:known])
    for position, step in enumerate(steps[known:], start=known):
        state = new_states[-1]
        if position < index:
            new_step: Step | None = step
        elif position == index:
            if step[0].code.startswith("K"):
                new_step = perturbed_corner_step(rng, state, step) if rng.random() < 0.6 else None
                new_step = new_step or sample_corner_step(rng, state)
            else:
                new_step = sample_symmetric_step(rng, state, exclude=step[0].code)
        elif step[0].code.startswith("K"):
            new_step = sample_corner_step(rng, state)
        else:
            new_step = (resolve_code(state.silhouette, step[0].code),)
            if step_problem(state, new_step) is not None:
                return None
        if new_step is None:
            return None
        new_steps.append(new_step)
        new_states.append(apply_step(state, new_step))
    return tuple(new_steps), tuple(new_states)


def perturbed_corner_step(
    rng: np.random.Generator, state: FoldState, step: Step, *, among: tuple[int, ...] = ()
) -> Step | None:
    """The corner-fold step with one crease (of the indices ``among``, default any) dropped (when there are
    several) or moved to new legs.

    >>> from foldbench.pfp.sequences import corner_crease
    >>> state = flat_state(sheet_polygon("square"))
    >>> step = (corner_crease(state.silhouette, 0, 0.3, 0.3), corner_crease(state.silhouette, 2, 0.3, 0.3))
    >>> changed = perturbed_corner_step(np.random.default_rng(1), state, step)
    >>> changed is None or (changed != step and len(changed) in (1, 2))
    True
    """
    choices = among or tuple(range(len(step)))
    index = choices[int(rng.integers(len(choices)))]
    if len(step) > 1 and rng.random() < 0.4:
        return step[:index] + step[index + 1 :]
    corner = int(step[index].code[1:])
    for _ in range(4):
        legs = (float(rng.uniform(0.2, 0.65)), float(rng.uniform(0.2, 0.65)))
        crease = corner_crease(state.silhouette, corner, *legs)
        changed = step[:index] + (crease,) + step[index + 1 :]
        if step_problem(state, changed) is None:
            return changed
    return None


def changed_cutouts(
    rng: np.random.Generator, cutouts: tuple[Cutout, ...], outline: object, kind: VariantKind
) -> tuple[Cutout, ...] | None:
    """The cutouts with one change of ``kind`` (``count``, ``size``, ``shape`` or ``position``).

    >>> from shapely.geometry import box
    >>> one = (Cutout("square", (0.0, 0.0), 40.0),)
    >>> changed_cutouts(np.random.default_rng(0), one, box(-180, -180, 180, 180), "size")[0].size != 40.0
    True
    """
    index = int(rng.integers(len(cutouts)))
    target = cutouts[index]
    if kind == "count":
        if len(cutouts) > 1 and rng.random() < 0.5:
            return cutouts[:index] + cutouts[index + 1 :]
        free = [s for s in CUTOUT_SHAPES if s not in {c.shape for c in cutouts}]
        if not free:
            return None
        extra = sample_cutouts(rng, outline, 1, size=target.size)  # type: ignore[arg-type]
        if extra is None:
            return None
        return cutouts + (replace(extra[0], shape=free[int(rng.integers(len(free)))]),)
    if kind == "size":
        factor = float(rng.choice((0.65, 0.75, 1.3, 1.45)))
        if rng.random() < 0.5:
            return tuple(replace(c, size=round(c.size * factor, 3)) for c in cutouts)
        return cutouts[:index] + (replace(target, size=round(target.size * factor, 3)),) + cutouts[index + 1 :]
    if kind == "shape":
        others = [s for s in CUTOUT_SHAPES if s != target.shape]
        shape = others[int(rng.integers(len(others)))]
        angle = float(rng.choice((0.0, 90.0))) if shape == "rectangle" else 0.0
        return cutouts[:index] + (replace(target, shape=shape, angle=angle),) + cutouts[index + 1 :]
    if kind == "position":
        distance = target.size * float(rng.uniform(0.45, 0.9))
        angle = float(rng.uniform(0, 2 * np.pi))
        moved = target.moved(round(distance * np.cos(angle), 3), round(distance * np.sin(angle), 3))
        return cutouts[:index] + (moved,) + cutouts[index + 1 :]
    raise ValueError(f"changed_cutouts does not make {kind!r} changes")


def make_variant(
    rng: np.random.Generator, puzzle: Puzzle, states: tuple[FoldState, ...], kind: VariantKind
) -> tuple[Puzzle, tuple[FoldState, ...]] | None:
    """A copy of ``puzzle`` changed by ``kind``, with its fold states.

    >>> puzzle = Puzzle("square", (), (Cutout("square", (0.0, 0.0), 40.0),))
    >>> make_variant(np.random.default_rng(0), puzzle, puzzle.states(), "count")[0].cutouts != puzzle.cutouts
    True
    """
    if kind == "axis":
        altered = altered_sequence(rng, puzzle.sheet, puzzle.steps, int(rng.integers(len(puzzle.steps))), states)
        if altered is None:
            return None
        return replace(puzzle, steps=altered[0]), altered[1]
    if kind == "back":
        sub_kind: VariantKind = ("size", "shape", "position")[int(rng.integers(3))]
        back = changed_cutouts(rng, puzzle.cutouts, states[-1].silhouette, sub_kind)
        return None if back is None else (replace(puzzle, back_cutouts=back), states)
    cutouts = changed_cutouts(rng, puzzle.cutouts, states[-1].silhouette, kind)
    return None if cutouts is None else (replace(puzzle, cutouts=cutouts), states)
