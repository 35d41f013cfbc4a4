"""A griffe extension for the documentation build: the doctest examples of docstrings become fenced ``pycon``
code blocks, so Markdown shows them as code instead of reading ``['V']`` as a link."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with every doctest example (a ``>>>`` line after a blank line, up to the next blank line)
    wrapped in a ``pycon`` code fence; text already inside a fence is left alone."""
    out: list[str] = []
    in_example = False
    fenced_before = False
    for line in text.splitlines():
        stripped = line.lstrip()
        if not in_example and stripped.startswith(">>>") and (not out or not out[-1].strip()) and not fenced_before:
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        if stripped.startswith("```"):
            fenced_before = not fenced_before
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring griffe loads."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
