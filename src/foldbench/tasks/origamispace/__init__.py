"""OrigamiSpace on the crease-pattern compiler: crease-pattern code generation (in context and with compiler
feedback) and four choice tasks (foldability, pattern prediction, multi-step ordering, spatial relationships); the
code-writing RL environment is ``foldbench/CreasePatternCode-v1`` (:mod:`foldbench.envs.code_env`)."""

from foldbench.tasks.origamispace.codegen import CodegenFeedbackTask, CodegenTask
from foldbench.tasks.origamispace.foldability import FoldabilityTask
from foldbench.tasks.origamispace.ordering import OrderingTask
from foldbench.tasks.origamispace.pattern_prediction import PatternPredictionTask
from foldbench.tasks.origamispace.spatial_relationship import SpatialRelationshipTask
from foldbench.tasks.registry import register

__all__ = [
    "CodegenFeedbackTask",
    "CodegenTask",
    "FoldabilityTask",
    "OrderingTask",
    "PatternPredictionTask",
    "SpatialRelationshipTask",
]

register(CodegenTask.id, CodegenTask)
register(CodegenFeedbackTask.id, CodegenFeedbackTask)
register(FoldabilityTask.id, FoldabilityTask)
register(PatternPredictionTask.id, PatternPredictionTask)
register(OrderingTask.id, OrderingTask)
register(SpatialRelationshipTask.id, SpatialRelationshipTask)
