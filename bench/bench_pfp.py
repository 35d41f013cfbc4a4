"""Throughput of the Paper Folding Puzzles generators: items per CPU-second on one core, PNG rendering included.

Each task generates ``--n`` items (every subtask in turn) and encodes all their pictures (the composite and the
separate panels, or the composite only with ``--no-panels``), ``--repeats`` times from different seeds. The script
prints the median and the best rate per task, in items per CPU-second of this process (on a shared machine the
best run is the least disturbed one), and the time the paper's 150,000 items (30,000 per task) would take on
``--cores`` cores at the median rates.

    .venv/bin/python bench/bench_pfp.py --n 40 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from foldbench.tasks.pfp import TASKS


def _rate(task_type: type, n: int, seed: int, panels: bool) -> tuple[float, float]:
    task = task_type()
    start = time.process_time()
    wall = time.perf_counter()
    for item in task.generate(n, seed, knobs={"panels": panels}):
        for _path, _data in task.assets(item):
            pass
    return n / (time.process_time() - start), n / (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="items per run and task")
    parser.add_argument("--repeats", type=int, default=3, help="runs per task (different seeds)")
    parser.add_argument("--cores", type=int, default=2, help="cores for the full-scale estimate")
    parser.add_argument("--tasks", default="", help="comma-separated task ids to run (default: all)")
    parser.add_argument("--no-panels", action="store_true", help="write the composite picture only")
    args = parser.parse_args()
    chosen = [t for t in TASKS if not args.tasks or t.id in args.tasks.split(",") or t.name in args.tasks.split(",")]
    total_seconds = 0.0
    print(f"{'task':<22} {'items/CPU-s':>12} {'best':>7} {'items/wall-s':>13}")
    for task_type in chosen:
        runs = [_rate(task_type, args.n, seed, not args.no_panels) for seed in range(args.repeats)]
        cpu = statistics.median(r[0] for r in runs)
        best = max(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        total_seconds += 30_000 / cpu
        print(f"{task_type.id:<22} {cpu:>12.1f} {best:>7.1f} {wall:>13.1f}")
    if len(chosen) != len(TASKS):
        return
    print(
        f"150,000 items: {total_seconds / 60:.1f} CPU-minutes, {total_seconds / 60 / args.cores:.1f} minutes on "
        f"{args.cores} cores; mean {150_000 / total_seconds:.1f} items per CPU-second"
    )


if __name__ == "__main__":
    main()
