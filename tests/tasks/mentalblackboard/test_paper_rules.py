"""Hand-made replies scored as MentalBlackboard's own rules score them, each worked out by hand in its comments.

The rules (paper section 4 and its evaluation code): G true holes, P the declared ``totalNumberofHoles`` (the list
length when absent), M listed holes equal to a true hole (each true hole used once); exact match = P = G and
M = G (holes only); partial = M / (G + max(0, P − G)); a field's accuracy = matching values of that field over
G + max(0, L − G), L the list length; extra = P > G, missing = P < G; the text modality leaves direction out.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.pft.actions import parse_actions
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.simulate import solve
from foldbench.tasks.base import ParseFailure
from foldbench.tasks.mentalblackboard.answers import PlanningAnswer, PredictionAnswer, parse_planning, parse_prediction
from foldbench.tasks.mentalblackboard.scoring import score_planning, score_prediction
from foldbench.tasks.mentalblackboard.tasks import PredictionTask

STAR_5 = {"shape": "star", "size": "small", "direction": 0, "location": 5}
LETTER_12 = {"shape": "letter", "size": "large", "direction": 90, "location": 12}
ELLIPSE_20 = {"shape": "ellipse", "size": "small", "direction": 90, "location": 20}
TRUTH = {"result_holes": [STAR_5, LETTER_12, ELLIPSE_20], "unfolding": ["V2-F", "H1-F"]}


def _reply(holes: list[Any], unfolding: list[str], total: Any = None) -> PredictionAnswer:
    body: dict[str, Any] = {"unfoldingTypes": unfolding, "resultHoles": holes}
    if total is not None:
        body["totalNumberofHoles"] = total
    answer = parse_prediction("Reasoning...\n```json\n" + json.dumps(body) + "\n```")
    assert isinstance(answer, PredictionAnswer), answer
    return answer


def test_holes_right_but_unfolding_wrong_is_an_exact_match() -> None:
    # The three holes exactly, the two unfolding steps swapped. Holes: P = G = M = 3, so exact match 1 and
    # partial 3 / 3. Unfolding: not identical (exact 0); position 1 has H1-F for V2-F, position 2 V2-F for
    # H1-F, so 0 of 2 steps. The stricter "holes and unfolding" measure is 0.
    scores = score_prediction(TRUTH, _reply(TRUTH["result_holes"], ["H1-F", "V2-F"], total=3))
    assert scores.values["exact_match"] == 1.0
    assert scores.values["partial_accuracy"] == 1.0
    assert scores.values["unfolding_exact"] == 0.0
    assert scores.values["unfolding_steps"] == 0.0
    assert scores.values["holes_and_unfolding_exact"] == 0.0


def test_directions_off_by_90_degrees_cost_nothing_in_text_and_everything_in_pictures() -> None:
    # Every hole turned by 90°: the star 0 -> 90 (a star has four classes: wrong), the letter 90 -> 180 (wrong),
    # the ellipse 90 -> 180 (class {0, 180} against {90, 270}: wrong). Locations given as [row, column, tri] as the
    # text prompt asks: 5 = [0, 2, 0], 12 = [1, 1, 1], 20 = [2, 1, 1].
    turned = [
        {**STAR_5, "direction": 90, "location": [0, 2, 0]},
        {**LETTER_12, "direction": 180, "location": [1, 1, 1]},
        {**ELLIPSE_20, "direction": 180, "location": [2, 1, 1]},
    ]
    answer = _reply(turned, ["V2-F", "H1-F"], total=3)
    # Text: direction is left out, so shape, size and location match for all three: M = 3 = P = G.
    text = score_prediction(TRUTH, answer, directed=False)
    assert text.values["exact_match"] == 1.0 and text.values["partial_accuracy"] == 1.0
    assert text.values["direction_accuracy"] is None  # not scored in text, as the paper's table shows a dash
    # ... and the direction-aware measures beside it see M = 0: 0 / 3.
    assert text.values["directed_exact_match"] == 0.0 and text.values["directed_partial_accuracy"] == 0.0
    # Pictures: direction compared, M = 0; shape, size, location 3 / 3 each. The direction field is counted on
    # its own, whatever hole it belongs to: the star's 0 finds no listed 0 (90, 180, 180); the letter's 90 takes
    # the listed 90; the ellipse's class {90, 270} finds only 180s. 1 / 3.
    image = score_prediction(TRUTH, answer)
    assert image.values["exact_match"] == 0.0 and image.values["partial_accuracy"] == 0.0
    assert (image.values["shape_accuracy"], image.values["location_accuracy"]) == (1.0, 1.0)
    assert image.values["direction_accuracy"] == pytest.approx(1 / 3)


def test_the_task_scores_text_replies_without_direction_and_picture_replies_with_it() -> None:
    task = PredictionTask()
    (item,) = task.generate(1, seed=3, modalities=("text",))
    holes = item.target["result_holes"]
    turned = [{**h, "direction": (h["direction"] + 90) % 360} for h in holes if h["shape"] not in ("circle", "square")]
    if len(turned) != len(holes):
        pytest.fail("seed 3 should draw no circle or square; pick another seed")
    answer = _reply(turned, item.target["unfolding"], total=len(holes))
    assert task.score_in_modality(item, answer, "text").values["exact_match"] == 1.0
    assert task.score_in_modality(item, answer, "image").values["exact_match"] == 0.0
    assert task.score(item, answer).values["exact_match"] == 0.0


@pytest.mark.parametrize(
    ("bad", "fields"),
    [
        # An impossible direction: the star's direction is unreadable; shape, size and location still count.
        ({**STAR_5, "direction": 45}, {"shape": 3, "size": 3, "location": 3, "direction": 2}),
        # All four angles at once names no direction.
        ({**STAR_5, "direction": "0, 90, 180, 270"}, {"shape": 3, "size": 3, "location": 3, "direction": 2}),
        # A duplicate location: the star put at the letter's place 12. Locations 12, 12, 20 against 5, 12, 20
        # match 2; the star's shape, size and direction still match.
        ({**STAR_5, "location": 12}, {"shape": 3, "size": 3, "location": 2, "direction": 3}),
        # An unknown shape: only the shape field misses (the direction 0 counts on its own, as the star's).
        ({**STAR_5, "shape": "hexagon"}, {"shape": 2, "size": 3, "location": 3, "direction": 3}),
    ],
)
def test_one_malformed_hole_costs_that_hole_not_the_answer(bad: dict[str, Any], fields: dict[str, int]) -> None:
    # G = 3, P = 3 (declared), the other two holes right: M = 2, so partial = 2 / (3 + 0) and no exact match; no
    # hole is extra or missing. Each field: matching values over G + max(0, L − G) = 3; an unreadable value
    # matches nothing (the star's direction 0 finds no other 0 among 90 and the ellipse's 90).
    answer = _reply([bad, LETTER_12, ELLIPSE_20], ["V2-F", "H1-F"], total=3)
    scores = score_prediction(TRUTH, answer)
    assert scores.values["partial_accuracy"] == pytest.approx(2 / 3)
    assert scores.values["exact_match"] == 0.0 and scores.values["parse_failure"] == 0.0
    assert scores.values["extra_holes"] == 0.0 and scores.values["missing_holes"] == 0.0
    for field, matched in fields.items():
        assert scores.values[f"{field}_accuracy"] == pytest.approx(matched / 3), field
    assert scores.values["holes_and_unfolding_exact"] == 0.0


def test_only_an_answer_without_a_readable_hole_list_is_a_parse_failure() -> None:
    failure = parse_prediction('{"totalNumberofHoles": 3, "unfoldingTypes": ["V2-F"], "resultHoles": "three stars"}')
    assert isinstance(failure, ParseFailure)
    # Scored as an empty answer: P = 0 < G = 3, partial 0 / 3.
    scores = score_prediction(TRUTH, failure)
    assert scores.values["partial_accuracy"] == 0.0 and scores.values["missing_holes"] == 1.0


@pytest.mark.parametrize(
    ("total", "partial", "extra", "missing"),
    [
        (4, 3 / 4, 1.0, 0.0),  # P = 4 > G = 3: the denominator grows to 3 + 1
        (2, 3 / 3, 0.0, 1.0),  # P = 2 < G: the denominator stays G, all three listed holes still match
        ("3", 1.0, 0.0, 0.0),  # a count given as a string is read
    ],
)
def test_a_wrong_count_field(total: Any, partial: float, extra: float, missing: float) -> None:
    # The list holds exactly the three true holes; only the declared count differs. Exact match needs P = G.
    # The fields count over the list (L = 3): 3 / 3 each whatever the declared count.
    scores = score_prediction(TRUTH, _reply(TRUTH["result_holes"], ["V2-F", "H1-F"], total=total))
    assert scores.values["partial_accuracy"] == pytest.approx(partial)
    assert (scores.values["extra_holes"], scores.values["missing_holes"]) == (extra, missing)
    assert scores.values["exact_match"] == (1.0 if partial == 1.0 and not extra and not missing else 0.0)
    assert scores.values["location_accuracy"] == 1.0 and scores.values["shape_accuracy"] == 1.0


# Planning. The item: H1-F (top half onto the bottom), V1-F (left half onto the right), then a small star at
# direction 0 punched at 22 = [2, 2, 1], the upper-right triangle of a "\" cell. Unfolding V1 mirrors it across the
# vertical midline into cell (2, 1), a "/" cell, as its upper-left triangle: [2, 1, 0] = 19, direction −0 = 0.
# Unfolding H1 mirrors both across the horizontal midline into row 1: 22 -> [1, 2, 1] = 14 and 19 -> [1, 1, 0] = 11,
# direction 180 − 0 = 180.
PLAN_TRUTH = [(22, 0), (19, 0), (14, 180), (11, 180)]
PLAN_INPUTS = {"num_folds": 2, "max_holes": 2}


def _star(location: int, direction: int = 0) -> dict[str, Any]:
    return {"shape": "star", "size": "small", "direction": direction, "location": location}


def _plan_target() -> dict[str, Any]:
    solution = solve(parse_actions("H1-F V1-F"), [Hole(Shape.STAR, Size.SMALL, 0, 22)])
    worked = sorted(((h.location, h.direction) for h in solution.result_holes), reverse=True)
    assert worked == PLAN_TRUTH  # the engine agrees with the hand-worked unfolding above
    return {"result_holes": [_star(location, direction) for location, direction in PLAN_TRUTH]}


def _plan(folds: list[str], holes: list[dict[str, Any]]) -> PlanningAnswer:
    answer = parse_planning(json.dumps({"folds": folds, "holes": holes}))
    assert isinstance(answer, PlanningAnswer), answer
    return answer


def test_the_generating_plan_is_an_exact_match() -> None:
    scores = score_planning(PLAN_INPUTS, _plan_target(), _plan(["H1-F", "V1-F"], [_star(22)]))
    assert scores.values["exact_match"] == 1.0 and scores.values["valid_plan"] == 1.0


def test_a_rule_breaking_plan_that_yields_the_right_holes() -> None:
    # One fold (H1-F) where two were required, and two punches at 22 and 19 on the folded bottom half: unfolding
    # H1 adds 14 and 11 at 180°, so the replay gives exactly the four true holes. M = P = G = 4: partial 4 / 4,
    # every field 4 / 4, nothing extra or missing; but the fold count breaks the rules, so exact match is 0.
    scores = score_planning(PLAN_INPUTS, _plan_target(), _plan(["H1-F"], [_star(22), _star(19)]))
    assert scores.values["exact_match"] == 0.0 and scores.values["valid_plan"] == 0.0
    assert scores.values["partial_accuracy"] == 1.0
    for field in ("shape", "size", "location", "direction"):
        assert scores.values[f"{field}_accuracy"] == 1.0, field
    assert scores.values["extra_holes"] == 0.0 and scores.values["missing_holes"] == 0.0
    assert any("exactly 2 were required" in note for note in scores.notes)


def test_a_plan_with_three_punches_loses_exact_match_and_keeps_its_partial_score() -> None:
    # The right folds, the right punch at 22 and two more at 23 and 24 (also on the folded paper): each punch
    # makes 4 holes, P = 12, M = 4: partial 4 / (4 + 8) = 1 / 3; extra; three punches break the two-punch rule.
    scores = score_planning(PLAN_INPUTS, _plan_target(), _plan(["H1-F", "V1-F"], [_star(22), _star(23), _star(24)]))
    assert scores.values["exact_match"] == 0.0
    assert scores.values["partial_accuracy"] == pytest.approx(1 / 3)
    assert scores.values["extra_holes"] == 1.0


class _OneReply:
    """A model that sends one fixed reply, whatever it is asked."""

    name = "fixed"
    params: dict[str, Any] = {}

    def __init__(self, text: str) -> None:
        self.text = text

    async def complete(self, request: Any) -> Any:
        from foldbench.models.base import ModelReply

        return ModelReply(text=self.text)

    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize(("modality", "exact"), [("text", 1.0), ("image", 0.0)])
def test_a_run_scores_under_the_rule_of_the_modality_it_asked_in(tmp_path: Any, modality: str, exact: float) -> None:
    import asyncio

    from foldbench.harness import Store, evaluate
    from foldbench.tasks.dataset import read_items, write_dataset

    task = PredictionTask()
    write_dataset(task.id, tmp_path / "data", n=1, seed=3, modalities=("text", "image"))
    (item,) = read_items(tmp_path / "data")
    turned = [{**h, "direction": (h["direction"] + 90) % 360} for h in item.target["result_holes"]]
    assert all(h["shape"] not in ("circle", "square") for h in turned)  # every hole has a direction to get wrong
    body = {"totalNumberofHoles": len(turned), "unfoldingTypes": item.target["unfolding"], "resultHoles": turned}
    with Store(tmp_path / "runs.db") as store:
        asyncio.run(
            evaluate(
                store=store,
                run_name="r",
                task=task,
                dataset_dir=tmp_path / "data",
                items=[item],
                model=_OneReply(json.dumps(body)),  # type: ignore[arg-type]
                modality=modality,
            )
        )
        (row,) = store.scores("r")
    assert row.values["exact_match"] == exact and row.values["directed_exact_match"] == 0.0


def test_a_declared_total_that_disagrees_with_the_list_length() -> None:
    # The three true holes and a fourth, wrong one (a large circle at 1, no true hole there), with
    # totalNumberofHoles 3: the declared total (3) disagrees with the list's length (L = 4).
    extra = {"shape": "circle", "size": "large", "direction": 0, "location": 1}
    holes = [*TRUTH["result_holes"], extra]
    scores = score_prediction(TRUTH, _reply(holes, ["V2-F", "H1-F"], total=3))
    # The paper's rules read P from the declared total: P = G = 3 and M = 3, so exact match 1, partial
    # 3 / (3 + 0) = 1, no "extra" error.
    assert scores.values["exact_match"] == 1.0
    assert scores.values["partial_accuracy"] == 1.0
    assert scores.values["extra_holes"] == 0.0
    # The fields count over the list: G + max(0, L - G) = 3 + 1 = 4, of which 3 locations match: 3 / 4.
    assert scores.values["location_accuracy"] == pytest.approx(3 / 4)
    # foldbench's stricter measure looks at the list itself: a hole that is not a true hole is listed, so 0.
    assert scores.values["holes_and_unfolding_exact"] == 0.0
    # Without a declared total, P falls back to the list's length: P = 4 > G, so no exact match, an "extra"
    # error and partial 3 / (3 + 1).
    undeclared = score_prediction(TRUTH, _reply(holes, ["V2-F", "H1-F"]))
    assert undeclared.values["exact_match"] == 0.0
    assert undeclared.values["extra_holes"] == 1.0
    assert undeclared.values["partial_accuracy"] == pytest.approx(3 / 4)


_SHAPES = ["star", "letter", "triangle", "trapezoid", "text"]  # shapes with four directions
_holes = st.lists(
    st.tuples(st.sampled_from(_SHAPES), st.sampled_from(["small", "large"]), st.sampled_from([0, 90, 180, 270]),
              st.integers(1, 32)),
    min_size=1, max_size=5, unique_by=lambda h: h[3],
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(holes=_holes, which=st.integers(0, 4))
def test_the_reference_scores_1_and_a_changed_shape_lowers_only_what_depends_on_shape(
    holes: list[tuple[str, str, int, int]], which: int
) -> None:
    # The true answer itself: every metric 1 (extra and missing 0). Changing one hole's shape to another shape
    # breaks that hole's match: exact match and partial drop, the shape field drops by one hole in G, and the
    # size and location fields, which do not depend on shape, stay 1.
    truth = {"result_holes": [dict(zip(("shape", "size", "direction", "location"), h, strict=True)) for h in holes],
             "unfolding": ["V2-F"]}
    perfect = score_prediction(truth, _reply(truth["result_holes"], ["V2-F"], total=len(holes)))
    for name in ("exact_match", "partial_accuracy", "shape_accuracy", "size_accuracy", "location_accuracy",
                 "unfolding_exact"):
        assert perfect.values[name] == 1.0, name
    assert perfect.values["extra_holes"] == 0.0 and perfect.values["missing_holes"] == 0.0
    index = which % len(holes)
    changed = [dict(h) for h in truth["result_holes"]]
    others = [s for s in _SHAPES if s != changed[index]["shape"] and s not in {h["shape"] for h in changed}]
    if not others:  # every other shape is already listed: the multiset of shapes could still match
        return
    changed[index]["shape"] = others[0]
    scored = score_prediction(truth, _reply(changed, ["V2-F"], total=len(holes)))
    g = len(holes)
    assert scored.values["exact_match"] == 0.0
    assert scored.values["partial_accuracy"] == pytest.approx((g - 1) / g)
    assert scored.values["shape_accuracy"] == pytest.approx((g - 1) / g)
    assert scored.values["size_accuracy"] == 1.0 and scored.values["location_accuracy"] == 1.0
    assert scored.values["unfolding_exact"] == 1.0
