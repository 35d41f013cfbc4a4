"""Bad command-line arguments: one ``error: ...`` line on stderr and exit code 2, never a box or a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from foldbench.cli import main


def _run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), captured.out, captured.err


EVAL = ("eval", "--task", "mentalblackboard/prediction", "--data", "missing-dataset", "--model", "random")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((*EVAL, "--seed", "abc"), ["--seed"]),
        ((*EVAL, "--concurrency", "0"), ["--concurrency", "1"]),
        ((*EVAL, "--limit", "abc"), ["--limit"]),
        ((*EVAL, "--limit", "-1"), ["--limit", "1"]),
        ((*EVAL, "--limit", "0"), ["--limit", "1"]),
        ((*EVAL, "--max-tokens", "0"), ["--max-tokens"]),
        ((*EVAL, "--bogus"), ["--bogus"]),
        (("eval", "--task", "mentalblackboard/prediction"), ["--data"]),
        (("compare",), ["compare", "runs"]),
        (("suite", "--out", "{tmp}/suite", "--modality", "smell"), ["modality", "smell"]),
        (("suite", "--out", "{tmp}/suite", "--modality", "text,imgae"), ["imgae", "Did you mean: image"]),
        (("suite", "--out", "{tmp}/suite", "-n", "0"), ["-n"]),
        (("suite", "--out", "{tmp}/suite", "--concurrency", "-3"), ["--concurrency"]),
        (("report",), ["run"]),
        (("pft", "enumerate", "--group", "x"), ["--group"]),
        (("no-such-command",), ["no-such-command"]),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_code_2(
    args: tuple[str, ...], words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run_main(capsys, *(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "╭" not in err and "Traceback" not in err and out == ""
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert not (tmp_path / "suite").exists()  # refused before anything was written


def test_a_foldbench_error_is_one_line_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run_main(capsys, "eval", "--task", "mentalblackboard/predicton", "--data", ".", "--model", "random")
    assert code == 2 and err.count("\n") == 1 and "Did you mean" in err


def test_help_and_good_commands_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_main(capsys, "eval", "--help")
    assert code == 0 and "--limit" in out
    code, out, _ = _run_main(capsys, "tasks")
    assert code == 0 and "mentalblackboard/prediction-v1" in out


def test_the_installed_entry_point_reports_usage_errors_the_same_way() -> None:
    result = subprocess.run([sys.executable, "-m", "foldbench", "compare"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith("error: foldbench compare: ") and result.stderr.count("\n") == 1


def test_generate_takes_any_knob_of_the_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    out = tmp_path / "pfp"
    args = ("generate", "pfp", "--task", "single-step", "-n", "2", "--out", str(out))
    knobs = ("--knob", "subtasks=2-fold", "-k", "shapes=square,hexagon", "-k", "cutouts=1", "-k", "panels=false")
    code, _, err = _run_main(capsys, *args, *knobs)
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["knobs"] == {
        "subtasks": ["2-fold"],
        "shapes": ["square", "hexagon"],
        "cutouts": [1],
        "panels": False,
    }
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    assert {item["metadata"]["subtask"] for item in items} == {"2-fold"}


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (("--knob", "bogus=1"), ["unknown knob 'bogus'"]),
        (("--knob", "sids=back"), ["Did you mean: sides?"]),
        (("--knob", "sides=sideways"), ["knob 'sides'"]),
        (("--sides", "sideways"), ["knob 'sides'"]),
        (("--knob", "size=abc"), ["knob 'size'"]),
        (("--knob", "groups"), ["NAME=VALUE"]),
        (("--knob", "size=256", "--knob", "size=128"), ["twice"]),
        (("--groups", "1", "--knob", "groups=2"), ["--groups"]),
        (("-n", "0"), ["-n"]),
        (("--workers", "0"), ["--workers"]),
    ],
)
def test_generate_refuses_bad_knobs_in_one_line(
    extra: tuple[str, ...], words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mb"
    code, _, err = _run_main(capsys, "generate", "mentalblackboard", "--task", "prediction", "--out", str(out), *extra)
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: "), err
    for word in words:
        assert word in err, (word, err)
    assert not out.exists()


def test_tasks_lists_every_knob(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_main(capsys, "tasks", "--knobs")
    assert code == 0
    for line in ("  cutouts (list of int)", "  sides (front|back|mixed)", "  max_holes (int, default 2)"):
        assert line in out
