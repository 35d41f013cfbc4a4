"""Start-up cost: wall and CPU time of fresh ``foldbench fold FILE`` processes and of ``foldbench --help``.

Each figure is the median (and range) over ``--runs`` new Python processes (CPU = user + system of the child).
``first`` runs each get an empty cache folder (``$FOLDBENCH_CACHE_DIR``), so any compiled kernel the pattern needs is
compiled then; ``warm`` runs share a cache folder filled by one run beforehand. The default patterns are the
smallest OrigamiBench model (its kernels run as plain Python, numba is never imported) and a larger one that
needs the compiled kernels; ``--file`` names others. Also printed: whether the fold process imported numba,
gymnasium, matplotlib or pyarrow, and the load average before and after.

Every child process writes and reads its bytecode under one ``PYTHONPYCACHEPREFIX`` folder (this script's
scratch folder, filled by a warm-up run of each command before anything is timed; ``PYTHONDONTWRITEBYTECODE`` is
dropped from the children's environment): an installed package has its ``.pyc`` files, so a user's start-up does
not include compiling foldbench's sources.

``--src DIR`` (repeatable) runs the ``foldbench`` package found in each source folder instead of the installed
one, the versions taking turns run by run; the ratio of each run to the same run of the first version (median
and range) is printed beside the figures, the fairest comparison on a loaded machine.

    python bench/bench_fresh_fold.py --runs 10
    python bench/bench_fresh_fold.py --runs 10 --file small.fold
    python bench/bench_fresh_fold.py --runs 10 --first-runs 0 --src /tmp/before/src --src src
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


def _child_env(cache: Path, src: Path | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _DROPPED}
    env["FOLDBENCH_CACHE_DIR"] = str(cache)
    if _bytecode:
        env["PYTHONPYCACHEPREFIX"] = str(_bytecode[0])
    if src is not None:
        env["PYTHONPATH"] = str(src.resolve())
    return env


def _timed(args: list[str], cache: Path, src: Path | None) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh ``python -m foldbench ARGS`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "foldbench", *args], env=_child_env(cache, src),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # 1: the pattern is not flat-foldable, still a full run
        raise SystemExit(f"foldbench {' '.join(args)} failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _spread(values: list[float], digits: int = 3) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def _medians(samples: list[tuple[float, float]]) -> str:
    walls, cpus = zip(*samples, strict=True)
    return f"wall {_spread(list(walls))} s, CPU {_spread(list(cpus))} s (median and range of {len(samples)})"


def _ratios(samples: list[tuple[float, float]], reference: list[tuple[float, float]]) -> str:
    walls = [mine[0] / theirs[0] for mine, theirs in zip(samples, reference, strict=True)]
    cpus = [mine[1] / theirs[1] for mine, theirs in zip(samples, reference, strict=True)]
    return f"; run by run ratio to the first version: wall {_spread(walls, 2)}, CPU {_spread(cpus, 2)}"


def _heavy_imports(args: list[str], cache: Path, src: Path | None) -> list[str]:
    code = _IMPORTED.replace("HEAVY", repr(HEAVY))
    done = subprocess.run([sys.executable, "-c", code, *args], env=_child_env(cache, src),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    return json.loads(done.stderr.strip().splitlines()[-1])


def _default_files() -> list[Path]:
    from foldbench.crease.io.collection import paper_models

    entries = paper_models().entries
    smallest = min(entries, key=lambda entry: (entry.edges, entry.name))
    larger = next(entry for entry in entries if entry.name == LARGER_MODEL)
    return [smallest.path, larger.path]


def _in_turns(args: list[str], caches: dict[Path | None, Path], runs: int) -> dict[Path | None, list]:
    """``runs`` timings of ``foldbench ARGS`` for every version, the versions taking turns."""
    samples: dict[Path | None, list] = {src: [] for src in caches}
    for _ in range(runs):
        for src, cache in caches.items():
            samples[src].append(_timed(args, cache, src))
    return samples


def _report(label: str, samples: dict[Path | None, list], extra: dict[Path | None, str] | None = None) -> None:
    reference = next(iter(samples.values()))
    for src, runs in samples.items():
        name = f" [{src}]" if src is not None else ""
        ratio = _ratios(runs, reference) if len(samples) > 1 and runs is not reference else ""
        print(f"{label}{name}: {_medians(runs)}{ratio}{(extra or {}).get(src, '')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="fresh processes per warm figure")
    parser.add_argument("--first-runs", type=int, default=3, help="fresh processes with an empty cache")
    parser.add_argument("--file", type=Path, action="append", help="a crease pattern (repeatable)")
    parser.add_argument("--src", type=Path, action="append", help="a source folder holding foldbench (repeatable)")
    options = parser.parse_args()
    files = options.file or _default_files()
    sources: list[Path | None] = list(options.src or [None])
    print(f"load average at the start: {', '.join(f'{load:.1f}' for load in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as scratch:
        _bytecode.append(Path(scratch) / "bytecode")
        warm = {src: Path(scratch) / f"warm-{index}" for index, src in enumerate(sources)}
        for src in sources:  # writes the bytecode of every module the runs import
            _timed(["--help"], Path(scratch) / "warm-up", src)
            for path in files:
                _timed(["fold", str(path)], Path(scratch) / "warm-up", src)
        _report("foldbench --help", _in_turns(["--help"], warm, options.runs))
        for path in files:
            args = ["fold", str(path)]
            if options.first_runs:
                first: dict[Path | None, list] = {src: [] for src in sources}
                for run in range(options.first_runs):
                    for index, src in enumerate(sources):
                        first[src].append(_timed(args, Path(scratch) / f"first-{index}-{path.stem}-{run}", src))
                _report(f"foldbench fold {path.name}, first run (empty cache)", first)
            for src in sources:
                _timed(args, warm[src], src)  # fills the shared cache
            heavy = {src: f"; heavy modules imported: {', '.join(_heavy_imports(args, warm[src], src)) or 'none'}"
                     for src in sources}
            _report(f"foldbench fold {path.name}, warm cache", _in_turns(args, warm, options.runs), heavy)
    print(f"load average at the end: {', '.join(f'{load:.1f}' for load in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
