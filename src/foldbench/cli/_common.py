"""Shared pieces of the command line: consoles, option parsing, progress bars.

``console`` (stdout) and ``err_console`` (stderr) are rich consoles made on first use, so a command that prints
nothing through them never imports rich.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

__all__ = ["console", "err_console", "split_list", "int_list", "progress_bar", "warn"]

console: Console  # made by __getattr__ on first use
err_console: Console
_CONSOLE_STDERR = {"console": False, "err_console": True}


def __getattr__(name: str) -> Any:
    """``console`` and ``err_console``, made on first use (PEP 562)."""
    if name not in _CONSOLE_STDERR:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rich.console import Console

    made = Console(stderr=_CONSOLE_STDERR[name], highlight=False, soft_wrap=True, emoji=False)
    globals()[name] = made
    return made


def _err_console() -> Console:
    return globals().get("err_console") or __getattr__("err_console")


def warn(message: str) -> None:
    """Print ``warning: message`` on stderr, as one line (no markup read from ``message``)."""
    from rich.text import Text

    _err_console().print(Text("warning: ", style="bold yellow") + Text(message))


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
        console=_err_console(),
        transient=True,
        disable=not _err_console().is_terminal,
    ) as progress:
        progress.add_task(description, total=total)
        yield progress
