"""``foldbench fold``: compile crease patterns, print a summary or JSON, write renders and FOLD states.

:func:`fold_command` is the whole command as a plain function (returns the exit code);
:mod:`foldbench.cli.fold` declares its options. Errors a user can cause print as one line (no traceback) and
make the exit code non-zero; a folder is compiled file by file and every file is reported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.importers import SUPPORTED_SUFFIXES, read_crease_pattern

__all__ = ["fold_command", "fold_file_report"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def fold_file_report(
    path: Path,
    *,
    limit: int | None,
    state: int,
    out: Path | None,
    svg: bool,
    png: bool,
    size: int,
    require_unique: bool,
    repair: bool = False,
) -> tuple[dict[str, Any], CompiledFold | None]:
    """Compile one file and write the requested outputs; return the JSON report (with ``error``) and result."""
    report: dict[str, Any] = {"file": str(path)}
    try:
        pattern = read_crease_pattern(path, repair=repair)
        compiled = compile_crease_pattern(pattern, limit=limit, require_unique=require_unique)
    except CreasePatternError as error:
        report.update(
            {
                "vertices": None,
                "edges": None,
                "faces": None,
                "variables": None,
                "components": None,
                "states": None,
                "constraints": None,
                "error": error.to_dict(),
            }
        )
        return report, None
    report.update(compiled.summary())
    report["error"] = None
    if not 0 <= state < compiled.state_count:
        report["error"] = {
            "class": "USAGE",
            "code": "E_STATE_OUT_OF_RANGE",
            "message": f"--state {state} does not exist ({compiled.state_count} states)",
            "where": {"state": state},
        }
        return report, compiled
    if out is not None:
        report["written"] = [str(p) for p in _write_outputs(compiled, path, out, state, svg, png, size)]
    return report, compiled


def _write_outputs(
    compiled: CompiledFold, path: Path, out: Path, state: int, svg: bool, png: bool, size: int
) -> list[Path]:
    from foldbench.crease import render

    out.mkdir(parents=True, exist_ok=True)
    stem = path.stem
    written = [out / f"{stem}.state{state}.fold"]
    written[0].write_text(json.dumps(compiled.fold_document(state, title=stem), indent=1), encoding="utf-8")
    if svg:
        written.append(render.save_image(render.crease_pattern_svg(compiled.pattern, size), out / f"{stem}.cp.svg"))
        for side in ("front", "back"):
            written.append(
                render.save_image(
                    render.folded_state_svg(compiled, state, side, size), out / f"{stem}.state{state}.{side}.svg"
                )
            )
    if png:
        written.append(render.save_image(render.crease_pattern_png(compiled.pattern, size), out / f"{stem}.cp.png"))
        for side in ("front", "back"):
            written.append(
                render.save_image(
                    render.folded_state_png(compiled, state, side, size),  # type: ignore[arg-type]
                    out / f"{stem}.state{state}.{side}.png",
                )
            )
    return written


def _summary_line(report: dict[str, Any]) -> str:
    name = Path(report["file"]).name
    error = report["error"]
    if error is not None and report.get("states") is None:
        where = json.dumps(error.get("where", {}))[:200]
        return f"{name}: error {error['class']} {error['code']}: {error['message']} (where: {where})"
    counts = report["constraints"]
    line = (
        f"{name}: {report['vertices']} vertices, {report['edges']} edges, {report['faces']} faces, "
        f"{report['variables']} variables, constraints taco-taco {counts['taco-taco']}, taco-tortilla "
        f"{counts['taco-tortilla']}, tortilla-tortilla {counts['tortilla-tortilla']}, transitivity "
        f"{counts['transitivity']} ({counts['transitivity_kept']} kept); {report['components']} free components "
        f"{report['component_solutions']}; "
        f"states {report['states']}{' (limited)' if report['limited'] else ''}; "
        f"folded tolerance {report['folded_tolerance']:.1e}"
    )
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
) -> int:
    """Compile a crease pattern file (or every pattern in a folder) and print the result.

    Returns:
        0 when every file folds flat, 1 when any file has a crease-pattern error, 2 for a usage error.
    """
    path = Path(file)
    if limit is not None and limit < 1:
        print(f"error: --limit must be at least 1, got {limit}", file=sys.stderr)
        return EXIT_USAGE
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
    progress_context = _progress(len(files), json_output or len(files) == 1)
    with progress_context as progress:
        task = progress.add_task("folding", total=len(files)) if progress is not None else None
        for file_path in files:
            report, _ = fold_file_report(
                file_path,
                limit=limit,
                state=state,
                out=out_path,
                svg=svg,
                png=png,
                size=size,
                require_unique=require_unique,
                repair=repair,
            )
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


def _progress(total: int, quiet: bool) -> Any:
    if quiet:
        return _NoProgress()
    from rich.progress import Progress

    return Progress(transient=True)
