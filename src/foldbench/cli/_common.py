"""Shared pieces of the command line: consoles, option parsing, progress bars."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer
from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress

__all__ = ["console", "err_console", "split_list", "int_list", "progress_bar", "warn"]

console = Console(highlight=False, soft_wrap=True, emoji=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


def warn(message: str) -> None:
    """Print ``warning: message`` on stderr, as one line (no markup read from ``message``)."""
    from rich.text import Text

    err_console.print(Text("warning: ", style="bold yellow") + Text(message))


def split_list(value: str | None) -> list[str]:
    """``"a, b,c"`` -> ``["a", "b", "c"]``; None or empty -> ``[]``."""
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]


def int_list(value: str | None, option: str) -> list[int]:
    """A comma-separated list of integers, or a clear usage error naming the option."""
    try:
        return [int(part) for part in split_list(value)]
    except ValueError:
        raise typer.BadParameter(f"{option} takes comma-separated integers, got {value!r}") from None


@contextmanager
def progress_bar(description: str, total: int) -> Iterator[Progress]:
    """A rich progress bar on stderr (it disappears when the work is done)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    ) as progress:
        progress.add_task(description, total=total)
        yield progress
