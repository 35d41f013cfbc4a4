"""Check every option of a foldability dataset (OrigamiSpace) with the stability test its generator applies
(:func:`foldbench.tasks.origamispace.stability.option_stability`): prints the count of options per verdict and
stability, and the closest pair of features (flat or folded) that do not coincide.

Usage:
    .venv/bin/python bench/foldability_stability.py DATASET [DATASET ...]
e.g. after ``foldbench generate origamispace --task foldability -n 240 --seed 9091 --out d/fa``.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from foldbench.tasks.origamispace.stability import option_stability


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    args = parser.parse_args()
    for dataset in args.datasets:
        items = [json.loads(line) for line in (dataset / "items.jsonl").read_text().splitlines()]
        counts: Counter[tuple[str, bool]] = Counter()
        closest: list[float] = []
        for item in items:
            for option, verdict in zip(item["inputs"]["options"], item["target"]["verdicts"], strict=True):
                stability = option_stability(option, verdict)
                counts[(stability.verdict, stability.stable)] += 1
                if stability.closest is not None:
                    closest.append(stability.closest)
        print(f"{dataset}: {len(items)} items")
        for (verdict, stable), count in sorted(counts.items()):
            print(f"  {verdict:6s} {'stable' if stable else 'NOT stable'}: {count}")
        print(f"  closest non-coincident features: {min(closest):.3g}" if closest else "  no features within 1e-2")


if __name__ == "__main__":
    main()
