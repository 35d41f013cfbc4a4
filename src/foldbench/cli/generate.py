"""``foldbench generate``: write a benchmark dataset directory."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from foldbench.cli._common import console, int_list, progress_bar, split_list
from foldbench.errors import UsageError

if TYPE_CHECKING:
    from foldbench.tasks.dataset import ItemSource

__all__ = ["generate", "knob_options"]


def knob_options(options: list[str]) -> dict[str, Any]:
    """``["name=value", ...]`` as knobs (values read by :func:`~foldbench.tasks.knobs.knob_value`).

    >>> knob_options(["size=256", "sides=back", "groups=1,2"])
    {'size': 256, 'sides': 'back', 'groups': '1,2'}
    """
    from foldbench.tasks.knobs import knob_value

    knobs: dict[str, Any] = {}
    for option in options:
        name, equals, value = option.partition("=")
        if not equals or not name.strip():
            raise typer.BadParameter(f"--knob takes NAME=VALUE, got {option!r}", param_hint="'--knob'")
        if name.strip() in knobs:
            raise typer.BadParameter(f"knob {name.strip()!r} is given twice", param_hint="'--knob'")
        knobs[name.strip()] = knob_value(value.strip())
    return knobs


@contextmanager
def _item_source(executor: str, workers: int, ray_address: str | None) -> Iterator[ItemSource]:
    """The item source ``--executor`` names; Ray is joined for as long as it is used."""
    from foldbench.tasks.dataset import local_items

    if executor == "local":
        yield local_items
    elif executor == "ray":
        from foldbench.integrations.ray_generate import ray_item_source

        with ray_item_source(workers=workers, address=ray_address) as source:
            yield source
    else:
        raise UsageError(f"--executor must be local or ray, got {executor!r}")


def generate(
    family: Annotated[str, typer.Argument(help="Task family, e.g. 'mentalblackboard'.")],
    task: Annotated[str, typer.Option("--task", "-t", help="Task in the family: prediction, planning, ...")],
    out: Annotated[
        str,
        typer.Option(
            "--out", "-o", help="Directory to write the dataset into: a path, or a URI such as s3://bucket/data."
        ),
    ],
    n: Annotated[int, typer.Option("-n", min=1, help="Number of items.")] = 50,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, max=2**63 - 1, help="Seed; the same seed gives the same bytes.")
    ] = 0,
    modality: Annotated[
        str | None,
        typer.Option("--modality", "-m", help="text, image, video, frames (comma-separated; default: the first)."),
    ] = None,
    groups: Annotated[str | None, typer.Option(help="Configuration groups 1-9 to draw from, e.g. '1,2,5'.")] = None,
    folds: Annotated[str | None, typer.Option(help="Planning: fold counts to draw from, e.g. '1,2'.")] = None,
    sides: Annotated[
        str | None, typer.Option(help="Fold sides: front (-F), back (-B) or mixed; default per task.")
    ] = None,
    size: Annotated[
        int | None, typer.Option(help="Picture size in pixels for image/video/frames (default 512).")
    ] = None,
    fps: Annotated[int | None, typer.Option(min=1, max=240, help="Video frame rate (default 24).")] = None,
    knob: Annotated[
        list[str] | None,
        typer.Option(
            "--knob",
            "-k",
            help="Any knob of the task as NAME=VALUE (repeatable), e.g. subtasks=1-fold,2-fold or panels=false; "
            "'foldbench tasks --knobs' lists every task's knobs.",
        ),
    ] = None,
    split: Annotated[
        str | None, typer.Option(help="PFP: generate only this split (train, validation or test), exactly -n items.")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing dataset in --out.")] = False,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes (same bytes as with one).")] = 1,
    executor: Annotated[
        str, typer.Option(help="local (processes on this machine) or ray (Ray tasks; needs foldbench[ray]).")
    ] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="With --executor ray: a running cluster's HOST:PORT or 'auto' (default: local).")
    ] = None,
) -> None:
    """Generate a dataset: items.jsonl, images and a manifest, deterministic from --seed. Knobs are checked
    against the task's schema before anything is written."""
    from foldbench.tasks import make
    from foldbench.tasks.dataset import write_dataset
    from foldbench.tasks.knobs import parse_knobs

    task_name = task if "/" in task else f"{family}/{task}"
    modalities = tuple(split_list(modality)) or make(task_name).modalities[:1]
    knobs: dict[str, Any] = knob_options(knob or [])
    named = {"groups": groups, "folds": folds, "sides": sides, "size": size, "fps": fps, "split": split}
    clash = sorted(name for name, value in named.items() if value is not None and name in knobs)
    if clash:
        raise typer.BadParameter(f"--{clash[0]} and --knob {clash[0]}=... both set the knob", param_hint="'--knob'")
    if groups:
        knobs["groups"] = int_list(groups, "--groups")
    if folds:
        knobs["folds"] = int_list(folds, "--folds")
    if sides:
        knobs["sides"] = sides
    if size is not None:
        knobs["size"] = size
    if fps is not None:
        knobs["fps"] = fps
    if split is not None:
        knobs["split"] = split
    chosen = make(task_name)
    knobs = parse_knobs(chosen.knob_schema, chosen.id, knobs).given()  # lists as lists in the manifest
    with _item_source(executor, workers, ray_address) as source, progress_bar(f"generating {task_name}", n) as bar:
        manifest = write_dataset(
            task_name,
            out,
            n=n,
            seed=seed,
            modalities=modalities,
            knobs=knobs,
            overwrite=overwrite,
            on_item=lambda _item: bar.advance(bar.task_ids[0]),
            workers=workers,
            source=source,
        )
    console.print(
        f"wrote {manifest['items_written']} items of {manifest['task']} "
        f"({', '.join(modalities)}; {manifest['files']['assets']} files) to {out}"
    )
