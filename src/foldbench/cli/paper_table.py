"""``foldbench paper-table FAMILY RUN...``: runs laid out as the family's paper's main results table(s)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer

from foldbench.cli._common import console
from foldbench.cli.evaluate import DEFAULT_DB, ReadDbOption
from foldbench.errors import FoldbenchError, UsageError

if TYPE_CHECKING:
    from foldbench.harness.paper_tables import TableFormat

__all__ = ["paper_table_command"]


def paper_table_command(
    family: Annotated[str, typer.Argument(help="mentalblackboard, pfp, origamibench or origamispace.")],
    runs: Annotated[list[str], typer.Argument(help="Run names (one row per model; a model's runs fill its row).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="markdown, csv or latex.")] = "markdown",
    table: Annotated[
        str | None, typer.Option("--table", help="Only this table of the paper (table1, table2; default: every one).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of printing.")] = None,
    label: Annotated[
        list[str] | None,
        typer.Option("--label", help="MODEL=NAME: print a model's row under the paper's name for it (repeatable)."),
    ] = None,
    db: ReadDbOption = str(DEFAULT_DB),
) -> None:
    """Print runs in the layout of the paper's main results table: its rows, columns and units, in Markdown, CSV
    or LaTeX, to sit beside the published numbers. A run asked several times (eval --repeats) is combined as the
    paper combines its runs (mean, mean ± std, or the best run)."""
    from foldbench.harness import Store
    from foldbench.harness.paper_tables import FORMATS, family_tables, fill_table, render, run_infos, task_name
    from foldbench.storage import local_copy

    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    names = _labels(label or [])
    tables = family_tables(family)
    if table is not None:
        chosen = [t for t in tables if t.key == table]
        if not chosen:
            raise UsageError(f"{family} has no {table!r} (tables: {', '.join(t.key for t in tables)})")
        tables = tuple(chosen)
    with local_copy(db, upload=False) as local:
        if not local.exists():
            raise FoldbenchError(f"no run store at {db}; run 'foldbench eval' first or pass --db")
        with Store(local) as store:
            infos = run_infos(store, runs)
            filled = [f for t in tables if (f := fill_table(store, t, infos)) is not None]
    used = {run for f in filled for run in f.runs}
    unused = [info for info in infos if info.name not in used]
    if unused:
        first = unused[0]
        accepted = sorted({(task, tuple(s.modalities)) for t in tables for s in t.sections for task in s.tasks})
        listed = ", ".join(task + (f" ({'/'.join(m)})" if m else "") for task, m in accepted)
        raise UsageError(
            f"run '{first.name}' ({task_name(first.task)}, {first.modality}) has no place in the {family} paper "
            f"table(s); they take {listed}"
        )
    text = "\n".join(render(f.relabelled(names), cast("TableFormat", fmt)) for f in filled)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")
    else:
        typer.echo(text, nl=False)


def _labels(pairs: list[str]) -> dict[str, str]:
    """``["openai:gpt-4o=GPT-4o"]`` -> ``{"openai:gpt-4o": "GPT-4o"}``; a clear error for a pair without ``=``."""
    names = {}
    for pair in pairs:
        model, sep, name = pair.rpartition("=")
        if not sep or not model or not name:
            raise UsageError(f"--label takes MODEL=NAME, got {pair!r}")
        names[model] = name
    return names
