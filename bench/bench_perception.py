"""Time to generate perception probes: 1,000 items (the questions and the engine's answers, text encoding), and
the same 1,000 items as a full image dataset written to disk (step pictures drawn and PNG-encoded).

Run: ``.venv/bin/python bench/bench_perception.py [--n 1000] [--runs 5]``; prints the median over the runs with
the fastest and slowest run beside it (one core).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from foldbench.tasks import make
from foldbench.tasks.dataset import write_dataset


def _items(n: int, seed: int) -> float:
    started = time.perf_counter()
    items = list(make("mentalblackboard/perception").generate(n, seed, modalities=("text",)))
    assert len(items) == n
    return time.perf_counter() - started


def _dataset(n: int, seed: int) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        write_dataset("mentalblackboard/perception", Path(scratch) / "d", n=n, seed=seed, modalities=("image",))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for label, measure in (("items (text)", _items), ("image dataset on disk", _dataset)):
        times = [measure(args.n, seed) for seed in range(args.runs)]
        print(
            f"{args.n} perception probes, {label}: median {statistics.median(times):.2f} s "
            f"(fastest {min(times):.2f} s, slowest {max(times):.2f} s, {args.runs} runs)"
        )


if __name__ == "__main__":
    main()
