"""``foldbench pft``: the paper folding test engine from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from foldbench import jsontext
from foldbench.cli._common import console, err_console, int_list, progress_bar
from foldbench.errors import FoldbenchError, InvalidHoleError

__all__ = ["pft_app"]

pft_app = typer.Typer(help="The paper folding test engine (MentalBlackboard).", no_args_is_help=True,
                       rich_markup_mode=None)


def _parse_hole(text: str) -> Any:
    from foldbench.pft.holes import Hole

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4:
        raise InvalidHoleError(f"--hole takes shape,size,direction,location (e.g. star,small,90,12), got {text!r}")
    shape, size, direction, location = parts
    try:
        return Hole(shape.lower(), size.lower(), int(direction), int(location))  # type: ignore[arg-type]
    except ValueError:
        raise InvalidHoleError(f"--hole {text!r}: direction and location must be integers") from None


@pft_app.command("enumerate")
def enumerate_groups(
    group: Annotated[str | None, typer.Option(help="Comma-separated groups (default: 1-9).")] = None,
    compare: Annotated[bool, typer.Option(help="Also print the paper's count for each group.")] = False,
) -> None:
    """Count every valid configuration per group of MentalBlackboard's Table 8: 'group N: COUNT'."""
    from foldbench.pft.enumeration import GROUPS, PAPER_COUNTS, count_group

    chosen = int_list(group, "--group") or list(GROUPS)
    for number in chosen:
        count = count_group(number)
        suffix = f" (paper: {PAPER_COUNTS[number]})" if compare else ""
        typer.echo(f"group {number}: {count}{suffix}")


@pft_app.command("solve")
def solve_file(
    source: Annotated[Path, typer.Argument(help="A JSON file of MentalBlackboard records.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the re-solved records.")],
    rules: Annotated[bool, typer.Option(help="Check the benchmark's validation rules, not only geometry.")] = True,
    check: Annotated[
        bool, typer.Option(help="Also compare the recomputed fields with the ones in the file and report differences.")
    ] = False,
) -> None:
    """Recompute unfoldingTypes, resultHoles and totalNumberofHoles of every record, in the same schema.

    Records that cannot be solved are reported (record and field) and left out of the output; the others are
    written. The exit code is 1 when any record failed.
    """
    from foldbench.pft.records import compare_record, solve_record

    records = _read_records(source)
    solved: list[dict[str, Any]] = []
    failures = 0
    differences = 0
    for index, record in enumerate(records):
        try:
            new_record, _solution = solve_record(record, index, check_rules=rules)
        except FoldbenchError as error:
            failures += 1
            err_console.print(f"error: {error}", markup=False)
            continue
        if check:
            for difference in compare_record(record, new_record, index):
                differences += 1
                err_console.print(f"differs: {difference}", markup=False)
        solved.append(new_record)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(solved, indent=4) + "\n", encoding="utf-8")
    summary = f"solved {len(solved)} of {len(records)} records -> {out}"
    if check:
        summary += f"; {differences} difference(s) from the file's own answers"
    console.print(summary + (f"; {failures} failed (see above)" if failures else ""))
    if failures:
        raise typer.Exit(1)


@pft_app.command("show")
def show(
    actions: Annotated[str, typer.Argument(help="Action codes, e.g. 'D1-F R90 H1-B'.")],
    hole: Annotated[list[str], typer.Option("--hole", help="shape,size,direction,location (repeatable).")],
    rules: Annotated[bool, typer.Option(help="Check the benchmark's validation rules.")] = True,
    images: Annotated[Path | None, typer.Option(help="Also write the step images (PNG) into this directory.")] = None,
) -> None:
    """Fold, punch and unfold: print the text grids, the unfolding steps and the result holes."""
    from foldbench.pft import check_sequence, parse_actions, solve
    from foldbench.pft.encoders.text import encode_prompt_block

    sequence = parse_actions(actions)
    if rules:
        check_sequence(sequence)
    solution = solve(sequence, [_parse_hole(h) for h in hole])
    console.print(encode_prompt_block(solution))
    console.print(f"\nunfolding: {' '.join(f.code for f in solution.unfolding)}")
    console.print(f"result holes ({len(solution.result_holes)}):")
    for result in solution.result_holes:
        console.print(f"  {result.shape.value} {result.size.value} direction {result.direction} at {result.location}")
    if images is not None:
        from foldbench.pft.encoders import image

        images.mkdir(parents=True, exist_ok=True)
        pictures = image.render_steps(solution) + [image.render_result(solution.result_holes)]
        for number, picture in enumerate(pictures):
            (images / f"step_{number:02d}.png").write_bytes(image.png_bytes(picture))
        console.print(f"wrote {len(pictures)} images to {images}")


