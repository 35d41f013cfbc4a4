"""OrigamiSpace on the crease-pattern compiler: crease-pattern code generation (in context and with compiler
feedback), foldability questions, pattern prediction and multi-step ordering. The spatial-relationship questions
and the code-writing RL environment are not built yet."""

from foldbench.tasks.origamispace.codegen import CodegenFeedbackTask, CodegenTask
from foldbench.tasks.origamispace.foldability import FoldabilityTask
from foldbench.tasks.origamispace.ordering import OrderingTask
from foldbench.tasks.origamispace.pattern_prediction import PatternPredictionTask
from foldbench.tasks.registry import register

__all__ = ["CodegenFeedbackTask", "CodegenTask", "FoldabilityTask", "OrderingTask", "PatternPredictionTask"]

register(CodegenTask.id, CodegenTask)
register(CodegenFeedbackTask.id, CodegenFeedbackTask)
register(FoldabilityTask.id, FoldabilityTask)
register(PatternPredictionTask.id, PatternPredictionTask)
register(OrderingTask.id, OrderingTask)
