"""``foldbench eval / report / compare / suite`` as a user runs them: ``suite`` in a real process, the others
through the same entry point in this one (``tests.support.cli``)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from foldbench.testing.fake_openai import always, status
from tests.support.cli import run_in_process


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "foldbench", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_baselines_report_and_compare(tmp_path: Path, prediction_dataset: Path) -> None:
    db = tmp_path / "runs.db"
    for model in ("oracle", "random"):
        result = run_in_process(
            "eval",
            "--task",
            "mentalblackboard/prediction",
            "--data",
            str(prediction_dataset),
            "--model",
            model,
            "--run",
            model,
            "--db",
            str(db),
            "--modality",
            "image",
        )
        assert result.returncode == 0, result.stderr
        assert "12/12 items scored" in result.stdout
    report = run_in_process("report", "random", "--db", str(db), "--out", str(tmp_path / "report"))
    assert report.returncode == 0, report.stderr
    markdown = (tmp_path / "report" / "report.md").read_text()
    html = (tmp_path / "report" / "report.html").read_text()
    assert "## By group" in markdown and "exact_match" in markdown
    assert html.count("data:image/png;base64,") >= 2  # the plot and gallery pictures are embedded
    assert "model&#39;s answer" in html or "model's answer" in html
    compared = run_in_process("compare", "oracle", "random", "--db", str(db))
    assert compared.returncode == 0
    exact = next(row for row in compared.stdout.splitlines() if "exact_match" in row)
    assert "100.0" in exact


def test_bad_input_is_one_line_and_loses_nothing(tmp_path: Path, prediction_dataset: Path, fake_openai_server) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "runs.db"
    ok = run_in_process(
        "eval",
        "--task",
        "mentalblackboard/prediction",
        "--data",
        str(prediction_dataset),
        "--model",
        "oracle",
        "--run",
        "keep",
        "--db",
        str(db),
    )
    assert ok.returncode == 0
    stale = tmp_path / "stale"
    stale.mkdir()
    (stale / "manifest.json").write_text((prediction_dataset / "manifest.json").read_text())
    (stale / "items.jsonl").write_text(
        "".join(
            line.replace('"engine_version":"pft-1"', '"engine_version":"pft-0"') + "\n"
            for line in (prediction_dataset / "items.jsonl").read_text().splitlines()
        )
    )
    wrong_key = fake_openai_server(always(status(401, message="bad key")))
    cases = [
        (
            ("--task", "mentalblackboard/predicton", "--data", str(prediction_dataset), "--model", "oracle"),
            "Did you mean",
        ),
        (
            ("--task", "mentalblackboard/prediction", "--data", str(tmp_path / "nope"), "--model", "oracle"),
            "not a foldbench dataset",
        ),
        (
            ("--task", "mentalblackboard/planning", "--data", str(prediction_dataset), "--model", "oracle"),
            "holds mentalblackboard/prediction-v1",
        ),
        (
            ("--task", "mentalblackboard/prediction", "--data", str(stale), "--model", "oracle"),
            "generate the dataset again",
        ),
        (
            ("--task", "mentalblackboard/prediction", "--data", str(prediction_dataset), "--model", "radnom"),
            "Did you mean: random",
        ),
        (
            (
                "--task",
                "mentalblackboard/prediction",
                "--data",
                str(prediction_dataset),
                "--model",
                "openai:x",
                "--base-url",
                f"http://127.0.0.1:{_free_port()}/v1",
                "--run",
                "unreachable",
            ),
            "127.0.0.1",
        ),
        (
            (
                "--task",
                "mentalblackboard/prediction",
                "--data",
                str(prediction_dataset),
                "--model",
                "openai:x",
                "--base-url",
                wrong_key.base_url,
                "--run",
                "badkey",
            ),
            "OPENAI_API_KEY",
        ),
        (
            ("--task", "mentalblackboard/prediction", "--data", str(prediction_dataset), "--model", "openai:gpt-4o"),
            "OPENAI_API_KEY",
        ),
    ]
    for args, message in cases:
        result = run_in_process("eval", *args, "--db", str(db), env={"OPENAI_API_KEY": ""})
        assert result.returncode != 0, args
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) <= 2, result.stderr
    again = run_in_process("compare", "keep", "--db", str(db))
    assert "100.0" in again.stdout  # the earlier run is still there
    missing = run_in_process("report", "nope", "--db", str(db))
    assert missing.returncode != 0 and "no run named 'nope'" in missing.stderr


def test_suite_generates_evaluates_and_reports(tmp_path: Path) -> None:
    result = run(
        "suite", "--out", str(tmp_path / "suite"), "-n", "3", "--tasks",
        "mentalblackboard/prediction,mentalblackboard/planning,pfp/folding-3d", "--modality", "text,image",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "suite" / "summary.md").read_text()
    rows = [line.split(" | ") for line in summary.splitlines() if line.startswith("| ") and " | 3 | " in line]
    # prediction and planning in two modalities, folding-3d (image only) in one; two baselines each
    assert sorted((r[0].strip("| "), r[1]) for r in rows if r[2] == "oracle") == [
        ("mentalblackboard/planning-v1", "image"), ("mentalblackboard/planning-v1", "text"),
        ("mentalblackboard/prediction-v1", "image"), ("mentalblackboard/prediction-v1", "text"),
        ("pfp/folding-3d-v2", "image"),
    ]  # fmt: skip
    for row in rows:
        headline = {"pfp/folding-3d-v2": "accuracy"}.get(row[0].strip("| "), "exact_match")
        assert row[4] == headline, row
        if row[2] == "oracle":  # 3 of 3 right: Wilson's interval is 43.9 % to 100 %
            assert row[5].strip(" |") == "100.0 (44–100)", row
    # the terminal table fits 80 columns and cuts no name
    table = result.stdout.split("wrote ")[0]
    assert table.strip() and all(len(line) <= 80 for line in table.splitlines())
    assert "…" not in table and "backward" not in table
    assert "planning" in table and "folding-3d" in table and "100.0 (44–100)" in table
    assert len(list((tmp_path / "suite" / "reports").glob("*/report.html"))) == 10
    manifest = json.loads((tmp_path / "suite" / "data" / "mentalblackboard-planning" / "manifest.json").read_text())
    assert manifest["n"] == 3 and manifest["modalities"] == ["text", "image"]


def test_gallery_replays_the_models_unfolding(prediction_dataset: Path) -> None:
    from foldbench.tasks import make
    from foldbench.tasks.dataset import read_items

    task = make("mentalblackboard/prediction")
    item = next(i for i in read_items(prediction_dataset) if i.metadata["num_folds"] >= 2)
    truth = task.oracle(item).model_dump()
    wrong_first = dict(
        truth, unfolding=["V1-F" if truth["unfolding"][0] != "V1-F" else "V2-F", *truth["unfolding"][1:]]
    )
    captions = [caption for caption, _ in task.gallery(item, wrong_first)]
    assert any("step 1" in c and "cannot be made here" in c for c in captions), captions
    captions = [caption for caption, _ in task.gallery(item, truth)]
    assert any(c.startswith("model's unfolding: all") for c in captions), captions
    assert "ground-truth unfolding" in captions
