"""``foldbench eval``, ``report``, ``compare`` and ``suite``: run models on datasets and report the results."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from foldbench.cli import _common
from foldbench.cli._common import progress_bar, split_list, warn
from foldbench.errors import FoldbenchError
from foldbench.errors import UsageError as ArgumentError

if TYPE_CHECKING:
    from rich.table import Table

    from foldbench.harness.config import EvalConfig, ExecutorName
    from foldbench.harness.runner import RunSummary

__all__ = ["eval_command", "report_command", "compare_command", "suite_command", "overview_table", "DEFAULT_DB"]

DEFAULT_DB = Path("runs/foldbench.db")

DbOption = Annotated[Path, typer.Option("--db", help="The SQLite run store.")]
ReadDbOption = Annotated[
    str, typer.Option("--db", help="The SQLite run store: a path, or a URI such as s3://bucket/runs.db (read only).")
]


#: Environment variables by which rich may draw on a stream that is not a terminal.
_TERMINAL_OVERRIDES = ("FORCE_COLOR", "TTY_COMPATIBLE")


def _stderr_may_be_drawn_on() -> bool:
    """Whether a progress bar could show on stderr: it is a terminal, or the environment may tell rich to draw.
    When not, no bar is made and rich is not imported (a script's or CI's eval)."""
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        terminal = bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        terminal = False
    return terminal or any(name in os.environ for name in _TERMINAL_OVERRIDES)


def _no_advance() -> None:
    """The advance function of a bar that is not drawn."""


class _Bars:
    """One progress bar at a time: starting the next closes the previous one."""

    def __init__(self) -> None:
        self._current = ExitStack()

    def start(self, description: str, total: int) -> Callable[[], None]:
        """Show a bar for ``description``; returns its advance function."""
        self._current.close()
        self._current = ExitStack()
        if not _stderr_may_be_drawn_on():
            return _no_advance
        progress = self._current.enter_context(progress_bar(description, total))
        task_id = progress.task_ids[-1]
        return lambda: progress.advance(task_id)

    def close(self) -> None:
        """Close the bar shown."""
        self._current.close()


BaseUrlOption = Annotated[
    str | None, typer.Option(help="OpenAI-compatible server for openai:NAME models, e.g. http://127.0.0.1:8000/v1.")
]
ApiKeyEnvOption = Annotated[str, typer.Option(help="Environment variable holding the API key.")]
ConcurrencyOption = Annotated[int, typer.Option(min=1, help="Requests in flight at once.")]
RepeatsOption = Annotated[
    int,
    typer.Option(
        min=1,
        help="Ask each item N times (each asking stored on its own; reports give mean ± std over the repeats "
        "and the best of N). Raising N later asks only the new repeats.",
    ),
]
TemperatureOption = Annotated[float | None, typer.Option(min=0.0, help="Sampling temperature.")]
MaxTokensOption = Annotated[int | None, typer.Option(min=1, help="Completion token limit.")]
TimeoutOption = Annotated[float | None, typer.Option(min=0.001, help="Seconds per request attempt.")]
ExecutorOption = Annotated[
    str, typer.Option(help="local, or ray (requests sent by Ray workers; needs foldbench[ray]).")
]
WorkersOption = Annotated[int, typer.Option(min=1, help="With --executor ray: Ray workers sending requests.")]
RayAddressOption = Annotated[
    str | None, typer.Option(help="With --executor ray: a running cluster's HOST:PORT or 'auto' (default: local).")
]


def run_eval(config: EvalConfig, *, on_run_start: Callable[[], None] | None = None) -> tuple[str, RunSummary]:
    """:func:`foldbench.harness.evaluation.run_dataset` of ``config`` with a progress bar, through the executor its
    options name; ``config.data`` may be an ``--format hf`` export (read as the dataset it came from).
    ``on_run_start()`` is called once the dataset is loaded and checked, as the first request is about to go."""
    from foldbench.harness.evaluation import run_dataset
    from foldbench.integrations.executors import executor_for
    from foldbench.tasks.dataset import MANIFEST_FILE

    if not (config.data / MANIFEST_FILE).exists() and config.data.is_dir():  # perhaps an export: its reader decides
        from foldbench.export.hf_read import dataset_directory
        from foldbench.tasks import resolve

        config = replace(config, data=dataset_directory(config.data, resolve(config.task)))
    bars = _Bars()

    def on_start(run_name: str, total: int) -> Callable[[], None]:
        if on_run_start is not None:
            on_run_start()
        return bars.start(run_name, total)

    try:
        with executor_for(config.options) as executor:
            return run_dataset(config, executor=executor, on_start=on_start)
    finally:
        bars.close()


@contextmanager
def _no_collection_while_loading() -> Iterator[Callable[[], None]]:
    """Pause the cyclic garbage collector while an eval imports its modules and reads its items; the function it
    gives, called when the run starts, sets what was loaded aside from later collections (``gc.freeze``) and
    resumes collecting. Loading makes few cycles, and collecting while hundreds of thousands of objects are made
    took about a twentieth of a 1,000-item text eval's CPU (``bench/bench_eval_process.py``). The collector is as
    it was when the command ends (frozen objects are handed back)."""
    enabled = gc.isenabled()
    frozen: list[bool] = []

    def run_starts() -> None:
        if not frozen:
            gc.freeze()
            frozen.append(True)
        if enabled:
            gc.enable()

    gc.disable()
    try:
        yield run_starts
    finally:
        if frozen:
            gc.unfreeze()
        if enabled:
            gc.enable()


def eval_command(
    task: Annotated[str, typer.Option("--task", "-t", help="Task id, e.g. mentalblackboard/prediction.")],
    data: Annotated[Path, typer.Option("--data", "-d", help="The dataset directory ('foldbench generate').")],
    model: Annotated[str, typer.Option("--model", "-m", help="random, oracle, openai:NAME or transformers:PATH.")],
    run: Annotated[str | None, typer.Option("--run", help="Run name (default: task-modality-model).")] = None,
    modality: Annotated[str | None, typer.Option(help="text or image (default: the dataset's first).")] = None,
    base_url: BaseUrlOption = None,
    api_key_env: ApiKeyEnvOption = "OPENAI_API_KEY",
    concurrency: ConcurrencyOption = 8,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N items.")] = None,
    repeats: RepeatsOption = 1,
    temperature: TemperatureOption = None,
    max_tokens: MaxTokensOption = None,
    timeout: TimeoutOption = None,
    seed: Annotated[int, typer.Option(min=0, max=2**63 - 1, help="Seed of the random baseline.")] = 0,
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="The SQLite run store: a path, or a URI such as s3://bucket/runs.db (downloaded for the run and "
            "uploaded again when it ends).",
        ),
    ] = str(DEFAULT_DB),
    executor: ExecutorOption = "local",
    workers: WorkersOption = 2,
    ray_address: RayAddressOption = None,
) -> None:
    """Evaluate a model on a dataset; every reply is stored, so re-running the command resumes the run."""
    from foldbench.harness import summary_line
    from foldbench.harness.config import EvalConfig, RunOptions
    from foldbench.storage import local_copy

    options = RunOptions(
        base_url=base_url, api_key_env=api_key_env, concurrency=concurrency, repeats=repeats, seed=seed,
        temperature=temperature, max_tokens=max_tokens, timeout_s=timeout, executor=_executor_name(executor),
        workers=workers, ray_address=ray_address,
    )  # fmt: skip
    with local_copy(db) as local_db, _no_collection_while_loading() as run_starts:
        config = EvalConfig(
            task=task, data=data, model=model, db=local_db, run_name=run, modality=modality, limit=limit,
            options=options,
        )  # fmt: skip
        _, summary = run_eval(config, on_run_start=run_starts)
    typer.echo(summary_line(summary))


def _executor_name(executor: str) -> ExecutorName:
    """``--executor`` as one of :data:`~foldbench.harness.config.EXECUTORS` (a one-line error otherwise)."""
    from foldbench.harness.config import EXECUTORS

    for name in EXECUTORS:
        if executor == name:
            return name
    raise ArgumentError(f"--executor must be local or ray, got {executor!r}")


def report_command(
    run: Annotated[str, typer.Argument(help="The run name.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Directory for report.md / report.html.")] = None,
    pair: Annotated[
        list[str] | None,
        typer.Option(
            "--pair",
            help="Another run to read item by item with this one: perception probes beside reasoning on the same "
            "configurations, or per-item agreement for a run of the same task (people and a model); repeatable.",
        ),
    ] = None,
    db: ReadDbOption = str(DEFAULT_DB),
    from_table: Annotated[
        str | None,
        typer.Option("--from", help="Read the run from a table written by 'foldbench export-runs' instead of --db."),
    ] = None,
) -> None:
    """Write a run's report (Markdown and a self-contained HTML page)."""
    import tempfile

    from foldbench.harness import Store
    from foldbench.harness.report import write_report
    from foldbench.storage import is_uri, local_copy
    from foldbench.tasks import make
    from foldbench.tasks.dataset import read_items

    with tempfile.TemporaryDirectory(prefix="foldbench-table-") as scratch, local_copy(db, upload=False) as local:
        if from_table is not None:
            from foldbench.export.runs import read_run_table, store_from_table

            store_path, default_out = Path(scratch) / "table.db", Path("reports") / run
            store_from_table(read_run_table(from_table), store_path)
        else:
            store_path = local
            default_out = Path("reports") / run if is_uri(db) else Path(db).parent / "reports" / run
        if not store_path.exists():
            raise FoldbenchError(f"no run store at {db}; run 'foldbench eval' first or pass --db")
        with Store(store_path) as store:
            info = store.run(run)
            if info is None:
                known = ", ".join(r.name for r in store.runs()) or "none"
                raise FoldbenchError(f"no run named '{run}' in {from_table or db} (runs: {known})")
            task = make(info.task)
            dataset = Path(info.dataset)
            items = read_items(dataset) if (dataset / "manifest.json").exists() else []
            markdown, html = write_report(store, run, out or default_out, task=task, items=items)
            if pair:
                from foldbench.harness.pairing import pair_runs, pairing_markdown

                text = pairing_markdown([pair_runs(store, run, other) for other in pair])
                (markdown.parent / "pairing.md").write_text(text, encoding="utf-8")
                _common.console.print(text)
    _common.console.print(f"wrote {markdown} and {html}" + (f" and {markdown.parent / 'pairing.md'}" if pair else ""))


