"""The ``paper`` preset composes each PFP type as the papers' test split (600 items in their tables' subtask counts)."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from foldbench.pfp.errors import PfpKnobError
from foldbench.tasks.pfp import (
    FinalFoldTask,
    FoldingTask,
    InverseTask,
    MissingStepTask,
    SingleStepTask,
    UnfoldingTask,
    split_of,
)
from foldbench.tasks.pfp.common import paper_schedule
from tests.support.cli import run_in_process

# Read off the papers' Tables 1 and 2: each accuracy is a whole number of items over these counts, e.g. 1-fold 40.98 %
# = 50 / 122 and others 28.21 % = 22 / 78; multi-step gives 24.17 % = 29 / 120 per base shape.
PAPER_TEST_SPLIT = {
    SingleStepTask: {"1-fold": 122, "2-fold": 200, "3-fold": 200, "others": 78},
    MissingStepTask: {"3-fold": 600},
    InverseTask: {"1-fold": 200, "2-fold": 200, "others": 200},
    FoldingTask: {"easy": 300, "hard": 300},
    UnfoldingTask: {"easy": 300, "hard": 300},
}


@pytest.mark.parametrize("task_type", list(PAPER_TEST_SPLIT), ids=lambda t: t.name)
def test_600_items_have_the_paper_s_subtask_counts(task_type: type) -> None:
    task = task_type()
    config = task.validate_knobs({"preset": "paper"})
    assert config["split"] == "test"
    assert Counter(task.subtask_of(i, config) for i in range(600)) == PAPER_TEST_SPLIT[task_type]
    # any first n items keep the proportions to within one item of each subtask
    for n in (50, 300):
        counts = Counter(task.subtask_of(i, config) for i in range(n))
        for subtask, count in PAPER_TEST_SPLIT[task_type].items():
            assert abs(counts[subtask] - count * n / 600) <= 1, (n, subtask)


def test_multi_step_is_balanced_over_the_five_base_shapes() -> None:
    task = MissingStepTask()
    config = task.validate_knobs({"preset": "paper"})
    shapes = Counter(task._item_config(i, config)["shapes"] for i in range(600))
    assert shapes == {(shape,): 120 for shape in ("circle", "hexagon", "house", "rectangle", "square")}
    plain = task.validate_knobs({})
    assert task._item_config(3, plain)["shapes"] == plain["shapes"]  # without the preset every item draws from all


def test_generated_preset_items_follow_the_schedule_on_the_test_split() -> None:
    task = MissingStepTask()
    config = task.validate_knobs({"preset": "paper"})
    items = list(task.generate(10, 8, knobs={"preset": "paper"}))
    assert [item.metadata["sheet"] for item in items] == [task._item_config(i, config)["shapes"][0] for i in range(10)]
    assert len({item.metadata["sheet"] for item in items}) == 5
    assert all(item.metadata["split"] == "test" == split_of(item.seed) for item in items)
    single = SingleStepTask()
    single_items = list(single.generate(8, 8, knobs={"preset": "paper"}))
    expected = [single.subtask_of(i, single.validate_knobs({"preset": "paper"})) for i in range(8)]
    assert [item.metadata["subtask"] for item in single_items] == expected
    assert set(expected) == {"1-fold", "2-fold", "3-fold", "others"}


def test_the_preset_is_refused_with_subtasks_and_for_the_final_fold_task() -> None:
    with pytest.raises(PfpKnobError, match="fixes the subtasks"):
        SingleStepTask().generate(1, 0, knobs={"preset": "paper", "subtasks": "1-fold"})
    with pytest.raises(PfpKnobError, match="no 'paper' preset"):
        FinalFoldTask().generate(1, 0, knobs={"preset": "paper"})
    with pytest.raises(PfpKnobError, match="preset"):
        SingleStepTask().generate(1, 0, knobs={"preset": "papers"})


def test_another_split_may_be_asked_for_and_the_manifest_states_the_composition() -> None:
    task = InverseTask()
    assert task.validate_knobs({"preset": "paper", "split": "validation"})["split"] == "validation"
    notes = task.manifest_notes({"preset": "paper"})
    assert notes["split"] == "test"
    per_block = {"1-fold": 200, "2-fold": 200, "others": 200}
    assert notes["composition"] == {"preset": "paper", "per_block_of_600": per_block}


def test_the_schedule_interleaves_counts_evenly() -> None:
    assert paper_schedule({"a": 1, "b": 3}) == ("b", "a", "b", "b")
    assert paper_schedule({"a": 2}) == ("a", "a")


def test_the_command_line_writes_the_preset_s_composition_and_refuses_it_in_one_line(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_in_process(*args)  # the entry point's own start-up is tested in tests/test_cli.py

    out = tmp_path / "ms"
    done = run("generate", "pfp", "--task", "multi-step", "-n", "5", "--seed", "2", "-k", "preset=paper", "--out",
               str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["split"] == "test" and manifest["composition"]["per_block_of_600"] == {"3-fold": 600}
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert [item["metadata"]["sheet"] for item in items] == ["circle", "house", "rectangle", "square", "hexagon"]
    refused = run("generate", "pfp", "--task", "final-fold", "-n", "1", "-k", "preset=paper", "--out",
                  str(tmp_path / "ff"))  # fmt: skip
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().count("\n") == 0 and "no 'paper' preset" in refused.stderr
