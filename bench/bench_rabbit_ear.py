"""foldbench on the crease-pattern files of rabbit-ear's test suite, beside Flat-Folder when it is at hand.

Usage:
    RABBIT_EAR_DIR=/path/to/rabbit-ear-files [FLATFOLDER_DIR=/path/to/flat-folder] \
        .venv/bin/python bench/bench_rabbit_ear.py [--timeout 60] [--only NAME,NAME] [--repeats 1]

``RABBIT_EAR_DIR`` is a folder holding rabbit-ear's test files (``tests/files/{fold,cp,opx}`` of its repository,
or any folder of ``.fold``/``.cp``/``.opx``/``.svg`` files, searched recursively); without it the script says
so and stops.
The files are not shipped with foldbench (their licence is rabbit-ear's). Each file is compiled in a worker
process kept warm between files (``--timeout`` seconds of counting, and a hard stop at three times that plus
30 s, after which a new worker starts); the time is the worker's CPU seconds spent reading and compiling the
file. With ``FLATFOLDER_DIR`` (a checkout of origamimagiro/flat-folder) each file also goes through
``bench/flatfolder_driver.mjs`` under Node, one process per file with the same hard stop, read as Flat-Folder's
interface reads it (the driver's ``import`` mode) and counted with every state.
FOLD files that are not flat 2D crease patterns (folded or 3D frames, no faces) are listed with foldbench's
error and Flat-Folder's. Prints one row per file: name, Flat-Folder's variables, foldbench's faces and
variables, both answers (states or error code) and both CPU times, and marks the rows whose answers differ.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).resolve().parent / "flatfolder_driver.mjs"
SUFFIXES = (".fold", ".cp", ".opx", ".svg")


REWRITES: tuple[tuple[str, float], ...] = (("round", 9), ("round", 12), ("round", 15),
                                           ("noise", 1e-9), ("noise", 1e-12), ("noise", 1e-15))
"""How ``--rewrite`` writes a FOLD file's coordinates again: rounded to that many decimals, or each vertex moved
once by up to that fraction of the paper size (a fixed seed)."""


def rewritten_answers(path: Path, timeout: float) -> list[str]:
    """The answers (states or error code) of a FOLD file's top-level pattern written again as ``REWRITES`` says."""
    import numpy as np

    from foldbench.crease.compiler import compile_crease_pattern
    from foldbench.crease.errors import CreasePatternError
    from foldbench.crease.io.fold_format import pattern_from_fold

    document = json.loads(path.read_text())
    coords = np.array([vertex[:2] for vertex in document["vertices_coords"]], dtype=float)
    size = float(np.ptp(coords, axis=0).max()) or 1.0
    answers = []
    for index, (how, amount) in enumerate(REWRITES):
        moved = (np.round(coords, int(amount)) if how == "round"
                 else coords + np.random.default_rng(index).uniform(-amount, amount, coords.shape) * size)
        document.pop("file_frames", None)
        try:
            pattern = pattern_from_fold({**document, "vertices_coords": moved.tolist()})
            answers.append(str(compile_crease_pattern(pattern, timeout=timeout or None).state_count))
        except CreasePatternError as error:
            answers.append(error.code)
    return answers


def solve_here(path: Path, timeout: float, rewrite: bool = False) -> dict[str, Any]:
    """Read and compile one file in this process (CPU seconds of this process); with ``rewrite``, a counted
    FOLD file's answers when its coordinates are written again (:data:`REWRITES`) too."""
    from foldbench.crease.compiler import compile_crease_pattern
    from foldbench.crease.errors import CreasePatternError
    from foldbench.crease.io.importers import read_crease_pattern

    start = time.process_time()
    try:
        summary = compile_crease_pattern(read_crease_pattern(path), timeout=timeout or None).summary()
        outcome: dict[str, Any] = {"states": str(summary["states"]), "faces": summary["faces"],
                                   "variables": summary["variables"], "stopped": summary["stopped"]}
    except CreasePatternError as error:
        outcome = {"error": error.code}
    outcome["cpu_s"] = time.process_time() - start
    if rewrite and "states" in outcome and path.suffix == ".fold":
        outcome["rewritten"] = rewritten_answers(path, timeout)
    return outcome


class Worker:
    """``solve_here`` in a warm worker process (one JSON line per file), restarted after a hard stop at three
    times the counting budget plus 30 s."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self.process is None:
            self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        return self.process

    def solve(self, path: Path, timeout: float, rewrite: bool = False) -> dict[str, Any]:
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"path": str(path), "timeout": timeout, "rewrite": rewrite}) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 3 * timeout + 30)
        line = process.stdout.readline() if ready else ""
        if not line:
            self.close()
            return {"error": "killed" if not ready else "crash", "cpu_s": float(3 * timeout + 30)}
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def serve() -> None:
    """The worker's loop: one request line in, one outcome line out."""
    for line in sys.stdin:
        request = json.loads(line)
        print(json.dumps(solve_here(Path(request["path"]), request["timeout"], request["rewrite"])), flush=True)


