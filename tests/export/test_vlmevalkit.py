"""``foldbench export --format vlmevalkit``: one TSV per multiple-choice task, as VLMEvalKit reads it."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from foldbench.export import ExportError
from foldbench.export.choices import choice_field
from foldbench.export.vlmevalkit import export_vlmevalkit, tsv_name
from foldbench.messages import ImagePart
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from tests.export.conftest import run_cli
from tests.support.vlmevalkit_rules import read_letter, vlmevalkit_prompt


def _multiple_choice(every_task_dataset: dict[str, Path]) -> dict[str, Path]:
    return {
        task_id: directory
        for task_id, directory in every_task_dataset.items()
        if choice_field(make(task_id), read_items(directory)[0]) is not None
    }


def test_every_multiple_choice_task_gets_a_tsv(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    import pandas as pd  # imported by a test that reads a table, not at collection
    chosen = _multiple_choice(every_task_dataset)
    assert chosen, "no multiple-choice task is registered"
    written = export_vlmevalkit(list(every_task_dataset.values()), tmp_path / "vlm")
    assert sorted(name for name, _ in written) == sorted(tsv_name(t) for t in chosen)
    for task_id, directory in chosen.items():
        task = make(task_id)
        table = pd.read_csv(tmp_path / "vlm" / f"{tsv_name(task_id)}.tsv", sep="\t", keep_default_na=False)
        field, letters = choice_field(task, read_items(directory)[0])  # type: ignore[misc]
        assert list(table.columns) == ["index", "image", "image_path", "question", *letters, "answer", "category"]
        items = read_items(directory)
        assert table["index"].tolist() == list(range(len(items)))
        for (_, row), item in zip(table.iterrows(), items, strict=True):
            assert row["answer"] == getattr(task.oracle(item), field) and row["answer"] in letters
            prompt = task.render(item, "image")
            pictures = [p.path for p in prompt.parts if isinstance(p, ImagePart)]
            encoded = [row["image"]] if len(pictures) == 1 else json.loads(row["image"])
            assert [base64.b64decode(e) for e in encoded] == [(directory / p).read_bytes() for p in pictures]
            # VLMEvalKit saves a list of pictures under a list of names as long as it (one name for one picture)
            names = [row["image_path"]] if len(pictures) == 1 else json.loads(row["image_path"])
            assert len(names) == len(encoded) == len(set(names)) and all(n.endswith(".png") for n in names)
            assert row["category"].startswith(task_id)
    readme = (tmp_path / "vlm" / "README.md").read_text()
    assert "run.py --data" in readme and "$LMUData" in readme


def test_a_perfect_model_scores_100_percent_with_vlmevalkits_exact_rules(
    every_task_dataset: dict[str, Path], tmp_path: Path
) -> None:
    """Each row's prompt built as VLMEvalKit builds it asks for a bare letter; the right letter alone (as a model
    following the question replies) is read as right on every row of every task, and the JSON reply foldbench's
    own prompts ask for would be read on none."""
    import pandas as pd  # imported by a test that reads a table, not at collection
    chosen = _multiple_choice(every_task_dataset)
    export_vlmevalkit(list(chosen.values()), tmp_path / "vlm")
    rows = 0
    for task_id in chosen:
        table = pd.read_csv(tmp_path / "vlm" / f"{tsv_name(task_id)}.tsv", sep="\t", keep_default_na=False, dtype=str)
        letters = [c for c in table.columns if len(c) == 1 and c.isupper()]
        for _, row in table.iterrows():
            options = {letter: row[letter] for letter in letters}
            prompt = vlmevalkit_prompt(row["question"], options)
            assert "JSON" not in prompt and "letter of the right option alone" in prompt
            assert read_letter(row["answer"], options) == row["answer"]
            assert read_letter(f"{row['answer']}.", options) == row["answer"]
            assert read_letter(json.dumps({"answer": row["answer"]}), options) is None
            rows += 1
    assert rows == 3 * len(chosen)


def test_options_that_are_words_or_values_are_written_out(every_task_dataset: dict[str, Path], tmp_path: Path):
    import pandas as pd  # imported by a test that reads a table, not at collection

    from foldbench.export.vlmevalkit import option_texts

    chosen = _multiple_choice(every_task_dataset)
    export_vlmevalkit(list(chosen.values()), tmp_path / "vlm")
    worded = 0
    for task_id, directory in chosen.items():
        table = pd.read_csv(tmp_path / "vlm" / f"{tsv_name(task_id)}.tsv", sep="\t", keep_default_na=False, dtype=str)
        for (_, row), item in zip(table.iterrows(), read_items(directory), strict=True):
            options = item.inputs.get("options")
            if isinstance(options, list) and all(isinstance(o, str) for o in options):
                assert [row[x] for x in "ABCD"] == [" ".join(o.split()) for o in options]
                worded += 1
            else:
                assert row["A"] == "the option marked A in the picture"
    assert worded > 0
    item = read_items(next(iter(chosen.values())))[0]
    words = item.model_copy(update={"inputs": {**item.inputs, "options": ["top", "bottom", 3, 4.5]}})
    assert option_texts(words, "ABCD") == ["top", "bottom", "3", "4.5"]


def test_no_multiple_choice_task_is_one_line(
    every_task_dataset: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chosen = _multiple_choice(every_task_dataset)
    open_tasks = [d for t, d in every_task_dataset.items() if t not in chosen]
    with pytest.raises(ExportError, match="multiple-choice"):
        export_vlmevalkit(open_tasks, tmp_path / "none")
    assert run_cli("export", str(open_tasks[0]), "--format", "vlmevalkit", "--out", str(tmp_path / "none")) == 1
    assert "nothing to write" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
