"""Paper Folding Puzzles: the papers' five multiple-choice tasks (single-step, multi-step and inverse fold-and-cut
reasoning, 3D folding of cube nets, 2D unfolding of cubes) and final-fold (the paper after three folds), every
item verified by the exact engines."""

from foldbench.tasks.choice import Choice, parse_choice, score_choice
from foldbench.tasks.pfp.common import MAX_TRIES, SPLIT_SIZES, PfpTaskBase, split_of
from foldbench.tasks.pfp.cube_tasks import FoldingTask, UnfoldingTask
from foldbench.tasks.pfp.fold_tasks import FinalFoldTask, InverseTask, SingleStepTask
from foldbench.tasks.pfp.missing_step import MissingStepTask
from foldbench.tasks.pfp.missing_step_strict import MissingStepStrictTask
from foldbench.tasks.registry import register

__all__ = [
    "MAX_TRIES",
    "SPLIT_SIZES",
    "TASKS",
    "Choice",
    "FinalFoldTask",
    "FoldingTask",
    "InverseTask",
    "MissingStepStrictTask",
    "MissingStepTask",
    "PfpTaskBase",
    "SingleStepTask",
    "UnfoldingTask",
    "parse_choice",
    "score_choice",
    "split_of",
]

TASKS: tuple[type[PfpTaskBase], ...] = (
    SingleStepTask,
    MissingStepTask,
    MissingStepStrictTask,
    InverseTask,
    FoldingTask,
    UnfoldingTask,
    FinalFoldTask,
)

for _task in TASKS:
    register(_task.id, _task)
