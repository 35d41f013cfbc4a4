"""Paper Folding Puzzles: the papers' five multiple-choice tasks (single-step, multi-step and inverse fold-and-cut
reasoning, 3D folding of cube nets, 2D unfolding of cubes) and final-fold (the paper after three folds), every
item verified by the exact engines; and the single-step perception probe.

Importing this package imports no engine: it declares its tasks (``TASK_TABLE``, read by
:mod:`foldbench.tasks.registry`) and imports each task class (and the other names below) when it is first used.
"""

from typing import Any

from foldbench.tasks.lazy import lazy_exports
from foldbench.tasks.registry import TaskEntry, entry_of

__all__ = [
    "MAX_TRIES",
    "SPLIT_SIZES",
    "TASKS",
    "TASK_TABLE",
    "Choice",
    "FinalFoldTask",
    "FoldingTask",
    "InverseTask",
    "MissingStepStrictTask",
    "MissingStepTask",
    "PfpPerceptionTask",
    "PfpTaskBase",
    "SingleStepTask",
    "UnfoldingTask",
    "parse_choice",
    "score_choice",
    "split_of",
]

_PACKAGE = "foldbench.tasks.pfp"
_SOURCES = {
    "SingleStepTask": f"{_PACKAGE}.fold_tasks",
    "MissingStepTask": f"{_PACKAGE}.missing_step",
    "MissingStepStrictTask": f"{_PACKAGE}.missing_step_strict",
    "InverseTask": f"{_PACKAGE}.fold_tasks",
    "FoldingTask": f"{_PACKAGE}.cube_tasks",
    "UnfoldingTask": f"{_PACKAGE}.cube_tasks",
    "FinalFoldTask": f"{_PACKAGE}.fold_tasks",
    "PfpPerceptionTask": f"{_PACKAGE}.perception",
    "MAX_TRIES": f"{_PACKAGE}.common",
    "SPLIT_SIZES": f"{_PACKAGE}.common",
    "PfpTaskBase": f"{_PACKAGE}.common",
    "split_of": f"{_PACKAGE}.common",
    "Choice": "foldbench.tasks.choice",
    "parse_choice": "foldbench.tasks.choice",
    "score_choice": "foldbench.tasks.choice",
}

#: The family's tasks: id -> where the class is, and whether ``foldbench suite`` runs it by default (final-fold
#: fails the audit, so it runs only when named).
TASK_TABLE: dict[str, TaskEntry] = {
    "pfp/single-step-v2": entry_of(_SOURCES, "SingleStepTask"),
    "pfp/multi-step-v6": entry_of(_SOURCES, "MissingStepTask"),
    "pfp/missing-step-strict-v1": entry_of(_SOURCES, "MissingStepStrictTask"),
    "pfp/inverse-v4": entry_of(_SOURCES, "InverseTask"),
    "pfp/folding-3d-v2": entry_of(_SOURCES, "FoldingTask"),
    "pfp/unfolding-2d-v2": entry_of(_SOURCES, "UnfoldingTask"),
    "pfp/final-fold-v4": entry_of(_SOURCES, "FinalFoldTask", in_default_suite=False),
    "pfp/single-step-perception-v2": entry_of(_SOURCES, "PfpPerceptionTask"),
}

#: The classes of the papers' tasks and final-fold (not the perception probe), in the papers' order.
_TASK_CLASSES = (
    "SingleStepTask",
    "MissingStepTask",
    "MissingStepStrictTask",
    "InverseTask",
    "FoldingTask",
    "UnfoldingTask",
    "FinalFoldTask",
)

_lazy_getattr, _lazy_dir = lazy_exports(__name__, _SOURCES)


def __getattr__(name: str) -> Any:
    if name == "TASKS":  # tuple[type[PfpTaskBase], ...]
        global TASKS
        TASKS = tuple(_lazy_getattr(task) for task in _TASK_CLASSES)
        return TASKS
    return _lazy_getattr(name)


def __dir__() -> list[str]:
    return sorted({*_lazy_dir(), "TASKS"})
