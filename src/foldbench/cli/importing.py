"""``foldbench import``: datasets made of a benchmark's published items, so a model can be run on exactly them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from foldbench.cli._common import console, err_console, progress_bar, split_list

__all__ = ["import_app"]

import_app = typer.Typer(help="Make a dataset of a benchmark's published items.", no_args_is_help=True,
                         rich_markup_mode=None)

_MENTALBLACKBOARD_TASKS = ("prediction", "backward-prediction", "planning", "generalization")


@import_app.command("mentalblackboard")
def import_mentalblackboard(
    file: Annotated[Path, typer.Argument(help="A published records file (a JSON list), e.g. PFHP_Planning_Data.json.")],
    task: Annotated[
        str, typer.Option("--task", "-t", help="prediction, backward-prediction, planning, generalization.")
    ],
    out: Annotated[str, typer.Option("--out", "-o", help="Directory to write the dataset into.")],
    modality: Annotated[
        str | None, typer.Option("--modality", "-m", help="text, image, video, frames (comma-separated; default text).")
    ] = None,
    prompt: Annotated[str | None, typer.Option(help="paper (default) or hints: how the prompts are worded.")] = None,
    size: Annotated[
        int | None, typer.Option(help="Picture size in pixels for image/video/frames (default 512).")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing dataset in --out.")] = False,
) -> None:
    """One item per published record (generalization: per reference/target pair), in the file's order, with the
    engine's answer; says where a record's own answer differs from the engine's."""
    from foldbench.tasks.dataset import write_dataset
    from foldbench.tasks.mentalblackboard.published import answer_differences, load_records, usable_records

    if task not in _MENTALBLACKBOARD_TASKS:
        raise typer.BadParameter(
            f"must be one of {', '.join(_MENTALBLACKBOARD_TASKS)}, got {task!r}", param_hint="'--task'"
        )
    path = str(file.resolve())
    records = load_records(path)
    entries, skipped = usable_records(task, path)
    n = len(entries)
    if not n:
        first = f": {skipped[0]}" if skipped else ""
        raise typer.BadParameter(f"{file} makes no {task} item{first}", param_hint="'FILE'")
    knobs: dict[str, object] = {"records": path}
    if prompt is not None:
        knobs["prompt"] = prompt
    if size is not None:
        knobs["size"] = size
    modalities = tuple(split_list(modality)) or ("text",)
    with progress_bar(f"importing {file.name}", n) as progress:
        manifest = write_dataset(
            f"mentalblackboard/{task}",
            out,
            n=n,
            seed=0,
            modalities=modalities,
            knobs=knobs,
            overwrite=overwrite,
            on_item=lambda _item: progress.advance(progress.task_ids[0]),
        )
    differences = answer_differences(records)
    console.print(
        f"wrote {manifest['items_written']} items of {manifest['task']} from {len(records)} records "
        f"({', '.join(modalities)}) to {out}"
    )
    if skipped:
        err_console.print(f"{len(skipped)} item(s) left out: the engine cannot solve their records:")
        for line in skipped[:10]:
            err_console.print(f"  {line}")
    if differences:
        err_console.print(f"{len(differences)} record answer(s) differ from the engine's; the items use the engine's:")
        for line in differences[:10]:
            err_console.print(f"  {line}")
    else:
        console.print("every solved record's answer is the engine's")
