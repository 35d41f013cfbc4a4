"""The validation rules of the paper folding test, as one explicit rule set.

MentalBlackboard's appendix D states its fold rules in prose; foldbench reads them as the rules below (this
reading reproduces the benchmark's configuration counts for groups 1-7 exactly; see
:mod:`foldbench.pft.enumeration`). Each rule has an id that appears in the error message when it is broken.

Sequences without rotation:

* ``F1`` at most two horizontal folds (H1/H2) and at most two vertical folds (V1/V2);
* ``F2`` a diagonal fold may open the sequence;
* ``F3`` a diagonal may directly follow one diagonal (never a third in a row) whose crease is perpendicular to
  its own: after D1/D4 only D2/D3, after D2/D3 only D1/D4;
* ``F4`` otherwise a diagonal needs exactly one horizontal and one vertical fold since the last diagonal (or
  since the start), and no more than one horizontal and one vertical fold before it in total;
* ``F5`` at most two diagonal folds in all, and after two diagonals at most one horizontal and one vertical
  fold follow.

Sequences with rotation (R90/R180/R270):

* ``R1`` no rotation first; ``R2`` no two rotations in a row; ``R3`` diagonal folds only as the first action;
  ``R4`` at most three folds; ``R5`` with three folds the first is diagonal; ``R6`` one to three rotations;
  and ``F1`` still holds.

Every sequence must also be geometrically possible (:meth:`foldbench.pft.paper.Paper.fold`): rule ``G``.
"""

from __future__ import annotations

from collections.abc import Sequence

from foldbench.errors import InvalidFoldError, InvalidSequenceError
from foldbench.pft.actions import Action, Fold, Rotation
from foldbench.pft.simulate import fold_states

__all__ = ["check_sequence", "rule_violation", "is_valid"]


def _fold_rules(folds: Sequence[tuple[int, Fold]]) -> str | None:
    """The first broken fold rule (``F1``-``F5``) of the folds, as a message, or None."""
    horizontal = vertical = diagonal = 0
    since_diagonal: list[str] = []
    previous: Fold | None = None
    diagonal_run = 0
    for step, fold in folds:
        family = fold.type.family
        if family == "H":
            horizontal += 1
            if horizontal > 2:
                return f"F1: step {step} ({fold.code}) is a third horizontal fold; at most two are allowed"
        elif family == "V":
            vertical += 1
            if vertical > 2:
                return f"F1: step {step} ({fold.code}) is a third vertical fold; at most two are allowed"
        else:
            if previous is None:
                pass  # F2
            elif previous.type.is_diagonal:
                if diagonal_run >= 2:
                    return f"F3: step {step} ({fold.code}) would be a third diagonal fold in a row"
                if previous.type.axis == fold.type.axis:
                    return (
                        f"F3: step {step} ({fold.code}) follows {previous.code}, but a diagonal may only follow a "
                        "diagonal whose crease is perpendicular to its own"
                    )
            else:
                if sorted(since_diagonal) != ["H", "V"]:
                    return (
                        f"F4: step {step} ({fold.code}) is a diagonal after {'+'.join(since_diagonal)}; a diagonal "
                        "must open the sequence, follow a diagonal, or follow exactly one horizontal and one "
                        "vertical fold"
                    )
                if horizontal > 1 or vertical > 1:
                    return (
                        f"F4: step {step} ({fold.code}) is a diagonal after more than one horizontal or vertical "
                        "fold in total"
                    )
            diagonal += 1
            if diagonal > 2:
                return f"F5: step {step} ({fold.code}) would be a third diagonal fold; at most two are allowed"
            since_diagonal = []
        if family != "D":
            since_diagonal.append(family)
            if diagonal == 2 and (since_diagonal.count("H") > 1 or since_diagonal.count("V") > 1):
                return (
                    f"F5: step {step} ({fold.code}): after two diagonals only one horizontal and one vertical "
                    "fold may follow"
                )
        diagonal_run = diagonal_run + 1 if family == "D" else 0
        previous = fold
    return None


def _rotation_rules(actions: Sequence[Action]) -> str | None:
    """The first broken rotation rule (``R1``-``R6``), as a message, or None."""
    if isinstance(actions[0], Rotation):
        return "R1: a sequence may not start with a rotation"
    folds = 0
    rotations = 0
    for step, action in enumerate(actions, start=1):
        if isinstance(action, Rotation):
            rotations += 1
            if isinstance(actions[step - 2], Rotation):
                return f"R2: step {step} ({action.code}) directly follows another rotation"
            continue
        folds += 1
        if action.type.is_diagonal and step != 1:
            return f"R3: step {step} ({action.code}): with rotations, a diagonal fold may only be the first action"
    if folds > 3:
        return f"R4: {folds} folds; with rotations at most three are allowed"
    first = actions[0]
    if folds == 3 and not (isinstance(first, Fold) and first.type.is_diagonal):
        return "R5: with rotations and three folds, the first fold must be diagonal"
    if not 1 <= rotations <= 3:
        return f"R6: {rotations} rotations; one to three are allowed"
    return None


def rule_violation(actions: Sequence[Action]) -> str | None:
    """The first rule a sequence breaks, as a message that names the rule and the step, or None if it is valid.

    >>> from foldbench.pft.actions import parse_actions
    >>> rule_violation(parse_actions("H1-F V1-F D1-F")) is None
    True
    >>> rule_violation(parse_actions("H1-F D1-F")).split(";")[0]
    'F4: step 2 (D1-F) is a diagonal after H'
    >>> rule_violation([])
    'the sequence is empty; at least one fold is needed'
    """
    if not actions:
        return "the sequence is empty; at least one fold is needed"
    folds = [(step, a) for step, a in enumerate(actions, start=1) if isinstance(a, Fold)]
    if not folds:
        return "the sequence has no fold"
    if len(folds) == len(actions):
        broken = _fold_rules(folds)
    else:
        broken = _rotation_rules(actions) or _fold_rules(folds)
    if broken:
        return broken
    try:
        fold_states(actions)
    except InvalidFoldError as error:
        return f"G: {error}"
    return None


def check_sequence(actions: Sequence[Action]) -> None:
    """Raise :class:`InvalidSequenceError` naming the broken rule when ``actions`` is not a valid sequence."""
    broken = rule_violation(actions)
    if broken:
        raise InvalidSequenceError(broken)


def is_valid(actions: Sequence[Action]) -> bool:
    """Whether ``actions`` satisfies every rule (including geometric possibility)."""
    return rule_violation(actions) is None
