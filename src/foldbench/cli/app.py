"""The root ``foldbench`` app: mounts every subcommand and turns every error a user can cause into one line.

:func:`main` runs the app with click's standalone mode off, so that a usage error (a bad option value, a
missing argument, an unknown option) reaches it as an exception instead of being drawn as a box; it prints that
error, and every :class:`~foldbench.errors.FoldbenchError`, as one ``error: ...`` line on stderr and exits 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.text import Text

try:  # typer >= 0.22 ships its own copy of click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import ClickException, UsageError  # type: ignore[no-redef,import-not-found]

from foldbench import __version__
from foldbench.cli._common import err_console
from foldbench.cli.audit import audit
from foldbench.cli.env import env_app
from foldbench.cli.evaluate import compare_command, eval_command, report_command, suite_command
from foldbench.cli.export import export_command, export_runs_command
from foldbench.cli.fold import fold
from foldbench.cli.generate import generate
from foldbench.cli.human import serve_human_command
from foldbench.cli.importing import import_app
from foldbench.cli.pft import pft_app
from foldbench.errors import FoldbenchError

__all__ = ["app", "main"]

app = typer.Typer(
    name="foldbench",
    help="Build, run and score paper-folding and origami spatial-reasoning benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("suite")(suite_command)
app.command("generate")(generate)
app.command("eval")(eval_command)
app.command("report")(report_command)
app.command("compare")(compare_command)
app.command("export")(export_command)
app.command("export-runs")(export_runs_command)
app.command("fold")(fold)
app.command("audit")(audit)
app.command("serve-human")(serve_human_command)
app.add_typer(pft_app, name="pft")
app.add_typer(env_app, name="env")
app.add_typer(import_app, name="import")


@app.command("tasks")
def list_tasks(
    knobs: Annotated[bool, typer.Option("--knobs", help="Also list each task's knobs ('generate --knob').")] = False,
) -> None:
    """List the registered task ids (and, with --knobs, the knobs each one's generator takes)."""
    from foldbench.tasks import make, task_ids
    from foldbench.tasks.knobs import knob_infos

    for task_id in task_ids():
        typer.echo(task_id)
        if knobs:
            for info in knob_infos(make(task_id).knob_schema):
                default = f", default {info.default}" if info.default else ""
                typer.echo(f"  {info.name} ({info.type}{default}): {info.description}")


@app.command("version")
def version() -> None:
    """Print foldbench's version."""
    typer.echo(__version__)


USAGE_EXIT_CODE = 2


def usage_message(error: ClickException) -> str:
    """One line for a click error: the command, what is wrong, and where to read the usage.

    >>> usage_message(UsageError("Missing argument 'RUNS...'."))
    "Missing argument 'RUNS...'."
    """
    message = " ".join(error.format_message().split())
    ctx = getattr(error, "ctx", None)
    if isinstance(error, UsageError) and ctx is not None:
        return f"{ctx.command_path}: {message} (see '{ctx.command_path} --help')"
    return message


def _fail(message: str, code: int = USAGE_EXIT_CODE) -> None:
    err_console.print(Text("error: ", style="bold red") + Text(message))
    sys.exit(code)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``foldbench`` script (``argv`` defaults to the process's arguments)."""
    try:
        code = app(args=list(argv) if argv is not None else None, prog_name="foldbench", standalone_mode=False)
    except UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # a bare command group: show its help
            typer.echo(error.format_message(), err=True)
            sys.exit(USAGE_EXIT_CODE)
        _fail(usage_message(error))
    except ClickException as error:
        _fail(usage_message(error))
    except FoldbenchError as error:
        _fail(str(error))
    except (KeyboardInterrupt, typer.Abort):
        err_console.print("interrupted")
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
