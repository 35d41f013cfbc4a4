"""``foldbench fold``: compile crease patterns, print a summary or JSON, write renders and FOLD states.

:func:`fold_command` is the whole command as a plain function (returns the exit code);
:mod:`foldbench.cli.fold` declares its options. The compiling itself is
:func:`foldbench.crease.summary.compile_with_summary`; this module only prints, shows progress and writes files.
Errors a user can cause print as one line (no traceback) and make the exit code non-zero; a folder is compiled
file by file and every file is reported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from foldbench.crease.budget import StageCallback
from foldbench.crease.compiler import CompiledFold
from foldbench.crease.io.importers import SUPPORTED_SUFFIXES
from foldbench.crease.layers.solver import ProgressCallback
from foldbench.crease.summary import compile_with_summary

__all__ = ["DEFAULT_TIMEOUT", "fold_command", "fold_file_report"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
DEFAULT_TIMEOUT: float = 60.0
"""Seconds ``foldbench fold`` spends on one file by default, every stage included (the library has no budget)."""
MAX_TIMEOUT: float = 1e9
"""Longer budgets (``--timeout inf``, more than thirty years) mean no budget, as 0 does: the process's interval
timer cannot count that far."""


def fold_file_report(
    path: Path, *, limit: int | None, state: int, out: Path | None, svg: bool, png: bool, size: int,
    require_unique: bool, repair: bool = False, timeout: float | None = None,
    progress: ProgressCallback | None = None, on_stage: StageCallback | None = None,
) -> tuple[dict[str, Any], CompiledFold | None]:
    """Compile one file and write the requested outputs; return the JSON report (with ``error``) and result.

    ``timeout`` bounds every stage of the file (see :func:`~foldbench.crease.summary.compile_with_summary`).
    """
    summary, compiled = compile_with_summary(path, limit=limit, budget=timeout, require_unique=require_unique,
                                             repair=repair, progress=progress, on_stage=on_stage)
    report: dict[str, Any] = {"file": str(path), **summary}
    if compiled is None:
        return report, None
    if not 0 <= state < compiled.state_count:
        report["error"] = {"class": "USAGE", "code": "E_STATE_OUT_OF_RANGE",
                           "message": f"--state {state} does not exist ({compiled.state_count} states)",
                           "where": {"state": state}}
        return report, compiled
    if out is not None:
        report["written"] = [str(p) for p in _write_outputs(compiled, path, out, state, svg, png, size)]
    return report, compiled


def _write_outputs(compiled: CompiledFold, path: Path, out: Path, state: int, svg: bool, png: bool,
                   size: int) -> list[Path]:
    from foldbench.crease import render

    out.mkdir(parents=True, exist_ok=True)
    stem = path.stem
    written = [out / f"{stem}.state{state}.fold"]
    written[0].write_text(json.dumps(compiled.fold_document(state, title=stem), indent=1), encoding="utf-8")
    if svg:
        written.append(render.save_image(render.crease_pattern_svg(compiled.pattern, size), out / f"{stem}.cp.svg"))
        for side in ("front", "back"):
            written.append(render.save_image(render.folded_state_svg(compiled, state, side, size),
                                             out / f"{stem}.state{state}.{side}.svg"))
    if png:
        written.append(render.save_image(render.crease_pattern_png(compiled.pattern, size), out / f"{stem}.cp.png"))
        for side in ("front", "back"):
            written.append(render.save_image(render.folded_state_png(compiled, state, side, size),  # type: ignore[arg-type]
                                             out / f"{stem}.state{state}.{side}.png"))
    return written


def _states_text(report: dict[str, Any]) -> str:
    if report.get("stopped"):
        return f"at least {report['states']} states; search stopped after {report['search_seconds']:.1f} s"
    return f"states {report['states']}{' (limited)' if report['limited'] else ''}"


def _summary_line(report: dict[str, Any]) -> str:
    name = Path(report["file"]).name
    error = report["error"]
    if error is not None and report.get("states") is None and report.get("stage") is not None:
        known = json.dumps(report.get("known", {}))[:300]
        return f"{name}: stopped: {error['message']}; known so far: {known}"
    if error is not None and report.get("states") is None:
        where = json.dumps(error.get("where", {}))[:200]
        return f"{name}: error {error['class']} {error['code']}: {error['message']} (where: {where})"
    counts = report["constraints"]
    line = (f"{name}: {report['vertices']} vertices, {report['edges']} edges, {report['faces']} faces, "
            f"{report['variables']} variables, constraints taco-taco {counts['taco-taco']}, taco-tortilla "
            f"{counts['taco-tortilla']}, tortilla-tortilla {counts['tortilla-tortilla']}, transitivity "
            f"{counts['transitivity']} ({counts['transitivity_kept']} kept); {report['components']} free components "
            f"{report['component_solutions']}; "
            f"{_states_text(report)}; "
            f"folded tolerance {report['folded_tolerance']:.1e}")
    if report.get("input_precision"):
        line += (f"; input precision {report['input_precision']:.1e} (snapped at "
                 f"{report['snap_tolerance']:.1e})")
    if report.get("regularized_moved"):
        line += (f"; regularised: vertices moved by up to {report['regularized_moved']:.1e} to meet Kawasaki "
                 "exactly, the states are those of that exact pattern")
    if error is not None:
        line += f"; error {error['code']}: {error['message']}"
    return line


def fold_command(
    file: str | Path,
    limit: int | None = None,
    state: int = 0,
    out: str | Path | None = None,
    svg: bool = False,
    png: bool = False,
    json_output: bool = False,
    size: int = 512,
    require_unique: bool = False,
    repair: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> int:
    """Compile a crease pattern file (or every pattern in a folder) and print the result.

    Returns:
        0 when every file folds flat, 1 when any file has a crease-pattern error, 2 for a usage error.
    """
    path = Path(file)
    if limit is not None and limit < 1:
        print(f"error: --limit must be at least 1, got {limit}", file=sys.stderr)
        return EXIT_USAGE
    if timeout is not None and not 0 < timeout <= MAX_TIMEOUT:
        timeout = None  # --timeout 0 (or inf): no budget
    if (svg or png) and out is None:
        out = Path(".")
    out_path = Path(out) if out is not None else None
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
        if not files:
            print(f"error: no {', '.join(SUPPORTED_SUFFIXES)} files in {path}", file=sys.stderr)
            return EXIT_USAGE
    elif path.exists():
        files = [path]
    else:
        print(f"error: {path} does not exist", file=sys.stderr)
        return EXIT_USAGE
    exit_code = EXIT_OK
    reports = []
    with _progress(json_output) as progress:
        task = progress.add_task("folding", total=len(files)) if progress is not None and len(files) > 1 else None
        for file_path in files:
            stages = _stage_progress(progress, file_path.name)
            try:
                report, _ = fold_file_report(file_path, limit=limit, state=state, out=out_path, svg=svg, png=png,
                                             size=size, require_unique=require_unique, repair=repair,
                                             timeout=timeout, progress=_component_progress(progress, file_path.name),
                                             on_stage=stages)
            finally:
                if stages is not None:
                    stages("")
            if report["error"] is not None:
                exit_code = EXIT_INVALID
            reports.append(report)
            if json_output:
                print(json.dumps(report))
            elif progress is not None:
                progress.console.print(_summary_line(report), markup=False, highlight=False)
            else:
                print(_summary_line(report))
            if progress is not None and task is not None:
                progress.advance(task)
    return exit_code


class _NoProgress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def _progress(quiet: bool) -> Any:
    """A transient rich progress display on stderr (nothing with ``--json`` or when stderr is not a terminal)."""
    if quiet or not sys.stderr.isatty():
        return _NoProgress()
    from rich.console import Console
    from rich.progress import Progress

    return Progress(console=Console(stderr=True), transient=True)


def _stage_progress(progress: Any, name: str) -> StageCallback | None:
    """A callback that shows the stage one file is in (the empty stage removes it)."""
    if progress is None:
        return None
    task: list[Any] = []

    def show(stage: str) -> None:
        if not stage:
            if task:
                progress.remove_task(task.pop())
            return
        if not task:
            task.append(progress.add_task(f"{name}: {stage}", total=None))
        progress.update(task[0], description=f"{name}: {stage}")

    return show


def _component_progress(progress: Any, name: str) -> ProgressCallback | None:
    """A callback that shows the components counted so far of one file (a bar that appears on long searches)."""
    if progress is None:
        return None
    task: list[Any] = []

    def advance(done: int, total: int, states: int) -> None:
        if not task:
            task.append(progress.add_task(f"{name}: counting states", total=total))
        progress.update(task[0], completed=done, description=f"{name}: {states} states so far")
        if done == total:
            progress.remove_task(task[0])

    return advance
