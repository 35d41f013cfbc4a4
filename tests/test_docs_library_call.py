"""The command-line page's library call is code the tests run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI_PAGE = ROOT / "docs" / "cli.md"


def test_the_library_call_on_the_command_line_page_runs(tmp_path: Path) -> None:
    section = CLI_PAGE.read_text(encoding="utf-8").split("## The same run from Python", 1)[1].split("\n## ", 1)[0]
    (script,) = re.findall(r"^```python\n(.*?)^```$", section, flags=re.MULTILINE | re.DOTALL)
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "run prediction-v1-text-oracle: 10/10 items scored" in result.stdout
    assert (tmp_path / "runs" / "foldbench.db").is_file()
