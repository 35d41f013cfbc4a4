"""Start-up cost: wall and CPU time of fresh ``foldbench fold FILE`` processes and of ``foldbench --help``.

Each figure is the median over ``--runs`` new Python processes (CPU = user + system of the child). ``first``
runs each get an empty cache folder (``$FOLDBENCH_CACHE_DIR``), so any compiled kernel the pattern needs is
compiled then; ``warm`` runs share a cache folder filled by one run beforehand. The default patterns are the
smallest OrigamiBench model (its kernels run as plain Python, numba is never imported) and a larger one that
needs the compiled kernels; ``--file`` names others. Also printed: whether the fold process imported numba,
gymnasium, matplotlib or pyarrow.

Every child process writes and reads its bytecode under one ``PYTHONPYCACHEPREFIX`` folder (this script's
scratch folder, filled by a warm-up run of each command before anything is timed; ``PYTHONDONTWRITEBYTECODE`` is
dropped from the children's environment): an installed package has its ``.pyc`` files, so a user's start-up does
not include compiling foldbench's sources.

    python bench/bench_fresh_fold.py --runs 10
    python bench/bench_fresh_fold.py --runs 10 --file small.fold
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAVY = ("numba", "gymnasium", "matplotlib", "pyarrow")
LARGER_MODEL = "001_traditional_Sailboat"

_IMPORTED = """
import json, sys
from foldbench.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps([name for name in HEAVY if name in sys.modules]), file=sys.stderr)
"""


_DROPPED = ("NUMBA_CACHE_DIR", "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
_bytecode: list[Path] = []  # the PYTHONPYCACHEPREFIX of every child, set by main()


def _child_env(cache: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _DROPPED}
    env["FOLDBENCH_CACHE_DIR"] = str(cache)
    if _bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(_bytecode[0])
    return env


def _timed(args: list[str], cache: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh ``python -m foldbench ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "foldbench", *args], env=_child_env(cache),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: the pattern is not flat-foldable, still a full run
        raise SystemExit(f"foldbench {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _medians(samples: list[tuple[float, float]]) -> str:
    walls, cpus = zip(*samples, strict=True)
    return f"wall {statistics.median(walls):.3f} s, CPU {statistics.median(cpus):.3f} s (median of {len(samples)})"


def _heavy_imports(args: list[str], cache: Path) -> list[str]:
    code = _IMPORTED.replace("HEAVY", repr(HEAVY))
    done = subprocess.run([sys.executable, "-c", code, *args], env=_child_env(cache),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    return json.loads(done.stderr.strip().splitlines()[-1])


def _default_files() -> list[Path]:
    from foldbench.crease.io.collection import paper_models

    entries = paper_models().entries
    smallest = min(entries, key=lambda entry: (entry.edges, entry.name))
    larger = next(entry for entry in entries if entry.name == LARGER_MODEL)
    return [smallest.path, larger.path]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per warm figure")
    parser.add_argument("--first-runs", type=int, default=3, help="fresh processes with an empty cache")
    parser.add_argument("--file", type=Path, action="append", help="a crease pattern (repeatable)")
    options = parser.parse_args()
    files = options.file or _default_files()
    with tempfile.TemporaryDirectory() as scratch:
        warm = Path(scratch) / "warm"
        _bytecode.append(Path(scratch) / "bytecode")
        _timed(["--help"], Path(scratch) / "warm-up")  # writes the bytecode of every module the runs import
        for path in files:
            _timed(["fold", str(path)], Path(scratch) / "warm-up")
        print(f"foldbench --help: {_medians([_timed(['--help'], warm) for _ in range(options.runs)])}")
        for path in files:
            args = ["fold", str(path)]
            first = []
            for run in range(options.first_runs):
                first.append(_timed(args, Path(scratch) / f"first-{path.stem}-{run}"))
            _timed(args, warm)  # fills the shared cache
            warm_runs = [_timed(args, warm) for _ in range(options.runs)]
            first_text = f"first (empty cache) {_medians(first)}; " if first else ""
            print(f"foldbench fold {path.name}: {first_text}"
                  f"warm cache {_medians(warm_runs)}; heavy modules imported: "
                  f"{', '.join(_heavy_imports(args, warm)) or 'none'}")
    print(f"load average at the end: {', '.join(f'{load:.1f}' for load in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
