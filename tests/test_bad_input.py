"""Hostile input of every kind through the command line: one ``error: ...`` line on stderr, a non-zero exit code, no
traceback, and the runs already stored left intact.

Each kind is run once in a real process (the installed entry point, as a user types it) and the rest of its
battery in-process through :func:`foldbench.cli.main`, which is what that process runs.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from foldbench.cli import main

FLAT_SQUARE = {
    "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
    "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0]],
    "edges_assignment": ["B", "B", "B", "B"],
}
RECORD = {
    "id": "r1",
    "taskType": "Prediction",
    "numberofFoldingSteps": 1,
    "foldingTypes": [{"foldType": "vertical_left_to_right", "foldToFront": True}],
    "unfoldingTypes": [],
    "initialHoles": [{"shape": "circle", "size": "small", "direction": 0, "location": 5}],
    "resultHoles": [],
    "totalNumberofHoles": 0,
}


def _in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), capsys.readouterr().err


def _in_a_process(*args: str, cwd: Path) -> tuple[int, str]:
    result = subprocess.run([sys.executable, "-m", "foldbench", *args], capture_output=True, text=True, cwd=cwd,
                            timeout=300)
    return result.returncode, result.stderr


def _one_line(code: int, err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert code != 0, err
    assert "Traceback" not in err and "╭" not in err, err
    assert lines and lines[-1].startswith("error: "), err
    assert len([line for line in lines if line.startswith("error: ")]) >= 1
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[-1], (word, err)


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small text dataset and a small picture dataset, generated once."""
    root = tmp_path_factory.mktemp("bad-input")
    with pytest.raises(SystemExit) as done:
        main(["generate", "mentalblackboard", "--task", "prediction", "-n", "4", "--seed", "1", "--out",
              str(root / "mb")])
    assert done.value.code == 0
    with pytest.raises(SystemExit) as done:
        main(["generate", "pfp", "--task", "single-step", "-n", "4", "--seed", "1", "--out", str(root / "pfp")])
    assert done.value.code == 0
    (root / "afile").write_text("a file where a folder is expected\n")
    (root / "square.fold").write_text(json.dumps(FLAT_SQUARE))
    (root / "records.json").write_text(json.dumps([RECORD]))
    return root


# -- output paths -------------------------------------------------------------------------------------------------


def test_an_output_path_under_a_file_is_one_line_in_a_real_process(datasets: Path) -> None:
    code, err = _in_a_process("generate", "mentalblackboard", "--task", "prediction", "-n", "2", "--seed", "1",
                              "--out", "afile/sub", cwd=datasets)
    _one_line(code, err, "afile")
    assert code == 1


