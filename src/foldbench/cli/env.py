"""``foldbench env run``: play episodes of the synthesis environment with a baseline policy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

__all__ = ["env_app"]

env_app = typer.Typer(help="The OrigamiBench synthesis environment.", no_args_is_help=True,
                      rich_markup_mode=None)


@env_app.command("run")
def run(
    target: Annotated[
        Path | None, typer.Option(help="A .fold/.cp/.opx/.svg pattern of a square (default: random simple folds).")
    ] = None,
    policy: Annotated[
        str, typer.Option(help="random (valid lattice creases) or oracle (the target's own fold steps).")
    ] = "random",
    episodes: Annotated[int, typer.Option(min=1, help="Episodes to play.")] = 1,
    budget: Annotated[int, typer.Option(min=1, max=100, help="Steps per episode (10 or 25 as published).")] = 10,
    folds: Annotated[int, typer.Option(min=1, max=8, help="Folds of a random target.")] = 2,
    seed: Annotated[int, typer.Option(min=0, max=2**63 - 1, help="Seed of the targets and of the random policy.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Folder for each episode's final .fold and picture strip.")] = None,
) -> None:
    """Play episodes and print GS, raster GS, SS and QE for each."""
    from foldbench.cli._env_run import run_episodes

    if policy not in ("random", "oracle"):
        raise typer.BadParameter(f"--policy is random or oracle, got {policy!r}", param_hint="'--policy'")
    chosen: Literal["random", "oracle"] = "random" if policy == "random" else "oracle"
    run_episodes(target, chosen, episodes, budget, folds, seed, out)
