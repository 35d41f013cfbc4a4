"""Paper Folding Puzzles' main results tables (papers 001/002, Tables 1 and 2).

Table 1: single-step reasoning by fold count and multi-step reasoning by base shape; Table 2: inverse reasoning
by fold count, 3D folding and 2D unfolding by difficulty. Each with an overall column per task. Percentages with
two decimals; a run asked several times shows its best repeat (the one with the highest overall accuracy), as
the papers report the best of three runs. The papers' closed-/open-source blocks are not known to foldbench:
rows are one block.
"""

from __future__ import annotations

from foldbench.harness.paper_tables.layout import Column, PaperTable, Section, cell
from foldbench.tasks.choice_question import ChoiceQuestion

__all__ = ["METRICS", "TABLES"]

SINGLE = "pfp/single-step"
MULTI = "pfp/multi-step"
INVERSE = "pfp/inverse"
FOLDING = "pfp/folding-3d"
UNFOLDING = "pfp/unfolding-2d"

#: The metric every cell reads (each task's accuracy), and the item metadata keys its breakdown cells select on
#: (the subtask's is the choice-item contract's): the one place to update when a name changes.
METRICS = {"accuracy": "accuracy", "subtask": ChoiceQuestion.SUBTASK_KEY, "base shape": "sheet"}


def _task_columns(group: str, task: str, key: str, cells: tuple[tuple[str, str], ...]) -> tuple[Column, ...]:
    """One group of columns: a cell per (header, metadata value), then the task's overall accuracy."""
    parts = [cell((group, header), task, METRICS["accuracy"], where=(METRICS[key], value)) for header, value in cells]
    return (*parts, cell((group, "Overall"), task, METRICS["accuracy"]))


TABLE_1 = PaperTable(
    key="table1",
    title="Paper Folding Puzzles, Table 1: single-step and multi-step sequential reasoning",
    note="Accuracy (%) by subtask; a run with repeats shows its best repeat, as the paper (best of three runs).",
    columns=(
        *_task_columns(
            "Single-Step Reasoning",
            SINGLE,
            "subtask",
            (("1-Fold", "1-fold"), ("2-Fold", "2-fold"), ("3-Fold", "3-fold"), ("Others", "others")),
        ),
        *_task_columns(
            "Multi-Step Reasoning",
            MULTI,
            "base shape",
            (
                ("Circle", "circle"),
                ("Hexagon", "hexagon"),
                ("House", "house"),
                ("Rectangle", "rectangle"),
                ("Square", "square"),
            ),
        ),
    ),  # fmt: skip
    sections=(Section(None, (SINGLE, MULTI)),),
    repeats="best",
)

TABLE_2 = PaperTable(
    key="table2",
    title="Paper Folding Puzzles, Table 2: inverse, 3D folding and 2D unfolding reasoning",
    note="Accuracy (%) by subtask; a run with repeats shows its best repeat, as the paper (best of three runs).",
    columns=(
        *_task_columns(
            "Inverse Reasoning", INVERSE, "subtask", (("1-Fold", "1-fold"), ("2-Fold", "2-fold"), ("Others", "others"))
        ),
        *_task_columns("3D Folding", FOLDING, "subtask", (("Easy", "easy"), ("Hard", "hard"))),
        *_task_columns("2D Unfolding", UNFOLDING, "subtask", (("Easy", "easy"), ("Hard", "hard"))),
    ),  # fmt: skip
    sections=(Section(None, (INVERSE, FOLDING, UNFOLDING)),),
    repeats="best",
)

TABLES = (TABLE_1, TABLE_2)
