from __future__ import annotations

import json
from pathlib import Path

import pytest

from foldbench.cli._fold_report import fold_command

from .crease.builders import fold_document, map_pattern, square_with


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    (tmp_path / "a_good.fold").write_text(json.dumps(fold_document(map_pattern(1, 3))))
    (tmp_path / "b_bad.fold").write_text('{"vertices_coords": [[0, 0]], "edges_vertices": [[0, 3]]}')
    (tmp_path / "c_broken.fold").write_text("{not json")
    (tmp_path / "d_maekawa.fold").write_text(json.dumps(fold_document(
        square_with([((0.5, 0), (0.5, 1), "V"), ((0, 0.5), (1, 0.5), "V")]))))
    return tmp_path


def test_json_summary_has_the_required_keys(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold_command(folder / "a_good.fold", json_output=True) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("vertices", "edges", "faces", "variables", "components", "states", "constraints", "error"):
        assert key in report
    assert report["states"] == 6 and report["error"] is None
    assert set(report["constraints"]) == {"taco-taco", "taco-tortilla", "tortilla-tortilla", "transitivity",
                                          "transitivity_kept"}
    assert report["constraints"]["transitivity"] >= report["constraints"]["transitivity_kept"]


def test_errors_are_one_line_without_traceback(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold_command(folder / "b_bad.fold") == 1
    output = capsys.readouterr()
    assert "Traceback" not in output.out + output.err
    assert output.out.count("\n") == 1
    assert "CSE" in output.out and "edges_vertices" in output.out


def test_folder_batch_reports_every_file(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold_command(folder, json_output=True) == 1
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(r["file"]).name for r in reports] == ["a_good.fold", "b_bad.fold", "c_broken.fold", "d_maekawa.fold"]
    assert [r["error"]["class"] if r["error"] else None for r in reports] == [None, "CSE", "CSE", "GIF"]
    assert reports[3]["error"]["where"]["vertex"] >= 0


def test_outputs_are_written(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert fold_command(folder / "a_good.fold", state=5, out=out, svg=True, png=True, size=64) == 0
    names = sorted(p.name for p in out.iterdir())
    assert "a_good.state5.fold" in names and "a_good.state5.back.png" in names and "a_good.cp.svg" in names
    frame = json.loads((out / "a_good.state5.fold").read_text())["file_frames"][0]
    assert frame["frame_classes"] == ["foldedForm"] and len(frame["faceOrders"]) == 3
    assert fold_command(folder / "a_good.fold", state=6) == 1  # only 6 states
    assert fold_command(folder / "missing.fold") == 2
    assert fold_command(folder / "a_good.fold", limit=0) == 2
    capsys.readouterr()


def test_unique_request_turns_ambiguity_into_an_error(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fold_command(folder / "a_good.fold", json_output=True, require_unique=True) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["error"]["class"] == "AFS" and report["error"]["where"]["states"] == 6


def test_the_foldbench_fold_command_as_a_user_runs_it(folder: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "foldbench", "fold", *args], capture_output=True, text=True,
                              timeout=300)  # fmt: skip

    good = run(str(folder / "a_good.fold"), "--json")
    assert good.returncode == 0, good.stderr
    report = json.loads(good.stdout)
    assert report["states"] == 6 and report["error"] is None
    for name in ("b_bad.fold", "c_broken.fold"):
        bad = run(str(folder / name))
        assert bad.returncode == 1 and "Traceback" not in bad.stdout + bad.stderr
    batch = run(str(folder))
    assert batch.returncode == 1
    assert all(name in batch.stdout for name in ("a_good", "b_bad", "c_broken", "d_maekawa"))


@pytest.mark.parametrize("timeout", ["inf", "1e300", "0"])
def test_a_timeout_beyond_any_clock_means_no_budget(timeout: str, folder: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from foldbench.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["fold", str(folder / "a_good.fold"), "--timeout", timeout, "--json"])
    captured = capsys.readouterr()
    assert stop.value.code == 0, captured.err
    assert json.loads(captured.out)["states"] == 6


def test_a_non_planar_fold_file_is_rejected_unless_repaired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crossing.fold"
    path.write_text(json.dumps({
        "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]],
        "edges_assignment": ["B", "B", "B", "B", "V", "V"],
    }))
    assert fold_command(path) == 1
    assert "E_CP_NOT_PLANAR" in capsys.readouterr().out
    fold_command(path, repair=True, json_output=True)
    report = json.loads(capsys.readouterr().out)
    assert report["error"]["code"] == "E_GEOM_MAEKAWA"  # repaired, then judged: four creases meet, all valleys


def test_empty_and_huge_files_are_one_line_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from foldbench.crease.io import fold_format
    (tmp_path / "empty.fold").write_text("")
    (tmp_path / "huge.fold").write_text(json.dumps(fold_document(map_pattern(4, 4))))
    monkeypatch.setattr(fold_format, "MAX_FILE_BYTES", 500)
    assert fold_command(tmp_path, json_output=True) == 1
    reports = {Path(r["file"]).name: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert reports["empty.fold"]["error"]["class"] == "CSE"
    assert reports["huge.fold"]["error"]["code"] == "E_CP_FILE_TOO_LARGE"


def test_a_search_stopped_by_the_time_budget_says_at_least(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from foldbench.crease import compiler

    path = tmp_path / "map.fold"
    path.write_text(json.dumps(fold_document(map_pattern(3, 3))))  # 1,368 states: more than one budget round
    with monkeypatch.context() as patched:  # the budget ends just as the count starts
        patched.setattr(compiler, "_counting_timeout", lambda timeout: 1e-9)
        assert fold_command(path, json_output=True, timeout=60) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["stopped"] is True and report["stage"] == "counting" and 1 <= report["states"] < 1368
        assert fold_command(path, timeout=60) == 0
    assert "at least" in capsys.readouterr().out
    assert fold_command(path, json_output=True) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stopped"] is False and report["stage"] is None and report["states"] == 1368


def test_a_noisy_drawing_states_its_precision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "noisy.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="100" height="100" '
                    'stroke="black"/><line x1="50.00004" y1="0" x2="49.99998" y2="100" stroke="red"/>'
                    '<line x1="0" y1="50" x2="50" y2="50.00002" stroke="#f00"/>'
                    '<line x1="50" y1="50.00002" x2="100" y2="50.00003" stroke="blue"/></svg>')
    fold_command(path)
    line = capsys.readouterr().out
    assert "input precision" in line and "snapped at" in line


def test_a_twist_tessellation_exported_with_three_decimals_is_a_one_line_precision_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import math

    import numpy as np

    from .crease.tessellations import cp_text, oripa_coordinates, shrink_rotate

    segments, letters = shrink_rotate("square", 6, math.radians(30), 0.5)
    placed = oripa_coordinates(segments)
    (tmp_path / "exact.cp").write_text(cp_text(placed, letters))
    (tmp_path / "rounded.cp").write_text(cp_text(np.round(placed / 400, 3) * 400, letters))
    assert fold_command(tmp_path / "exact.cp", json_output=True) == 0  # the CLI's default time budget
    report = json.loads(capsys.readouterr().out)
    assert report["states"] == 1 and report["stopped"] is False
    assert fold_command(tmp_path / "rounded.cp") == 1
    output = capsys.readouterr()
    assert output.out.count("\n") == 1 and "E_PRECISION_" in output.out and "Traceback" not in output.err


def test_a_regularised_pattern_says_so_on_its_summary_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rounded to 1e-4 of the paper, the square twist tessellation is counted on its Kawasaki-exact neighbour;
    the line and the JSON say how far its vertices moved."""
    import math

    import numpy as np

    from .crease.tessellations import cp_text, shrink_rotate

    segments, letters = shrink_rotate("square", 6, math.radians(30), 0.5)
    size = float(np.ptp(segments.reshape(-1, 2), axis=0).max())
    unit = (segments - segments.reshape(-1, 2).min(axis=0)) / size
    (tmp_path / "rounded.cp").write_text(cp_text(np.round(unit, 4) * 100, letters))
    assert fold_command(tmp_path / "rounded.cp") == 0
    line = capsys.readouterr().out
    assert "states 1" in line and "regularised: vertices moved by up to" in line
    assert fold_command(tmp_path / "rounded.cp", json_output=True) == 0
    report = json.loads(capsys.readouterr().out)
    assert 0 < report["regularized_moved"] <= report["snap_tolerance"]
