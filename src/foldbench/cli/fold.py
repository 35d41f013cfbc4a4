"""``foldbench fold``: compile crease patterns (the engine is imported only when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["fold"]


def fold(
    file: Annotated[Path, typer.Argument(help="A .fold/.cp/.opx/.svg crease pattern, or a folder of them.")],
    limit: Annotated[int | None, typer.Option(min=1, help="Cap on solutions searched per component.")] = None,
    state: Annotated[int, typer.Option(min=0, help="Which flat-folded state to export and render.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Folder for the FOLD state and renders.")] = None,
    svg: Annotated[bool, typer.Option("--svg", help="Write SVG renders.")] = False,
    png: Annotated[bool, typer.Option("--png", help="Write PNG renders.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object per file.")] = False,
    size: Annotated[int, typer.Option(min=16, max=8192, help="Render size in pixels.")] = 512,
    unique: Annotated[bool, typer.Option("--unique", help="Treat more than one state as an error (AFS).")] = False,
    repair: Annotated[
        bool, typer.Option("--repair", help="Split crossing edges of a FOLD file instead of rejecting it (CSE).")
    ] = False,
    timeout: Annotated[
        float,
        typer.Option(min=0.0, help="Seconds spent counting states per file; then 'at least N states' (0: no limit)."),
    ] = 60.0,
) -> None:
    """Compile a crease pattern: flat-foldability, folded states, layer order, or a precise error."""
    from foldbench.cli._fold_report import fold_command

    raise typer.Exit(fold_command(file, limit, state, out, svg, png, json_output, size, unique, repair, timeout))
