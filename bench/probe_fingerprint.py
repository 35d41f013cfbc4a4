"""Fingerprints of generated perception-probe items, to show that a change left them byte-identical.

For each probe task (MentalBlackboard's perception in text and image, PFP's single-step perception in image), each
seed and each dataset size of ``--sizes`` (small sizes make the generators draw more source configurations than
``n / questions`` before the answers can be balanced), generates the items with their pictures and hashes each
item's record (its JSON) and each picture's bytes. ``--save FILE`` writes the hashes; ``--compare FILE`` compares
them with saved ones, prints the first differing items and exits 1 when anything differs.

    python bench/probe_fingerprint.py --save /tmp/probes_before.json
    python bench/probe_fingerprint.py --compare /tmp/probes_before.json
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _fingerprint_compare import item_hashes, save_or_compare  # bench/ is the script's folder, first on sys.path

from foldbench.tasks import make

PROBES = {"mentalblackboard/perception-v2": ("text", "image"), "pfp/single-step-perception-v2": ("image",)}


def fingerprints(task_id: str, modalities: tuple[str, ...], n: int, seed: int) -> dict[str, str]:
    """The hash of every item's record and of each of its pictures, keyed by item id and picture path."""
    task = make(task_id)
    return item_hashes(task, task.generate(n, seed, modalities=modalities))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,5,40", help="comma-separated dataset sizes")
    parser.add_argument("--seeds", default="0,7,20251", help="comma-separated dataset seeds")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the fingerprints here")
    group.add_argument("--compare", type=Path, help="compare with fingerprints saved here")
    args = parser.parse_args()
    current = {
        f"{task_id}/{seed}/{n}": fingerprints(task_id, modalities, int(n), int(seed))
        for task_id, modalities in PROBES.items()
        for seed in args.seeds.split(",")
        for n in args.sizes.split(",")
    }
    save_or_compare(current, args.save, args.compare)


if __name__ == "__main__":
    main()
