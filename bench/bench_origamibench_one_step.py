"""Time to write a one-step dataset: ``--n`` items of each OrigamiBench one-step task, pictures encoded as PNG.

Each run starts in a fresh process (so the built-in sequences are built, compiled and drawn from scratch, as in
``foldbench generate``) and generates ``--n`` items with their assets from a different seed; the script prints
the median and the best wall time per task over ``--repeats`` runs, and the median CPU time.

    .venv/bin/python bench/bench_origamibench_one_step.py --n 1000 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

_RUN = """
import time
from foldbench.tasks import make
wall, cpu = time.perf_counter(), time.process_time()
task = make({task!r})
for item in task.generate({n}, {seed}, modalities=("image",), knobs={{}}):
    for _path, _data in task.assets(item):
        pass
print(time.perf_counter() - wall, time.process_time() - cpu)
"""

TASKS = ("origamibench/one-step-associative-v5", "origamibench/one-step-causal-v4")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="items per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per task (different seeds)")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: both)")
    args = parser.parse_args()
    for task in [t for t in TASKS if not args.tasks or t in args.tasks.split(",")]:
        walls, cpus = [], []
        for repeat in range(args.repeats):
            output = subprocess.run([sys.executable, "-c", _RUN.format(task=task, n=args.n, seed=100 + repeat)],
                                    check=True, capture_output=True, text=True).stdout.split()
            walls.append(float(output[0]))
            cpus.append(float(output[1]))
        print(f"{task}: {args.n} items, wall median {statistics.median(walls):.1f} s (best {min(walls):.1f} s), "
              f"CPU median {statistics.median(cpus):.1f} s over {args.repeats} runs")


if __name__ == "__main__":
    main()
