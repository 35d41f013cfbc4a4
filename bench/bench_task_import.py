"""What listing the task ids costs a fresh process: ``import foldbench.tasks; foldbench.tasks.task_ids()``.

Usage:
    .venv/bin/python bench/bench_task_import.py [--repeats 7] [--src src] [--src OTHER_CHECKOUT/src ...]

For each ``--src`` (a directory holding the ``foldbench`` package; default this checkout's ``src``), runs the two
lines ``--repeats`` times, each in a fresh interpreter with that directory first on its path, alternating between
the sources so a loaded machine slows them alike. Prints per source: the median CPU time (user + system of the
child, which does not grow when other jobs share the cores), the median wall time, how many modules were
imported, and which of the heavy libraries and engines among them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("numba", "gymnasium", "matplotlib", "pyarrow", "shapely", "PIL", "scipy")
ENGINES = ("foldbench.pft", "foldbench.pfp", "foldbench.crease", "foldbench.envs", "foldbench.origami")
CODE = """
import json, sys
import foldbench.tasks
ids = foldbench.tasks.task_ids()
print(json.dumps({"ids": len(ids), "modules": sorted(sys.modules)}))
"""


def _once(src: Path) -> tuple[float, float, dict]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--src", type=Path, action="append")
    args = parser.parse_args()
    sources = args.src or [Path(__file__).resolve().parents[1] / "src"]
    runs: dict[Path, list[tuple[float, float, dict]]] = {src: [] for src in sources}
    for _ in range(args.repeats):
        for src in sources:
            runs[src].append(_once(src))
    for src, measured in runs.items():
        modules = measured[-1][2]["modules"]
        heavy = sorted({name.split(".")[0] for name in modules} & set(HEAVY))
        engines = sorted({".".join(name.split(".")[:2]) for name in modules if name.startswith(ENGINES)})
        print(
            f"{src}: {measured[-1][2]['ids']} task ids; CPU median {statistics.median(m[0] for m in measured):.2f} s, "
            f"wall median {statistics.median(m[1] for m in measured):.2f} s; {len(modules)} modules; "
            f"heavy: {', '.join(heavy) or 'none'}; engines: {', '.join(engines) or 'none'}"
        )


if __name__ == "__main__":
    main()
