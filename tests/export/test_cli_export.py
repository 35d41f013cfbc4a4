"""``foldbench export`` as a user runs it, including the inputs it refuses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.export.conftest import run_cli


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".part-" in p.name)


def test_export_writes_a_loadable_directory(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    assert run_cli("export", str(every_task_dataset["pfp/folding-3d-v2"]), "--out", str(tmp_path / "x")) == 0
    assert (tmp_path / "x" / "README.md").is_file()
    assert (tmp_path / "x" / "pfp_folding-3d-v2" / "test-00000-of-00001.parquet").is_file()


def test_bad_input_is_one_line_and_leaves_nothing(
    every_task_dataset: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = every_task_dataset["pfp/folding-3d-v2"]
    incomplete = tmp_path / "incomplete"
    shutil.copytree(source, incomplete)
    manifest = json.loads((incomplete / "manifest.json").read_text())
    (incomplete / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    truncated = tmp_path / "truncated"
    shutil.copytree(source, truncated)
    lines = (truncated / "items.jsonl").read_text().splitlines(keepends=True)
    (truncated / "items.jsonl").write_text("".join(lines[:-1]))
    existing = tmp_path / "existing"
    existing.mkdir()
    cases = {
        "incomplete": (["export", str(incomplete), "--out", str(tmp_path / "o1")], "incomplete"),
        "not a dataset": (["export", str(tmp_path), "--out", str(tmp_path / "o2")], "not a foldbench dataset"),
        "missing": (["export", str(tmp_path / "nope"), "--out", str(tmp_path / "o3")], "is not a directory"),
        "truncated": (["export", str(truncated), "--out", str(tmp_path / "o4")], "holds 2 items"),
        "format": (["export", str(source), "--out", str(tmp_path / "o5"), "--format", "csv"], "'csv' is not one of"),
        "exists": (["export", str(source), "--out", str(existing)], "already exists"),
        "split": (["export", str(source), "--out", str(tmp_path / "o6"), "--split", "a/b"], "--split"),
        "scheme": (["export", str(source), "--out", "nosuch://bucket/x"], "cannot open"),
    }
    usage = {"format"}  # a bad option value is a usage error (2); the rest is bad data or a path (1)
    for name, (args, message) in cases.items():
        assert run_cli(*args) == (2 if name in usage else 1), name
        err = capsys.readouterr().err
        assert message in err, (name, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (name, err)
    assert not any((tmp_path / f"o{i}").exists() for i in range(1, 7))
    assert _leftovers(tmp_path) == [] and list(existing.iterdir()) == []


def test_an_export_failing_midway_leaves_nothing(
    every_task_dataset: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from foldbench.export import hf
    from foldbench.export.hf import export_hf

    def broken(*_args: object, **_kwargs: object) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(hf, "json_text", broken)
    with pytest.raises(OSError, match="disk full"):
        export_hf([every_task_dataset["pfp/folding-3d-v2"]], tmp_path / "half")
    assert not (tmp_path / "half").exists() and _leftovers(tmp_path) == []
