"""The registry of tasks: every task id with where its class lives, known without importing any family.

Task ids come from three places, read once, the first time an id is asked for:

* the built-in families (:data:`BUILTIN_FAMILIES`): each is a sub-package of :mod:`foldbench.tasks` whose
  ``__init__`` holds a table ``TASK_TABLE`` (id -> :class:`TaskEntry` or ``"module:Class"``) and imports
  nothing else, so listing the ids imports no engine;
* the entry points of installed distributions in the group ``foldbench.tasks`` (:data:`ENTRY_POINT_GROUP`): a
  family, ``toyfam = "toyfam.tasks_table:TASK_TABLE"`` (a table like the built-in ones, or a function returning
  one; its ids must start with ``toyfam/``), or a single task, ``"toyfam/echo-v1" = "toyfam.echo:EchoTask"``;
* :func:`register` at run time (tests, notebooks, scripts).

:func:`make` imports a task's module the first time that task is made. A table or task that cannot be loaded
(a module that fails to import, a missing attribute) is reported as a :class:`TaskLoadError` naming where it was
declared, when that task or family is asked for; every other task keeps working.

The built-in families are listed here rather than as entry points of foldbench's own distribution, so they do
not depend on installed metadata (an editable install whose metadata is older than the source still finds them).
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from foldbench.errors import FoldbenchError, UnknownNameError
from foldbench.tasks.base import Task
from foldbench.tasks.base import in_default_suite as _class_in_default_suite

__all__ = [
    "BUILTIN_FAMILIES",
    "ENTRY_POINT_GROUP",
    "TaskEntry",
    "entry_of",
    "TaskLoadError",
    "default_suite_ids",
    "make",
    "origin",
    "problems",
    "register",
    "resolve",
    "runs_in_default_suite",
    "task_ids",
]

#: The entry-point group a distribution declares its task families (or single tasks) in.
ENTRY_POINT_GROUP = "foldbench.tasks"

#: The built-in families: name -> ``"module:attribute"`` of the family's table of tasks.
BUILTIN_FAMILIES: dict[str, str] = {
    "mentalblackboard": "foldbench.tasks.mentalblackboard:TASK_TABLE",
    "origamibench": "foldbench.tasks.origamibench:TASK_TABLE",
    "origamispace": "foldbench.tasks.origamispace:TASK_TABLE",
    "pfp": "foldbench.tasks.pfp:TASK_TABLE",
}

_ID = re.compile(r"^(?P<name>[a-z0-9_-]+/[a-z0-9_-]+?)-v(?P<version>\d+)$")
_TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class TaskLoadError(FoldbenchError):
    """A declared task or family that cannot be loaded: its module fails to import, it names an attribute the
    module lacks, or what it names is not what was declared. The message names where it was declared."""


@dataclass(frozen=True, slots=True)
class TaskEntry:
    """Where a task comes from, and what is known of it without importing it.

    ``target`` is ``"module:attribute"`` (imported the first time the task is made) or the class or factory
    itself; calling what it names with no arguments gives the task.
    """

    target: str | Callable[[], Task]
    in_default_suite: bool | None = None
    """Whether ``foldbench suite`` runs the task when no ``--tasks`` are given; None: read the task's class
    (:func:`foldbench.tasks.base.in_default_suite`), which imports it."""


def entry_of(sources: dict[str, str], name: str, *, in_default_suite: bool = True) -> TaskEntry:
    """The entry of the class ``name`` in the module ``sources[name]`` (a family's table of lazy names)."""
    return TaskEntry(f"{sources[name]}:{name}", in_default_suite=in_default_suite)


@dataclass(frozen=True, slots=True)
class _Declared:
    entry: TaskEntry
    origin: str


_lock = threading.RLock()
_declared: dict[str, _Declared] = {}
_factories: dict[str, Callable[[], Task]] = {}
_broken_families: dict[str, TaskLoadError] = {}
_problems: list[str] = []
_loaded = False


def register(task_id: str, target: str | Callable[[], Task] | TaskEntry) -> None:
    """Register a task under a versioned id ``family/name-vN``: its class or factory, or ``"module:attribute"``
    naming one (imported when the task is first made).

    Raises:
        ValueError: the id is malformed or already registered, or the target is neither callable nor
            ``"module:attribute"``.
    """
    entry = target if isinstance(target, TaskEntry) else TaskEntry(target)
    _check_entry(task_id, entry)
    with _lock:
        _load()
        if task_id in _declared:
            raise ValueError(f"task id {task_id!r} is already registered ({_declared[task_id].origin})")
        _declared[task_id] = _Declared(entry, "register()")


def task_ids() -> list[str]:
    """Every registered task id (no family module is imported)."""
    with _lock:
        _load()
        return sorted(_declared)


def resolve(name: str) -> str:
    """The registered id for ``name``: an exact id, or ``family/name`` for its latest version.

    Raises:
        UnknownNameError: nothing matches (with a suggestion).
        TaskLoadError: the name's family is declared but its table cannot be loaded.
    """
    with _lock:
        _load()
        if name in _declared:
            return name
        versions = [
            (int(m["version"]), task_id) for task_id in _declared if (m := _ID.match(task_id)) and m["name"] == name
        ]
        if versions:
            return max(versions)[1]
        family = name.split("/", 1)[0]
        if family in _broken_families:
            raise _broken_families[family]
        unversioned = sorted({m["name"] for task_id in _declared if (m := _ID.match(task_id))})
        raise UnknownNameError("task", name, unversioned + sorted(_declared))


def make(name: str) -> Task:
    """A fresh instance of the task ``name`` (see :func:`resolve`); its module is imported on first use.

    Raises:
        UnknownNameError: no task is registered under ``name``.
        TaskLoadError: the task's module fails to import, lacks the declared attribute, or makes a task whose
            ``id`` is not the one it is registered under.
    """
    task_id = resolve(name)
    task = _factory(task_id)()
    if getattr(task, "id", None) != task_id:
        raise TaskLoadError(
            f"task '{task_id}' ({_declared[task_id].origin}) makes a task whose id is {getattr(task, 'id', None)!r}; "
            "the id it is declared under must be the task's own"
        )
    return task


def runs_in_default_suite(task_id: str) -> bool:
    """Whether ``foldbench suite`` runs ``task_id`` when no ``--tasks`` are given: as its entry declares, or
    (when the entry does not say) as its class says, which imports it."""
    task_id = resolve(task_id)
    declared = _declared_entry(task_id).entry.in_default_suite
    if declared is not None:
        return declared
    factory = _factory(task_id)
    return _class_in_default_suite(factory if isinstance(factory, type) else make(task_id))


def default_suite_ids() -> list[str]:
    """The ids ``foldbench suite`` runs when no ``--tasks`` are given: every task that runs in the default suite
    (:func:`runs_in_default_suite`) and can be loaded; one that cannot is left out and reported in
    :func:`problems`. Imports every such task's module."""
    chosen = []
    for task_id in task_ids():
        try:
            if runs_in_default_suite(task_id):
                _factory(task_id)
                chosen.append(task_id)
        except TaskLoadError:
            continue  # _factory recorded it
    return chosen


def origin(task_id: str) -> str:
    """Where ``task_id`` was declared: a built-in family, an entry point (with its distribution), or
    :func:`register`."""
    return _declared_entry(resolve(task_id)).origin


def problems() -> list[str]:
    """What went wrong so far reading the declarations (a family table that cannot be loaded, an id declared twice
    or outside its family) and loading tasks, one line each; the tasks concerned are left out, every other one
    works."""
    with _lock:
        _load()
        return list(_problems)


def _declared_entry(task_id: str) -> _Declared:
    with _lock:
        return _declared[task_id]


def _factory(task_id: str) -> Callable[[], Task]:
    with _lock:
        if task_id not in _factories:
            declared = _declared[task_id]
            target = declared.entry.target
            if not isinstance(target, str):
                _factories[task_id] = target
                return target
            try:
                _factories[task_id] = _import_target(target, f"task '{task_id}' ({declared.origin})")
            except TaskLoadError as error:
                if str(error) not in _problems:
                    _problems.append(str(error))
                raise
        return _factories[task_id]


def _find(target: str, where: str) -> Any:
    """The object ``"module:attribute.path"`` names; :class:`TaskLoadError` naming ``where`` if it cannot."""
    module_name, _, attribute = target.partition(":")
    try:
        found: Any = importlib.import_module(module_name)
    except Exception as error:  # (any failure while importing someone's module is reported)
        raise TaskLoadError(f"{where}: cannot import {module_name!r}: {_one_line(error)}") from None
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise TaskLoadError(f"{where}: {module_name!r} has no attribute {attribute!r}") from None
    return found


def _import_target(target: str, where: str) -> Callable[[], Task]:
    """The task class or factory ``"module:attribute"`` names."""
    found = _find(target, where)
    if not callable(found):
        raise TaskLoadError(f"{where}: {target!r} is a {type(found).__name__}, not a task class or factory")
    return found


def _one_line(error: BaseException) -> str:
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _check_entry(task_id: str, entry: TaskEntry) -> None:
    if not _ID.match(task_id):
        raise ValueError(f"task id {task_id!r} is not of the form family/name-vN")
    target = entry.target
    if isinstance(target, str) and not _TARGET.match(target):
        raise ValueError(f"task {task_id!r}: target {target!r} is not of the form 'module:attribute'")
    if not isinstance(target, str) and not callable(target):
        raise ValueError(f"task {task_id!r}: target {target!r} is neither callable nor 'module:attribute'")


def _load() -> None:
    """Read the built-in tables and the installed entry points, once (the caller holds the lock)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for family, target in BUILTIN_FAMILIES.items():
        _add_family(family, target, f"the built-in family '{family}'")
    for point in _entry_points():
        where = f"entry point '{point.name} = {point.value}'{_distribution(point)}"
        target = f"{point.module}:{point.attr}" if point.attr else point.value  # extras ("[...]") dropped
        if "/" in point.name:
            _add_task(point.name, target, where)
        else:
            _add_family(point.name, target, where)


def _entry_points() -> Iterable[metadata.EntryPoint]:
    """The entry points of :data:`ENTRY_POINT_GROUP`, as ``importlib.metadata.entry_points(group=...)`` finds them
    (the first distribution of each name on the path), parsing only the files that name the group: most
    distributions declare none, and reading every declaration of about 200 of them was most of the look-up."""
    header = f"[{ENTRY_POINT_GROUP}]"
    found: list[metadata.EntryPoint] = []
    seen: set[str] = set()
    try:
        for distribution in metadata.distributions():
            name = getattr(distribution, "_normalized_name", None) or distribution.metadata["Name"]
            if name in seen:
                continue
            seen.add(name)
            text = distribution.read_text("entry_points.txt")
            if text and header in text:
                found.extend(distribution.entry_points.select(group=ENTRY_POINT_GROUP))
    except Exception as error:  # (a broken distribution on the path must not hide the built-ins)
        _problems.append(f"cannot read the installed entry points of '{ENTRY_POINT_GROUP}': {_one_line(error)}")
        return ()
    return found


def _distribution(point: metadata.EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f" of {dist.name} {dist.version}" if dist is not None else ""


def _add_task(task_id: str, target: object, where: str) -> None:
    entry = target if isinstance(target, TaskEntry) else TaskEntry(target)  # type: ignore[arg-type]
    try:
        _check_entry(task_id, entry)
    except ValueError as error:
        _problems.append(f"{where}: {error}; left out")
        return
    if task_id in _declared:
        _problems.append(f"{where}: task id '{task_id}' is already declared ({_declared[task_id].origin}); left out")
        return
    _declared[task_id] = _Declared(entry, where)


def _add_family(family: str, target: str, where: str) -> None:
    try:
        _declare_family(family, _family_table(target, where), where)
    except TaskLoadError as error:
        _broken_families.setdefault(family, error)
        _problems.append(str(error))


def _family_table(target: str, where: str) -> Mapping[Any, Any]:
    """The table ``target`` names: a mapping, or what the function it names returns."""
    if not _TARGET.match(target):
        raise TaskLoadError(f"{where}: {target!r} is not of the form 'module:attribute'")
    table = _find(target, where)
    if callable(table) and not isinstance(table, Mapping):
        try:
            table = table()
        except Exception as error:  # (a failing table function is reported like a failing import)
            raise TaskLoadError(f"{where}: cannot read its table of tasks: {_one_line(error)}") from None
    if not isinstance(table, Mapping):
        raise TaskLoadError(f"{where}: gives a {type(table).__name__}, not a table of task ids")
    return table


def _declare_family(family: str, table: Mapping[Any, Any], where: str) -> None:
    for task_id, entry in table.items():
        if not (isinstance(task_id, str) and task_id.startswith(f"{family}/")):
            _problems.append(f"{where}: task id {task_id!r} is not in the family '{family}/'; left out")
            continue
        _add_task(task_id, entry, where)
