"""The README's "Adding a task family" walkthrough is the code the tests run, and such a family plugs into the
CLI without any change to the harness."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _walkthrough_code() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Adding a task family", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_snippet_is_the_toy_task_the_tests_run() -> None:
    source = (ROOT / "tests" / "support" / "toy_task.py").read_text(encoding="utf-8")
    start = source.index("\n", source.index("# -- the walkthrough of README.md")) + 1
    end = source.index("# -- the walkthrough ends here --")
    assert _walkthrough_code().strip() and _walkthrough_code() == source[start:end].rstrip() + "\n"


_SUITE = """
import sys
sys.path.insert(0, {root!r})
sys.argv = ["foldbench", "suite", "--out", {out!r}, "-n", "6", "--tasks", "toy/addition"]
from foldbench.tasks import register
from tests.support.toy_task import AdditionTask
register("toy/addition-v1", AdditionTask)
from foldbench.cli.app import main
main()
"""


def test_a_registered_toy_family_runs_through_the_suite(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    code = _SUITE.format(root=str(ROOT), out=str(out))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| toy/addition-v1 | text | oracle | 6 | accuracy | 100.0 (" in summary
    report = (out / "reports" / "addition-v1-text-random" / "report.md").read_text(encoding="utf-8")
    assert "## By digits" in report and "| accuracy | 0.0 | 0.0–39.0 |" in report  # Wilson: 0 of 6
