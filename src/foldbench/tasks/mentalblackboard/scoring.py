"""MentalBlackboard's metrics, per item, as counts that pool exactly across items.

For result holes, with G true holes, P holes declared by the answer (its list length when it declares none) and
M holes of the answer that equal a true hole in every field (shape, size, location, direction class):

* partial accuracy = M / (G + max(0, P − G)), pooled over items as ΣM / Σ(G + max(0, P − G));
* per field (shape, size, location, direction): the same with M counting matches of that field alone
  (multiset intersection of the field's values);
* extra / missing: P > G / P < G;
* exact match: the holes match exactly (P = G = M and no other hole listed) *and* the unfolding steps are exact;
* unfolding: exact (same list) and step-wise (codes equal at the same position, over the true length).

A reply that cannot be parsed scores as an empty answer (P = 0) and is counted as a parse failure. Planning is
scored by replaying the answer in the engine: a wrong number of folds, too many punches, a fold that cannot be
made or a punch with no paper under it makes the plan invalid (every score 0, reported with the reason);
otherwise the holes it produces are scored like a prediction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from foldbench.errors import FoldbenchError
from foldbench.pft.actions import parse_actions
from foldbench.pft.holes import Hole
from foldbench.pft.simulate import fold_states, solve
from foldbench.tasks.base import ParseFailure, Scores
from foldbench.tasks.mentalblackboard.answers import PlanningAnswer, PredictionAnswer
from foldbench.tasks.mentalblackboard.sampling import hole_from_dict

__all__ = ["FIELDS", "hole_counts", "score_prediction", "score_planning"]

FIELDS = ("shape", "size", "location", "direction")


def _overlap(a: Iterable[Any], b: Iterable[Any]) -> int:
    return sum((Counter(a) & Counter(b)).values())


def hole_counts(truth: Sequence[Hole], predicted: Sequence[Hole], declared: int) -> dict[str, int]:
    """The pooled counts of the hole metrics for one answer."""
    g = len(truth)
    denominator = g + max(0, declared - g)
    counts = {
        "holes_true": g,
        "holes_declared": declared,
        "holes_matched": _overlap(truth, predicted),
        "partial_denominator": denominator,
        "extra": int(declared > g),
        "missing": int(declared < g),
    }
    for field in FIELDS:
        counts[f"{field}_matched"] = _overlap(
            (getattr(h, field) for h in truth), (getattr(h, field) for h in predicted)
        )
    counts["holes_exact"] = int(declared == g == counts["holes_matched"] == len(predicted))
    return counts


def _values(counts: dict[str, int]) -> dict[str, float | None]:
    denominator = counts["partial_denominator"]
    values: dict[str, float | None] = {
        "partial_accuracy": counts["holes_matched"] / denominator if denominator else None,
        "extra_holes": float(counts["extra"]),
        "missing_holes": float(counts["missing"]),
        "holes_exact": float(counts["holes_exact"]),
    }
    for field in FIELDS:
        values[f"{field}_accuracy"] = counts[f"{field}_matched"] / denominator if denominator else None
    return values


def _unfolding_counts(truth: Sequence[str], predicted: Sequence[str]) -> dict[str, int]:
    return {
        "unfolding_exact": int(list(truth) == list(predicted)),
        "unfolding_steps_correct": sum(a == b for a, b in zip(truth, predicted, strict=False)),
        "unfolding_steps_total": len(truth),
    }


def score_prediction(target: dict[str, Any], answer: PredictionAnswer | ParseFailure) -> Scores:
    """Scores of a prediction-type answer (prediction, backward prediction, generalization)."""
    truth = [hole_from_dict(h) for h in target["result_holes"]]
    failed = isinstance(answer, ParseFailure)
    predicted = [] if failed else answer.holes()  # type: ignore[union-attr]
    declared = 0 if failed else answer.declared_total  # type: ignore[union-attr]
    counts = hole_counts(truth, predicted, declared)
    counts.update(_unfolding_counts(target["unfolding"], [] if failed else answer.unfolding))  # type: ignore[union-attr]
    counts["parse_failure"] = int(failed)
    values = _values(counts)
    values["unfolding_exact"] = float(counts["unfolding_exact"])
    values["unfolding_steps"] = counts["unfolding_steps_correct"] / max(1, counts["unfolding_steps_total"])
    values["exact_match"] = float(counts["holes_exact"] and counts["unfolding_exact"])
    values["parse_failure"] = float(failed)
    notes = (f"parse failure ({answer.kind}): {answer.message}",) if failed else ()  # type: ignore[union-attr]
    return Scores(values, counts, notes)


def _plan_problem(inputs: dict[str, Any], answer: PlanningAnswer) -> str | None:
    if len(answer.folds) != inputs["num_folds"]:
        return f"the plan has {len(answer.folds)} fold(s); exactly {inputs['num_folds']} were required"
    if len(answer.initial_holes) > inputs["max_holes"]:
        return f"the plan punches {len(answer.initial_holes)} holes; at most {inputs['max_holes']} are allowed"
    if not answer.initial_holes:
        return "the plan punches no hole"
    try:
        fold_states(parse_actions(answer.folds))
    except FoldbenchError as error:
        return f"physically invalid folds: {error}"
    return None


def score_planning(inputs: dict[str, Any], target: dict[str, Any], answer: PlanningAnswer | ParseFailure) -> Scores:
    """Scores of a planning answer, by replaying it in the engine."""
    truth = [hole_from_dict(h) for h in target["result_holes"]]
    problem = None
    produced: list[Hole] = []
    if isinstance(answer, ParseFailure):
        problem = f"parse failure ({answer.kind}): {answer.message}"
    else:
        problem = _plan_problem(inputs, answer)
        if problem is None:
            try:
                produced = list(solve(parse_actions(answer.folds), answer.holes()).result_holes)
            except FoldbenchError as error:
                problem = f"physically invalid punch: {error}"
    counts = hole_counts(truth, produced, len(produced))
    counts["parse_failure"] = int(isinstance(answer, ParseFailure))
    counts["valid_plan"] = int(problem is None)
    values = _values(counts)
    values["exact_match"] = float(counts["holes_exact"])
    values["valid_plan"] = float(problem is None)
    values["parse_failure"] = float(counts["parse_failure"])
    return Scores(values, counts, (problem,) if problem else ())
