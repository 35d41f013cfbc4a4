"""Synthesis with the paper's protocol: its prompt with a worked example the engine replays, the three pictures,
"foldable or not" feedback (the detailed one as a knob), GS as the paper computes it beside the exact one, SS that
says which embedder it used, and the paper preset over the shipped models."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import foldbench.tasks  # noqa: F401  (registers the tasks)
from foldbench.crease.io.collection import PAPER_MODEL_COUNT, paper_models, table3
from foldbench.crease.sequences import sequence_by_name
from foldbench.envs import OrigamiSynthesisEnv, simple_fold_target
from foldbench.errors import InvalidKnobError
from foldbench.messages import ImagePart, TextPart
from foldbench.origami.targets import target_from_sequence
from foldbench.tasks import make
from foldbench.tasks.origamibench import synthesis
from foldbench.tasks.origamibench.synthesis_protocol import EXAMPLE_SEQUENCE, example_actions
from foldbench.tasks.origamibench.synthesis_targets import paper_entries

TASK_ID = "origamibench/synthesis-v1"
VALLEY_DIAGONAL = '{"action": "add_crease", "p1": [0, 0], "p2": [10, 10], "assignment": "V"}'
ON_THE_EDGE = '{"action": "add_crease", "p1": [0, 0], "p2": [0, 10], "assignment": "V"}'


def _item(**knobs):
    return next(make(TASK_ID).generate(1, 3, knobs=knobs))


def test_the_paper_prompt_shows_the_worked_example_then_the_three_pictures() -> None:
    item = _item()
    prompt = make(TASK_ID).render(item, "image")
    pictures = [p.path for p in prompt.parts if isinstance(p, ImagePart)]
    assert pictures == ["images/example-target.png", "images/example-start-folded.png",
                        "images/example-start-pattern.png", "images/example-end-pattern.png",
                        "images/example-end-folded.png", item.inputs["images"]["target"], "images/blank-front.png",
                        "images/blank-crease-pattern.png"]
    text = "".join(p.text for p in prompt.parts if isinstance(p, TextPart))
    for action in example_actions():
        assert json.dumps(action) in text
    assert "Foldable: no action yet" in text and "State:" not in text  # no JSON state in the paper's prompt
    assert prompt.template_version.startswith("origami-synthesis-paper-prompt")


def test_the_worked_example_is_a_fold_the_engine_reaches() -> None:
    sequence = sequence_by_name(EXAMPLE_SEQUENCE)
    env = OrigamiSynthesisEnv(target=target_from_sequence(sequence), observation_mode="text")
    env.reset(seed=0)
    for action in example_actions():
        _, _, terminated, _, info = env.step(action)
        assert info["accepted"]
    assert terminated and env.gs == 1.0 and len(example_actions()) >= 2


def test_feedback_is_foldable_or_not_by_default_and_detailed_as_a_knob() -> None:
    task = make(TASK_ID)
    item = _item()
    kept = task.step(item, VALLEY_DIAGONAL, 0)
    texts = [p.text for p in kept.parts if isinstance(p, TextPart)]
    assert texts[0] == "Foldable: true" and sum(isinstance(p, ImagePart) for p in kept.parts) == 3
    refused = task.step(item, ON_THE_EDGE, 1)
    assert [p.text for p in refused.parts if isinstance(p, TextPart)][0] == "Foldable: false"
    assert "E_ACTION" not in " ".join(p.text for p in refused.parts if isinstance(p, TextPart))
    detailed_item = _item(feedback="detailed")
    task.step(detailed_item, VALLEY_DIAGONAL, 0)
    detailed = task.step(detailed_item, ON_THE_EDGE, 1)
    assert "E_ACTION_OVERLAPS_CREASE" in " ".join(p.text for p in detailed.parts if isinstance(p, TextPart))


def test_foldbench_prompt_with_feasible_feedback_keeps_only_kept_or_not_in_the_state() -> None:
    task = make(TASK_ID)
    item = _item(prompt="foldbench")
    task.step(item, VALLEY_DIAGONAL, 0)
    feedback = task.step(item, ON_THE_EDGE, 1)
    text = " ".join(p.text for p in feedback.parts if isinstance(p, TextPart))
    state = json.loads(text.split("State:\n", 1)[1])
    assert state["previous_action"] == {"accepted": False} and "E_ACTION" not in text


def test_gs_as_the_paper_computes_it_sits_beside_the_exact_gs() -> None:
    """The blank square against a square folded in quarters: the raster GS (the headline, pixels of both forms in
    one frame) agrees with the exact GS of the polygons (a quarter) to a pixel's worth, without being it."""
    quarter = simple_fold_target("quarter", [((0.5, 0.0), (0.0, 1.0)), ((0.0, 0.5), (1.0, 0.0))])
    task = make(TASK_ID)
    item = next(task.generate(1, 0, knobs={"source": "random"}))
    task._targets[item.id] = quarter  # the item's target replaced by the quarter fold
    scores = task.score(item, task.parse(item, ON_THE_EDGE))  # refused: the sheet stays blank
    assert scores.values["gs"] == pytest.approx(0.25) and abs(scores.values["gs_raster"] - 0.25) < 0.01
    assert make(TASK_ID).spec.headline == "gs_raster"


