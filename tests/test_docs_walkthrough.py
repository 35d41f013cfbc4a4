"""The documentation's walkthrough is code the tests run: the task-protocol page's code blocks make a module that
is the toy task the harness tests use, and the getting-started page's script runs that module through
``foldbench suite`` without any change to the harness."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL_PAGE = ROOT / "docs" / "concepts" / "task-protocol.md"
GETTING_STARTED = ROOT / "docs" / "getting-started.md"


def _python_blocks(markdown: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def _page_module() -> str:
    return "\n\n".join(_python_blocks(PROTOCOL_PAGE.read_text(encoding="utf-8")))


def _suite_script() -> str:
    page = GETTING_STARTED.read_text(encoding="utf-8")
    section = page.split("## Your own task family in the suite", 1)[1].split("\n## ", 1)[0]
    (script,) = _python_blocks(section)
    return script


def test_the_task_protocol_page_shows_the_toy_task_the_tests_run() -> None:
    source = (ROOT / "src" / "foldbench" / "testing" / "toy_task.py").read_text(encoding="utf-8")
    start = source.index("\n", source.index("# -- the toy task of docs/concepts/task-protocol.md")) + 1
    end = source.index("# -- the toy task ends here --")
    blocks = _python_blocks(PROTOCOL_PAGE.read_text(encoding="utf-8"))
    assert len(blocks) == 2, "the page shows the imports, then the task"
    assert blocks[1] == source[start:end].rstrip() + "\n"


def test_the_getting_started_script_runs_the_page_module_through_the_suite(tmp_path: Path) -> None:
    (tmp_path / "addition_task.py").write_text(_page_module(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", _suite_script()], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "runs" / "toy" / "summary.md").read_text(encoding="utf-8")
    assert "| toy/addition-v1 | text | oracle | 6 | accuracy | 100.0 (" in summary
    report = (tmp_path / "runs" / "toy" / "reports" / "addition-v1-text-random" / "report.md").read_text(
        encoding="utf-8"
    )
    assert "## By digits" in report and "| accuracy | 0.0 | 0.0–39.0 |" in report  # Wilson: 0 of 6
