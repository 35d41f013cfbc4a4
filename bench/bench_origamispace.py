"""Latency of scoring a generated crease pattern against its reference (OrigamiSpace code generation), and the
speed of generating the multiple-choice items (pattern prediction, multi-step ordering).

Usage:
    .venv/bin/python bench/bench_origamispace.py [--pairs 12] [--repeats 3] [--min-faces 100] [--max-faces 200]
    .venv/bin/python bench/bench_origamispace.py --generation [--items 100] [--repeats 3]

References are random free-angle simple-fold patterns with ``--min-faces`` to ``--max-faces`` faces; each is
scored against itself and against another such pattern (both compile, so every dimension is computed). One sample
is the median over ``--repeats`` runs of :func:`foldbench.crease.score.similarity.score_generated` on the FOLD document
(reading, size checks, compiling the generated pattern, features, the four dimensions); the reference is prepared
once per item, as the task does. Prints the median, 90th percentile and worst, in wall and CPU time.

With ``--generation``: items per second of each multiple-choice task, items and their pictures (the PNG bytes
a dataset holds) made in this process; the first run pays for compiling the built-in sequences' states, which
later runs (other seeds) find cached, so the first run and the median of the later ones are printed apart.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from foldbench.crease import build_crease_pattern, random_simple_folds
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.score.similarity import prepare_reference, score_generated


def _patterns(count: int, min_faces: int, max_faces: int) -> list[tuple[object, dict]]:
    found = []
    rng = np.random.default_rng(2026)
    while len(found) < count:
        simple = random_simple_folds(rng, int(rng.integers(7, 11)))
        pattern = build_crease_pattern(simple.segments, "".join(simple.assignments))
        if not min_faces <= pattern.face_count <= max_faces:
            continue
        try:
            prepare_reference(pattern)
        except CreasePatternError:
            continue
        fields = pattern.to_fold_fields()
        del fields["edges_foldAngle"]
        found.append((pattern, fields))
    return found


def _timed(document: dict, reference: object, repeats: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        score_generated(document, reference)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


GENERATED_TASKS: tuple[str, ...] = ("origamispace/pattern-prediction-v2", "origamispace/multi-step-ordering-v3")


def _items_per_second(task_id: str, items: int, seed: int) -> float:
    from foldbench.tasks import make

    task = make(task_id)
    wall = time.perf_counter()
    for item in task.generate(items, seed):
        for _path, _data in task.assets(item):
            pass
    return items / (time.perf_counter() - wall)


def bench_generation(items: int, repeats: int) -> None:
    """Print items/s of each multiple-choice task: the first (cold) run and the median of the warm ones."""
    for task_id in GENERATED_TASKS:
        cold = _items_per_second(task_id, items, 1000)
        warm = [_items_per_second(task_id, items, 1001 + r) for r in range(repeats)]
        print(f"{task_id}: {items} items with pictures, first run {cold:.1f} items/s, "
              f"later runs median {statistics.median(warm):.1f} items/s (over {repeats})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--min-faces", type=int, default=100)
    parser.add_argument("--max-faces", type=int, default=200)
    parser.add_argument("--generation", action="store_true", help="time item generation instead of scoring")
    parser.add_argument("--items", type=int, default=100, help="items per generation run")
    args = parser.parse_args()
    if args.generation:
        bench_generation(args.items, args.repeats)
        return
    patterns = _patterns(args.pairs + 1, args.min_faces, args.max_faces)
    warm = prepare_reference(patterns[0][0])
    score_generated(patterns[0][1], warm)  # compile the kernels once
    samples = []
    for (pattern, document), (_, other) in zip(patterns, patterns[1:], strict=False):
        reference = prepare_reference(pattern)
        samples.append(_timed(document, reference, args.repeats))
        samples.append(_timed(other, reference, args.repeats))
    faces = [p.face_count for p, _ in patterns]
    for label, index in (("wall", 0), ("cpu", 1)):
        values = sorted(s[index] for s in samples)
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(f"{label}: median {statistics.median(values):.3f} s, p90 {p90:.3f} s, worst {values[-1]:.3f} s "
              f"over {len(values)} scorings")
    print(f"references: {len(patterns)} patterns of {min(faces)}-{max(faces)} faces "
          f"(median {statistics.median(faces)})")


if __name__ == "__main__":
    main()
