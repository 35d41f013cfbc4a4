"""The registry of tasks: ``register("family/name-v1", factory)``, then ``make(id)``."""

from __future__ import annotations

import re
from collections.abc import Callable

from foldbench.errors import UnknownNameError
from foldbench.tasks.base import Task

__all__ = ["register", "make", "resolve", "task_ids"]

_FACTORIES: dict[str, Callable[[], Task]] = {}
_ID = re.compile(r"^(?P<name>[a-z0-9_-]+/[a-z0-9_-]+?)-v(?P<version>\d+)$")


def register(task_id: str, factory: Callable[[], Task]) -> None:
    """Register a task factory under a versioned id ``family/name-vN``."""
    if not _ID.match(task_id):
        raise ValueError(f"task id {task_id!r} is not of the form family/name-vN")
    if task_id in _FACTORIES:
        raise ValueError(f"task id {task_id!r} is already registered")
    _FACTORIES[task_id] = factory


def task_ids() -> list[str]:
    """Every registered task id."""
    return sorted(_FACTORIES)


def resolve(name: str) -> str:
    """The registered id for ``name``: an exact id, or ``family/name`` for its latest version.

    Raises :class:`UnknownNameError` with a suggestion when nothing matches.
    """
    if name in _FACTORIES:
        return name
    versions = [
        (int(m["version"]), task_id) for task_id in _FACTORIES if (m := _ID.match(task_id)) and m["name"] == name
    ]
    if versions:
        return max(versions)[1]
    unversioned = sorted({m["name"] for task_id in _FACTORIES if (m := _ID.match(task_id))})
    raise UnknownNameError("task", name, unversioned + task_ids())


def make(name: str) -> Task:
    """A fresh instance of the task ``name`` (see :func:`resolve`)."""
    return _FACTORIES[resolve(name)]()
