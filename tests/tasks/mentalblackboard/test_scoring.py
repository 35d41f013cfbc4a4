"""MentalBlackboard's metrics, checked against hand-worked examples of their definitions and against properties.

With G true holes, P declared and M matching in every field: partial accuracy = M / (G + max(0, P − G)), pooled
over items; per-field accuracy the same for one field alone (over the listed holes); extra / missing = P > G /
P < G; exact match is the holes alone (P = G = M); unfolding accuracy is exact and step-wise; the stricter
"holes and unfolding" measure needs both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.pft.actions import parse_actions
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.simulate import solve
from foldbench.tasks.base import ParseFailure, Scores
from foldbench.tasks.mentalblackboard.answers import HoleAnswer, PlanningAnswer, PredictionAnswer
from foldbench.tasks.mentalblackboard.sampling import hole_from_dict
from foldbench.tasks.mentalblackboard.scoring import _overlap, hole_counts, score_planning, score_prediction

UNFOLDING = ["H1-F", "V2-B", "D1-F"]
STAR_5 = {"shape": "star", "size": "small", "direction": 90, "location": 5}
CIRCLE_12 = {"shape": "circle", "size": "large", "direction": 0, "location": 12}
ELLIPSE_20 = {"shape": "ellipse", "size": "small", "direction": 0, "location": 20}
TRUTH = [STAR_5, CIRCLE_12, ELLIPSE_20]


def _target(holes: list[dict[str, Any]] = TRUTH, unfolding: list[str] = UNFOLDING) -> dict[str, Any]:
    return {"result_holes": holes, "unfolding": unfolding}


def _answer(
    holes: list[dict[str, Any]], unfolding: list[str] = UNFOLDING, total: int | None = None
) -> PredictionAnswer:
    return PredictionAnswer(total_holes=total, unfolding=unfolding, result_holes=holes)  # type: ignore[arg-type]


def _pooled(scores: list[Scores], numerator: str, denominator: str = "partial_denominator") -> float:
    return sum(s.counts[numerator] for s in scores) / sum(s.counts[denominator] for s in scores)


HOLE_METRICS = ("partial_accuracy", "shape_accuracy", "size_accuracy", "location_accuracy", "direction_accuracy")


def test_a_perfect_answer_scores_one_on_every_metric() -> None:
    scores = score_prediction(_target(), _answer(TRUTH, total=3))
    for metric in (*HOLE_METRICS, "holes_and_unfolding_exact", "unfolding_exact", "unfolding_steps", "exact_match"):
        assert scores.values[metric] == 1.0, metric
    assert scores.values["extra_holes"] == scores.values["missing_holes"] == scores.values["parse_failure"] == 0.0


def test_a_worked_example_with_one_extra_and_two_flawed_holes() -> None:
    # G = 3; the answer lists P = 4: the star exactly, the circle one cell off (13 for 12), the ellipse in the wrong
    # size (its direction 180 is the same class as 0), and an extra square. M = 1, so partial = 1 / (3 + 1).
    answer = [
        STAR_5,
        {**CIRCLE_12, "location": 13},
        {**ELLIPSE_20, "size": "large", "direction": 180},
        {"shape": "square", "size": "small", "direction": 0, "location": 30},
    ]
    scores = score_prediction(_target(), _answer(answer))
    assert scores.values["partial_accuracy"] == pytest.approx(1 / 4)
    assert scores.values["shape_accuracy"] == pytest.approx(3 / 4)  # star, circle, ellipse
    assert scores.values["size_accuracy"] == pytest.approx(3 / 4)  # small ×2 (of 2), large ×1 (of 1)
    assert scores.values["location_accuracy"] == pytest.approx(2 / 4)  # 5 and 20
    assert scores.values["direction_accuracy"] == pytest.approx(3 / 4)  # 90, and two of the three 0-classes
    assert scores.values["extra_holes"] == 1.0 and scores.values["missing_holes"] == 0.0
    assert scores.values["holes_and_unfolding_exact"] == 0.0 and scores.values["exact_match"] == 0.0
    assert scores.values["unfolding_exact"] == 1.0
    assert (scores.counts["holes_true"], scores.counts["holes_declared"], scores.counts["holes_matched"]) == (3, 4, 1)


def test_a_missing_hole_keeps_the_denominator_at_g() -> None:
    scores = score_prediction(_target(), _answer([STAR_5]))
    assert scores.values["partial_accuracy"] == pytest.approx(1 / 3)
    assert scores.values["missing_holes"] == 1.0 and scores.values["extra_holes"] == 0.0
    assert scores.values["exact_match"] == 0.0


def test_the_declared_count_counts_even_when_the_list_is_right() -> None:
    over = score_prediction(_target(), _answer(TRUTH, total=4))  # P = 4 > G: one phantom extra hole
    assert over.values["partial_accuracy"] == pytest.approx(3 / 4)
    assert over.values["extra_holes"] == 1.0
    assert over.values["holes_and_unfolding_exact"] == 0.0 and over.values["exact_match"] == 0.0
    under = score_prediction(_target(), _answer(TRUTH, total=2))  # P = 2 < G: the denominator stays G
    assert under.values["partial_accuracy"] == pytest.approx(3 / 3)
    assert under.values["missing_holes"] == 1.0
    assert under.values["holes_and_unfolding_exact"] == 0.0 and under.values["exact_match"] == 0.0


def test_exact_match_is_the_holes_alone_and_the_stricter_measure_needs_the_unfolding_too() -> None:
    scores = score_prediction(_target(), _answer(TRUTH, unfolding=["H1-F", "V2-B", "D1-B"]))
    assert scores.values["exact_match"] == 1.0 and scores.values["partial_accuracy"] == 1.0
    assert scores.values["unfolding_exact"] == 0.0 and scores.values["holes_and_unfolding_exact"] == 0.0


@pytest.mark.parametrize(
    ("unfolding", "exact", "steps"),
    [
        (["H1-F", "V2-B", "D1-F"], 1.0, 3 / 3),
        (["H1-F", "V1-B", "D1-F"], 0.0, 2 / 3),  # one step wrong, in place
        (["V2-B", "D1-F"], 0.0, 0 / 3),  # right codes, wrong positions
        (["H1-F"], 0.0, 1 / 3),  # too short
        (["H1-F", "V2-B", "D1-F", "H2-F"], 0.0, 3 / 3),  # too long: step-wise over the true length
        ([], 0.0, 0 / 3),
    ],
)
def test_unfolding_accuracy_is_exact_and_step_wise(unfolding: list[str], exact: float, steps: float) -> None:
    scores = score_prediction(_target(), _answer(TRUTH, unfolding=unfolding))
    assert scores.values["unfolding_exact"] == exact
    assert scores.values["unfolding_steps"] == pytest.approx(steps)


@pytest.mark.parametrize(
    ("truth", "answered", "matches"),
    [
        ({"shape": "ellipse", "direction": 0}, {"shape": "ellipse", "direction": 180}, True),
        ({"shape": "rectangle", "direction": 90}, {"shape": "rectangle", "direction": 270}, True),
        ({"shape": "rectangle", "direction": 90}, {"shape": "rectangle", "direction": 0}, False),
        ({"shape": "square", "direction": 0}, {"shape": "square", "direction": 90}, True),
        ({"shape": "circle", "direction": 0}, {"shape": "circle", "direction": 270}, True),
        ({"shape": "star", "direction": 90}, {"shape": "star", "direction": 270}, False),
        ({"shape": "letter", "direction": 0}, {"shape": "letter", "direction": 180}, False),
    ],
)
def test_directions_are_compared_by_class(truth: dict[str, Any], answered: dict[str, Any], matches: bool) -> None:
    base = {"size": "small", "location": 7}
    scores = score_prediction(_target([{**base, **truth}]), _answer([{**base, **answered}]))
    assert scores.values["partial_accuracy"] == (1.0 if matches else 0.0)
    assert scores.values["direction_accuracy"] == (1.0 if matches else 0.0)


def test_metrics_pool_over_items_not_average() -> None:
    first = score_prediction(_target(), _answer([STAR_5, *TRUTH[1:], {**STAR_5, "location": 1}]))  # 3 / 4
    second = score_prediction(_target([STAR_5]), _answer([]))  # 0 / 1
    assert first.values["partial_accuracy"] == pytest.approx(3 / 4)
    assert second.values["partial_accuracy"] == 0.0
    assert _pooled([first, second], "holes_matched") == pytest.approx(3 / 5)  # not (3/4 + 0) / 2
    assert _pooled([first, second], "location_matched") == pytest.approx(3 / 5)
    assert _pooled([first, second], "unfolding_steps_correct", "unfolding_steps_total") == pytest.approx(6 / 6)


def test_a_parse_failure_scores_as_an_empty_answer() -> None:
    scores = score_prediction(_target(), ParseFailure("no_json", "the reply contains no JSON object"))
    assert scores.values["parse_failure"] == 1.0 and scores.counts["parse_failure"] == 1
    for metric in (*HOLE_METRICS, "exact_match", "unfolding_exact", "unfolding_steps"):
        assert scores.values[metric] == 0.0, metric
    assert scores.values["missing_holes"] == 1.0 and scores.counts["holes_declared"] == 0
    assert any("no_json" in note for note in scores.notes)


hole_dicts = st.lists(
    st.builds(
        lambda shape, size, direction, location: {
            "shape": shape.value,
            "size": size.value,
            "direction": direction,
            "location": location,
        },
        st.sampled_from(list(Shape)),
        st.sampled_from(list(Size)),
        st.sampled_from([0, 90, 180, 270]),
        st.integers(1, 32),
    ),
    min_size=1,
    max_size=10,
    unique_by=lambda hole: hole["location"],
)


@given(truth=hole_dicts, data=st.data())
def test_the_order_of_holes_does_not_matter(truth: list[dict[str, Any]], data: st.DataObject) -> None:
    answer = data.draw(st.lists(st.sampled_from(truth), unique_by=lambda h: h["location"]))
    shuffled = data.draw(st.permutations(answer))
    assert score_prediction(_target(truth), _answer(answer)) == score_prediction(_target(truth), _answer(shuffled))


@given(truth=hole_dicts)
def test_the_true_holes_in_any_order_score_one(truth: list[dict[str, Any]]) -> None:
    scores = score_prediction(_target(truth), _answer(list(reversed(truth))))
    assert scores.values["partial_accuracy"] == 1.0 and scores.values["exact_match"] == 1.0


@given(truth=hole_dicts.filter(lambda holes: len(holes) < 32), data=st.data())
def test_one_extra_hole_lowers_partial_accuracy_to_g_over_g_plus_one(
    truth: list[dict[str, Any]], data: st.DataObject
) -> None:
    free = sorted(set(range(1, 33)) - {h["location"] for h in truth})
    extra = {"shape": "star", "size": "large", "direction": 0, "location": data.draw(st.sampled_from(free))}
    scores = score_prediction(_target(truth), _answer([*truth, extra]))
    g = len(truth)
    assert scores.values["partial_accuracy"] == pytest.approx(g / (g + 1))
    assert scores.values["extra_holes"] == 1.0 and scores.values["exact_match"] == 0.0


def _hole(**fields: Any) -> dict[str, Any]:
    return {"shape": "star", "size": "small", "direction": 0, **fields}


def _planning_item(folds: str, punched: list[Hole]) -> tuple[dict[str, Any], dict[str, Any]]:
    solution = solve(parse_actions(folds), punched)
    truth = [
        {"shape": h.shape.value, "size": h.size.value, "direction": h.direction, "location": h.location}
        for h in solution.result_holes
    ]
    return {"num_folds": len(folds.split()), "max_holes": 2}, {"result_holes": truth}


def test_a_plan_is_scored_by_the_holes_it_makes() -> None:
    punched = Hole(Shape.STAR, Size.SMALL, 0, 20)
    inputs, target = _planning_item("H1-F", [punched])
    assert len(target["result_holes"]) == 2  # one punch through two layers
    right = PlanningAnswer(folds=["H1-F"], initial_holes=[_hole(location=20)])  # type: ignore[list-item]
    scores = score_planning(inputs, target, right)
    assert scores.values["valid_plan"] == 1.0 and scores.values["exact_match"] == 1.0
    assert scores.values["partial_accuracy"] == 1.0


@pytest.mark.parametrize(
    ("folds", "holes", "reason", "partial"),
    [
        # H1-F then V1-F leaves paper in rows 2-3, columns 2-3 only: location 20 (row 2, column 1) has none, so the
        # plan makes no hole at all.
        (["H1-F", "V1-F"], [{"location": 20}], "exactly 1 were required", 0.0),
        # Three punches in row 2 after H1-F make 6 holes, two of them the true ones: 2 / (2 + 4).
        (["H1-F"], [{"location": 20}, {"location": 19}, {"location": 18}], "at most 2", 2 / 6),
        (["H1-F"], [], "no hole", 0.0),
    ],
)
def test_a_plan_that_breaks_a_rule_loses_exact_match_and_keeps_its_replayed_holes(
    folds: list[str], holes: list[dict[str, Any]], reason: str, partial: float
) -> None:
    inputs, target = _planning_item("H1-F", [Hole(Shape.STAR, Size.SMALL, 0, 20)])
    answer = PlanningAnswer(folds=folds, initial_holes=[_hole(**h) for h in holes])  # type: ignore[misc]
    scores = score_planning(inputs, target, answer)
    assert scores.values["valid_plan"] == 0.0 and scores.values["exact_match"] == 0.0
    assert scores.values["partial_accuracy"] == pytest.approx(partial)
    assert any(reason in note for note in scores.notes), scores.notes


def test_a_punch_with_no_paper_under_it_makes_no_hole() -> None:
    inputs, target = _planning_item("H1-F", [Hole(Shape.STAR, Size.SMALL, 0, 20)])
    answer = PlanningAnswer(folds=["H1-F"], initial_holes=[_hole(location=1)])  # type: ignore[list-item]
    scores = score_planning(inputs, target, answer)
    assert scores.values["valid_plan"] == 0.0 and scores.values["partial_accuracy"] == 0.0
    assert scores.values["missing_holes"] == 1.0
    assert any("no paper under it" in note for note in scores.notes), scores.notes


@given(truth=hole_dicts, answered=hole_dicts)
def test_the_direction_field_is_the_largest_pairing_of_directions_in_class(
    truth: list[dict[str, Any]], answered: list[dict[str, Any]]
) -> None:
    # Brute force over the order of the listed holes: the benchmark's greedy pass (each true hole takes the first
    # unused listed direction in its class; circles and squares take any) at its best order is the largest pairing.
    import itertools

    def greedy(order: tuple[dict[str, Any], ...]) -> int:
        unused = list(order)
        count = 0
        for hole in truth:
            period = {"circle": 90, "square": 90, "ellipse": 180, "rectangle": 180}.get(hole["shape"], 360)
            for index, other in enumerate(unused):
                if period == 90 or other["direction"] % period == hole["direction"] % period:
                    count += 1
                    del unused[index]
                    break
        return count

    answered = answered[:6]
    best = max(greedy(order) for order in itertools.permutations(answered))
    scores = score_prediction(_target(truth), _answer(answered))
    assert scores.counts["direction_matched"] == best


@given(st.lists(st.integers(0, 5), max_size=12), st.lists(st.integers(0, 5), max_size=12))
def test_overlap_is_the_size_of_the_multiset_intersection(a: list[int], b: list[int]) -> None:
    expected = sum((Counter(a) & Counter(b)).values())
    assert _overlap(a, b) == expected == _overlap(b, a)
    assert _overlap(a, a) == len(a)


def _reference_counts(truth: list[Hole], listed: list[HoleAnswer], declared: int, directed: bool) -> dict[str, int]:
    """The hole counts spelt out literally from the module docstring, one multiset per count."""

    def common(a: list[Any], b: list[Any]) -> int:
        return sum((Counter(a) & Counter(b)).values())

    def keys(with_direction: bool) -> tuple[list[Any], list[Any]]:
        true = [(h.shape, h.size, h.location, *([h.direction] if with_direction else [])) for h in truth]
        answered = []
        for h in listed:
            if h.shape is None or h.size is None or h.location is None:
                continue
            if with_direction and h.direction_class() is None:
                continue
            answered.append((h.shape, h.size, h.location, *([h.direction_class()] if with_direction else [])))
        return true, answered

    g = len(truth)
    matched = common(*keys(directed))
    directed_matched = common(*keys(True))
    well_formed = [h.to_hole() for h in listed]
    return {
        "holes_matched": matched,
        "holes_exact": int(declared == g and matched == g),
        "malformed_holes": sum(h.problem is not None for h in listed),
        **{
            f"{name}_matched": common([getattr(h, name) for h in truth],
                                      [getattr(h, name) for h in listed if getattr(h, name) is not None])
            for name in ("shape", "size", "location")
        },  # fmt: skip
        "directed_holes_matched": directed_matched,
        "directed_holes_exact": int(declared == g and directed_matched == g),
        "holes_listed_exactly": int(
            declared == g
            and None not in well_formed
            and len({h.location for h in well_formed if h is not None}) == len(listed) == g
            and Counter(well_formed) == Counter(truth)
        ),
    }


messy_holes = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {},
            optional={
                "shape": st.sampled_from(["circle", "square", "star", "ellipse", "Triangle ", "blob", 3]),
                "size": st.sampled_from(["small", "large", "LARGE", "huge"]),
                "location": st.sampled_from([1, 2, 3, 4, "5", [0, 0, 1], 33, True]),
                "direction": st.sampled_from([0, 90, 180, 270, 45, "0, 180", "90 degrees", None, ""]),
                "problem": st.sampled_from(["stated by the reply"]),
            },
        ),
        st.just("not a hole"),
    ),
    max_size=7,
)


@given(truth=hole_dicts, answered=messy_holes, declared=st.integers(0, 8), directed=st.booleans())
def test_hole_counts_are_the_multisets_the_rules_describe(
    truth: list[dict[str, Any]], answered: list[Any], declared: int, directed: bool
) -> None:
    true_holes = [hole_from_dict(h) for h in truth]
    listed = [HoleAnswer.model_validate(h) for h in answered]
    counts = hole_counts(true_holes, listed, declared, directed=directed)
    expected = _reference_counts(true_holes, listed, declared, directed)
    assert {name: counts[name] for name in expected} == expected


@given(truth=hole_dicts | st.just([]), declared=st.integers(0, 8), directed=st.booleans())
def test_an_answer_listing_no_hole_counts_by_the_rules_alone(
    truth: list[dict[str, Any]], declared: int, directed: bool
) -> None:
    # A reply that fails to parse (and the dataset check's empty reply) lists nothing: M = 0 in every field, the
    # denominators are G (and G + max(0, P - G) for partial accuracy), and it is exact only when G = P = 0.
    true_holes = [hole_from_dict(h) for h in truth]
    g = len(true_holes)
    counts = hole_counts(true_holes, [], declared, directed=directed)
    with_one_listed = hole_counts(true_holes, [HoleAnswer.model_validate(STAR_5)], declared, directed=directed)
    assert list(counts) == list(with_one_listed)  # the same counts, in the same order, as for any other answer
    exact = int(declared == 0 and g == 0)
    assert counts == {
        **{name: 0 for name in counts if name.endswith("_matched")},
        "holes_true": g,
        "holes_declared": declared,
        "holes_listed": 0,
        "partial_denominator": g + max(0, declared - g),
        "field_denominator": g,
        "direction_denominator": g if directed else 0,
        "extra": int(declared > g),
        "missing": int(declared < g),
        "holes_exact": exact,
        "malformed_holes": 0,
        "directed_holes_exact": exact,
        "holes_listed_exactly": exact,
    }