def compare_command(
    runs: Annotated[list[str], typer.Argument(help="Run names.")],
    db: ReadDbOption = str(DEFAULT_DB),
) -> None:
    """Print the runs' overall metrics side by side (percentages)."""
    from rich import box
    from rich.table import Table

    from foldbench.harness import Store
    from foldbench.harness.report import compare_runs
    from foldbench.storage import local_copy

    with local_copy(db, upload=False) as local:
        if not local.exists():
            raise FoldbenchError(f"no run store at {db}; run 'foldbench eval' first or pass --db")
        with Store(local) as store:
            header, rows = compare_runs(store, runs)
    labels = [chr(ord("A") + index) if index < 26 else f"R{index}" for index in range(len(runs))]
    for label, run in zip(labels, runs, strict=True):
        _common.console.print(f"{label} = {run}")
    paired = len(header) - 1 - len(runs)
    columns = ["metric", *labels, *[f"{label} − A" for label in labels[1 : 1 + paired]]]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(columns[0], no_wrap=True)
    for name in columns[1:]:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*row)
    _common.console.print(table)
    _common.console.print(
        "Percentages with 95 % intervals; differences in percentage points over the items both runs scored "
        "(paired bootstrap)." if paired else "Percentages with 95 % intervals."
    )
    if any("×" in cell for cell in rows[0][1:]):
        _common.console.print(
            "A run asked several times (n = items × repeats) shows mean ± std over its repeats and the best "
            "repeat's value (the repeat with the highest headline); paired differences use the first asking."
        )


