"""OrigamiSpace on the crease-pattern compiler: crease-pattern code generation (in context and with compiler
feedback) and four choice tasks (foldability, pattern prediction, multi-step ordering, spatial relationships); the
code-writing RL environment is ``foldbench/CreasePatternCode-v1`` (:mod:`foldbench.envs.code_env`).

Importing this package imports no engine: it declares its tasks (``TASK_TABLE``, read by
:mod:`foldbench.tasks.registry`) and imports each task class when it is first used.
"""

from foldbench.tasks.lazy import lazy_exports
from foldbench.tasks.registry import TaskEntry, entry_of

__all__ = [
    "TASK_TABLE",
    "CodegenFeedbackTask",
    "CodegenTask",
    "FoldabilityTask",
    "OrderingTask",
    "PatternPredictionTask",
    "SpatialRelationshipTask",
]

_PACKAGE = "foldbench.tasks.origamispace"
_SOURCES = {
    "CodegenTask": f"{_PACKAGE}.codegen",
    "CodegenFeedbackTask": f"{_PACKAGE}.codegen",
    "FoldabilityTask": f"{_PACKAGE}.foldability",
    "PatternPredictionTask": f"{_PACKAGE}.pattern_prediction",
    "OrderingTask": f"{_PACKAGE}.ordering",
    "SpatialRelationshipTask": f"{_PACKAGE}.spatial_relationship",
}

#: The family's tasks: id -> where the class is, and whether ``foldbench suite`` runs it by default.
TASK_TABLE: dict[str, TaskEntry] = {
    "origamispace/codegen-v1": entry_of(_SOURCES, "CodegenTask"),
    "origamispace/codegen-feedback-v1": entry_of(_SOURCES, "CodegenFeedbackTask"),
    "origamispace/foldability-v2": entry_of(_SOURCES, "FoldabilityTask"),
    "origamispace/pattern-prediction-v2": entry_of(_SOURCES, "PatternPredictionTask"),
    "origamispace/multi-step-ordering-v3": entry_of(_SOURCES, "OrderingTask"),
    "origamispace/spatial-relationship-v3": entry_of(_SOURCES, "SpatialRelationshipTask"),
}

__getattr__, __dir__ = lazy_exports(__name__, _SOURCES)
