"""CPU seconds one task spends generating items (records only, no pictures written), after a warm-up.

Usage: python bench/generation_cpu.py TASK_ID N SEED [KNOB=VALUE ...]

Generates two items of another seed first (so numba's load and the first compiles are not counted), then ``N``
items of ``SEED`` and prints their CPU time. Run it with ``PYTHONPATH`` set to each tree to compare two versions:

    PYTHONPATH=/tmp/before/src python bench/generation_cpu.py origamispace/foldability-v2 24 4242
    PYTHONPATH=src python bench/generation_cpu.py origamispace/foldability-v2 24 4242
"""

from __future__ import annotations

import sys
import time

from foldbench.tasks import make


def _knob(text: str) -> tuple[str, object]:
    name, value = text.split("=", 1)
    return name, int(value) if value.isdigit() else value


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2])
    task_id, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    knobs = dict(_knob(text) for text in sys.argv[4:])
    task = make(task_id)
    modality = task.modalities[0]
    list(task.generate(2, seed + 1, modalities=(modality,), knobs=knobs))
    started = time.process_time()
    items = list(task.generate(n, seed, modalities=(modality,), knobs=knobs))
    print(f"{task_id} {knobs or ''}: {len(items)} items in {time.process_time() - started:.2f} s CPU")


if __name__ == "__main__":
    main()
