"""Speed of foldbench.crease on generated crease patterns (no corpus needed), median of repeated runs.

Usage:
    .venv/bin/python bench/bench_crease.py [--repeats 5]

Prints, per pattern, the median seconds of each compiler stage (fold; overlay: the folded tolerance, cells and
constraints; solve) and in total, after one warm-up run (the compiled loops are cached on first use). For the
comparison with the reference solver on its corpus, per size band, run ``bench/compare_crease_corpus.py
--speed``; for the latency of small patterns (at most 20 faces), ``bench/bench_crease_small.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.simple_folds import random_simple_folds


def _map(rows: int, columns: int) -> CreasePattern:
    segments, letters = [], []
    for x in range(columns + 1):
        segments.append([[x, 0], [x, rows]])
        letters.append("B" if x in (0, columns) else "U")
    for y in range(rows + 1):
        segments.append([[0, y], [columns, y]])
        letters.append("B" if y in (0, rows) else "U")
    return build_crease_pattern(np.array(segments, dtype=float), letters)


def _simple(seed: int, folds: int, grid: int | None) -> CreasePattern:
    pattern = random_simple_folds(np.random.default_rng(seed), folds, grid=grid)
    return build_crease_pattern(pattern.segments, pattern.assignments)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    cases = {
        "map 3x3 (all states)": (_map(3, 3), None),
        "map 2x6 (all states)": (_map(2, 6), None),
        "strip 1x10 (all states)": (_map(1, 10), None),
        "8 free-angle simple folds": (_simple(1, 8, None), None),
        "8 grid simple folds": (_simple(2, 8, 16), None),
        "map 4x4 (limit 1)": (_map(4, 4), 1),
    }
    compile_crease_pattern(_map(2, 2))  # warm-up: load the compiled loops
    print(f"{'pattern':28} {'faces':>6} {'vars':>7} {'states':>10} {'fold':>7} {'overlay':>7} "
          f"{'solve':>7} {'total s':>8}")
    for name, (pattern, limit) in cases.items():
        stages: dict[str, list[float]] = {}
        totals = []
        for _ in range(arguments.repeats):
            start = time.perf_counter()
            compiled = compile_crease_pattern(pattern, limit=limit)
            totals.append(time.perf_counter() - start)
            for stage, seconds in compiled.timings.items():
                stages.setdefault(stage, []).append(seconds)
        median = {stage: statistics.median(values) for stage, values in stages.items()}
        print(f"{name:28} {pattern.face_count:>6} {len(compiled.constraints.variables_faces):>7} "
              f"{compiled.state_count:>10} {median['fold']:7.4f} {median['overlay']:7.4f} "
              f"{median['solve']:7.4f} {statistics.median(totals):8.4f}")


if __name__ == "__main__":
    main()
