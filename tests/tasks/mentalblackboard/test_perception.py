"""Perception probes: every answer is checked against the text grids (an encoding the questions do not read),
ambiguous questions are not asked, the probes pair up with the prediction items of the same seed, and replies
are read strictly."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import InvalidKnobError
from foldbench.pft.actions import parse_action
from foldbench.pft.encoders.text import HOLE_LETTERS, encode_steps
from foldbench.pft.grid import triangle_vertices
from foldbench.pft.simulate import solve
from foldbench.tasks import make
from foldbench.tasks.base import ParseFailure
from foldbench.tasks.mentalblackboard.perception_questions import VIDEO_KINDS, questions_for
from foldbench.tasks.mentalblackboard.sampling import sample_actions, sample_holes

LETTER_SHAPES = {letter: shape.value for shape, letter in HOLE_LETTERS.items()}


def _cells(grid: str) -> list[str]:
    """The 32 marks of a text grid, by location."""
    return [mark for line in grid.splitlines() for cell in line.rstrip(",").split(", ") for mark in cell]


def _configuration(seed: int, group: int):
    rng = np.random.default_rng(seed)
    actions = sample_actions(rng, group, "mixed")
    folded = solve(actions, []).folded
    holes = sample_holes(rng, folded, rotation=any(a.code.startswith("R") for a in actions))
    return actions, solve(actions, holes)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), group=st.integers(1, 9))
def test_every_answer_agrees_with_the_text_grids(seed: int, group: int) -> None:
    actions, solution = _configuration(seed, group)
    grids = encode_steps(solution)  # flat, one per action, punching
    punching = _cells(grids[-1])
    for question in questions_for(solution, actions, view="grid"):
        assert question.answer in question.choices, question
        numbers = [int(n) for n in re.findall(r"(?:step|triangle) (\d+)", question.text)]
        if question.kind == "action_count":
            assert int(question.answer) == len(grids) - 2
        elif question.kind == "hole_count":
            assert int(question.answer) == sum(m.isalpha() for m in punching)
        elif question.kind == "hole_shape":
            assert LETTER_SHAPES[punching[numbers[0] - 1].upper()] == question.answer
        elif question.kind == "hole_size":
            assert punching[numbers[0] - 1].isupper() == (question.answer == "large")
        elif question.kind == "hole_location":
            letters = [
                i + 1
                for i, m in enumerate(punching)
                if m.isalpha() and f"the {LETTER_SHAPES[m.upper()]} hole" in question.text
            ]
            assert letters == [int(question.answer)]
        elif question.kind == "paper_count":
            assert int(question.answer) == sum(m != "0" for m in _cells(grids[numbers[0]]))
        elif question.kind == "half":
            marks = _cells(grids[numbers[0]])
            points = [v for i, m in enumerate(marks) if m != "0" for v in triangle_vertices(i)]
            halves = {
                "top": all(y <= 2 for _, y in points),
                "bottom": all(y >= 2 for _, y in points),
                "left": all(x <= 2 for x, _ in points),
                "right": all(x >= 2 for x, _ in points),
            }
            inside = [name for name, holds in halves.items() if holds]
            assert len(inside) <= 1
            assert question.answer == (inside[0] if inside else "none")
        elif question.kind == "action_between":
            before, after = grids[numbers[0]], grids[numbers[1]]
            leading = set()
            for code in [f"{t}-{s}" for t in ("H1", "H2", "V1", "V2", "D1", "D2", "D3", "D4") for s in "FB"] + [
                "R90",
                "R180",
                "R270",
            ]:
                try:
                    paper = solution.states[numbers[0]].apply(parse_action(code))
                except Exception:
                    continue
                if _grid_of(paper) == after:
                    leading.add(code.split("-")[0])
            assert before != after or leading
            assert leading == {question.answer}, (question, leading)
        elif question.kind == "grid_size":
            rows = grids[0].splitlines()
            assert question.answer == f"{len(rows)}×{len(rows[0].rstrip(',').split(', '))}"
        elif question.kind in ("left_of", "below"):
            shapes = re.findall(r"the (\w+) hole", question.text)
            (first,) = [i for i, m in enumerate(punching) if m.isalpha() and LETTER_SHAPES[m.upper()] == shapes[0]]
            (second,) = [i for i, m in enumerate(punching) if m.isalpha() and LETTER_SHAPES[m.upper()] == shapes[1]]
            # the holes' triangles are read off the punching grid; their centres compared
            centre = [sum(v[k] for v in triangle_vertices(i)) / 3 for i in (first, second) for k in (0, 1)]
            if question.kind == "left_of":
                assert abs(centre[0] - centre[2]) >= 1
                assert question.answer == ("yes" if centre[0] < centre[2] else "no")
            else:
                assert abs(centre[1] - centre[3]) >= 1
                assert question.answer == ("yes" if centre[1] > centre[3] else "no")
        assert question.kind != "hole_direction"  # grids do not encode directions


def _grid_of(paper) -> str:
    from foldbench.pft.encoders.text import grid_text

    return grid_text(paper)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), group=st.integers(1, 9))
def test_ambiguous_questions_are_not_asked(seed: int, group: int) -> None:
    actions, solution = _configuration(seed, group)
    questions = questions_for(solution, actions, view="picture")
    shapes = [h.shape.value for h in solution.initial_holes]
    for question in questions:
        if question.kind == "hole_location":
            (shape,) = [s for s in set(shapes) if f"the {s} hole" in question.text]
            assert shapes.count(shape) == 1
        if question.kind == "hole_direction":
            location = int(re.search(r"triangle (\d+)", question.text).group(1))
            (hole,) = [h for h in solution.initial_holes if h.location == location]
            assert hole.shape.value not in ("circle", "square", "ellipse", "rectangle")
    kinds = {q.kind for q in questions}
    assert {"action_count", "hole_count", "hole_shape", "hole_size", "paper_count"} <= kinds


def test_probes_ask_about_the_prediction_items_of_the_same_seed() -> None:
    from foldbench.tasks.probes import configuration_hash

    probes = list(make("mentalblackboard/perception").generate(24, 9, modalities=("text",), knobs={"questions": 4}))
    predictions = {p.id: p for p in make("mentalblackboard/prediction").generate(6, 9, modalities=("text",))}
    for probe in probes:
        source = predictions[probe.metadata["source_item"]]  # one of the first 24 / 4 configurations
        assert probe.inputs["actions"] == source.inputs["actions"]
        assert probe.inputs["initial_holes"] == source.inputs["initial_holes"]
        assert probe.metadata["group"] == source.metadata["group"]
        assert probe.metadata["source_seed"] == source.seed
        assert probe.metadata["configuration"] == configuration_hash(source.inputs)
    assert len({p.metadata["question"] for p in probes}) >= 6
    backward = next(make("mentalblackboard/perception").generate(1, 9, knobs={"source": "backward-prediction"}))
    assert (
        backward.inputs["actions"]
        == next(make("mentalblackboard/backward-prediction").generate(1, 9)).inputs["actions"]
    )


def test_video_probes_ask_only_what_a_video_shows() -> None:
    actions, solution = _configuration(4, 7)
    questions = questions_for(solution, actions, view="video")
    assert {"action_count", "rotation_count", "hole_count", "action_kind", "hole_shapes"} <= {q.kind for q in questions}
    assert {q.kind for q in questions} <= {*VIDEO_KINDS}
    kinds = [q.answer for q in questions if q.kind == "action_kind"]
    assert kinds == ["turn" if a.code.startswith("R") else "fold" for a in actions]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"answer": "3"}', "3"),
        ('I count them. {"answer": 3}', "3"),
        ('{"answer": " LARGE "}', "large"),
        ('{"answer": "D4"} then {"answer": "h1"}', "H1"),
    ],
)
def test_replies_naming_an_offered_answer_are_read(reply: str, expected: str) -> None:
    task = make("mentalblackboard/perception")
    item = next(task.generate(1, 0))
    item = item.model_copy(update={"inputs": {**item.inputs, "choices": ["3", "large", "H1", "D4"]}})
    answer = task.parse(item, reply)
    assert not isinstance(answer, ParseFailure) and answer.answer == expected


@pytest.mark.parametrize("reply", ["", "3", '{"answer": "33"}', '{"answer": true}', '{"answer": ["3"]}', '{"x": 1}'])
def test_other_replies_are_parse_failures_that_score_zero(reply: str) -> None:
    task = make("mentalblackboard/perception")
    item = next(task.generate(1, 0))
    item = item.model_copy(update={"inputs": {**item.inputs, "choices": ["3", "4"]}, "target": {"answer": "3"}})
    answer = task.parse(item, reply)
    assert isinstance(answer, ParseFailure)
    assert task.score(item, answer).values == {"correct": 0.0, "parse_failure": 1.0}


def test_the_questions_knob_is_bounded() -> None:
    with pytest.raises(InvalidKnobError, match="'questions'"):
        next(make("mentalblackboard/perception").generate(1, 0, knobs={"questions": 13}))
