"""The README is the short front page: it stays within 150 lines, every link in it leads to a file of the
repository, and CI runs exactly the test command it gives."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_150_lines() -> None:
    assert len(README.splitlines()) <= 150


def test_every_relative_link_of_the_readme_leads_to_a_file() -> None:
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", README) if "://" not in t and not t.startswith("#")]
    assert targets, "the README links the documentation pages"
    missing = [t for t in targets if not (ROOT / t.split("#", 1)[0]).is_file()]
    assert not missing


def test_the_readme_links_each_family_page() -> None:
    for family in ("mentalblackboard", "pfp", "origamibench", "origamispace"):
        assert f"(docs/families/{family}.md)" in README


def test_ci_runs_the_readme_test_command() -> None:
    section = README.split("**Tests**", 1)[1]
    command = section.split("```bash\n", 1)[1].split("\n```", 1)[0]
    assert "pytest" in command
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci_lines
