"""How much the position of the cut would give away in missing-step-strict, were the question to show it.

The papers' question row shows the cutouts where they were cut. In ``pfp/missing-step-strict`` the cut is made
through the folded paper of the answer's folding, so a reader who only checks which option's folded paper (after
its third fold) lies under the cut, without unfolding anything, would often find the answer. This script generates
``--n`` items and scores that reader: it picks the option(s) whose last folded paper holds the largest share of the
cut's area (1/k credit when the answer is among k tied picks), and prints the accuracy and how many options tie.

    python bench/missing_step_cut_position.py --n 600 --seed 2027
"""

from __future__ import annotations

import argparse
from collections import Counter

from foldbench.pfp.puzzle import Puzzle, cut_region, sheet_states
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.pfp import MissingStepStrictTask
from foldbench.tasks.pfp.missing_step_strict import _steps_from


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2027)
    args = parser.parse_args()
    task = MissingStepStrictTask()
    credit = 0.0
    ties: Counter[int] = Counter()
    for item in task.generate(args.n, args.seed, knobs={"panels": False}):
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        cut = cut_region(puzzle.cutouts)
        shares = [
            cut.intersection(sheet_states(puzzle.sheet, _steps_from(o), task.memo)[-1].silhouette).area / cut.area
            for o in item.inputs["options"]
        ]
        picked = [k for k, share in enumerate(shares) if share >= max(shares) - 1e-9]
        ties[len(picked)] += 1
        if LETTERS.index(item.target["answer"]) in picked:
            credit += 1 / len(picked)
    print(f"cut-position reader: {100 * credit / args.n:.1f} % of {args.n} items (chance 25 %); "
          f"options picked per item: {dict(sorted(ties.items()))}")


if __name__ == "__main__":
    main()
