"""Step latency and throughput of the OrigamiBench synthesis environment, in process, after warm-up.

Usage:
    .venv/bin/python bench/bench_origami_env.py [--targets 40] [--episodes 40] [--repeats 3]

* valid steps: replaying the fold steps of random simple-fold targets (1 to 7 folds, grid-aligned and free;
  up to ~100 faces) with the full observation (compile, align, render the four 256-pixel pictures and the JSON
  state) and with the text observation only (no rendering); the step that reaches the target, which also
  computes the final metrics (raster GS on 512-pixel pictures, SS), is reported apart;
* refused steps on the same sheets: a crease along the edge (geometry), half a crease ending inside the paper
  (the compiler's Maekawa check), and text that is not JSON (schema);
* random-agent episodes: 25 random lattice actions (9 x 9 grid, text observation), projected to 1,000 episodes.

Each figure is the median over ``--repeats`` runs of the median over samples, in wall time; CPU-time figures
(this process only) are printed beside them, as they do not grow when other jobs share the cores.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from foldbench.envs import OrigamiSynthesisEnv, random_simple_fold_target
from foldbench.envs.wrappers import LatticeActions

REFUSED = {
    "geometry (along the edge)": {"action": "add_crease", "p1": [0, 0], "p2": [10, 0], "assignment": "V"},
    "compiler (Maekawa)": {"action": "add_crease", "p1": [0, 3.3], "p2": [4.1, 3.3], "assignment": "M"},
    "schema (not JSON)": "fold the left flap over",
}


cpu_times: list[float] = []
"""CPU seconds of every accepted step of the last :func:`_step_latencies` call (ending steps included)."""


def _step_latencies(targets: list, mode: str) -> tuple[list[float], list[float], dict[str, list[float]], list[int]]:
    valid: list[float] = []
    ending: list[float] = []
    cpu_times.clear()
    refused: dict[str, list[float]] = {name: [] for name in REFUSED}
    faces: list[int] = []
    for target in targets:
        env = OrigamiSynthesisEnv(target=target, budget=100, observation_mode=mode)
        env.reset(seed=0)
        for action in target.actions:
            for name, bad in REFUSED.items():
                started = time.perf_counter()
                _, _, _, _, info = env.step(bad)
                refused[name].append(time.perf_counter() - started)
                assert not info["accepted"], (name, info)
            started, cpu = time.perf_counter(), time.process_time()
            _, _, terminated, _, info = env.step(action)
            elapsed = time.perf_counter() - started
            cpu_times.append(time.process_time() - cpu)
            assert info["accepted"], info
            if terminated:
                ending.append(elapsed)
            else:
                valid.append(elapsed)
                faces.append(env.sheet.compiled.pattern.face_count)
    return valid, ending, refused, faces


def _random_episodes(count: int, seed: int) -> tuple[float, float]:
    env = LatticeActions(OrigamiSynthesisEnv(budget=25, observation_mode="text"))
    env.action_space.seed(seed)
    steps = 0
    started = time.perf_counter()
    for episode in range(count):
        env.reset(seed=seed + episode)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            steps += 1
            done = terminated or truncated
    elapsed = time.perf_counter() - started
    return elapsed / count, steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", type=int, default=40)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    rng = np.random.default_rng(0)
    targets = [random_simple_fold_target(rng, int(rng.integers(1, 8)), grid=8 if i % 2 else None)
               for i in range(arguments.targets)]
    _step_latencies(targets[:3], "full")  # warm-up (numba kernels, caches)
    _random_episodes(2, 999)
    rows: dict[str, list[float]] = {}
    faces: list[int] = []
    for _ in range(arguments.repeats):
        for mode in ("full", "text"):
            valid, ending, refused, faces = _step_latencies(targets, mode)
            rows.setdefault(f"episode-ending step (with the final metrics), {mode} observation", []).append(
                statistics.median(ending))
            rows.setdefault(f"valid step, {mode} observation", []).append(statistics.median(valid))
            rows.setdefault(f"accepted step CPU time (ending steps included), {mode} observation", []).append(
                statistics.median(cpu_times))
            large = [v for v, f in zip(valid, faces, strict=True) if 20 < f <= 100]
            if large:
                rows.setdefault(f"valid step on 21-100 faces ({len(large)} steps), {mode} observation", []).append(
                    statistics.median(large))
            rows.setdefault(f"valid step, {mode} observation, 90th percentile", []).append(
                float(np.percentile(valid, 90)))
            for name, values in refused.items():
                rows.setdefault(f"refused step ({name}), {mode} observation", []).append(statistics.median(values))
        cpu = time.process_time()
        per_episode, steps_per_second = _random_episodes(arguments.episodes, 0)
        rows.setdefault("random-agent episode of 25 steps, CPU time", []).append(
            (time.process_time() - cpu) / arguments.episodes)
        rows.setdefault("random-agent episode of 25 steps (text observation)", []).append(per_episode)
        rows.setdefault("random-agent steps per second", []).append(steps_per_second)
    print(f"{len(targets)} targets, {len(faces)} valid steps, faces after a step: median {statistics.median(faces)}, "
          f"max {max(faces)}")
    for name, values in rows.items():
        value = statistics.median(values)
        if "per second" in name:
            print(f"{name}: {value:,.0f}")
        else:
            print(f"{name}: {value * 1000:.2f} ms")
    per_episode = statistics.median(rows["random-agent episode of 25 steps (text observation)"])
    print(f"1,000 random-agent episodes of 25 steps, projected: {per_episode * 1000:.0f} s")


if __name__ == "__main__":
    main()
