"""MentalBlackboard: the paper folding and hole punching test (prediction, backward prediction, planning,
generalization), and perception probes on the same configurations.

Importing this package imports no engine: it declares its tasks (``TASK_TABLE``, read by
:mod:`foldbench.tasks.registry`) and imports each task class when it is first used.
"""

from foldbench.tasks.lazy import lazy_exports
from foldbench.tasks.registry import TaskEntry, entry_of

__all__ = [
    "TASK_TABLE",
    "BackwardPredictionTask",
    "GeneralizationTask",
    "PerceptionTask",
    "PlanningTask",
    "PredictionTask",
]

_PACKAGE = "foldbench.tasks.mentalblackboard"
_SOURCES = {
    "PredictionTask": f"{_PACKAGE}.tasks",
    "BackwardPredictionTask": f"{_PACKAGE}.tasks",
    "PlanningTask": f"{_PACKAGE}.tasks",
    "GeneralizationTask": f"{_PACKAGE}.tasks",
    "PerceptionTask": f"{_PACKAGE}.perception",
}

#: The family's tasks: id -> where the class is, and whether ``foldbench suite`` runs it by default.
TASK_TABLE: dict[str, TaskEntry] = {
    "mentalblackboard/prediction-v1": entry_of(_SOURCES, "PredictionTask"),
    "mentalblackboard/backward-prediction-v1": entry_of(_SOURCES, "BackwardPredictionTask"),
    "mentalblackboard/planning-v1": entry_of(_SOURCES, "PlanningTask"),
    "mentalblackboard/generalization-v1": entry_of(_SOURCES, "GeneralizationTask"),
    "mentalblackboard/perception-v2": entry_of(_SOURCES, "PerceptionTask"),
}

__getattr__, __dir__ = lazy_exports(__name__, _SOURCES)