def solve_with_flatfolder(path: Path, checkout: Path, timeout: float) -> dict[str, Any]:
    """One driver process for one file (Flat-Folder counts every state); its own CPU seconds."""
    request = json.dumps({"path": str(path), "limit": None, "import": True}) + "\n"
    try:
        done = subprocess.run(["node", str(DRIVER)], input=request, capture_output=True, text=True,
                              timeout=3 * timeout + 30, check=False,
                              env={**os.environ, "FLATFOLDER_DIR": str(checkout)})
    except subprocess.TimeoutExpired:
        return {"error": "killed", "cpu_s": float(3 * timeout + 30)}
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if len(lines) < 2:
        return {"error": f"crash ({done.stderr.strip().splitlines()[-1:] or done.returncode})", "cpu_s": 0.0}
    return json.loads(lines[-1])


def _answer(outcome: dict[str, Any] | None) -> str:
    if outcome is None:
        return "-"
    if "error" in outcome:
        return str(outcome["error"])[:28]
    return ("≥ " if outcome.get("stopped") else "") + outcome["states"]


def _agree(ours: dict[str, Any], theirs: dict[str, Any] | None) -> bool:
    if theirs is None:
        return True
    if "error" in ours or "error" in theirs:
        return "error" in ours and "error" in theirs
    return ours["states"] == theirs["states"] and not ours.get("stopped")


def _median(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    first = dict(outcomes[0])
    first["cpu_s"] = statistics.median(outcome["cpu_s"] for outcome in outcomes)
    return first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds of counting per file")
    parser.add_argument("--only", default="", help="comma-separated file names (without folder) to run")
    parser.add_argument("--repeats", type=int, default=1, help="runs per file and solver (median CPU)")
    parser.add_argument("--rewrite", action="store_true",
                        help="also count each counted FOLD file with its coordinates rounded to 9, 12 and 15 "
                             "decimals and moved by up to 1e-9, 1e-12 and 1e-15")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        serve()
        return 0
    folder = os.environ.get("RABBIT_EAR_DIR")
    if not folder or not Path(folder).is_dir():
        print("RABBIT_EAR_DIR does not name a folder of rabbit-ear's test files: nothing to run.")
        return 0
    checkout = os.environ.get("FLATFOLDER_DIR")
    if checkout and not (Path(checkout) / "src" / "batch.js").is_file():
        print(f"FLATFOLDER_DIR={checkout} has no src/batch.js: running foldbench alone.")
        checkout = None
    wanted = {name.strip() for name in arguments.only.split(",") if name.strip()}
    files = sorted(path for path in Path(folder).rglob("*") if path.suffix in SUFFIXES
                   and (not wanted or path.name in wanted))
    print(f"{'file':<40} {'FF vars':>7} {'faces':>6} {'vars':>6} {'foldbench':>28} {'cpu s':>7} "
          f"{'Flat-Folder':>28} {'cpu s':>7}")
    differ: list[str] = []
    changed: list[str] = []
    rewritten = 0
    worker = Worker()
    for path in files:
        ours = _median([worker.solve(path, arguments.timeout, arguments.rewrite)
                        for _ in range(arguments.repeats)])
        if "rewritten" in ours:
            rewritten += 1
            moved = [answer for answer in ours["rewritten"] if answer != ours["states"]]
            if moved:
                changed.append(f"{path.name} ({', '.join(moved)})")
        theirs = None
        if checkout:
            theirs = _median([solve_with_flatfolder(path, Path(checkout), arguments.timeout)
                              for _ in range(arguments.repeats)])
        agree = _agree(ours, theirs)
        if not agree:
            differ.append(path.name)
        their_cpu = f"{theirs['cpu_s']:>7.2f}" if theirs else f"{'-':>7}"
        print(f"{path.name:<40} {str((theirs or {}).get('variables', '-')):>7} "
              f"{str(ours.get('faces', '-')):>6} {str(ours.get('variables', '-')):>6} {_answer(ours):>28} "
              f"{ours['cpu_s']:>7.2f} {_answer(theirs):>28} {their_cpu}{'' if agree else '  ≠'}",
              flush=True)
    worker.close()
    if arguments.rewrite:
        print(f"\nrewritten: {rewritten} counted FOLD files x {len(REWRITES)} ways, "
              f"{len(changed)} with another answer" + (f": {'; '.join(changed)}" if changed else ""))
    if checkout:
        print(f"\n{len(files) - len(differ)} of {len(files)} files agree (same states, or both refuse)"
              + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
