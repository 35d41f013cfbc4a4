"""foldbench's crease compiler and Flat-Folder on the same files, side by side, warm and interleaved.

Usage:
    FLATFOLDER_DIR=/path/to/flat-folder .venv/bin/python bench/side_by_side_flatfolder.py \
        [--corpus ../shared/corpus/flat-folder] [--per-band 10] [--small 120] [--repeats 3] [--fresh 10] \
        [--ff-timeout 60]

``FLATFOLDER_DIR`` is a checkout of origamimagiro/flat-folder (its ``src/`` is imported by
``bench/flatfolder_driver.mjs`` under Node); without it the script says so and stops. Both solvers run warm in
their own process: Flat-Folder behind the driver's line protocol, foldbench in this process. For every file,
in turn, each solver reads the file and counts every folded state ``--repeats`` times; a sample is the median
of those runs, in CPU seconds of the solver's own process and in wall seconds. The bands are by face count:
the ``≤ 20`` band is ``--small`` random simple folds, cube nets and maps written as FOLD files (the
patterns of ``bench/bench_crease_small.py``) plus ``3 × --per-band`` corpus files of at most 20 faces; the others sample
``--per-band`` files of the corpus (grids and instagram) evenly over their sizes. Prints, per band, the median
CPU and wall time of each solver, the median of the per-file ratio foldbench / Flat-Folder with its quartiles,
and how many files got the same number of states. ``--fresh N`` also times ``foldbench fold FILE`` and the
driver as new processes (start-up included) on N small files.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_crease_small import small_patterns

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.io.importers import read_crease_pattern

BANDS: tuple[tuple[str, int, int], ...] = (("≤ 20", 1, 20), ("21-99", 21, 99), ("100-299", 100, 299),
                                           ("300-999", 300, 999), ("1000-2999", 1000, 2999))
DRIVER = Path(__file__).resolve().parent / "flatfolder_driver.mjs"


class FlatFolder:
    """Flat-Folder warm in one Node process, behind the driver's line protocol."""

    def __init__(self, checkout: Path) -> None:
        self.process = subprocess.Popen(["node", str(DRIVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env={**os.environ, "FLATFOLDER_DIR": str(checkout)})
        ready = json.loads(self._line())
        assert ready.get("ready"), ready

    def _line(self, timeout: float | None = None) -> str:
        assert self.process.stdout is not None
        if timeout is not None and not select.select([self.process.stdout], [], [], timeout)[0]:
            raise TimeoutError
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the Flat-Folder driver stopped")
        return line

    def solve(self, path: Path, timeout: float | None = None) -> dict[str, Any]:
        """One file's answer and times; raises :class:`TimeoutError` (the driver is then stopped) after
        ``timeout`` seconds without an answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"path": str(path), "limit": None}) + "\n")
        self.process.stdin.flush()
        try:
            return json.loads(self._line(timeout))
        except TimeoutError:
            self.process.kill()
            self.process.wait()
            raise

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def solve_with_foldbench(path: Path) -> dict[str, Any]:
    """Read and compile one file (every state counted), timed in this process's CPU and in wall time."""
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    try:
        compiled = compile_crease_pattern(read_crease_pattern(path))
        outcome: dict[str, Any] = {"states": str(compiled.state_count), "faces": compiled.pattern.face_count}
    except CreasePatternError as error:
        outcome = {"error": error.code}
    outcome["cpu_s"] = time.process_time() - cpu_start
    outcome["wall_s"] = time.perf_counter() - wall_start
    return outcome


def _median_run(solve: Any, path: Path, repeats: int) -> dict[str, Any]:
    runs = [solve(path) for _ in range(repeats)]
    first = dict(runs[0])
    first["cpu_s"] = statistics.median(r["cpu_s"] for r in runs)
    first["wall_s"] = statistics.median(r["wall_s"] for r in runs)
    return first


def small_files(folder: Path, count: int) -> list[Path]:
    """The small patterns of bench_crease_small written as FOLD files (with their faces, which Flat-Folder needs)."""
    files = []
    for index, (segments, letters) in enumerate(small_patterns(count)):
        try:
            pattern = build_crease_pattern(segments, letters)
        except CreasePatternError:
            continue
        if pattern.face_count > 20:
            continue
        path = folder / f"small-{index:04d}.fold"
        path.write_text(json.dumps({"file_spec": 1.1, "frame_classes": ["creasePattern"], **pattern.to_fold_fields()}))
        files.append(path)
    return files


def corpus_files(corpus: Path, per_band: int) -> dict[str, list[Path]]:
    """``per_band`` corpus files per band, spread evenly over the band's sizes."""
    sized: list[tuple[int, Path]] = []
    for folder, table in (("grids", "grids_data.csv"), ("instagram", "instagram_data.csv")):
        with (corpus / table).open() as handle:
            rows = {row["number"]: row for row in csv.DictReader(handle)}
        for path in sorted((corpus / folder).glob("*.fold")):
            row = rows.get(path.name[:3])
            if row is not None and row.get("faces", "").isdigit():
                sized.append((int(row["faces"]), path))
    chosen: dict[str, list[Path]] = {}
    for name, low, high in BANDS:
        band = sorted(item for item in sized if low <= item[0] <= high)
        wanted = 3 * per_band if name == "≤ 20" else per_band  # the small band also has the generated patterns
        take = band if len(band) <= wanted else [
            band[round(i * (len(band) - 1) / (wanted - 1))] for i in range(wanted)]
        chosen[name] = [path for _, path in take]
    return chosen


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) == 1:
        return values[0], values[0], values[0]
    low, median, high = statistics.quantiles(values, n=4)
    return low, median, high


def fresh_process_times(files: list[Path], checkout: Path) -> None:
    """``foldbench fold FILE`` and a one-file driver run as new processes, start-up included (wall seconds)."""
    ours, theirs = [], []
    for path in files:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "foldbench", "fold", str(path)], capture_output=True, check=False)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(["node", str(DRIVER)], input=json.dumps({"path": str(path), "limit": None}) + "\n",
                       capture_output=True, text=True, check=False,
                       env={**os.environ, "FLATFOLDER_DIR": str(checkout)})
        theirs.append(time.perf_counter() - start)
    print(f"\nfresh process per file ({len(files)} small files, wall): foldbench fold {statistics.median(ours):.3f} s, "
          f"Flat-Folder (node + driver) {statistics.median(theirs):.3f} s, "
          f"ratio {statistics.median(ours) / statistics.median(theirs):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared/corpus/flat-folder"))
    parser.add_argument("--per-band", type=int, default=10)
    parser.add_argument("--small", type=int, default=120, help="generated patterns in the ≤ 20 band")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--bands", default="", help="comma-separated band names to run (default: all)")
    parser.add_argument("--fresh", type=int, default=0, help="also time N fresh processes per solver")
    parser.add_argument("--ff-timeout", type=float, default=60.0,
                        help="seconds Flat-Folder may take on one file before it is stopped, restarted and the file "
                             "left out of the ratios (named in the output)")
    arguments = parser.parse_args()
    checkout = os.environ.get("FLATFOLDER_DIR")
    if not checkout or not (Path(checkout) / "src" / "batch.js").is_file():
        print("FLATFOLDER_DIR does not name a Flat-Folder checkout (with src/batch.js): nothing to compare against.")
        return 0
    corpus = Path(arguments.corpus)
    if not corpus.is_dir():
        print(f"no corpus at {corpus}: pass --corpus")
        return 0
    wanted = {name.strip() for name in arguments.bands.split(",") if name.strip()}
    with tempfile.TemporaryDirectory() as scratch:
        bands = corpus_files(corpus, arguments.per_band)
        bands["≤ 20"] = small_files(Path(scratch), arguments.small) + bands["≤ 20"]
        flat_folder = FlatFolder(Path(checkout))
        warm = bands["≤ 20"][0]
        for _ in range(3):
            flat_folder.solve(warm)
            solve_with_foldbench(warm)
        print(f"{'band (faces)':<12} {'files':>5} {'foldbench cpu':>14} {'FF cpu':>9} {'cpu ratio (q1-q3)':>22} "
              f"{'wall ratio (q1-q3)':>22} {'same states':>12}")
        for name, _, _ in BANDS:
            if wanted and name not in wanted:
                continue
            cpu_ratios, wall_ratios, ours_cpu, theirs_cpu, same, counted = [], [], [], [], 0, 0
            stopped: list[str] = []
            for path in bands[name]:
                try:
                    theirs = _median_run(partial(flat_folder.solve, timeout=arguments.ff_timeout), path,
                                         arguments.repeats)
                except TimeoutError:
                    stopped.append(path.name)
                    flat_folder = FlatFolder(Path(checkout))
                    continue
                ours = _median_run(solve_with_foldbench, path, arguments.repeats)
                if "error" in theirs and "error" in ours:
                    same += 1
                elif theirs.get("states") == ours.get("states"):
                    same += 1
                counted += 1
                ours_cpu.append(ours["cpu_s"])
                theirs_cpu.append(theirs["cpu_s"])
                cpu_ratios.append(ours["cpu_s"] / max(theirs["cpu_s"], 1e-6))
                wall_ratios.append(ours["wall_s"] / max(theirs["wall_s"], 1e-6))
            if stopped:
                print(f"{name}: Flat-Folder stopped after {arguments.ff_timeout:g} s without an answer on "
                      f"{len(stopped)} file(s), left out: {', '.join(stopped)}")
            if not counted:
                continue
            cpu_q, wall_q = _quartiles(cpu_ratios), _quartiles(wall_ratios)
            print(f"{name:<12} {counted:>5} {statistics.median(ours_cpu) * 1e3:>11.2f} ms "
                  f"{statistics.median(theirs_cpu) * 1e3:>6.2f} ms "
                  f"{cpu_q[1]:>8.2f} ({cpu_q[0]:.2f}-{cpu_q[2]:.2f})  "
                  f"{wall_q[1]:>8.2f} ({wall_q[0]:.2f}-{wall_q[2]:.2f}) {same:>6}/{counted}")
        flat_folder.close()
        if arguments.fresh:
            fresh_process_times(bands["≤ 20"][: arguments.fresh], Path(checkout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
