"""The shared prompt-template loader: strict, cached per package, version lines taken off, used by every family."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import jinja2
import pytest

import foldbench.tasks
from foldbench.tasks.pfp.common import load_template
from foldbench.text.prompts import load_prompt, prompt_environment

FAMILIES = ("foldbench.tasks.origamispace", "foldbench.tasks.pfp")


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
        load_prompt("foldbench.tasks.origamispace", "codegen.txt").render()


def test_a_missing_template_is_an_error() -> None:
    with pytest.raises(jinja2.TemplateNotFound):
        load_prompt("foldbench.tasks.pfp", "no-such-prompt.txt")


def test_the_version_line_is_taken_off() -> None:
    prompt = load_prompt("foldbench.tasks.pfp", "single-step.txt")
    assert prompt.version == "pfp-single-step-prompt-1"
    text = prompt.render()
    assert not text.startswith("version:") and '{"answer": "A"}' in text
    assert load_template("single-step") == (prompt.version, text.strip() + "\n")


def test_a_template_without_a_version_line_has_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "plain_prompts_package"
    (package / "prompts").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "prompts" / "plain.txt").write_text("Hello {{ name }}.\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    prompt = load_prompt("plain_prompts_package", "plain.txt")
    assert prompt.version is None
    assert prompt.render(name="sheet") == "Hello sheet."


def test_no_family_builds_its_own_environment() -> None:
    root = Path(foldbench.tasks.__file__).parent
    builders = [
        path.relative_to(root)
        for path in root.rglob("*.py")
        if "jinja2.Environment(" in path.read_text(encoding="utf-8") and path.name != "prompts.py"
    ]
    assert builders == []
