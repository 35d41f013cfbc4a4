"""The command line as a user runs it: exit codes, no tracebacks. The first two tests start a real process (the
entry point and its imports); the rest call the same entry point in this process (``tests.support.cli``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run_in_process


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "foldbench", *args], capture_output=True, text=True, timeout=300)


def test_enumerate_prints_one_line_per_group() -> None:
    result = run("pft", "enumerate", "--group", "1,2,5")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["group 1: 16", "group 2: 160", "group 5: 48"]


def test_generate_writes_a_dataset(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    result = run(
        "generate",
        "mentalblackboard",
        "--task",
        "prediction",
        "--modality",
        "text,image",
        "-n",
        "3",
        "--seed",
        "4",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["items_written"] == 3
    assert (out / "images" / "reference_sheet.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("generate", "mentalblackboard", "--task", "predicton", "--out", "{tmp}/x"), "Did you mean"),
        (("generate", "mentalblackboard", "--task", "prediction", "--groups", "12", "--out", "{tmp}/x"), "groups"),
        (
            ("generate", "mentalblackboard", "--task", "prediction", "--modality", "smell", "--out", "{tmp}/x"),
            "modality",
        ),
        (("pft", "show", "H1-F V9-F", "--hole", "star,small,0,26"), "unknown action code 'V9-F'"),
        (("pft", "show", "H1-F", "--hole", "star,small,0,1"), "no paper at location 1"),
        (("pft", "show", "H1-F", "--hole", "star,small,45,26"), "direction"),
        (("pft", "show", "H1-F D1-F", "--hole", "star,small,0,26"), "F4"),
        (("pft", "solve", "{tmp}/missing.json", "--out", "{tmp}/o.json"), "no such file"),
    ],
)
def test_bad_input_gets_one_clear_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    result = run_in_process(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_show_and_plan_agree() -> None:
    shown = run_in_process("pft", "show", "V2-F H1-F", "--hole", "triangle,large,90,26")
    assert shown.returncode == 0
    assert "unfolding: H2-F V1-F" in shown.stdout
    holes = [line.split() for line in shown.stdout.splitlines() if line.startswith("  triangle")]
    assert len(holes) == 4
    args = ["pft", "plan", "--folds", "2"]
    for parts in holes:  # "triangle large direction D at L"
        args += ["--hole", f"triangle,large,{parts[3]},{parts[5]}"]
    planned = run_in_process(*args)
    assert planned.returncode == 0, planned.stderr
    assert planned.stdout.startswith("folds: ")


def test_generate_pfp_split_gives_that_split_and_the_manifest_says_so(tmp_path: Path) -> None:
    import json

    result = run_in_process("generate", "pfp", "--task", "single-step", "-n", "5", "--seed", "3", "--split", "test",
                            "--out", str(tmp_path / "d"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "d" / "manifest.json").read_text())
    assert manifest["split"] == "test" and manifest["knobs"] == {"split": "test"}
    assert manifest["legibility"]["min_feature_px"] >= 3
    items = [json.loads(line) for line in (tmp_path / "d" / "items.jsonl").read_text().splitlines()]
    assert [item["metadata"]["split"] for item in items] == ["test"] * 5
    bad = run_in_process(
        "generate", "pfp", "--task", "single-step", "-n", "1", "--split", "dev", "--out", str(tmp_path / "e")
    )
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and "split" in bad.stderr


@pytest.mark.parametrize(
    "args", [("pft", "enumerate", "--group", "1,2"), ("pft", "show", "H1-F", "--hole", "star,small,0,1"), ()]
)
def test_in_process_runs_give_what_a_real_process_gives(args: tuple[str, ...]) -> None:
    """The in-process runs the other tests use are faithful: the same exit code and text as ``python -m``."""
    real, here = run(*args), run_in_process(*args)
    assert (here.returncode, here.stdout, here.stderr) == (real.returncode, real.stdout, real.stderr)
