"""Fingerprints of generated Paper Folding Puzzles items, to show that a change left them byte-identical.

For each chosen task and seed, generates ``--n`` items with their pictures (composite and panels) and hashes each
item's record (its JSON) and each picture's PNG bytes. ``--save FILE`` writes the hashes; ``--compare FILE``
compares them with saved ones, prints the first differing items and exits 1 when anything differs.

    .venv/bin/python bench/pfp_fingerprint.py --n 300 --seeds 20251,7 --save /tmp/pfp_before.json
    .venv/bin/python bench/pfp_fingerprint.py --n 300 --seeds 20251,7 --compare /tmp/pfp_before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from foldbench.tasks.pfp import TASKS


def fingerprints(task_type: type, n: int, seed: int) -> dict[str, str]:
    """The hash of every item's record and of each of its pictures, keyed by item id and picture path."""
    task = task_type()
    hashes: dict[str, str] = {}
    for item in task.generate(n, seed):
        hashes[item.id] = hashlib.sha256(item.model_dump_json().encode()).hexdigest()
        for path, data in task.assets(item):
            hashes[f"{item.id}:{path}"] = hashlib.sha256(data).hexdigest()
    return hashes


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
    if args.save is not None:
        args.save.write_text(json.dumps(current, indent=0, sort_keys=True))
        print(f"saved {sum(len(v) for v in current.values())} hashes to {args.save}")
        return
    saved = json.loads(args.compare.read_text())
    failures = 0
    for key, hashes in current.items():
        before = saved.get(key)
        if before is None:
            print(f"{key}: not in {args.compare}")
            failures += 1
            continue
        differing = sorted(k for k in hashes.keys() | before.keys() if hashes.get(k) != before.get(k))
        failures += bool(differing)
        status = "identical" if not differing else f"{len(differing)} differ, first: {', '.join(differing[:3])}"
        print(f"{key}: {len(hashes)} hashes, {status}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