@pft_app.command("plan")
def plan(
    folds: Annotated[int, typer.Option(min=1, max=4, help="The number of folds to use (1-4).")],
    hole: Annotated[list[str], typer.Option("--hole", help="A result hole: shape,size,direction,location.")],
    max_holes: Annotated[int, typer.Option(min=1, help="At most this many punches.")] = 2,
) -> None:
    """Find folds and punches that give the result holes, or prove that none exist."""
    from foldbench.pft import find_plan

    found = find_plan([_parse_hole(h) for h in hole], folds, max_holes=max_holes)
    if found is None:
        console.print(f"no sequence of {folds} fold(s) with at most {max_holes} punch(es) gives these holes")
        raise typer.Exit(1)
    console.print(f"folds: {' '.join(f.code for f in found.folds)}")
    for punch in found.initial_holes:
        console.print(f"punch: {punch.shape.value} {punch.size.value} direction {punch.direction} at {punch.location}")


@pft_app.command("video")
def video(
    source: Annotated[Path, typer.Argument(help="A JSON file of MentalBlackboard records.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory; each record gets a sub-directory.")],
    size: Annotated[int, typer.Option(min=16, max=8192, help="Frame size in pixels (even).")] = 512,
    fps: Annotated[int, typer.Option(min=1, max=240, help="Frames per second.")] = 24,
    unfolding: Annotated[bool, typer.Option(help="Also write the unfolding animation.")] = False,
    rules: Annotated[bool, typer.Option(help="Check the benchmark's validation rules, not only geometry.")] = True,
) -> None:
    """Render the 3D folding animation (MP4 + key frames) of every record; invalid records are reported and
    skipped, the others are written. The exit code is 1 when any record was skipped."""
    from foldbench.pft.encoders.video import render_video_batch
    from foldbench.pft.records import actions_from_record, holes_from_record, record_id

    records = _read_records(source)
    batch = []
    skipped = 0
    for index, record in enumerate(records):
        rid = record_id(record, index)
        try:
            if not isinstance(record, dict):
                raise FoldbenchError(f"record {rid}: must be a JSON object")
            batch.append((rid, actions_from_record(record, rid), holes_from_record(record, "initialHoles", rid)))
        except FoldbenchError as error:
            skipped += 1
            err_console.print(f"skipped: {error}", markup=False)
    with progress_bar("rendering videos", len(batch)) as progress:

        def counted() -> Any:
            for entry in batch:
                yield entry
                progress.advance(progress.task_ids[0])

        report = render_video_batch(counted(), out, size=size, fps=fps, unfolding=unfolding, check_rules=rules)
    for reason in report.skipped.values():
        skipped += 1
        err_console.print(f"skipped: {reason}", markup=False)
    console.print(f"wrote {len(report.written)} of {len(records)} records' videos to {out}")
    if skipped:
        raise typer.Exit(1)


def _read_records(source: Path) -> list[Any]:
    """The records of a JSON file (a list, or one object), or a one-line error."""
    try:
        records = jsontext.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FoldbenchError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise FoldbenchError(f"{source}: cannot read: {error}") from None
    except json.JSONDecodeError as error:
        raise FoldbenchError(
            f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list):
        raise FoldbenchError(f"{source}: expected a JSON list of records, got {type(records).__name__}")
    return records
