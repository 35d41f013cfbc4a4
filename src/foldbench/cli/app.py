"""The root ``foldbench`` app: mounts every subcommand and turns foldbench errors into one-line messages."""

from __future__ import annotations

import sys

import typer
from rich.text import Text

from foldbench import __version__
from foldbench.cli._common import err_console
from foldbench.cli.audit import audit
from foldbench.cli.evaluate import compare_command, eval_command, report_command, suite_command
from foldbench.cli.fold import fold
from foldbench.cli.generate import generate
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
app.command("fold")(fold)
app.command("audit")(audit)
app.add_typer(pft_app, name="pft")


@app.command("tasks")
def list_tasks() -> None:
    """List the registered task ids."""
    from foldbench.tasks import task_ids

    for task_id in task_ids():
        typer.echo(task_id)


@app.command("version")
def version() -> None:
    """Print foldbench's version."""
    typer.echo(__version__)


def main() -> None:
    """Entry point of the ``foldbench`` script."""
    try:
        app()
    except FoldbenchError as error:
        err_console.print(Text("error: ", style="bold red") + Text(str(error)))
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
