"""``foldbench serve-human``: a local web page where people answer a dataset's items (human baselines)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from foldbench.cli._common import console
from foldbench.cli.evaluate import DEFAULT_DB, DbOption
from foldbench.errors import FoldbenchError

if TYPE_CHECKING:
    from foldbench.human.session import HumanSession

__all__ = ["serve_human_command", "build_session"]


def build_session(task: str, data: Path, run: str, db: Path, modality: str | None, limit: int | None) -> HumanSession:
    """The :class:`~foldbench.human.HumanSession` for a dataset (checked like ``foldbench eval`` checks it)."""
    from foldbench.harness.evaluation import load_dataset
    from foldbench.human.session import HumanSession

    loaded_task, items, manifest = load_dataset(task, data)
    modality = modality or manifest["modalities"][0]
    if modality not in manifest["modalities"]:
        raise FoldbenchError(
            f"{data} was generated with modalities {', '.join(manifest['modalities'])}, not {modality!r}"
        )
    if limit is not None:
        items = items[:limit]
    if not items:
        raise FoldbenchError(f"{data} holds no items")
    return HumanSession(task=loaded_task, items=items, data=data, db=db, run=run, modality=modality)


def serve_human_command(
    task: Annotated[str, typer.Option("--task", "-t", help="Task id, e.g. mentalblackboard/prediction.")],
    data: Annotated[Path, typer.Option("--data", "-d", help="The dataset directory ('foldbench generate').")],
    run: Annotated[str, typer.Option("--run", help="Run name; each participant's answers go to RUN-PARTICIPANT.")],
    modality: Annotated[str | None, typer.Option(help="What people are shown (default: the dataset's first).")] = None,
    host: Annotated[str, typer.Option(help="Address to listen on (loopback unless --allow-remote).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0 picks a free one).")] = 8765,
    allow_remote: Annotated[
        bool, typer.Option("--allow-remote", help="Allow a non-loopback --host; every URL then needs a token.")
    ] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N items.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Serve a dataset's items to people, one at a time in the model's modality; answers go to the run store."""
    from foldbench.human.server import make_server, serve

    session = build_session(task, data, run, db, modality, limit)
    server = make_server(session, host=host, port=port, allow_remote=allow_remote)
    address = server.server_address
    url = f"http://{host}:{address[1]}/"
    if server.token is not None:
        url += f"?token={server.token}"
    console.print(f"serving {len(session.items)} items of {session.task.id} ({session.modality}) at {url}")
    console.print("answers are stored in " + str(db) + f" as runs {run}-PARTICIPANT; Ctrl-C stops")
    try:
        serve(server)
    except KeyboardInterrupt:
        console.print("stopped; every answer given is stored")
