"""Compare foldbench.crease with the Flat-Folder reference on its own corpus: agreement and speed.

Usage:
    .venv/bin/python bench/compare_crease_corpus.py [--corpus ../shared/corpus/flat-folder]
        [--set grids|instagram|unsatisfiable|all] [--max-faces N] [--min-faces N] [--timeout S]
        [--speed] [--quiet]

Agreement mode (default) compiles every file with the reference's own per-file limit (``limited`` column of
``grids_data.csv`` / ``instagram_data.csv``) and compares ``states`` and ``variables``; the instagram rows are
also compared with the reference re-measured on this machine (``measured/``), which reflects the current files.
``--speed`` compiles with the measured runs' settings (all solutions for grids, limit 1 for instagram) and
prints per-size-band medians of our time beside the reference's measured wall time. Each file runs in a worker
process with a timeout; the worker's peak resident memory is reported. Components and constraint counts are
compared too (reported apart from the agreement on states; without ``--quiet`` each difference is listed).
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BANDS = ((0, 100), (100, 300), (300, 1000), (1000, 3000), (3000, 10**9))
CONSTRAINT_COLUMNS = ("taco-taco", "taco-tortilla", "tortilla-tortilla", "transitivity")


def compile_file(path: str, limit: int | None) -> dict[str, Any]:
    """Compile one file in the worker; return the summary or the error, with the time and peak memory."""
    from foldbench.crease.compiler import compile_crease_pattern
    from foldbench.crease.errors import CreasePatternError
    from foldbench.crease.io.importers import read_crease_pattern

    start = time.perf_counter()
    try:
        summary = compile_crease_pattern(read_crease_pattern(path), limit=limit).summary()
        outcome: dict[str, Any] = {"states": summary["states"], "variables": summary["variables"],
                                   "faces": summary["faces"], "components": summary["components"],
                                   "constraints": summary["constraints"], "error": None}
    except CreasePatternError as error:
        outcome = {"states": None, "variables": None, "faces": None, "components": None, "constraints": None,
                   "error": error.to_dict()}
    outcome["seconds"] = time.perf_counter() - start
    outcome["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return outcome


def _warm_up() -> None:
    import numpy as np

    from foldbench.crease.compiler import compile_crease_pattern
    from foldbench.crease.graph.pattern import build_crease_pattern
    from foldbench.crease.simple_folds import random_simple_folds

    folds = random_simple_folds(np.random.default_rng(0), 3)
    compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))


class Worker:
    """One worker process, restarted after a timeout."""

    def __init__(self) -> None:
        self.pool = self._start()

    @staticmethod
    def _start() -> Any:
        pool = multiprocessing.get_context("fork").Pool(1)
        pool.apply(_warm_up)
        return pool

    def run(self, path: str, limit: int | None, timeout: float) -> dict[str, Any]:
        result = self.pool.apply_async(compile_file, (path, limit))
        try:
            return result.get(timeout)
        except multiprocessing.TimeoutError:
            self.pool.terminate()
            self.pool = self._start()
            return {"states": None, "variables": None, "faces": None, "seconds": timeout,
                    "error": {"class": "TIMEOUT", "code": "TIMEOUT", "message": f"over {timeout} s"}, "peak_mb": 0}


def _read_csv(path: Path, key: str) -> dict[str, dict[str, str]]:
    if not path.exists():
        return {}
    with path.open() as handle:
        return {row[key]: row for row in csv.DictReader(handle)}


def _column(row: dict[str, str], name: str) -> str | None:
    """A reference column by its name in either table (``taco-taco`` or ``taco_taco``)."""
    return row.get(name, row.get(name.replace("-", "_")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared/corpus/flat-folder"))
    parser.add_argument("--set", default="all", choices=["grids", "instagram", "unsatisfiable", "all"])
    parser.add_argument("--max-faces", type=int, default=3000)
    parser.add_argument("--min-faces", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--speed", action="store_true", help="use the measured runs' limits and compare times")
    parser.add_argument("--quiet", action="store_true", help="print only mismatches and the summary")
    arguments = parser.parse_args()
    corpus = Path(arguments.corpus)
    if not corpus.is_dir():
        print(f"corpus not found: {corpus}")
        return 2
    measured_grids = _read_csv(next(iter(sorted((corpus / "measured").glob("flatfolder_grids_all_*.csv"))), Path("-")),
                               "file")
    measured_instagram = _read_csv(
        next(iter(sorted((corpus / "measured").glob("flatfolder_instagram_lim1_*.csv"))), Path("-")), "file")
    jobs: list[tuple[str, Path, dict[str, str] | None, dict[str, str] | None]] = []
    for name in ("grids", "instagram"):
        if arguments.set not in (name, "all"):
            continue
        rows = _read_csv(corpus / f"{name}_data.csv", "number")
        measured = measured_grids if name == "grids" else measured_instagram
        for path in sorted((corpus / name).glob("*.fold")):
            row = rows.get(path.name[:3])
            faces = int((measured.get(path.name) or row or {"faces": 0})["faces"])
            if arguments.min_faces <= faces < arguments.max_faces:
                jobs.append((name, path, row, measured.get(path.name)))
    if arguments.set in ("unsatisfiable", "all"):
        jobs += [("unsatisfiable", path, None, None) for path in sorted((corpus / "unsatisfiable").glob("*.fold"))]
    jobs.sort(key=lambda job: int((job[3] or job[2] or {"faces": 0})["faces"]))
    worker = Worker()
    agree = disagree = 0
    structure_checked = structure_agree = 0
    band_times: dict[tuple[str, tuple[int, int]], list[tuple[float, float]]] = {}
    peak = 0.0
    print(f"{'file':52} {'faces':>6} {'ref states':>14} {'our states':>14} {'ref vars':>8} {'our vars':>8} "
          f"{'ok':>3} {'ours s':>8} {'ref s':>8}")
    for kind, path, row, measured in jobs:
        if kind == "unsatisfiable":
            outcome = worker.run(str(path), 1, arguments.timeout)
            ok = outcome["error"] is not None and outcome["error"]["class"] in ("PSI", "GIF")
            reference_states, reference_variables = "none", "-"
        else:
            if arguments.speed:
                limit = None if kind == "grids" else 1
            else:
                limit = None if row is None or row["limited"] == "no limit" else int(row["limited"])
            outcome = worker.run(str(path), limit, arguments.timeout)
            if arguments.speed and measured is not None:
                reference_states, reference_variables = measured["states"], measured["variables"]
            else:
                reference_states = row["states"] if row else "-"
                reference_variables = row["variables"] if row else "-"
            ok = str(outcome["states"]) == reference_states and str(outcome["variables"]) == reference_variables
            if arguments.speed and measured is None and outcome["error"] is None:
                # no reference run with limit 1 for this file: only the variables can be compared
                reference_states = "(limit 1)"
                ok = str(outcome["variables"]) == reference_variables
            if not ok and measured is not None and not arguments.speed:
                # the file may have changed since the 2024 table: accept agreement with today's reference run
                ok = (str(outcome["variables"]) == measured["variables"]
                      and outcome["states"] is not None and (measured["states"] == "1" or limit == 1)
                      and str(outcome["states"]) == reference_states)
        agree += ok
        disagree += not ok
        structure_note = ""
        if kind != "unsatisfiable" and outcome["error"] is None and (row or measured):
            # today's reference run reflects today's files (some were re-saved), when it finished them
            reference = measured if measured and measured.get("components") else row
            assert reference is not None
            structure_checked += 1
            # the reference lists the group of variables the creases fix as a first component
            same_components = str(outcome["components"] + 1) == reference["components"]
            same_constraints = all(str(outcome["constraints"][name]) == _column(reference, name)
                                   for name in CONSTRAINT_COLUMNS)
            structure_agree += same_components and same_constraints
            if not (same_components and same_constraints):
                structure_note = (f"    structure differs: components {outcome['components']} + 1 vs "
                                  f"{reference['components']}; " + ", ".join(
                                      f"{n} {outcome['constraints'][n]} vs {_column(reference, n)}"
                                      for n in CONSTRAINT_COLUMNS))
        peak = max(peak, outcome["peak_mb"])
        faces = int((measured or row or {"faces": outcome["faces"] or 0})["faces"])
        reference_seconds = float(measured["wall_sec"]) if measured and measured.get("wall_sec") else float("nan")
        if kind != "unsatisfiable" and outcome["error"] is None:
            band = next(b for b in BANDS if b[0] <= faces < b[1])
            band_times.setdefault((kind, band), []).append((outcome["seconds"], reference_seconds))
        ours = outcome["states"] if outcome["error"] is None else f"{outcome['error']['class']}"
        if not arguments.quiet or not ok:
            print(f"{path.name[:52]:52} {faces:>6} {str(reference_states)[:14]:>14} {str(ours)[:14]:>14} "
                  f"{reference_variables:>8} {str(outcome['variables']):>8} {'yes' if ok else 'NO':>3} "
                  f"{outcome['seconds']:8.3f} {reference_seconds:8.3f}", flush=True)
            if not ok and outcome["error"] is not None:
                print(f"    {outcome['error']['code']}: {outcome['error']['message'][:150]}")
        if structure_note and not arguments.quiet:
            print(structure_note)
    print(f"\nagreement: {agree}/{agree + disagree} files")
    print(f"same components and constraint counts: {structure_agree}/{structure_checked} compiled files")
    print(f"worker peak resident memory: {peak:.0f} MB")
    print(f"\n{'set':10} {'faces band':>12} {'files':>6} {'our median s':>13} {'ref median s':>13} {'ratio':>7}")
    for (kind, band), pairs in sorted(band_times.items()):
        ours = statistics.median(p[0] for p in pairs)
        references = [p[1] for p in pairs if p[1] == p[1]]
        reference = statistics.median(references) if references else float("nan")
        print(f"{kind:10} {f'{band[0]}-{band[1]}':>12} {len(pairs):>6} {ours:13.3f} {reference:13.3f} "
              f"{ours / reference if reference == reference else float('nan'):7.2f}")
    worker.pool.terminate()
    return 0 if disagree == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
