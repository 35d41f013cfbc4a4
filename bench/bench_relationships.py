"""Time to generate OrigamiSpace spatial-relationship questions from the built-in fold sequences, with pictures.

Usage:
    .venv/bin/python bench/bench_relationships.py [--n 1000] [--kind mixed] [--size 384] [--repeats 1]

Each run starts from a cold process state (the built-in sequences, their compiled states and the task's caches
are built inside the run, as a fresh ``foldbench generate`` builds them) and writes a whole dataset with
``foldbench.tasks.dataset.write_dataset``: the questions, the two marked PNG pictures of every item, the JSON
lines and the manifest, into a temporary directory. Prints the wall and CPU time of each run, split into
building the built-in sequences and the rest, and the median.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

_RUN = """
import json, sys, time
from pathlib import Path
wall, cpu = time.perf_counter(), time.process_time()
from foldbench.crease.sequences import builtin_sequences
builtin_sequences()
sequences_wall, sequences_cpu = time.perf_counter() - wall, time.process_time() - cpu
from foldbench.tasks.dataset import write_dataset
n, kind, size, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
write_dataset("origamispace/spatial-relationship-v3", Path(out), n=n, seed=20251, modalities=("image",),
              knobs={"kind": kind, "size": size})
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "sequences_wall": sequences_wall, "sequences_cpu": sequences_cpu}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--kind", default="mixed")
    parser.add_argument("--size", type=int, default=384)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    import json

    walls = []
    for run in range(args.repeats):
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            output = subprocess.run([sys.executable, "-c", _RUN, str(args.n), args.kind, str(args.size),
                                     f"{folder}/data"], check=True, capture_output=True, text=True).stdout
            process_wall = time.perf_counter() - started
        figures = json.loads(output.strip().splitlines()[-1])
        walls.append(figures["wall"])
        print(f"run {run + 1}: {args.n} {args.kind} questions at {args.size} px in {figures['wall']:.1f} s wall, "
              f"{figures['cpu']:.1f} s CPU (built-in sequences {figures['sequences_wall']:.1f} s wall, "
              f"{figures['sequences_cpu']:.1f} s CPU; process with imports {process_wall:.1f} s)")
    print(f"median: {statistics.median(walls):.1f} s wall for {args.n} questions "
          f"({args.n / statistics.median(walls):.1f} questions/s)")


if __name__ == "__main__":
    main()
