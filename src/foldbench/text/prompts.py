"""The one prompt-template loader of every task family and environment.

Each family (and each environment or engine package with prompts) keeps its templates in a ``prompts/`` folder
inside its package and loads them with
:func:`load_prompt` (one jinja2 environment per package, cached): undefined variables are errors
(``StrictUndefined``), nothing is escaped (prompts are plain text), and a single trailing newline is dropped. A
template may start with a ``version: ...`` line, which is taken off and returned as the template's version (the
version is stored with every run, so a change of wording is visible in results).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import jinja2

__all__ = ["PromptTemplate", "load_prompt", "prompt_environment"]

_VERSION_PREFIX = "version:"


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    """A loaded prompt template and the version its first line declares (None when it declares none)."""

    version: str | None
    template: jinja2.Template

    def render(self, **context: Any) -> str:
        """The template rendered with ``context`` (a missing variable raises :class:`jinja2.UndefinedError`)."""
        return self.template.render(**context)


@cache
def prompt_environment(package: str) -> jinja2.Environment:
    """The jinja2 environment over the ``prompts/`` folder of ``package`` (e.g. ``"foldbench.tasks.pfp"``)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader(package, "prompts"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        autoescape=False,
    )


@cache
def load_prompt(package: str, name: str) -> PromptTemplate:
    """The template ``prompts/<name>`` of ``package`` (``name`` with its extension), with its version line off.

    Raises:
        jinja2.TemplateNotFound: there is no such template.
    """
    environment = prompt_environment(package)
    source, _, _ = environment.loader.get_source(environment, name)  # type: ignore[union-attr]
    first, newline, rest = source.partition("\n")
    if first.startswith(_VERSION_PREFIX):
        return PromptTemplate(first.removeprefix(_VERSION_PREFIX).strip(), environment.from_string(rest))
    return PromptTemplate(None, environment.get_template(name))
