"""What every MentalBlackboard prompt carries, read from the item itself: its grids or its pictures in order, every
punched hole, the counts in words with the right plural, and nothing left of the picture marks in the text."""

from __future__ import annotations

import pytest

from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, Item, TextPart, VideoPart

TASKS = ("prediction", "backward-prediction", "planning", "generalization", "perception")


def _items(name: str, modalities: tuple[str, ...], **knobs: object) -> list[Item]:
    task = make(f"mentalblackboard/{name}")
    return list(task.generate(12, seed=5, modalities=modalities, knobs=knobs))


def _text(parts: tuple[object, ...]) -> str:
    return "\n".join(p.text for p in parts if isinstance(p, TextPart))


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.parametrize("prompt", ["paper", "hints"])
def test_a_text_prompt_is_one_text_part_with_the_items_grids(name: str, prompt: str) -> None:
    task = make(f"mentalblackboard/{name}")
    knobs = {} if name == "perception" else {"prompt": prompt}
    for item in _items(name, ("text",), **knobs):
        parts = task.render(item, "text").parts
        assert len(parts) == 1 and isinstance(parts[0], TextPart)
        text = parts[0].text
        assert "@@" not in text and text == text.strip("\n")
        grids = item.inputs["text"]
        for block in grids.values() if isinstance(grids, dict) else [grids]:
            assert block.strip() in text


@pytest.mark.parametrize("name", ["prediction", "backward-prediction"])
@pytest.mark.parametrize("prompt", ["paper", "hints"])
def test_a_picture_prompt_shows_the_sheet_then_every_step_in_order(name: str, prompt: str) -> None:
    task = make(f"mentalblackboard/{name}")
    for item in _items(name, ("image",), prompt=prompt):
        parts = task.render(item, "image").parts
        shown = [p.path for p in parts if isinstance(p, ImagePart)]
        assert shown == [item.inputs["images"]["reference"], *item.inputs["images"]["steps"]]
        assert "@@" not in _text(parts)


def test_a_video_prompt_sends_the_animation_with_its_key_frames() -> None:
    task = make("mentalblackboard/prediction")
    for item in _items("prediction", ("video",)):
        videos = [p for p in task.render(item, "video").parts if isinstance(p, VideoPart)]
        assert [(v.path, list(v.frames)) for v in videos] == [
            (item.inputs["video"]["video"], list(item.inputs["video"]["frames"]))
        ]


def test_the_hints_wording_lists_every_punched_hole_and_counts_in_words() -> None:
    task = make("mentalblackboard/prediction")
    items = _items("prediction", ("text",), prompt="hints", groups=[1, 5])
    for item in items:
        text = _text(task.render(item, "text").parts)
        for hole in item.inputs["initial_holes"]:
            line = f"- {hole['shape']}, {hole['size']}, direction {hole['direction']}°, at triangle {hole['location']}"
            assert line in text.splitlines()
        folds = item.metadata["num_folds"]
        assert (
            f"folded {folds} time{'s' if folds != 1 else ''}," in text
            or f"folded {folds} time{'s' if folds != 1 else ''} and" in text
        )
        turns = item.metadata["num_rotations"]
        assert (f"turned {turns} time" in text) == bool(turns)


def test_the_paper_wording_gives_text_locations_as_row_column_tri() -> None:
    task = make("mentalblackboard/prediction")
    for item in _items("prediction", ("text", "image")):
        in_text = _text(task.render(item, "text").parts)
        in_pictures = _text(task.render(item, "image").parts)
        for hole in item.inputs["initial_holes"]:
            index = int(hole["location"]) - 1
            row, column, tri = index // 8, index % 8 // 2, index % 2
            assert f"Location: [{row}, {column}, {tri}], Direction: {hole['direction']} degrees." in in_text
            assert f"Location: {hole['location']}, Direction: {hole['direction']} degrees." in in_pictures
