"""``foldbench export --format vlmevalkit``: one TSV per multiple-choice task, as VLMEvalKit reads it."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pandas as pd
import pytest

from foldbench.export import ExportError
from foldbench.export.choices import choice_field
from foldbench.export.vlmevalkit import export_vlmevalkit, tsv_name
from foldbench.messages import ImagePart
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from tests.export.conftest import run_cli


def _multiple_choice(every_task_dataset: dict[str, Path]) -> dict[str, Path]:
    return {
        task_id: directory
        for task_id, directory in every_task_dataset.items()
        if choice_field(make(task_id), read_items(directory)[0]) is not None
    }


def test_every_multiple_choice_task_gets_a_tsv(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    chosen = _multiple_choice(every_task_dataset)
    assert chosen, "no multiple-choice task is registered"
    written = export_vlmevalkit(list(every_task_dataset.values()), tmp_path / "vlm")
    assert sorted(name for name, _ in written) == sorted(tsv_name(t) for t in chosen)
    for task_id, directory in chosen.items():
        task = make(task_id)
        table = pd.read_csv(tmp_path / "vlm" / f"{tsv_name(task_id)}.tsv", sep="\t", keep_default_na=False)
        field, letters = choice_field(task, read_items(directory)[0])  # type: ignore[misc]
        assert list(table.columns) == ["index", "image", "question", *letters, "answer", "category"]
        items = read_items(directory)
        assert table["index"].tolist() == list(range(len(items)))
        for (_, row), item in zip(table.iterrows(), items, strict=True):
            assert row["answer"] == getattr(task.oracle(item), field) and row["answer"] in letters
            prompt = task.render(item, "image")
            pictures = [p.path for p in prompt.parts if isinstance(p, ImagePart)]
            encoded = [row["image"]] if len(pictures) == 1 else json.loads(row["image"])
            assert [base64.b64decode(e) for e in encoded] == [(directory / p).read_bytes() for p in pictures]
            assert row["category"].startswith(task_id)
    readme = (tmp_path / "vlm" / "README.md").read_text()
    assert "run.py --data" in readme and "$LMUData" in readme


def test_no_multiple_choice_task_is_one_line(
    every_task_dataset: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_tasks = [d for t, d in every_task_dataset.items() if t not in _multiple_choice(every_task_dataset)]
    with pytest.raises(ExportError, match="multiple-choice"):
        export_vlmevalkit(open_tasks, tmp_path / "none")
    assert run_cli("export", str(open_tasks[0]), "--format", "vlmevalkit", "--out", str(tmp_path / "none")) == 2
    assert "nothing to write" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
