"""``foldbench export`` (datasets for other tools) and ``foldbench export-runs`` (results as a table)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from foldbench.cli._common import console
from foldbench.cli.evaluate import DEFAULT_DB, ReadDbOption, _Bars
from foldbench.errors import FoldbenchError

__all__ = ["ExportFormat", "export_command", "export_runs_command"]


class ExportFormat(StrEnum):
    """What ``foldbench export`` writes."""

    hf = "hf"
    lmms_eval = "lmms-eval"
    vlmevalkit = "vlmevalkit"


def export_command(
    datasets: Annotated[list[Path], typer.Argument(help="Dataset directories ('foldbench generate').")],
    out: Annotated[
        str, typer.Option("--out", "-o", help="New directory to write (a path, or a URI such as s3://bucket/x).")
    ],
    format: Annotated[
        ExportFormat, typer.Option("--format", "-f", help="hf (Parquet + dataset card), lmms-eval or vlmevalkit.")
    ] = ExportFormat.hf,
    split: Annotated[str, typer.Option(help="The split the items form.")] = "test",
    license: Annotated[str, typer.Option(help="License named in the dataset card.")] = "mit",
) -> None:
    """Export datasets for other tools: Parquet shards with a Hugging Face dataset card, an lmms-eval task
    folder, or VLMEvalKit TSV files. The output directory must not exist; it appears only when complete."""
    bars = _Bars()
    try:
        if format is ExportFormat.hf:
            from foldbench.export.hf import export_hf

            records = export_hf(datasets, out, split=split, license=license, on_start=bars.start)
            summary = ", ".join(f"{r['config']} ({r['rows']} rows)" for r in records)
        elif format is ExportFormat.lmms_eval:
            from foldbench.export.lmms_eval import export_lmms_eval

            records = export_lmms_eval(datasets, out, split=split, license=license, on_start=bars.start)
            summary = ", ".join(f"{r['config']} ({r['rows']} rows)" for r in records)
        else:
            from foldbench.export.vlmevalkit import export_vlmevalkit

            written = export_vlmevalkit(datasets, out, on_start=bars.start)
            summary = ", ".join(f"{name} ({rows} rows)" for name, rows in written)
    finally:
        bars.close()
    console.print(f"wrote {summary} to {out}")


def export_runs_command(
    runs: Annotated[list[str], typer.Argument(help="Run names.")],
    out: Annotated[str, typer.Option("--out", "-o", help="The table to write: a .parquet or .csv file (or URI).")],
    db: ReadDbOption = str(DEFAULT_DB),
) -> None:
    """Write runs as one table, one row per item and run: task, model, modality, item metadata, every
    per-item metric, parse status, latency and tokens."""
    from foldbench.export.runs import export_runs
    from foldbench.storage import local_copy

    with local_copy(db, upload=False) as local:
        if not local.exists():
            raise FoldbenchError(f"no run store at {db}; run 'foldbench eval' first or pass --db")
        rows = export_runs(local, runs, out)
    console.print(f"wrote {rows} rows of {len(runs)} run(s) to {out}")
