"""What a paper's results table looks like, declared as data: its sections, its columns and the metric that fills
each cell.

A family module (``mentalblackboard.py``, ``pfp.py``, ...) declares its paper's main tables with these records and
nothing else; :mod:`foldbench.harness.paper_tables.build` fills them from stored runs and
:mod:`foldbench.harness.paper_tables.render` writes them out. Rows are models: one row per model name in each
section, its cells read from that model's runs of the tasks the columns name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["CellRule", "Column", "PaperTable", "RepeatRule", "Section", "cell", "task_name"]

#: How a run asked several times fills a cell: ``mean_std`` the mean ± sample std over repeats (OrigamiSpace's
#: "average of three runs"), ``mean`` the mean alone, ``best`` the repeat with the highest headline (Paper Folding
#: Puzzles' "best of three runs"), ``pool`` every repeat's items together.
RepeatRule = Literal["mean_std", "mean", "best", "pool"]

#: What a cell shows of its metric: ``value`` the metric over the items; ``complement`` one minus it (a rate of
#: *no* error, as OrigamiSpace's compilation columns); ``items_mean_std`` the mean ± sample std over items (as
#: OrigamiBench's Table 2 gives each metric over its episodes); ``seconds_per_turn`` the mean reply latency per
#: conversation turn of the run (no metric: the model's time per step, where the paper's Time also counts the
#: environment's).
CellRule = Literal["value", "complement", "items_mean_std", "seconds_per_turn"]


def task_name(task_id: str) -> str:
    """A task id without its version: ``pfp/single-step-v2`` -> ``pfp/single-step``.

    >>> task_name("origamispace/codegen-feedback-v1"), task_name("pfp/inverse")
    ('origamispace/codegen-feedback', 'pfp/inverse')
    """
    stem, _, version = task_id.rpartition("-v")
    return stem if stem and version.isdigit() else task_id


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a paper's table.

    Attributes:
        header: its header, outermost group first (``("Hole Count Errors (%)", "Extra")``); a shorter header than
            the table's others spans the header rows below it.
        tasks: the tasks (without version) whose runs fill it (a row takes the first of them its model ran; more
            than one when sections of different tasks share the column).
        metric: the metric of that task shown, or None for a column foldbench cannot fill (printed as a dash).
        rule: what of the metric is shown (see :data:`CellRule`).
        where: only the items whose metadata ``key`` equals ``value`` (a breakdown cell, e.g. ``("subtask",
            "1-fold")``).
        compiled_only: only the items whose value of this metric is 1 (e.g. OrigamiSpace's similarity dimensions
            "over compiled answers": ``"pass_rate"``).
        modalities: the modalities in which the paper filled it (a dash in the others, e.g. MentalBlackboard's
            direction in text); empty for all.
        metric_in: (modality, metric) pairs: the metric read instead in runs of that modality (e.g. a
            direction-blind metric in text, where the paper's scoring ignores direction).
    """

    header: tuple[str, ...]
    tasks: tuple[str, ...]
    metric: str | None
    rule: CellRule = "value"
    where: tuple[str, str | int] | None = None
    compiled_only: str | None = None
    modalities: tuple[str, ...] = ()
    metric_in: tuple[tuple[str, str], ...] = ()

    def metric_for(self, modality: str) -> str | None:
        """The metric this column reads in a run of ``modality``."""
        return dict(self.metric_in).get(modality, self.metric)


def cell(
    header: tuple[str, ...],
    task: str | tuple[str, ...],
    metric: str | None,
    *,
    rule: CellRule = "value",
    where: tuple[str, str | int] | None = None,
    compiled_only: str | None = None,
    modalities: tuple[str, ...] = (),
    metric_in: Mapping[str, str] | None = None,
) -> Column:
    """A :class:`Column` (a shorter spelling for the family modules' declarations)."""
    tasks = (task,) if isinstance(task, str) else tuple(task)
    instead = tuple(sorted((metric_in or {}).items()))
    return Column(header, tasks, metric, rule, where, compiled_only, modalities, instead)


@dataclass(frozen=True, slots=True)
class Section:
    """A block of rows under its own label, holding the runs of some tasks (and modalities).

    Attributes:
        label: the label the paper prints above the block (None: no label).
        tasks: the tasks (without version) whose runs belong here.
        modalities: the run modalities that belong here (empty: any).
    """

    label: str | None
    tasks: tuple[str, ...]
    modalities: tuple[str, ...] = ()

    def holds(self, task: str, modality: str) -> bool:
        """Whether a run of ``task`` (without version) in ``modality`` belongs to this section."""
        return task in self.tasks and (not self.modalities or modality in self.modalities)


@dataclass(frozen=True, slots=True)
class PaperTable:
    """One results table of a paper, as foldbench fills it.

    Attributes:
        key: a short name to pick it on the command line (``table2``).
        title: the paper and table it mirrors.
        note: what the numbers are, and how foldbench's differ from the paper's (printed under the table).
        columns: its columns in the paper's order (the model column comes first and is not listed).
        sections: its row blocks in the paper's order (empty ones are left out).
        repeats: how a run asked several times fills a cell (see :data:`RepeatRule`).
        scale / digits / suffix: how a value in [0, 1] is printed (``100``, ``2``, ``""`` gives ``41.67``).
        row_header: the header of the first column.
    """

    key: str
    title: str
    note: str
    columns: tuple[Column, ...]
    sections: tuple[Section, ...]
    repeats: RepeatRule = "mean"
    scale: float = 100.0
    digits: int = 2
    suffix: str = ""
    row_header: str = "Model"
    tasks: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        tasks = tuple(dict.fromkeys(t for s in self.sections for t in s.tasks))
        object.__setattr__(self, "tasks", tasks)
        unknown = {t for c in self.columns for t in c.tasks} - set(tasks)
        if unknown:
            raise ValueError(f"{self.key}: columns read tasks no section holds: {sorted(unknown)}")

    @property
    def header_levels(self) -> int:
        """How many header rows the table has (a column with fewer levels spans the rows below its name)."""
        return max(len(c.header) for c in self.columns)

    def section_of(self, task: str, modality: str) -> Section | None:
        """The section a run of ``task`` in ``modality`` goes to, or None."""
        return next((s for s in self.sections if s.holds(task, modality)), None)
