"""How far shallow picture cues go on a multi-step ordering dataset (OrigamiSpace): each rule orders the numbered
pictures by one pixel count (paper pixels, dark line pixels, blue or yellow pixels, or a ratio of them; rising or
falling) and answers the option with the fewest pairs out of that order (ties split, as in ``foldbench audit``).
These rules read the pictures, so the audit, which reads only the options, does not run them.

Usage:
    .venv/bin/python bench/ordering_picture_cues.py DATASET [DATASET ...]
e.g. after ``foldbench generate origamispace --task multi-step-ordering -n 300 --seed 20251 --out d/ord``.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

import numpy as np
from PIL import Image

WHITE_LEVEL = 245
DARK_LEVEL = 100


def picture_counts(path: Path) -> dict[str, float]:
    """Pixel counts of one state picture."""
    rgb = np.asarray(Image.open(path).convert("RGB")).astype(int)
    grey = rgb.mean(axis=2)
    paper = grey < WHITE_LEVEL
    dark = grey < DARK_LEVEL
    blue = (rgb[:, :, 2] > rgb[:, :, 0] + 40) & paper
    yellow = paper & ~blue & ~dark
    total = max(1, int(paper.sum()))
    return {"paper": float(paper.sum()), "dark": float(dark.sum()), "blue": float(blue.sum()),
            "yellow": float(yellow.sum()), "dark per paper": dark.sum() / total, "blue per paper": blue.sum() / total}


def rule_accuracies(dataset: Path) -> dict[str, float]:
    """Each rule's accuracy on a dataset."""
    records = [json.loads(line) for line in (dataset / "items.jsonl").read_text(encoding="utf-8").splitlines()
               if line.strip()]
    credit: dict[str, float] = {}
    for record in records:
        counts = [picture_counts(dataset / path) for path in record["inputs"]["images"]["states"]]
        orders = [[int(n) for n in text.split(", ")] for text in record["inputs"]["options"]]
        answer = "ABCD".index(record["target"]["answer"])
        for feature in counts[0]:
            for direction, word in ((1, "rising"), (-1, "falling")):
                ranked = sorted(range(1, len(counts) + 1), key=lambda n: direction * counts[n - 1][feature])
                rank = {number: place for place, number in enumerate(ranked)}
                out_of_order = [sum(rank[a] > rank[b] for a, b in itertools.combinations(o, 2)) for o in orders]
                best = [i for i, value in enumerate(out_of_order) if value == min(out_of_order)]
                key = f"{feature}, {word}"
                credit[key] = credit.get(key, 0.0) + (answer in best) / len(best)
    return {key: value / len(records) for key, value in credit.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    args = parser.parse_args()
    for dataset in args.datasets:
        print(dataset)
        for key, value in sorted(rule_accuracies(dataset).items(), key=lambda kv: -kv[1]):
            print(f"  {key:24s} {value:6.1%}")


if __name__ == "__main__":
    main()