class _FakeClip:
    name = "open_clip:ViT-B-16:fake.pt"

    def __init__(self, weights: str, model: str = "ViT-B-16") -> None:
        self.weights, self.model = weights, model

    def embed(self, image) -> np.ndarray:
        pixels = np.asarray(image.convert("L"), float)
        return np.array([pixels.mean(), pixels.std(), 1.0])


def test_ss_says_which_embedder_it_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = make(TASK_ID)
    plain = _item()
    scores = task.score(plain, task.parse(plain, VALLEY_DIAGONAL))
    assert scores.values["ss_clip"] is None and 0 <= scores.values["ss_shape"] <= 1
    assert any("no CLIP weights" in note for note in scores.notes)
    weights = tmp_path / "clip-origami.pt"
    weights.write_bytes(b"checkpoint")
    monkeypatch.setattr(synthesis, "OpenClipEmbedder", _FakeClip)
    with_clip = _item(clip_weights=str(weights))
    scores = task.score(with_clip, task.parse(with_clip, VALLEY_DIAGONAL))
    assert -1 <= scores.values["ss_clip"] <= 1 and any("ViT-B-16" in note for note in scores.notes)
    with pytest.raises(InvalidKnobError, match="clip_weights"):
        _item(clip_weights=str(tmp_path / "missing.pt"))


def test_the_paper_preset_targets_the_shipped_models_in_table3_order_of_tiers() -> None:
    entries = paper_entries()
    assert len(paper_models()) == PAPER_MODEL_COUNT == 366
    assert len(entries) == 342  # the 24 others are drawn on a rectangle or another outline, not a square
    tiers = [e.table_tier for e in entries]
    assert Counter(tiers) == Counter({"Easy": 97, "Medium": 110, "Hard": 135})
    task = make(TASK_ID)
    items = list(task.generate(3, 0, knobs={"preset": "paper"}))
    for item, entry in zip(items, entries, strict=False):
        row = table3()[entry.file]
        assert item.target["name"] == entry.path.stem and item.target["actions"] is None
        assert (item.metadata["category"], item.metadata["tier"]) == (row["category"], row["tier"])
        assert (item.inputs["prompt"], item.inputs["feedback"]) == ("paper", "feasible")
        # a shipped model compiles without a wall-clock limit, so a loaded machine cannot refuse it
        assert item.target["compile_timeout"] is None and task.target(item).compile_timeout is None
    assert _item().target["compile_timeout"] == 10.0
    wrapped = next(task.generate(len(entries) + 1, 0, knobs={"preset": "paper"}, start=len(entries)))
    assert wrapped.target["name"] == items[0].target["name"]  # item i is model i modulo their number


def test_the_paper_preset_of_342_items_names_each_model_once_with_table3_rows() -> None:
    """``-n 342 -k preset=paper -k budget=25``: every shipped square model once, with its Table 3 category and
    tier. The model list is checked whole; items (each reads and builds its model's pattern, about 0.3 s) are
    checked at indices spread over the tiers."""
    entries = paper_entries()
    rows = table3()
    assert len(entries) == 342 and len({entry.path.stem for entry in entries}) == 342
    tiers = [rows[entry.file]["tier"] for entry in entries]
    assert Counter(tiers) == Counter({"Easy": 97, "Medium": 110, "Hard": 135})
    task = make(TASK_ID)
    for index in (0, 96, 97, 206, 207, 341):
        item = next(task.generate(index + 1, 0, knobs={"preset": "paper", "budget": 25}, start=index))
        entry = entries[index]
        assert item.id == f"synthesis-{index:05d}" and item.target["name"] == entry.path.stem
        assert (item.metadata["category"], item.metadata["tier"]) == (rows[entry.file]["category"],
                                                                      rows[entry.file]["tier"])
        assert item.inputs["budget"] == item.metadata["budget"] == 25 and item.target["actions"] is None


def test_knobs_given_beside_the_preset_win_and_unknown_presets_are_refused() -> None:
    item = _item(preset="paper", feedback="detailed", prompt="foldbench")
    assert (item.inputs["feedback"], item.inputs["prompt"]) == ("detailed", "foldbench")
    assert item.metadata["category"] == table3()[paper_entries()[0].file]["category"]
    with pytest.raises(InvalidKnobError, match="preset"):
        _item(preset="papers")
