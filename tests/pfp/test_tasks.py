from __future__ import annotations

import json
import struct
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import FoldbenchError, UnknownNameError
from foldbench.pfp import ENGINE_VERSION
from foldbench.pfp.errors import PfpGenerationError, PfpKnobError
from foldbench.tasks.base import ImagePart, Item, ParseFailure, Task, TextPart
from foldbench.tasks.choice import LETTERS, Choice
from foldbench.tasks.dataset import read_items
from foldbench.tasks.pfp import (
    TASKS,
    FinalFoldTask,
    FoldingTask,
    InverseTask,
    MissingStepTask,
    SingleStepTask,
    split_of,
)
from foldbench.tasks.registry import make, task_ids
from tests.support.datasets import pfp_audit_recipe, shared_datasets

PER_TASK = 80


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, list[Item]]]:
    """The first items of each task's audit dataset (generated once per run, shared with the audit tests), as read
    back from its items.jsonl, each task with a fresh engine (nothing remembered from generating them)."""
    datasets = shared_datasets(tmp_path_factory, {cls.id: pfp_audit_recipe(cls.id) for cls in TASKS})
    return {cls.id: (cls(), read_items(datasets[cls.id])[:PER_TASK]) for cls in TASKS}


def _check(task: object, item: Item) -> None:
    consistent = task.consistent_options(item)  # type: ignore[attr-defined]
    assert consistent.count(True) == 1, (item.id, consistent)
    assert LETTERS[consistent.index(True)] == item.target["answer"]
    assert task.options_distinct(item)  # type: ignore[attr-defined]


def test_the_six_tasks_are_registered_and_follow_the_protocol() -> None:
    ids = {
        "pfp/single-step-v2",
        "pfp/multi-step-v6",
        "pfp/inverse-v4",
        "pfp/folding-3d-v2",
        "pfp/unfolding-2d-v2",
        "pfp/final-fold-v4",
    }
    assert ids <= set(task_ids())
    for task_id in ids:
        assert isinstance(make(task_id), Task)


def test_every_item_has_one_consistent_option_and_distinct_options(generated: dict) -> None:
    for task, items in generated.values():
        for item in items:
            _check(task, item)


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**40), st.sampled_from(TASKS))
def test_items_from_any_seed_are_verified(seed: int, task_type: type) -> None:
    task = task_type()
    for item in task.generate(len(task.subtasks), seed):
        _check(task, Item.model_validate_json(item.model_dump_json()))  # as read back from items.jsonl


