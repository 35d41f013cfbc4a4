"""MentalBlackboard: the paper folding and hole punching test (prediction, backward prediction, planning,
generalization)."""

from foldbench.tasks.mentalblackboard.tasks import (
    BackwardPredictionTask,
    GeneralizationTask,
    PlanningTask,
    PredictionTask,
)
from foldbench.tasks.registry import register

__all__ = ["PredictionTask", "BackwardPredictionTask", "PlanningTask", "GeneralizationTask"]

for _task in (PredictionTask, BackwardPredictionTask, PlanningTask, GeneralizationTask):
    register(_task.id, _task)
