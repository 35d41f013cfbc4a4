"""Benchmark task families: the task protocol and the registry of task ids.

Importing this package imports no family and no engine: the registry knows every built-in task id from the
families' light tables (and a third-party family's from its entry point), and ``make(id)`` imports a task's module
when the task is first made (:mod:`foldbench.tasks.registry`).
"""

from foldbench.tasks.base import Item, Task
from foldbench.tasks.registry import make, register, resolve, task_ids

__all__ = ["Item", "Task", "make", "register", "resolve", "task_ids"]
