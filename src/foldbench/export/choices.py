"""Recognising multiple-choice tasks from the Task protocol alone: a task whose answer (the oracle's) is one
field typed as a choice of single capital letters."""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from foldbench.export._source import Source
    from foldbench.tasks.base import Item, Task

__all__ = ["choice_field", "choice_letters"]


def choice_field(task: Task, item: Item) -> tuple[str, tuple[str, ...]] | None:
    """``(field name, letters)`` when ``task``'s answer to ``item`` is one letter field, else None."""
    answer = task.oracle(item)
    fields = type(answer).model_fields
    if len(fields) != 1:
        return None
    ((name, info),) = fields.items()
    annotation: Any = info.annotation
    if typing.get_origin(annotation) is not typing.Literal:
        return None
    letters = typing.get_args(annotation)
    if not letters or not all(isinstance(x, str) and len(x) == 1 and x.isupper() for x in letters):
        return None
    return name, tuple(letters)


def choice_letters(source: Source) -> tuple[str, ...] | None:
    """The option letters of a dataset's task when it is multiple choice (judged on its first item), else None."""
    first = next(iter(source.items()), None)
    if first is None:
        return None
    found = choice_field(source.task, first)
    return found[1] if found else None
