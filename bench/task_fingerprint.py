"""Fingerprints of the items of every registered task, to show that a change left datasets byte-identical.

For each registered task (or those of ``--tasks``), each of its modalities and each seed, generates ``--n`` items
and hashes each item's record (its JSON); with ``--assets``, also each of its files (pictures, videos: slow for
the video modalities). ``--save FILE`` writes the hashes; ``--compare FILE`` compares them with saved ones, prints
one line per task, modality and seed, and exits 1 when anything differs.

    PYTHONPATH=<before>/src python bench/task_fingerprint.py --n 6 --seeds 0,7 --save /tmp/tasks_before.json
    PYTHONPATH=<after>/src python bench/task_fingerprint.py --n 6 --seeds 0,7 --compare /tmp/tasks_before.json
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from _fingerprint_compare import item_hashes, save_or_compare  # bench/ is the script's folder, first on sys.path

from foldbench.tasks import make, task_ids


def fingerprints(task_id: str, modality: str, n: int, seed: int, *, assets: bool) -> dict[str, str]:
    """The hash of every item's record (and, with ``assets``, of each of its files), keyed by id and path."""
    task = make(task_id)
    items = task.generate(n, seed, modalities=(modality,))
    if assets:
        return item_hashes(task, items)
    return {item.id: hashlib.sha256(item.model_dump_json().encode()).hexdigest() for item in items}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=6, help="items per task, modality and seed")
    parser.add_argument("--seeds", default="0,7", help="comma-separated dataset seeds")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: every registered task)")
    parser.add_argument("--assets", action="store_true", help="also hash every item's files")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the fingerprints here")
    group.add_argument("--compare", type=Path, help="compare with fingerprints saved here")
    args = parser.parse_args()
    chosen = [t for t in args.tasks.split(",") if t] or task_ids()
    current = {
        f"{task_id} {modality} seed {seed}": fingerprints(task_id, modality, args.n, int(seed), assets=args.assets)
        for task_id in chosen
        for modality in make(task_id).modalities
        for seed in args.seeds.split(",")
    }
    save_or_compare(current, args.save, args.compare)


if __name__ == "__main__":
    main()
