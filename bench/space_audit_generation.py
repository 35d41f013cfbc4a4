"""CPU seconds spent generating the datasets of the OrigamiSpace and OrigamiBench audit tests (records and
pictures), one after the other in one process, each by a new task object as ``write_dataset`` makes it: what one
test worker spends on them. Run it with ``PYTHONPATH`` set to each tree to compare two versions.

Usage: python bench/space_audit_generation.py [--scale S]

``--scale`` multiplies every item count (default 1: the audits' own sizes). Two items of another seed are made
first (not counted), so numba's load is not counted either.

    PYTHONPATH=/tmp/before/src python bench/space_audit_generation.py
    PYTHONPATH=src python bench/space_audit_generation.py
"""

from __future__ import annotations

import argparse
import time

from foldbench.tasks import make

AUDITS: tuple[tuple[str, int, int, dict[str, object]], ...] = (
    ("origamispace/spatial-relationship-v3", 300, 4242, {"kind": "pose", "size": 128}),
    ("origamispace/spatial-relationship-v3", 300, 4242, {"kind": "layering", "size": 128}),
    ("origamispace/spatial-relationship-v3", 300, 4242, {"kind": "geometric", "size": 128}),
    ("origamispace/foldability-v2", 240, 4242, {}),
    ("origamibench/one-step-associative-v5", 240, 4242, {"size": 128}),
    ("origamibench/one-step-causal-v4", 240, 4242, {"size": 128}),
    # tests/support/datasets.py: ORDERING_AUDIT and PATTERN_PREDICTION_AUDIT (audited, and run through the harness)
    ("origamispace/multi-step-ordering-v3", 160, 20251, {"size": 64}),
    ("origamispace/pattern-prediction-v2", 200, 20251, {"size": 64}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every item count by this")
    options = parser.parse_args()
    warm = make("origamispace/foldability-v2")
    for item in warm.generate(2, 1, modalities=("image",)):
        list(warm.assets(item))
    total = 0.0
    for task_id, n, seed, knobs in AUDITS:
        count = max(4, round(n * options.scale))
        started = time.process_time()
        task = make(task_id)
        for item in task.generate(count, seed, modalities=("image",), knobs=knobs):
            list(task.assets(item))
        seconds = time.process_time() - started
        total += seconds
        print(f"{seconds:7.2f} s  {task_id} {count} items {knobs or ''}", flush=True)
    print(f"{total:7.2f} s  in all")


if __name__ == "__main__":
    main()
