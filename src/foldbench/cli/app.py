"""The root ``foldbench`` app: mounts every subcommand and turns every error a user can cause into one line.

:func:`main` runs the app with click's standalone mode off, so that a usage error (a bad option value, a
missing argument, an unknown option) reaches it as an exception instead of being drawn as a box; it prints that
error, and every :class:`~foldbench.errors.UsageError` (an unknown name, a knob out of range), as one ``error: ...``
line on stderr and exits 2; any other :class:`~foldbench.errors.FoldbenchError` (bad data: a file, a record, a
dataset, a pattern) is one line too, exit 1. An :class:`OSError` (a path that is a file where a folder is needed,
a folder that cannot be written, ...) is one line naming the path, exit 1. Anything else is a bug: one line
saying where its traceback was written, exit 1; ``foldbench --debug ...`` prints the traceback instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer

try:  # typer >= 0.22 ships its own copy of click
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import ClickException, UsageError  # type: ignore[no-redef,import-not-found]

from foldbench import __version__
from foldbench.cli import _common
from foldbench.cli._lazy_group import LazyCommand, LazyGroup
from foldbench.errors import FoldbenchError
from foldbench.errors import UsageError as ArgumentError

__all__ = ["COMMANDS", "app", "main"]

COMMANDS: dict[str, LazyCommand] = {
    name: LazyCommand(f"foldbench.cli.{module}", attribute, short_help)
    for name, module, attribute, short_help in [
        ("suite", "evaluate", "suite_command", "The main job: generate a small suite of every registered task, "
         "evaluate the baselines (and any --model) in every modality each task has, write every report and a "
         "summary."),
        ("generate", "generate", "generate",
         "Generate a dataset: items.jsonl, images and a manifest, deterministic from --seed."),
        ("eval", "evaluate", "eval_command",
         "Evaluate a model on a dataset; every reply is stored, so re-running the command resumes the run."),
        ("report", "evaluate", "report_command", "Write a run's report (Markdown and a self-contained HTML page)."),
        ("compare", "evaluate", "compare_command", "Print the runs' overall metrics side by side (percentages)."),
        ("paper-table", "paper_table", "paper_table_command", "Print runs in the layout of the paper's main "
         "results table: its rows, columns and units, in Markdown, CSV or LaTeX, to sit beside the published "
         "numbers."),
        ("export", "export", "export_command", "Export datasets for other tools: Parquet shards with a Hugging "
         "Face dataset card, an lmms-eval task folder, or VLMEvalKit TSV files."),
        ("export-runs", "export", "export_runs_command", "Write runs as one table, one row per item and run: "
         "task, model, modality, item metadata, every per-item metric, parse status, latency and tokens."),
        ("fold", "fold", "fold",
         "Compile a crease pattern: flat-foldability, folded states, layer order, or a precise error."),
        ("audit", "audit", "audit",
         "Score blind baselines (options only, never the question) and flag any that beat or miss chance."),
        ("serve-human", "human", "serve_human_command", "Serve a dataset's items to people, one at a time in "
         "the model's modality; answers go to the run store."),
        ("pft", "pft", "pft_app", "The paper folding test engine (MentalBlackboard)."),
        ("env", "env", "env_app", "The OrigamiBench synthesis environment."),
        ("import", "importing", "import_app", "Make a dataset of a benchmark's published items."),
    ]
}
"""Every subcommand but ``tasks`` and ``version``: its module is imported when it runs, never before."""


class _RootGroup(LazyGroup):
    lazy_commands = COMMANDS


app = typer.Typer(
    name="foldbench",
    help="Build, run and score paper-folding and origami spatial-reasoning benchmarks.",
    cls=_RootGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.command("tasks")
def list_tasks(
    knobs: Annotated[bool, typer.Option("--knobs", help="Also list each task's knobs ('generate --knob').")] = False,
) -> None:
    """List the registered task ids (and, with --knobs, the knobs each one's generator takes); a task left out of
    the default suite says so beside its id, and a declared task or family that cannot be loaded is a warning."""
    from foldbench.tasks.knobs import knob_infos
    from foldbench.tasks.registry import TaskLoadError, make, problems, runs_in_default_suite, task_ids

    for task_id in task_ids():
        try:
            note = "" if runs_in_default_suite(task_id) else f"  (not in the default suite: suite --tasks {task_id})"
            infos = knob_infos(make(task_id).knob_schema) if knobs else []
        except TaskLoadError:
            typer.echo(f"{task_id}  (cannot be loaded; see the warning)")
            continue
        typer.echo(task_id + note)
        for info in infos:
            default = f", default {info.default}" if info.default else ""
            typer.echo(f"  {info.name} ({info.type}{default}): {info.description}")
    for problem in problems():
        _common.warn(problem)


@app.command("version")
def version() -> None:
    """Print foldbench's version."""
    typer.echo(__version__)


USAGE_EXIT_CODE = 2
FAILURE_EXIT_CODE = 1
DEBUG_FLAG = "--debug"


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
    from rich.text import Text

    _common.err_console.print(Text("error: ", style="bold red") + Text(message))
    sys.exit(code)


def os_error_message(error: OSError) -> str:
    """One line for an operating-system error about a user's path: the path, then what is wrong with it.

    >>> os_error_message(NotADirectoryError(20, "Not a directory", "afile/sub"))
    'afile/sub: not a directory'
    >>> os_error_message(OSError("disk on fire"))
    'disk on fire'
    """
    if error.filename is None or not error.strerror:
        return str(error)
    where = str(error.filename) + (f" -> {error.filename2}" if error.filename2 is not None else "")
    return f"{where}: {error.strerror[:1].lower()}{error.strerror[1:]}"


def _traceback_file(error: BaseException) -> str:
    """Write the traceback of an unexpected error where the user can read it; returns that path."""
    import tempfile
    import traceback
    from pathlib import Path

    text = "".join(traceback.format_exception(error))
    for folder in (None, tempfile.gettempdir()):
        try:
            if folder is None:
                from foldbench.cache import cache_root

                target = cache_root() / "last-error.txt"
                target.parent.mkdir(parents=True, exist_ok=True)
            else:
                target = Path(folder) / "foldbench-last-error.txt"
            target.write_text(text, encoding="utf-8")
            return str(target)
        except OSError:
            continue
    return "(nowhere writable)"


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``foldbench`` script (``argv`` defaults to the process's arguments).

    A leading ``--debug`` lets unexpected errors print their traceback.
    """
    args = list(argv) if argv is not None else sys.argv[1:]
    debug = bool(args) and args[0] == DEBUG_FLAG
    if debug:
        args = args[1:]
    try:
        code = app(args=args, prog_name="foldbench", standalone_mode=False)
    except UsageError as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # a bare command group: show its help
            typer.echo(error.format_message(), err=True)
            sys.exit(USAGE_EXIT_CODE)
        _fail(usage_message(error))
    except ClickException as error:
        _fail(usage_message(error))
    except ArgumentError as error:
        _fail(str(error))
    except FoldbenchError as error:
        _fail(str(error), FAILURE_EXIT_CODE)
    except (KeyboardInterrupt, typer.Abort):
        _common.err_console.print("interrupted")
        sys.exit(130)
    except OSError as error:
        _fail(os_error_message(error), FAILURE_EXIT_CODE)
    except RecursionError:
        _fail("the input is nested too deeply to read", FAILURE_EXIT_CODE)
    except Exception as error:
        if debug:
            raise
        where = _traceback_file(error)
        message = " ".join(str(error).split())[:300]
        _fail(f"unexpected {type(error).__name__}: {message} (a bug in foldbench; traceback in {where}; "
              f"'foldbench {DEBUG_FLAG} ...' prints it)", FAILURE_EXIT_CODE)
    sys.exit(code if isinstance(code, int) else 0)
