"""``foldbench fold --timeout`` bounds every stage, names the stage it stopped in and what it knew by then."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from foldbench.cli._fold_report import fold_command
from foldbench.crease import budget, compiler
from foldbench.crease.graph import pattern
from foldbench.crease.summary import compile_with_summary

from .builders import fold_document, map_pattern

STALL_SECONDS = 120.0  # far past every budget below; a stage not cut off ends its stall and is seen finished
# Every stalled test waits out its whole budget, so the budget is short: the stages before the slowed one take
# under 0.1 s for these two-by-two patterns (tens of milliseconds once warm, see ``_warm``), fifteen times less,
# which leaves room for a loaded machine.
BUDGET = 1.5


class _Stalled:
    """A stage function that first waits on an event nobody sets; ``finished`` tells whether it ever ran on."""

    def __init__(self, function: Any) -> None:
        self.function = function
        self.finished = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        threading.Event().wait(STALL_SECONDS)  # the budget's timer interrupts this wait
        self.finished = True
        return self.function(*args, **kwargs)


CROSS_SVG = ('<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="10" height="10" '
             'stroke="black"/><line x1="5" y1="0" x2="5" y2="10" stroke="red"/></svg>')


@pytest.fixture(scope="module", autouse=True)
def _warm(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Fold both inputs once without a budget, so that first-call imports and kernel loading are not counted
    against the short budget of the stalled runs."""
    folder = tmp_path_factory.mktemp("warm")
    (folder / "cross.svg").write_text(CROSS_SVG)
    for path in (_map_file(folder), folder / "cross.svg"):
        compile_with_summary(path, budget=600)


def _map_file(tmp_path: Path) -> Path:
    path = tmp_path / "map.fold"
    path.write_text(json.dumps(fold_document(map_pattern(2, 2))))
    return path


def _run(path: Path, capsys: pytest.CaptureFixture[str], timeout: float) -> tuple[int, dict[str, Any]]:
    code = fold_command(path, json_output=True, timeout=timeout)
    return code, json.loads(capsys.readouterr().out)


def test_a_slow_overlay_stops_at_the_budget_naming_the_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stalled = _Stalled(compiler.build_overlay)
    monkeypatch.setattr(compiler, "build_overlay", stalled)
    code, report = _run(_map_file(tmp_path), capsys, timeout=BUDGET)
    assert not stalled.finished  # cut off, not waited for
    assert code == 1 and report["stopped"] is True and report["stage"] == "overlay"
    assert report["error"]["code"] == "E_TIME_BUDGET" and report["error"]["where"]["stage"] == "overlay"
    # what was known: the planarised pattern's size, and the stages already passed
    assert report["faces"] == 4 and report["known"]["faces"] == 4 and report["states"] is None
    assert {"planarising", "folding"} <= set(report["known"]["stage_seconds"])


def test_a_slow_planarisation_of_a_drawing_stops_at_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stalled = _Stalled(pattern.planarize_segments)
    monkeypatch.setattr(pattern, "planarize_segments", stalled)
    path = tmp_path / "cross.svg"
    path.write_text(CROSS_SVG)
    code, report = _run(path, capsys, timeout=BUDGET)
    assert not stalled.finished
    assert code == 1 and report["stage"] == "planarising" and report["faces"] is None
    assert fold_command(path, timeout=BUDGET) == 1
    assert f"stopped: the time budget of {BUDGET:g} s ended while planarising" in capsys.readouterr().out


def test_a_slow_gap_judge_stops_at_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stalled = _Stalled(compiler.noise_judge)
    monkeypatch.setattr(compiler, "noise_judge", stalled)
    code, report = _run(_map_file(tmp_path), capsys, timeout=BUDGET)
    assert code == 1 and report["stage"] == "gap judging" and not stalled.finished


def test_a_count_that_does_not_stop_itself_is_cut_off_after_its_grace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from foldbench.crease.layers import solver
    stalled = _Stalled(solver.LayerSolver._count_within)
    monkeypatch.setattr(solver.LayerSolver, "_count_within", lambda *args, **kwargs: stalled(*args, **kwargs))
    monkeypatch.setattr(budget, "COUNTING_GRACE_MIN", 0.2)
    code, report = _run(_map_file(tmp_path), capsys, timeout=BUDGET)
    assert not stalled.finished
    assert code == 1 and report["stage"] == "counting" and report["known"]["variables"] > 0


def test_without_a_slow_stage_the_budget_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _run(_map_file(tmp_path), capsys, timeout=600)  # compiling the kernels cold counts too
    assert code == 0 and report["stopped"] is False and report["stage"] is None and report["states"] == 8  # 8 foldings


def test_each_stage_is_announced_in_pipeline_order(tmp_path: Path) -> None:
    seen: list[str] = []
    summary, _ = compile_with_summary(_map_file(tmp_path), budget=600, on_stage=seen.append)
    assert summary["states"] == 8
    assert seen[:3] == ["reading", "planarising", "folding"]
    assert seen.index("gap judging") < seen.index("overlay") < seen.index("counting")


def test_a_stage_entered_after_the_budget_stops_even_without_a_timer() -> None:
    # off the main thread no timer can interrupt: the next stage boundary stops the run
    caught: list[BaseException] = []

    def run() -> None:
        try:
            with budget.time_budget(0.01) as active:
                assert active is not None and not active.timer
                budget.note(faces=3)
                time.sleep(0.05)
                budget.enter_stage("overlay")
        except budget.BudgetExceeded as error:
            caught.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert len(caught) == 1
    error = caught[0]
    assert isinstance(error, budget.BudgetExceeded) and error.stage == "overlay" and error.known["faces"] == 3


def test_no_budget_no_timer_and_stages_are_silent() -> None:
    budget.enter_stage("overlay")  # nothing active: no effect
    assert budget.remaining_seconds() is None
    with budget.time_budget(None) as active:
        assert active is None
