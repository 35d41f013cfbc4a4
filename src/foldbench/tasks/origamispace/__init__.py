"""OrigamiSpace on the crease-pattern compiler: crease-pattern code generation (in context and with compiler
feedback), foldability questions and spatial-relationship questions. The multiple-choice tasks that need named fold
sequences (pattern prediction, multi-step ordering) and the code-writing RL environment are not built yet."""

from foldbench.tasks.origamispace.codegen import CodegenFeedbackTask, CodegenTask
from foldbench.tasks.origamispace.foldability import FoldabilityTask
from foldbench.tasks.origamispace.spatial_relationship import SpatialRelationshipTask
from foldbench.tasks.registry import register

__all__ = ["CodegenFeedbackTask", "CodegenTask", "FoldabilityTask", "SpatialRelationshipTask"]

register(CodegenTask.id, CodegenTask)
register(CodegenFeedbackTask.id, CodegenFeedbackTask)
register(FoldabilityTask.id, FoldabilityTask)
register(SpatialRelationshipTask.id, SpatialRelationshipTask)
