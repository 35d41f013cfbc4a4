"""MentalBlackboard: the paper folding and hole punching test (prediction, backward prediction, planning,
generalization), and perception probes on the same configurations."""

from foldbench.tasks.mentalblackboard.perception import PerceptionTask
from foldbench.tasks.mentalblackboard.tasks import (
    BackwardPredictionTask,
    GeneralizationTask,
    PlanningTask,
    PredictionTask,
)
from foldbench.tasks.registry import register

__all__ = ["PerceptionTask", "PredictionTask", "BackwardPredictionTask", "PlanningTask", "GeneralizationTask"]

for _task in (PerceptionTask, PredictionTask, BackwardPredictionTask, PlanningTask, GeneralizationTask):
    register(_task.id, _task)
