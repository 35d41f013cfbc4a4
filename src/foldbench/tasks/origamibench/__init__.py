"""OrigamiBench: the interactive synthesis task (an agent folds a square toward a target, one crease action a
turn) and one-step multiple choice on the built-in fold sequences (associative and causal variants).

Importing this package imports no engine: it declares its tasks (``TASK_TABLE``, read by
:mod:`foldbench.tasks.registry`) and imports each task class when it is first used.
"""

from foldbench.tasks.lazy import lazy_exports
from foldbench.tasks.registry import TaskEntry, entry_of

__all__ = ["TASK_TABLE", "AssociativeTask", "CausalTask", "OneStepTask", "SynthesisTask"]

_PACKAGE = "foldbench.tasks.origamibench"
_SOURCES = {
    "AssociativeTask": f"{_PACKAGE}.one_step",
    "CausalTask": f"{_PACKAGE}.one_step",
    "OneStepTask": f"{_PACKAGE}.one_step",
    "SynthesisTask": f"{_PACKAGE}.synthesis",
}

#: The family's tasks: id -> where the class is, and whether ``foldbench suite`` runs it by default.
TASK_TABLE: dict[str, TaskEntry] = {
    "origamibench/one-step-associative-v5": entry_of(_SOURCES, "AssociativeTask"),
    "origamibench/one-step-causal-v4": entry_of(_SOURCES, "CausalTask"),
    "origamibench/synthesis-v1": entry_of(_SOURCES, "SynthesisTask"),
}

__getattr__, __dir__ = lazy_exports(__name__, _SOURCES)
