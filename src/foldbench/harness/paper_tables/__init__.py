"""Runs laid out as the papers' main results tables (``foldbench paper-table FAMILY RUN...``).

Each family's tables live in their own module (:mod:`.mentalblackboard`, :mod:`.pfp`, :mod:`.origamibench`,
:mod:`.origamispace`), declared as data (:mod:`.layout`) with one mapping from the paper's cells to foldbench's
metric names; :func:`fill_table` fills one from stored runs and :func:`render` writes it as Markdown, CSV or LaTeX.
"""

from __future__ import annotations

from foldbench.errors import UnknownNameError
from foldbench.harness.paper_tables import mentalblackboard, origamibench, origamispace, pfp
from foldbench.harness.paper_tables.build import FilledTable, fill_table, run_infos
from foldbench.harness.paper_tables.layout import Column, PaperTable, Section, task_name
from foldbench.harness.paper_tables.render import FORMATS, TableFormat, render

__all__ = [
    "FAMILIES",
    "FORMATS",
    "Column",
    "FilledTable",
    "PaperTable",
    "Section",
    "TableFormat",
    "fill_table",
    "family_tables",
    "render",
    "run_infos",
    "task_name",
]

#: Each family's paper tables, in the paper's order.
FAMILIES: dict[str, tuple[PaperTable, ...]] = {
    "mentalblackboard": mentalblackboard.TABLES,
    "pfp": pfp.TABLES,
    "origamibench": origamibench.TABLES,
    "origamispace": origamispace.TABLES,
}


def family_tables(family: str) -> tuple[PaperTable, ...]:
    """The tables of ``family``; an error with a "did you mean" for an unknown one."""
    if family not in FAMILIES:
        raise UnknownNameError("family", family, FAMILIES)
    return FAMILIES[family]
