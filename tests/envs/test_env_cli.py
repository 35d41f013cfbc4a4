"""``foldbench env run`` as a user runs it, and targets read from pattern files."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from foldbench.crease.errors import CreasePatternError
from foldbench.origami.targets import InvalidTargetError, target_from_file
from tests.support.cli import run_in_process


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``foldbench ARGS`` in this process (the entry point's own start-up is tested in ``tests/test_cli.py``)."""
    return run_in_process(*args)


def _fold_file(path: Path, coords: list, edges: list, assignments: str) -> Path:
    path.write_text(json.dumps({"vertices_coords": coords, "edges_vertices": edges,
                                "edges_assignment": list(assignments)}))
    return path


def _diagonal(path: Path, letter: str = "V") -> Path:
    square = [[0, 0], [4, 0], [4, 4], [0, 4]]
    return _fold_file(path, square, [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]], "BBBB" + letter)


def test_oracle_and_random_episodes_print_their_metrics(tmp_path: Path) -> None:
    result = run("env", "run", "--policy", "oracle", "--episodes", "2", "--folds", "3", "--seed", "5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all("GS 1.000" in line and "QE 1.000" in line for line in lines)
    result = run("env", "run", "--episodes", "2", "--budget", "4", "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert all(re.search(r"in 4 steps \(\d kept\)", line) for line in result.stdout.splitlines())
    written = target_from_file(tmp_path / "out" / "episode-000.fold")  # the final state reads back as a target
    assert written.pattern.face_count >= 1


def test_a_pattern_file_is_a_target_without_steps(tmp_path: Path) -> None:
    target = target_from_file(_diagonal(tmp_path / "diagonal.fold"))
    assert target.actions is None and target.tier == "Easy" and target.pattern.face_count == 2
    result = run("env", "run", "--target", str(tmp_path / "diagonal.fold"), "--budget", "3")
    assert result.returncode == 0 and "in 3 steps" in result.stdout
    result = run("env", "run", "--target", str(tmp_path / "diagonal.fold"), "--policy", "oracle")
    assert result.returncode == 2 and result.stderr.startswith("error:") and "fold steps" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_targets_are_one_line_errors(tmp_path: Path) -> None:
    rectangle = _fold_file(tmp_path / "rectangle.fold", [[0, 0], [2, 0], [2, 1], [0, 1]],
                           [[0, 1], [1, 2], [2, 3], [3, 0]], "BBBB")
    with pytest.raises(InvalidTargetError, match="not a square"):
        target_from_file(rectangle)
    dangling = _fold_file(tmp_path / "dangling.fold", [[0, 0], [4, 0], [4, 4], [0, 4], [2, 2]],
                          [[0, 1], [1, 2], [2, 3], [3, 0], [0, 4]], "BBBBV")
    with pytest.raises(CreasePatternError):
        target_from_file(dangling)
    for path in (rectangle, dangling, tmp_path / "missing.fold"):
        result = run("env", "run", "--target", str(path))
        assert result.returncode == 1 and result.stderr.startswith("error:") and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    result = run("env", "run", "--policy", "best")
    assert result.returncode == 2 and "random or oracle" in result.stderr


def test_a_collection_file_shows_its_table3_tier_and_category() -> None:
    from foldbench.crease.io.collection import paper_models

    entry = next(e for e in paper_models().entries if e.file == "244_komatsuoripa_Smallbird_Base.fold")
    assert (entry.table_tier, entry.category) == ("Easy", "animals-bird")  # Table 3's row for this model
    result = run("env", "run", "--target", str(entry.path), "--episodes", "1", "--budget", "1")
    assert result.returncode == 0, result.stderr
    assert "244_komatsuoripa_Smallbird_Base (Easy, animals-bird)" in result.stdout
    assert "uncategorised" not in result.stdout


def test_a_file_outside_the_collection_stays_uncategorised(tmp_path: Path) -> None:
    result = run("env", "run", "--target", str(_diagonal(tmp_path / "diagonal.fold")), "--episodes", "1",
                 "--budget", "1")
    assert result.returncode == 0, result.stderr
    assert "diagonal (Easy, uncategorised)" in result.stdout
