"""Fingerprints of generated Paper Folding Puzzles items, to show that a change left them byte-identical.

For each chosen task and seed, generates ``--n`` items with their pictures (composite and panels) and hashes each
item's record (its JSON) and each picture's PNG bytes. ``--save FILE`` writes the hashes; ``--compare FILE``
compares them with saved ones, prints the first differing items and exits 1 when anything differs.

    .venv/bin/python bench/pfp_fingerprint.py --n 300 --seeds 20251,7 --save /tmp/pfp_before.json
    .venv/bin/python bench/pfp_fingerprint.py --n 300 --seeds 20251,7 --compare /tmp/pfp_before.json
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _fingerprint_compare import item_hashes, save_or_compare  # bench/ is the script's folder, first on sys.path

from foldbench.tasks.pfp import TASKS


def fingerprints(task_type: type, n: int, seed: int) -> dict[str, str]:
    """The hash of every item's record and of each of its pictures, keyed by item id and picture path."""
    task = task_type()
    return item_hashes(task, task.generate(n, seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="items per task and seed")
    parser.add_argument("--seeds", default="20251,7", help="comma-separated dataset seeds")
    parser.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the fingerprints here")
    group.add_argument("--compare", type=Path, help="compare with fingerprints saved here")
    args = parser.parse_args()
    names = [name for name in args.tasks.split(",") if name]
    chosen = [t for t in TASKS if not names or t.name in names]
    current = {f"{t.id}/{seed}": fingerprints(t, args.n, int(seed)) for t in chosen for seed in args.seeds.split(",")}
    save_or_compare(current, args.save, args.compare)


if __name__ == "__main__":
    main()