@pytest.mark.parametrize(
    "args",
    [
        ("fold", "square.fold", "--png", "--out", "afile/sub"),
        ("fold", "square.fold", "--png", "--out", "afile"),
        ("eval", "--task", "mentalblackboard/prediction", "--data", "mb", "--model", "random", "--db", "afile/r.db"),
        ("eval", "--task", "mentalblackboard/prediction", "--data", "mb", "--model", "random", "--db", "mb"),
        ("suite", "--out", "afile/suite", "-n", "2"),
        ("pft", "solve", "records.json", "--out", "afile/solved.json"),
        ("pft", "solve", "records.json", "--out", "mb"),
        ("generate", "mentalblackboard", "--task", "prediction", "-n", "2", "--out", "afile"),
    ],
)
def test_output_paths_that_cannot_be_written(args: tuple[str, ...], datasets: Path,
                                             capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    monkeypatch.chdir(datasets)
    code, err = _in_process(capsys, *args)
    _one_line(code, err)
    assert (datasets / "afile").read_text().startswith("a file")  # never replaced
    assert (datasets / "mb" / "manifest.json").is_file()


def test_a_report_written_under_a_file(datasets: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(datasets)
    code, _ = _in_process(capsys, "eval", "--task", "mentalblackboard/prediction", "--data", "mb", "--model",
                          "random", "--db", "report.db", "--run", "r")
    assert code == 0
    code, err = _in_process(capsys, "report", "r", "--db", "report.db", "--out", "afile/report")
    _one_line(code, err, "afile")


# -- numbers out of range -----------------------------------------------------------------------------------------


def test_a_negative_seed_is_a_usage_error_in_a_real_process(datasets: Path) -> None:
    code, err = _in_a_process("generate", "mentalblackboard", "--task", "prediction", "-n", "2", "--seed", "-5",
                              "--out", "neg", cwd=datasets)
    _one_line(code, err, "--seed")
    assert code == 2 and not (datasets / "neg").exists()


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("eval", "--task", "mentalblackboard/prediction", "--data", "mb", "--model", "random", "--seed", "-1"),
         "--seed"),
        (("suite", "--out", "s", "-n", "2", "--seed", "-5"), "--seed"),
        (("env", "run", "--seed", "-3"), "--seed"),
        (("fold", "square.fold", "--png", "--size", "0"), "--size"),
        (("fold", "square.fold", "--png", "--size", "-5"), "--size"),
        (("fold", "square.fold", "--timeout", "-1"), "--timeout"),
        (("fold", "square.fold", "--state", "-1"), "--state"),
        (("eval", "--task", "mentalblackboard/prediction", "--data", "mb", "--model", "random", "--temperature",
          "-0.5"), "--temperature"),
    ],
)
def test_numbers_out_of_range(args: tuple[str, ...], option: str, datasets: Path,
                              capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(datasets)
    code, err = _in_process(capsys, *args)
    _one_line(code, err, option)
    assert code == 2


# -- deep nesting, huge numbers, digits that are not 0-9 ---------------------------------------------------------


def _deep_json(levels: int = 100_000) -> str:
    return "[" * levels + "]" * levels


def test_a_fold_file_nested_100000_deep_in_a_real_process(datasets: Path) -> None:
    (datasets / "deep.fold").write_text('{"vertices_coords": ' + _deep_json() + "}")
    result = subprocess.run([sys.executable, "-m", "foldbench", "fold", "deep.fold"], cwd=datasets,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode != 0 and "nested too deeply" in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("deep.fold", '{"vertices_coords": ' + _deep_json() + "}", ["nested too deeply"]),
        ("digits.fold", '{"vertices_coords": [[' + "9" * 5000 + ", 0]]}", ["digits"]),
        ("deep.svg", '<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 100_000
         + '<line x1="0" y1="0" x2="1" y2="1" stroke="red"/>' + "</g>" * 100_000 + "</svg>", ["deep.svg"]),
    ],
)
def test_crease_files_that_would_exhaust_a_reader(name: str, content: str, words: list[str], datasets: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(datasets)
    (datasets / name).write_text(content)
    with pytest.raises(SystemExit) as exit_info:
        main(["fold", name])
    captured = capsys.readouterr()
    assert exit_info.value.code != 0
    assert "Traceback" not in captured.out + captured.err
    for word in words:
        assert word in captured.out + captured.err


@pytest.mark.parametrize(
    ("command", "content", "words"),
    [
        ("solve", _deep_json(), ["nested too deeply"]),
        ("solve", "[" + json.dumps(RECORD).replace('"location": 5', '"location": ' + "9" * 5000) + "]", ["digits"]),
        ("solve", json.dumps([RECORD]).replace('"location": 5', '"location": "\\u00b2"'), ["location"]),
        ("video", json.dumps([RECORD]).replace('"location": 5', '"location": "\\u00b2"'), ["location"]),
    ],
)
def test_record_files_that_would_exhaust_a_reader(command: str, content: str, words: list[str], datasets: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(datasets)
    (datasets / "hostile.json").write_text(content)
    code, err = _in_process(capsys, "pft", command, "hostile.json", "--out", "pft-out")
    assert code != 0 and "Traceback" not in err, err
    assert all(line.startswith(("error: ", "skipped: ", "solved ", "wrote ")) for line in err.strip().splitlines())
    for word in words:
        assert word in err, (word, err)


def test_a_manifest_nested_100000_deep(datasets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "mb"
    shutil.copytree(datasets / "mb", copy)
    (copy / "manifest.json").write_text(_deep_json())
    code, err = _in_process(capsys, "eval", "--task", "mentalblackboard/prediction", "--data", str(copy), "--model",
                            "random", "--db", str(tmp_path / "r.db"))
    _one_line(code, err, "manifest")


# -- tampered datasets --------------------------------------------------------------------------------------------


def _edit_line(index: int, change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        lines = (folder / "items.jsonl").read_bytes().splitlines(keepends=True)
        record = json.loads(lines[index])
        change(record)
        lines[index] = (json.dumps(record) + "\n").encode()
        (folder / "items.jsonl").write_bytes(b"".join(lines))

    return edit


def _first_picture(folder: Path) -> None:
    record = json.loads((folder / "items.jsonl").read_text().splitlines()[1])
    (folder / record["inputs"]["images"]["composite"]).unlink()


def _not_utf8(folder: Path) -> None:
    lines = (folder / "items.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "items.jsonl").write_bytes(b"".join([lines[0], lines[1][:20] + b"\xff\xfe" + lines[1][20:], *lines[2:]]))


TAMPERINGS: dict[str, tuple[str, str, Callable[[Path], None]]] = {
    # name: (dataset, task, change)
    "missing input field": ("mb", "mentalblackboard/prediction", _edit_line(1, lambda r: r["inputs"].pop("text"))),
    "renamed target": ("mb", "mentalblackboard/prediction", _edit_line(1, lambda r: r.update(goal=r.pop("target")))),
    "emptied target": ("mb", "mentalblackboard/prediction", _edit_line(1, lambda r: r.update(target={}))),
    "seed not a number": ("mb", "mentalblackboard/prediction", _edit_line(1, lambda r: r.update(seed="abc"))),
    "not UTF-8": ("mb", "mentalblackboard/prediction", _not_utf8),
    "missing picture key": ("pfp", "pfp/single-step",
                            _edit_line(1, lambda r: r["inputs"]["images"].pop("composite"))),
    "target key renamed": ("pfp", "pfp/single-step", _edit_line(1, lambda r: r.update(target={"key": "A"}))),
    "picture file missing": ("pfp", "pfp/single-step", _first_picture),
}


@pytest.mark.parametrize("name", sorted(TAMPERINGS))
def test_a_tampered_dataset_is_refused_naming_its_line_and_stored_runs_survive(
    name: str, datasets: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, task, change = TAMPERINGS[name]
    db = tmp_path / "runs.db"
    code, _ = _in_process(capsys, "eval", "--task", task, "--data", str(datasets / source), "--model", "random",
                          "--db", str(db), "--run", "before")
    assert code == 0
    with sqlite3.connect(db) as connection:
        stored_before = connection.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    assert stored_before == 4
    copy = tmp_path / source
    shutil.copytree(datasets / source, copy)
    change(copy)
    code, err = _in_process(capsys, "eval", "--task", task, "--data", str(copy), "--model", "random", "--db",
                            str(db), "--run", "after")
    _one_line(code, err, "line 2")
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == stored_before


def test_a_tampered_dataset_in_a_real_process(datasets: Path, tmp_path: Path) -> None:
    copy = tmp_path / "mb"
    shutil.copytree(datasets / "mb", copy)
    _edit_line(2, lambda r: r["inputs"].pop("initial_holes"))(copy)
    code, err = _in_a_process("eval", "--task", "mentalblackboard/prediction", "--data", str(copy), "--model",
                              "random", "--db", str(tmp_path / "r.db"), cwd=tmp_path)
    _one_line(code, err, "line 3", "initial_holes")


# -- a hostile endpoint and replies that cannot be encoded --------------------------------------------------------


def test_usage_numbers_larger_than_the_store_holds(datasets: Path, tmp_path: Path) -> None:
    """A hostile endpoint (on 127.0.0.1) reports a token count SQLite cannot hold; a real ``foldbench eval``
    process stores the replies, the count as unknown, and a run stored before stays intact."""
    from foldbench.testing.fake_openai import Behaviour, FakeOpenAI, always

    number = "9" * 30  # fits the reader's digit bound, not SQLite's 64-bit integer
    choice = '{"message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}'
    body = f'{{"choices": [{choice}], "usage": {{"prompt_tokens": {number}, "completion_tokens": 7}}}}'
    db = tmp_path / "runs.db"
    code, err = _in_a_process("eval", "--task", "mentalblackboard/prediction", "--data", str(datasets / "mb"),
                              "--model", "random", "--db", str(db), "--run", "before", cwd=tmp_path)
    assert code == 0, err
    with FakeOpenAI(always(Behaviour(body=body.encode()))) as server:
        code, err = _in_a_process("eval", "--task", "mentalblackboard/prediction", "--data", str(datasets / "mb"),
                                  "--model", "openai:m", "--base-url", server.base_url, "--db", str(db), "--run",
                                  "usage", cwd=tmp_path)
    assert code == 0 and "Traceback" not in err, err
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT r.prompt_tokens, r.completion_tokens FROM responses r JOIN turns t ON t.response_id = r.id "
            "WHERE t.run = 'usage'").fetchall()
        before = connection.execute("SELECT COUNT(*) FROM scores WHERE run = 'before'").fetchone()[0]
    assert len(rows) == 4 and all(prompt is None and completion == 7 for prompt, completion in rows)
    assert before == 4


def test_lone_surrogates_from_any_model_are_stored_as_replacement_characters(datasets: Path, tmp_path: Path) -> None:
    """A model adapter other than the OpenAI one (here a plain in-process model) hands the harness a reply with a
    lone surrogate; the multi-turn feedback echoes it. Both reach the store as U+FFFD."""
    import asyncio

    from foldbench.harness.runner import evaluate
    from foldbench.harness.store import Store
    from foldbench.models.base import ModelReply, ModelRequest
    from foldbench.testing.toy_task import GuessTask

    class SurrogateModel:
        name = "surrogate"
        params: dict[str, Any] = {}

        async def complete(self, request: ModelRequest) -> ModelReply:
            return ModelReply(text='{"guess": 5} \ud800')

        async def aclose(self) -> None:
            return None

    task = GuessTask()
    items = list(task.generate(3, seed=1))
    with Store(tmp_path / "runs.db") as store:
        asyncio.run(evaluate(store=store, run_name="s", task=task, dataset_dir=tmp_path, items=items,
                             model=SurrogateModel(), modality="text"))  # type: ignore[arg-type]
    with sqlite3.connect(tmp_path / "runs.db") as connection:
        texts = [row[0] for row in connection.execute("SELECT text FROM responses")]
        feedback = [row[0] for row in connection.execute("SELECT feedback FROM turns WHERE feedback IS NOT NULL")]
    assert texts and all("\ufffd" in text and "\ud800" not in text for text in texts)
    assert all(isinstance(text, str) for text in feedback)


# -- the one place that turns errors into lines -------------------------------------------------------------------


def test_an_unexpected_error_is_one_line_naming_its_traceback_file(datasets: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import foldbench.cli._fold_report as fold_report

    def broken(*_args: object, **_kwargs: object) -> int:
        raise RuntimeError("planted fault")

    monkeypatch.setattr(fold_report, "fold_command", broken)
    monkeypatch.setenv("FOLDBENCH_CACHE_DIR", str(tmp_path / "cache"))
    code, err = _in_process(capsys, "fold", str(datasets / "square.fold"))
    _one_line(code, err, "unexpected RuntimeError", "planted fault", "--debug")
    assert code == 1
    written = (tmp_path / "cache" / "last-error.txt").read_text()
    assert "Traceback" in written and "planted fault" in written
    with pytest.raises(RuntimeError, match="planted fault"):
        main(["--debug", "fold", str(datasets / "square.fold")])
