"""Step latency of the crease-pattern code environment (``foldbench/CreasePatternCode-v1``), in process.

Usage:
    .venv/bin/python bench/bench_code_env.py [--episodes 30] [--repeats 3]

For each of ``--episodes`` seeded references (random simple-fold models of 3-6 steps, text observation), three
answers are stepped in separate episodes:

* a wrong pattern that folds: another random simple-fold model (read, compile, partial score);
* text that is not JSON (a syntax verdict);
* the reference itself, which ends the episode (read, compile, partial score, then the full four-dimension
  score of the final reward).

Each figure is the median over ``--repeats`` runs of the median over episodes, wall time and CPU time of this
process (CPU time does not grow when other jobs share the cores). The reset (draw and compile the reference) is
reported too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from foldbench.envs import CreasePatternCodeEnv
from foldbench.origami.instances import simple_fold_instance


def _timed(call) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def run(episodes: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per kind of step over ``episodes`` references."""
    env = CreasePatternCodeEnv(observation_mode="text")
    samples: dict[str, list[tuple[float, float]]] = {"reset": [], "wrong pattern that folds": [],
                                                     "not JSON": [], "the reference (ends the episode)": []}
    rng = np.random.default_rng(99)
    for seed in range(episodes):
        samples["reset"].append(_timed(lambda s=seed: env.reset(seed=s)))
        reference = json.dumps(env.instance.fold_document())
        other = json.dumps(simple_fold_instance(rng, int(rng.integers(3, 7)), 200).fold_document())
        samples["wrong pattern that folds"].append(_timed(lambda text=other: env.step(text)))
        env.reset(seed=seed)
        samples["not JSON"].append(_timed(lambda: env.step("fold it in half, then again")))
        env.reset(seed=seed)
        samples["the reference (ends the episode)"].append(_timed(lambda text=reference: env.step(text)))
    return {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    run(3)  # warm-up
    runs = [run(args.episodes) for _ in range(args.repeats)]
    for name in runs[0]:
        wall = statistics.median(r[name][0] for r in runs)
        cpu = statistics.median(r[name][1] for r in runs)
        print(f"{name:36s} {1000 * wall:8.1f} ms wall {1000 * cpu:8.1f} ms CPU")


if __name__ == "__main__":
    main()