def suite_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for datasets, the run store and reports.")],
    n: Annotated[int, typer.Option("-n", min=1, help="Items per task (video datasets hold at most 5).")] = 20,
    seed: Annotated[int, typer.Option(min=0, max=2**63 - 1, help="Dataset seed.")] = 0,
    tasks: Annotated[
        str | None,
        typer.Option(help="Comma-separated task names (family/name); default every task of the default suite."),
    ] = None,
    modality: Annotated[
        str | None,
        typer.Option(help="Comma-separated modalities; default every one each task has (video with foldbench[video])."),
    ] = None,
    model: Annotated[
        list[str] | None, typer.Option("--model", "-m", help="Extra model(s) besides the baselines.")
    ] = None,
    base_url: BaseUrlOption = None,
    api_key_env: ApiKeyEnvOption = "OPENAI_API_KEY",
    concurrency: ConcurrencyOption = 8,
    repeats: RepeatsOption = 1,
    temperature: TemperatureOption = None,
    max_tokens: MaxTokensOption = None,
    timeout: TimeoutOption = None,
    executor: Annotated[
        str,
        typer.Option(
            help="local, or ray (the --model requests sent by Ray workers; needs foldbench[ray]); the baselines "
            "run locally."
        ),
    ] = "local",
    workers: WorkersOption = 2,
    ray_address: RayAddressOption = None,
) -> None:
    """The main job: generate a small suite of every registered task, evaluate the baselines (and any --model) in
    every modality each task has, write every report and a summary."""
    from foldbench.harness.config import RunOptions
    from foldbench.harness.suite import plan_suite, run_suite
    from foldbench.integrations.executors import executor_for
    from foldbench.tasks.registry import problems

    options = RunOptions(
        base_url=base_url, api_key_env=api_key_env, concurrency=concurrency, repeats=repeats,
        temperature=temperature, max_tokens=max_tokens, timeout_s=timeout, executor=_executor_name(executor),
        workers=workers, ray_address=ray_address,
    )  # fmt: skip
    parts = plan_suite(
        n, tasks=split_list(tasks) if tasks else None, modalities=split_list(modality) if modality else None
    )
    for problem in problems():
        warn(problem)
    bars = _Bars()
    try:
        with executor_for(options) as runs_on:
            run_names, header, rows = run_suite(
                out, parts, seed=seed, models=model or [], options=options, executor=runs_on, on_start=bars.start
            )
    finally:
        bars.close()
    _common.console.print(overview_table(header, rows))
    _common.console.print(f"wrote {out / 'summary.md'} and {len(run_names)} reports under {out / 'reports'}")


def overview_table(header: list[str], rows: list[list[str]]) -> Table:
    """The suite summary for a terminal: fits 80 columns (task names without family and version; long cells
    wrap rather than being cut)."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
    for index, name in enumerate(header):
        # task names, headline names and figures stay on one line; modality and model names wrap if they must
        wraps = index in (1, 2)
        table.add_column(name, overflow="fold", no_wrap=not wraps, min_width=len(name) if index == 1 else None)
    names = [row[0].split("/")[-1].rsplit("-v", 1)[0] for row in rows]
    short = len(set(names)) == len({row[0] for row in rows})
    for name, row in zip(names, rows, strict=True):
        table.add_row(name if short else row[0], *row[1:])
    return table
