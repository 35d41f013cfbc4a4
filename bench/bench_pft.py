"""Speed of the paper folding test engine: solving (simulate + unfold + text encoding) and enumeration.

Usage: python bench/bench_pft.py [--configs 5000] [--runs 5]

Prints configurations solved per second (median over runs, one core) and the time to enumerate every
configuration of groups 1-7 (median over runs). Each run re-creates the papers from scratch; the sequences and
holes are drawn once, up front, from a fixed seed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from foldbench.pft import solve
from foldbench.pft.encoders.text import encode_steps
from foldbench.pft.enumeration import count_group
from foldbench.tasks.mentalblackboard.sampling import group_skeletons, sample_actions, sample_holes


def _workload(count: int) -> list[tuple]:  # type: ignore[type-arg]
    rng = np.random.default_rng(2026)
    work = []
    for _ in range(count):
        group = int(rng.integers(1, 10))
        actions = sample_actions(rng, group, "mixed")
        holes = sample_holes(rng, solve(actions, []).folded, rotation=True)
        work.append((actions, holes))
    return work


def bench_solve(count: int, runs: int) -> list[float]:
    work = _workload(count)
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for actions, holes in work:
            encode_steps(solve(actions, holes))
        rates.append(count / (time.perf_counter() - start))
    return rates


def bench_enumeration(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        group_skeletons.cache_clear()
        start = time.perf_counter()
        total = sum(count_group(group) for group in range(1, 8))
        times.append(time.perf_counter() - start)
        assert total == 16 + 160 + 1408 + 10752 + 48 + 768 + 10368
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configs", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rates = bench_solve(args.configs, args.runs)
    print(
        f"solve + text encoding: {statistics.median(rates):,.0f} configurations/s "
        f"(median of {args.runs} runs of {args.configs}; min {min(rates):,.0f}, max {max(rates):,.0f})"
    )
    times = bench_enumeration(max(1, args.runs // 2 + 1))
    print(
        f"enumerate groups 1-7 (23,520 configurations): {statistics.median(times):.2f} s (median of {len(times)} runs)"
    )


if __name__ == "__main__":
    main()
