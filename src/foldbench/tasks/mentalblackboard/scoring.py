"""MentalBlackboard's metrics, per item, as counts that pool exactly across items, computed as the benchmark
scores them (docs/papers/mentalblackboard.md works each rule through).

For result holes, with G true holes, P the hole count the answer declares (its list length when it declares none)
and M the listed holes that equal a true hole (each true hole matched once), where "equal" compares shape, size,
location and the direction class — except in the text modality, whose grids carry no direction, where direction is
left out as the benchmark's text scoring does:

* exact match (the headline, as the paper's tables): P = G and M = G — holes only, the unfolding steps are not
  part of it;
* partial accuracy = M / (G + max(0, P − G)), pooled over items as ΣM / Σ(G + max(0, P − G));
* per field (shape, size, location, direction): listed values of that field matching true values, whatever the
  other fields (multiset intersection; for direction, the most pairs of a true hole and a listed direction in
  its class, a circle or square taking any), over G + max(0, L − G), L the list's length; direction is
  not scored in the text modality;
* extra / missing: P > G / P < G;
* unfolding: exact (same list) and step-wise (codes equal at the same position, over the true length).

foldbench's stricter measures sit beside them: ``holes_and_unfolding_exact`` (the listed holes are exactly the
true ones with their directions, every hole well formed, no location twice, the declared count right, *and* the
unfolding steps exact) and, for every modality, ``directed_exact_match`` and ``directed_partial_accuracy``
(direction always compared). A malformed hole (see :mod:`~foldbench.tasks.mentalblackboard.answers`) counts as
listed and matches nothing; ``malformed_holes`` says whether an answer had one.

A reply that cannot be parsed scores as an empty answer (P = 0) and is counted as a parse failure.

Planning is scored by replaying the plan in the engine: the holes it makes are scored like a prediction (P is
their number). A plan that breaks a rule — the wrong number of folds, more punches than allowed, no punch — gets
no exact match but keeps the partial, field and extra/missing scores of its replayed holes. A fold that is no
fold code or cannot be made leaves nothing to replay (no holes); a malformed punch or one over a spot without
paper makes no hole. ``valid_plan`` says whether the plan kept every rule and replayed in full.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from foldbench.errors import FoldbenchError
from foldbench.pft.holes import Hole, direction_period
from foldbench.pft.simulate import fold_states, solve
from foldbench.tasks.base import ParseFailure, Scores
from foldbench.tasks.mentalblackboard.answers import HoleAnswer, PlanningAnswer, PredictionAnswer
from foldbench.tasks.mentalblackboard.sampling import hole_from_dict

__all__ = ["FIELDS", "hole_counts", "score_prediction", "score_planning"]

FIELDS = ("shape", "size", "location", "direction")


def _overlap(a: Iterable[Hashable], b: Iterable[Hashable]) -> int:
    """The size of the multiset intersection of ``a`` and ``b`` (each value of ``b`` pairs with one of ``a``)."""
    unpaired: dict[Hashable, int] = {}
    for value in b:
        unpaired[value] = unpaired.get(value, 0) + 1
    if not unpaired:
        return 0
    pairs = 0
    for value in a:
        left = unpaired.get(value)
        if left:
            unpaired[value] = left - 1
            pairs += 1
    return pairs


def _direction_matches(truth: Sequence[Hole], listed: Sequence[HoleAnswer]) -> int:
    """The direction field alone: the most pairs of a true hole and a listed hole (each used once) whose listed
    direction lies in the true hole's direction class; a circle or square takes any listed hole.

    The benchmark pairs them greedily in the order of the true holes, which can depend on the order of the listed
    holes; the largest pairing is the same whenever that order blocks no pair, and never depends on order.
    """
    specific = [h for h in truth if direction_period(h.shape) != 90]
    partner: dict[int, int] = {}  # listed index -> specific true index

    def fits(hole: Hole, candidate: HoleAnswer) -> bool:
        return candidate.direction is not None and candidate.direction % direction_period(hole.shape) == hole.direction

    def augment(t: int, seen: set[int]) -> bool:
        for j, candidate in enumerate(listed):
            if j not in seen and fits(specific[t], candidate):
                seen.add(j)
                if j not in partner or augment(partner[j], seen):
                    partner[j] = t
                    return True
        return False

    paired = sum(augment(t, set()) for t in range(len(specific)))
    return paired + min(len(truth) - len(specific), len(listed) - paired)


def _listed_fields(
    listed: Sequence[HoleAnswer],
) -> tuple[list[Any], list[Any], list[Any], list[tuple[Any, ...]], list[tuple[Any, ...]], int, bool]:
    """One pass over the listed holes: their readable shapes, sizes and locations (each field on its own), the
    keys of the holes whose shape, size and location are all readable (``(shape, size, location)``), the keys of
    those whose direction class is known too (``(shape, size, location, direction class)``), how many are
    malformed, and whether every one is well formed (:meth:`HoleAnswer.to_hole` gives a hole)."""
    shapes: list[Any] = []
    sizes: list[Any] = []
    locations: list[Any] = []
    undirected: list[tuple[Any, ...]] = []
    directed: list[tuple[Any, ...]] = []
    malformed = 0
    all_well_formed = True
    for hole in listed:
        shape, size, location, problem = hole.shape, hole.size, hole.location, hole.problem
        if problem is not None:
            malformed += 1
            all_well_formed = False
        if shape is not None:
            shapes.append(shape)
        if size is not None:
            sizes.append(size)
        if location is not None:
            locations.append(location)
        if shape is None or size is None or location is None:
            all_well_formed = False
            continue
        undirected.append((shape, size, location))
        direction = hole.direction_class()
        if direction is None:
            all_well_formed = False
        else:
            directed.append((shape, size, location, direction))
    return shapes, sizes, locations, undirected, directed, malformed, all_well_formed


def hole_counts(
    truth: Sequence[Hole], listed: Sequence[HoleAnswer], declared: int, *, directed: bool = True
) -> dict[str, int]:
    """The pooled counts of the hole metrics for one answer (``directed=False``: direction not compared)."""
    g = len(truth)
    if not listed:  # nothing listed (every reply that fails to parse, and the dataset check's empty reply)
        return _unlisted_counts(g, declared, directed)
    shapes, sizes, locations, undirected_keys, directed_keys, malformed, all_well_formed = _listed_fields(listed)
    directed_matched = _overlap(((h.shape, h.size, h.location, h.direction) for h in truth), directed_keys)
    if directed:
        matched = directed_matched
    else:
        matched = _overlap(((h.shape, h.size, h.location) for h in truth), undirected_keys)
    field_denominator = g + max(0, len(listed) - g)
    return {
        "holes_true": g,
        "holes_declared": declared,
        "holes_listed": len(listed),
        "holes_matched": matched,
        "partial_denominator": g + max(0, declared - g),
        "field_denominator": field_denominator,
        "direction_denominator": field_denominator if directed else 0,
        "extra": int(declared > g),
        "missing": int(declared < g),
        "holes_exact": int(declared == g and matched == g),
        "malformed_holes": malformed,
        "shape_matched": _overlap((h.shape for h in truth), shapes),
        "size_matched": _overlap((h.size for h in truth), sizes),
        "location_matched": _overlap((h.location for h in truth), locations),
        "direction_matched": _direction_matches(truth, listed) if directed and listed else 0,
        "directed_holes_matched": directed_matched,
        "directed_holes_exact": int(declared == g and directed_matched == g),
        # the listed holes are exactly the true ones: every one well formed, no location twice, the same multiset
        "holes_listed_exactly": int(
            declared == g
            and all_well_formed
            and len({key[2] for key in directed_keys}) == len(listed)
            and len(listed) == g == directed_matched
        ),
    }


def _unlisted_counts(g: int, declared: int, directed: bool) -> dict[str, int]:
    """:func:`hole_counts` of an answer that lists no hole: nothing matches, every denominator is G."""
    exact = int(declared == g == 0)
    return {
        "holes_true": g,
        "holes_declared": declared,
        "holes_listed": 0,
        "holes_matched": 0,
        "partial_denominator": g + max(0, declared - g),
        "field_denominator": g,
        "direction_denominator": g if directed else 0,
        "extra": int(declared > g),
        "missing": int(declared < g),
        "holes_exact": exact,
        "malformed_holes": 0,
        "shape_matched": 0,
        "size_matched": 0,
        "location_matched": 0,
        "direction_matched": 0,
        "directed_holes_matched": 0,
        "directed_holes_exact": exact,
        "holes_listed_exactly": exact,
    }


def _values(counts: dict[str, int]) -> dict[str, float | None]:
    denominator = counts["partial_denominator"]
    values: dict[str, float | None] = {
        "exact_match": float(counts["holes_exact"]),
        "partial_accuracy": counts["holes_matched"] / denominator if denominator else None,
        "extra_holes": float(counts["extra"]),
        "missing_holes": float(counts["missing"]),
        "directed_exact_match": float(counts["directed_holes_exact"]),
        "directed_partial_accuracy": counts["directed_holes_matched"] / denominator if denominator else None,
        "malformed_holes": float(counts["malformed_holes"] > 0),
    }
    for field in FIELDS:
        field_denominator = counts["direction_denominator" if field == "direction" else "field_denominator"]
        values[f"{field}_accuracy"] = counts[f"{field}_matched"] / field_denominator if field_denominator else None
    return values


def _unfolding_counts(truth: Sequence[str], predicted: Sequence[str]) -> dict[str, int]:
    return {
        "unfolding_exact": int(list(truth) == list(predicted)),
        "unfolding_steps_correct": sum(a == b for a, b in zip(truth, predicted, strict=False)),
        "unfolding_steps_total": len(truth),
    }


def score_prediction(
    target: dict[str, Any], answer: PredictionAnswer | ParseFailure, *, directed: bool = True
) -> Scores:
    """Scores of a prediction-type answer (prediction, backward prediction, generalization).

    ``directed=False`` is the text modality's rule: direction takes no part in matching holes and is not scored.
    """
    truth = [hole_from_dict(h) for h in target["result_holes"]]
    failed = isinstance(answer, ParseFailure)
    listed: list[HoleAnswer] = [] if failed else list(answer.result_holes)  # type: ignore[union-attr]
    declared = 0 if failed else answer.declared_total  # type: ignore[union-attr]
    counts = hole_counts(truth, listed, declared, directed=directed)
    counts.update(_unfolding_counts(target["unfolding"], [] if failed else answer.unfolding))  # type: ignore[union-attr]
    counts["parse_failure"] = int(failed)
    values = _values(counts)
    values["unfolding_exact"] = float(counts["unfolding_exact"])
    values["unfolding_steps"] = counts["unfolding_steps_correct"] / max(1, counts["unfolding_steps_total"])
    values["holes_and_unfolding_exact"] = float(counts["holes_listed_exactly"] and counts["unfolding_exact"])
    values["parse_failure"] = float(failed)
    if failed:
        notes: tuple[str, ...] = (f"parse failure ({answer.kind}): {answer.message}",)  # type: ignore[union-attr]
    else:
        notes = tuple(f"hole {i + 1}: {h.problem}" for i, h in enumerate(listed) if h.problem is not None)
    return Scores(values, counts, notes)


def _rule_breaks(inputs: dict[str, Any], answer: PlanningAnswer) -> list[str]:
    breaks = []
    if len(answer.folds) != inputs["num_folds"]:
        breaks.append(f"the plan has {len(answer.folds)} fold(s); exactly {inputs['num_folds']} were required")
    if len(answer.initial_holes) > inputs["max_holes"]:
        breaks.append(f"the plan punches {len(answer.initial_holes)} holes; at most {inputs['max_holes']} are allowed")
    if not answer.initial_holes:
        breaks.append("the plan punches no hole")
    return breaks


def replay_plan(answer: PlanningAnswer) -> tuple[list[Hole], list[str]]:
    """The holes a plan makes on the unfolded sheet, and what of it could not be replayed."""
    folds = answer.fold_actions()
    if folds is None:
        return [], [f"a fold is no fold code (H1-F ... D4-B): {', '.join(answer.folds)}"]
    try:
        folded = fold_states(folds)[0][-1]
    except FoldbenchError as error:
        return [], [f"physically invalid folds: {error}"]
    occupied = {p + 1 for p in folded.occupied()}
    problems: list[str] = []
    punches: dict[int, Hole] = {}
    for index, listed in enumerate(answer.initial_holes, start=1):
        hole = listed.to_hole()
        if hole is None:
            problems.append(f"punch {index} is malformed ({listed.problem or 'a field is missing'}) and makes no hole")
        elif hole.location not in occupied:
            problems.append(f"punch {index} at {hole.location} has no paper under it and makes no hole")
        elif hole.location in punches:
            problems.append(f"punch {index} repeats location {hole.location} and makes no further hole")
        else:
            punches[hole.location] = hole
    return list(solve(folds, list(punches.values())).result_holes), problems


def _hole_answer(hole: Hole) -> HoleAnswer:
    return HoleAnswer.model_validate(
        {"shape": hole.shape, "size": hole.size, "direction": hole.direction, "location": hole.location}
    )


def score_planning(inputs: dict[str, Any], target: dict[str, Any], answer: PlanningAnswer | ParseFailure) -> Scores:
    """Scores of a planning answer, from the holes the engine makes when it replays the plan."""
    truth = [hole_from_dict(h) for h in target["result_holes"]]
    if isinstance(answer, ParseFailure):
        produced: list[Hole] = []
        breaks: list[str] = []
        problems = [f"parse failure ({answer.kind}): {answer.message}"]
    else:
        breaks = _rule_breaks(inputs, answer)
        produced, problems = replay_plan(answer)
    listed = [_hole_answer(h) for h in produced]
    counts = hole_counts(truth, listed, len(produced))
    counts["parse_failure"] = int(isinstance(answer, ParseFailure))
    if not isinstance(answer, ParseFailure):
        counts["malformed_holes"] = sum(h.problem is not None for h in answer.initial_holes)
    counts["rules_kept"] = int(not breaks and not counts["parse_failure"])
    counts["valid_plan"] = int(counts["rules_kept"] and not problems)
    counts["holes_exact"] = int(counts["holes_exact"] and counts["rules_kept"])
    values = _values(counts)
    del values["directed_exact_match"], values["directed_partial_accuracy"]  # a plan's holes carry directions
    values["valid_plan"] = float(counts["valid_plan"])
    values["parse_failure"] = float(counts["parse_failure"])
    return Scores(values, counts, tuple(breaks + problems))
