"""Prompts worded as the paper's (the default) give what the paper's give and no more, and ask for its answer
format; foldbench's wording with hints stays available as ``prompt=hints``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from foldbench.pft.grid import row_col_tri
from foldbench.tasks.base import Item, TextPart
from foldbench.tasks.mentalblackboard.tasks import (
    BackwardPredictionTask,
    GeneralizationTask,
    PlanningTask,
    PredictionTask,
)

CODE = re.compile(r"\b[HVD][1-4]-[FB]\b")


def _text(task: Any, item: Item, modality: str) -> str:
    return "\n".join(p.text for p in task.render(item, modality).parts if isinstance(p, TextPart))


def _item(task: Any, modality: str, **knobs: str) -> Item:
    # item 5 of the paper preset: prediction group 6 (two folds and a rotation), planning and generalization two folds
    *_, item = task.generate(6, seed=4, modalities=(modality,), knobs={"preset": "paper", **knobs})
    return item


@pytest.mark.parametrize("modality", ["text", "image"])
def test_the_prediction_prompt_asks_in_the_paper_form_and_gives_no_counts(modality: str) -> None:
    task = PredictionTask()
    item = _item(task, modality)
    text = _text(task, item, modality)
    for key in ('"totalNumberofHoles"', '"unfoldingTypes"', '"resultHoles"'):
        assert key in text
    folds, turns = item.metadata["num_folds"], item.metadata["num_rotations"]
    assert (folds, turns) == (2, 1)
    assert not re.search(rf"\b{folds} (fold|time)", text) and not re.search(rf"\b{turns} (turn|rotation)", text)
    assert "diagonal" not in text.split("The unfolding steps to choose from")[0]  # no cell-diagonal hint
    if modality == "text":
        assert "[<row>, <column>, <tri>]" in text
        for hole in item.inputs["initial_holes"]:
            row, column, tri = row_col_tri(hole["location"] - 1)
            assert f"Location: [{row}, {column}, {tri}]" in text
    else:
        assert '"<1-32>"' in text
        for hole in item.inputs["initial_holes"]:
            assert f"Location: {hole['location']}," in text


def test_the_backward_prompt_says_the_folds_go_backward_and_offers_b_codes() -> None:
    task = BackwardPredictionTask()
    text = _text(task, _item(task, "text"), "text")
    assert "backward" in text and "H1-B" in text and "H1-F" not in text


def test_the_generalization_prompt_shows_no_unfolding_steps_and_no_counts() -> None:
    task = GeneralizationTask()
    item = _item(task, "image")
    text = _text(task, item, "image")
    asked = text.split("answer in this JSON format")[0]
    assert CODE.search(asked) is None  # the example's unfolding steps are not shown, nor any code
    assert "one of four aspects" in asked
    assert f"{item.metadata['num_folds']} fold" not in asked


def test_the_planning_prompt_gives_the_fold_count_and_the_punch_limit_and_asks_folds_and_holes() -> None:
    task = PlanningTask()
    item = _item(task, "image")
    text = _text(task, item, "image")
    folds = item.inputs["num_folds"]
    assert f"exactly {folds} fold" in text and "at most 2 holes" in text
    assert '"folds"' in text and '"holes"' in text


def test_hints_stay_available_as_a_knob() -> None:
    task = PredictionTask()
    item = _item(task, "text", prompt="hints")
    text = _text(task, item, "text")
    assert f"folded {item.metadata['num_folds']} time" in text and "triangle number = 8 × row" in text


@pytest.mark.parametrize("task_type", [PredictionTask, BackwardPredictionTask, GeneralizationTask])
def test_a_reply_in_the_asked_text_form_is_read_and_scores_as_the_paper_does(task_type: type) -> None:
    task = task_type()
    item = _item(task, "text")
    holes = []
    for hole in item.target["result_holes"]:
        row, column, tri = row_col_tri(hole["location"] - 1)
        holes.append({**hole, "direction": str(hole["direction"]), "location": [row, column, tri]})
    body = {
        "totalNumberofHoles": len(holes),
        "unfoldingTypes": item.target["unfolding"],
        "resultHoles": holes,
    }
    answer = task.parse(item, "Step by step...\n```json\n" + json.dumps(body, indent=2) + "\n```")
    scores = task.score_in_modality(item, answer, "text")
    assert scores.values["exact_match"] == 1.0 and scores.values["holes_and_unfolding_exact"] == 1.0
