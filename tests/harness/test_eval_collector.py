"""``foldbench eval`` pauses the cyclic garbage collector while it loads and, once the run starts, sets what it
loaded aside from later collections; the collector is left as it was found, in the same process too."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from foldbench.cli import evaluate
from foldbench.harness import evaluation
from tests.support.cli import run_in_process


def test_the_collector_is_paused_until_the_run_starts_and_restored_after() -> None:
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with evaluate._no_collection_while_loading() as run_starts:
        assert not gc.isenabled()
        cycle: list[object] = []
        cycle.append(cycle)
        run_starts()
        assert gc.isenabled() and gc.get_freeze_count() > 0  # what was loaded is set aside
        run_starts()  # a second run of the same command changes nothing more
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_disabled_by_the_caller_stays_disabled() -> None:
    gc.disable()
    try:
        with evaluate._no_collection_while_loading() as run_starts:
            run_starts()
            assert not gc.isenabled()
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_a_failure_while_loading_restores_the_collector() -> None:
    with pytest.raises(RuntimeError), evaluate._no_collection_while_loading():
        raise RuntimeError("the dataset cannot be read")
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_an_eval_runs_its_requests_with_the_loaded_objects_frozen(
    tmp_path: Path, prediction_dataset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool, int]] = []
    evaluate_run = evaluation.evaluate

    async def watched(**kwargs: object) -> object:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return await evaluate_run(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluation, "evaluate", watched)
    result = run_in_process(
        "eval", "--task", "mentalblackboard/prediction", "--data", str(prediction_dataset), "--model", "random",
        "--modality", "text", "--limit", "3", "--db", str(tmp_path / "runs.db"),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(seen) == 1 and seen[0][0] and seen[0][1] > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0
