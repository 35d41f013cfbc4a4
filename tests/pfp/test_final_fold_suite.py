"""final-fold fails the multiple-choice audit, so the default suite leaves it out; it still runs when named."""

from __future__ import annotations

import pytest

from foldbench.cli import main
from foldbench.harness.suite import plan_suite
from foldbench.tasks import make, task_ids
from foldbench.tasks.base import in_default_suite
from foldbench.tasks.pfp.fold_tasks import FinalFoldTask


def test_the_default_suite_leaves_final_fold_out_and_keeps_the_other_pfp_tasks() -> None:
    planned = {part.task_id for part in plan_suite(5, with_video=False)}
    assert FinalFoldTask.id in task_ids()
    assert FinalFoldTask.id not in planned
    assert {"pfp/multi-step-v6", "pfp/missing-step-strict-v1", "pfp/single-step-v2"} <= planned
    assert planned == {t for t in task_ids() if t != FinalFoldTask.id}  # only final-fold is left out


@pytest.mark.parametrize("name", ["pfp/final-fold", FinalFoldTask.id])
def test_final_fold_is_planned_when_asked_for_by_name(name: str) -> None:
    parts = plan_suite(5, tasks=[name], with_video=False)
    assert [part.task_id for part in parts] == [FinalFoldTask.id]
    assert parts[0].n == 5


def test_a_task_without_the_attribute_is_in_the_default_suite() -> None:
    class Plain:
        id = "family/plain-v1"

    assert in_default_suite(Plain()) and in_default_suite(make("pfp/single-step"))
    assert not in_default_suite(FinalFoldTask()) and not in_default_suite(FinalFoldTask)


def test_tasks_lists_final_fold_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks"])
    assert exit_info.value.code in (0, None)
    lines = capsys.readouterr().out.splitlines()
    noted = [line for line in lines if "not in the default suite" in line]
    assert len(noted) == 1 and noted[0].startswith(FinalFoldTask.id + "  ")
    assert len(lines) == len(task_ids())