def test_oracle_scores_everything_and_random_scores_about_a_quarter(generated: dict) -> None:
    rng = np.random.default_rng(0)
    oracle_correct = random_correct = total = 0
    letters: Counter[str] = Counter()
    for task, items in generated.values():
        for item in items:
            oracle_correct += task.score(item, task.oracle(item)).counts["correct"]
            random_correct += task.score(item, task.random_answer(item, rng)).counts["correct"]
            letters[item.target["answer"]] += 1
            total += 1
    assert total == len(TASKS) * PER_TASK == 560
    assert oracle_correct == total
    assert 0.16 <= random_correct / total <= 0.34
    assert letters == dict.fromkeys(LETTERS, total // 4)  # balanced in blocks of four items


def test_metadata_names_type_subtask_and_split(generated: dict) -> None:
    for task, items in generated.values():
        subtasks = [item.metadata["subtask"] for item in items]
        assert subtasks[: len(task.subtasks)] == list(task.subtasks)
        counts = Counter(subtasks)
        assert set(counts) == set(task.subtasks) and max(counts.values()) - min(counts.values()) <= 1
        for item in items:
            assert item.metadata["type"] == task.type_name
            assert item.metadata["split"] == split_of(item.seed)
            assert item.engine_version == ENGINE_VERSION and item.task == task.id


def test_splits_follow_the_published_proportions() -> None:
    counts = Counter(split_of(int(s)) for s in np.random.default_rng(1).integers(0, 2**62, size=60_000))
    assert abs(counts["train"] / 60_000 - 0.94) < 0.01
    assert abs(counts["validation"] / 60_000 - 0.04) < 0.005
    assert abs(counts["test"] / 60_000 - 0.02) < 0.004


def _chunks(png: bytes) -> list[bytes]:
    names, position = [], 8
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        names.append(png[position + 4 : position + 8])
        position += 12 + length
    return names


@pytest.mark.parametrize("task_type", TASKS)
def test_items_and_pictures_are_deterministic(task_type: type) -> None:
    first = [task_type().generate(2, 11), task_type().generate(2, 11)]
    items_a, items_b = (list(batch) for batch in first)
    assert [i.model_dump_json() for i in items_a] == [i.model_dump_json() for i in items_b]
    task = task_type()
    files_a = dict(task.assets(items_a[1]))
    files_b = dict(task_type().assets(items_b[1]))
    assert files_a == files_b
    images = items_a[1].inputs["images"]
    assert set(files_a) == {images["composite"], *images["question"], *images["options"]}
    for data in files_a.values():
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert set(_chunks(data)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
    # item i does not depend on how many items are generated
    assert next(iter(task_type().generate(1, 11))) == items_a[0]


def test_render_shows_the_composite_and_asks_for_json(generated: dict) -> None:
    for task, items in generated.values():
        prompt = task.render(items[0], "image")
        assert isinstance(prompt.parts[0], ImagePart)
        assert prompt.parts[0].path == items[0].inputs["images"]["composite"]
        text = "".join(p.text for p in prompt.parts if isinstance(p, TextPart))
        assert '{"answer": "A"}' in text and prompt.template_version.startswith("pfp-")
        assert isinstance(task.parse(items[0], '{"answer": "D"}'), Choice)
        assert isinstance(task.parse(items[0], "no idea"), ParseFailure)


@pytest.mark.parametrize(
    ("task_type", "knobs", "error", "message"),
    [
        (
            SingleStepTask,
            {"subtasks": ["3-fold"], "shapes": ["hexagon"], "cutouts": [4]},
            PfpKnobError,
            "4 cutouts are impossible on the 3-fold hexagon",
        ),
        (InverseTask, {"shapes": ["triangle"]}, UnknownNameError, "unknown sheet shape 'triangle'"),
        (SingleStepTask, {"subtasks": ["5-fold"]}, PfpKnobError, "5-fold"),
        (MissingStepTask, {"subtasks": ["1-fold"]}, PfpKnobError, "1-fold"),
        (FinalFoldTask, {"subtasks": ["2-fold"]}, PfpKnobError, "2-fold"),
        (FoldingTask, {"shapes": ["square"]}, PfpKnobError, "unknown knob 'shapes'"),
        (SingleStepTask, {"cutouts": [0, 5]}, PfpKnobError, "cutouts must be chosen from 1-4"),
        (SingleStepTask, {"cutouts": "many"}, PfpKnobError, "knob 'cutouts': input should be a valid integer"),
    ],
)
def test_bad_knobs_fail_before_anything_is_generated(task_type: type, knobs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as raised:
        task_type().generate(5, 0, knobs=knobs)
    assert isinstance(raised.value, FoldbenchError)


def test_a_hexagon_with_default_counts_is_limited_to_what_it_holds() -> None:
    items = list(SingleStepTask().generate(12, 5, knobs={"subtasks": ["3-fold"], "shapes": ["hexagon"]}))
    assert all(item.metadata["sheet"] == "hexagon" and len(item.metadata["cutouts"]) <= 3 for item in items)


def test_a_seed_without_a_valid_item_names_seed_and_index() -> None:
    class Hopeless(SingleStepTask):
        def _draw(self, *args: object) -> None:
            return None

    with pytest.raises(PfpGenerationError, match=r"seed 7, index 0 after 200 tries"):
        list(Hopeless().generate(1, 7))


def test_a_dataset_is_complete_only_when_every_item_is_written(tmp_path: Path) -> None:
    from foldbench.tasks.dataset import read_items, write_dataset

    manifest = write_dataset(
        "pfp/folding-3d", tmp_path / "ok", n=3, seed=1, modalities=("image",), knobs={"subtasks": ["hard"]}
    )
    assert manifest["complete"] and manifest["items_written"] == 3
    items = read_items(tmp_path / "ok")
    assert all((tmp_path / "ok" / item.inputs["images"]["composite"]).is_file() for item in items)
    assert {item.metadata["subtask"] for item in items} == {"hard"}

    with pytest.raises(PfpKnobError):
        write_dataset(
            "pfp/single-step",
            tmp_path / "bad",
            n=3,
            seed=1,
            modalities=("image",),
            knobs={"subtasks": ["3-fold"], "shapes": ["house"], "cutouts": [4]},
        )
    manifest_path = tmp_path / "bad" / "manifest.json"
    assert not manifest_path.exists() or json.loads(manifest_path.read_text())["complete"] is False


def test_gallery_frames_the_answer_and_the_wrong_choice() -> None:
    task = FoldingTask()
    item = next(iter(task.generate(1, 4)))
    wrong = next(letter for letter in LETTERS if letter != item.target["answer"])
    [(caption, png)] = task.gallery(item, {"answer": wrong})
    assert caption == f"answer {item.target['answer']}, model chose {wrong}" and png[:4] == b"\x89PNG"
    [(caption, _)] = task.gallery(item, None)
    assert caption.endswith("no readable choice")


@pytest.mark.parametrize("task_type", TASKS)
def test_panels_can_be_left_out(task_type: type) -> None:
    task = task_type()
    item = next(iter(task.generate(1, 0, knobs={"panels": False})))
    assert [path for path, _ in task.assets(item)] == [item.inputs["images"]["composite"]]
    with pytest.raises(PfpKnobError, match="panels"):
        task.generate(1, 0, knobs={"panels": "no"})


def test_ranges_of_items_match_the_whole_dataset() -> None:
    task = FoldingTask()
    whole = list(task.generate(6, 3))
    assert list(task.generate(6, 3, start=4)) == whole[4:]
    with pytest.raises(PfpKnobError, match="start"):
        task.generate(3, 0, start=4)


@pytest.mark.parametrize("split", ["train", "validation", "test"])
def test_a_requested_split_gives_exactly_that_split(split: str) -> None:
    task = InverseTask()
    items = list(task.generate(6, 5, knobs={"split": split}))
    assert [item.metadata["split"] for item in items] == [split] * 6
    assert all(split_of(item.seed) == split for item in items)
    for item in items:
        _check(task, item)


def test_datasets_of_different_splits_share_no_item_seed() -> None:
    seeds = {
        split: {item.seed for item in SingleStepTask().generate(8, 1, knobs={"split": split})}
        for split in ("train", "test")
    }
    assert not seeds["train"] & seeds["test"]


def test_an_unknown_split_is_refused() -> None:
    with pytest.raises(PfpKnobError, match="split"):
        list(SingleStepTask().generate(1, 0, knobs={"split": "dev"}))


def test_each_task_keeps_its_own_memo_and_a_shared_one_gives_the_same_items() -> None:
    from foldbench.pfp.memo import FoldMemo

    first, second = SingleStepTask(), SingleStepTask()
    assert first.memo is not second.memo
    shared = FoldMemo(size=8)
    plain = list(SingleStepTask().generate(4, 9))
    with_small_memo = list(SingleStepTask(memo=shared).generate(4, 9))
    assert plain == with_small_memo and 0 < len(shared) <= 8
