"""The shared prompt-template loader: strict, cached per package, version lines taken off, used by every family."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import jinja2
import pytest

import foldbench.tasks
from foldbench.tasks.pfp.common import load_template
from foldbench.text.prompts import load_prompt, prompt_environment

FAMILIES = ("foldbench.tasks.mentalblackboard", "foldbench.tasks.pfp")


def _templates(package: str) -> list[str]:
    folder = resources.files(package).joinpath("prompts")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith((".j2", ".txt")))


@pytest.mark.parametrize("package", FAMILIES)
def test_every_template_of_every_family_loads(package: str) -> None:
    names = _templates(package)
    assert names
    for name in names:
        assert isinstance(load_prompt(package, name).template, jinja2.Template)


def test_one_environment_per_package_and_templates_are_cached() -> None:
    first, second = FAMILIES
    assert prompt_environment(first) is prompt_environment(first)
    assert prompt_environment(first) is not prompt_environment(second)
    assert load_prompt(second, "inverse.txt") is load_prompt(second, "inverse.txt")


def test_a_missing_variable_is_an_error_not_an_empty_string() -> None:
    with pytest.raises(jinja2.UndefinedError):
        load_prompt("foldbench.tasks.mentalblackboard", "prediction.j2").render()


def test_a_missing_template_is_an_error() -> None:
    with pytest.raises(jinja2.TemplateNotFound):
        load_prompt("foldbench.tasks.pfp", "no-such-prompt.txt")


def test_the_version_line_is_taken_off() -> None:
    prompt = load_prompt("foldbench.tasks.pfp", "single-step.txt")
    assert prompt.version == "pfp-single-step-prompt-1"
    text = prompt.render()
    assert not text.startswith("version:") and '{"answer": "A"}' in text
    assert load_template("single-step") == (prompt.version, text.strip() + "\n")
    assert load_prompt("foldbench.tasks.mentalblackboard", "prediction.j2").version is None


def test_no_family_builds_its_own_environment() -> None:
    root = Path(foldbench.tasks.__file__).parent
    builders = [
        path.relative_to(root)
        for path in root.rglob("*.py")
        if "jinja2.Environment(" in path.read_text(encoding="utf-8") and path.name != "prompts.py"
    ]
    assert builders == []
