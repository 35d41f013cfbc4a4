"""Benchmark task families. Importing this package registers every built-in task."""

from foldbench.tasks.base import Item, Task
from foldbench.tasks.registry import make, register, resolve, task_ids

__all__ = ["Item", "Task", "make", "register", "resolve", "task_ids"]

from foldbench.tasks import mentalblackboard as _mentalblackboard  # noqa: F401  (registers its tasks)
from foldbench.tasks import origamibench as _origamibench  # noqa: F401  (registers its tasks)
from foldbench.tasks import origamispace as _origamispace  # noqa: F401  (registers its tasks)
from foldbench.tasks import pfp as _pfp  # noqa: F401  (registers its tasks)
from foldbench.tasks.pfp import perception as _pfp_perception  # noqa: F401  (registers pfp/single-step-perception)
