"""How far the placement of the marks on the crease pattern goes on a spatial-relationship dataset (OrigamiSpace):
rules that read only where the labelled points sit on the paper, never the creases.

- pose: the mark (1 or 2) nearest to P, or farthest from it, is the one P lands on (chance 50 %);
- thickest: the point nearest to the paper's centre, or farthest from it, is the thickest place (chance 25 %);
- stacking: the points ordered by their distance from F, nearest on top or at the bottom (chance 25 %).

These rules read the picture's marks, so ``foldbench audit``, which reads the options, does not run them.

Usage:
    .venv/bin/python bench/relationship_mark_cues.py DATASET [DATASET ...]
e.g. after ``foldbench generate origamispace --task spatial-relationship -n 240 --seed 9091 --out d/rel``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np


def _points(item: dict) -> dict[str, np.ndarray]:
    return {m["label"]: np.array([m["x"], m["y"]], float) for m in item["inputs"]["pattern_marks"]}


def _value(item: dict) -> str:
    return item["inputs"]["options"]["ABCD".index(item["target"]["answer"])]


def rules(item: dict) -> dict[str, float]:
    """Each rule's credit on one item (1 right, 0 wrong, 0.5 for a tie of two)."""
    kind, points, value = item["inputs"]["question_type"], _points(item), _value(item)
    if kind == "pose":
        distance = {label: float(np.hypot(*(points[label] - points["P"]))) for label in ("1", "2")}
        nearest = min(distance, key=distance.__getitem__)
        farthest = max(distance, key=distance.__getitem__)
        landed = value.split(",")[0].removeprefix("mark ")
        return {"pose: mark nearest to P": float(nearest == landed),
                "pose: mark farthest from P": float(farthest == landed)}
    if kind == "thickest":
        centre = np.array([0.5, 0.5])
        distance = {label: float(np.hypot(*(points[label] - centre))) for label in "1234"}
        answer = value.removeprefix("point ")
        return {"thickest: point nearest the centre": float(min(distance, key=distance.__getitem__) == answer),
                "thickest: point farthest from the centre": float(max(distance, key=distance.__getitem__) == answer)}
    if kind == "stacking":
        distance = {label: float(np.hypot(*(points[label] - points["F"]))) for label in "123"}
        near_first = ", ".join(sorted("123", key=distance.__getitem__))
        far_first = ", ".join(sorted("123", key=distance.__getitem__, reverse=True))
        return {"stacking: nearest F on top": float(near_first == value),
                "stacking: nearest F at the bottom": float(far_first == value)}
    return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", type=Path)
    args = parser.parse_args()
    for dataset in args.datasets:
        credits: dict[str, list[float]] = defaultdict(list)
        for line in (dataset / "items.jsonl").read_text().splitlines():
            for name, credit in rules(json.loads(line)).items():
                credits[name].append(credit)
        print(f"{dataset}:")
        for name, values in sorted(credits.items()):
            print(f"  {name}: {100 * np.mean(values):.1f} % of {len(values)} items")


if __name__ == "__main__":
    main()
