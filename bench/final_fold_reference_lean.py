"""Why final-fold's answer looks less like the result picture than its distractors: three geometric readers.

Reads a final-fold dataset (as ``bench/pfp_choice_audit.py --tasks final-fold`` writes it) and scores readers that
never unfold anything, each picking the option(s) with the least or most of one quantity (1/k credit when the
answer is among k tied picks, ties within one square unit):

* **holes covered**: the area of the result's holes that the option's folded paper lies over. The holes the
  answer's third fold makes lie where its flap was before that fold, which its own paper no longer covers, while
  another option's paper may; so the answer tends to cover the least.
* **paper area**: the area of the option's folded paper.
* **back shown**: the area where the option's top layer shows its back (drawn darker).

It also counts the items whose first cutout leaves exactly one option's third fold untouched (the placement asks
for at least three of four) and how often that option is the answer.

    python bench/pfp_choice_audit.py --n 600 --seed 2027 --out DIR --tasks final-fold
    python bench/final_fold_reference_lean.py DIR/final-fold
"""

from __future__ import annotations

import argparse
from pathlib import Path

import shapely

from foldbench.pfp.folding import FoldState
from foldbench.pfp.puzzle import Puzzle, cut_region, holes_of, sheet_states
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.dataset import read_items
from foldbench.tasks.pfp.fold_tasks import _changed_paper, _steps_from

_TIE = 1.0
"""Square units: quantities closer than this count as tied."""


def _back_shown(state: FoldState) -> float:
    """The area where the top layer of ``state`` shows its back."""
    covered = shapely.Polygon()
    back = 0.0
    for layer in reversed(state.layers):
        if layer.parity % 2:
            back += layer.position.difference(covered).area
        covered = covered.union(layer.position)
    return back


def _credit(values: list[float], answer: int, least: bool) -> float:
    """1/k when the answer is among the k options with the least (or most) value, else 0."""
    best = min(values) if least else max(values)
    picked = [k for k, value in enumerate(values) if abs(value - best) < _TIE]
    return 1.0 / len(picked) if answer in picked else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="a final-fold dataset folder")
    args = parser.parse_args()
    items = read_items(args.dataset)
    names = ("holes covered", "paper area", "back shown")
    credits = {(name, least): 0.0 for name in names for least in (True, False)}
    one_untouched = untouched_answer = 0
    for item in items:
        puzzle = Puzzle.from_dict(item.inputs["puzzle"])
        answer = LETTERS.index(item.target["answer"])
        holes = holes_of(puzzle)
        sequences = [_steps_from(o) for o in item.inputs["options"]]
        finals = [sheet_states(puzzle.sheet, steps)[-1] for steps in sequences]
        values = {
            "holes covered": [final.silhouette.intersection(holes).area for final in finals],
            "paper area": [final.silhouette.area for final in finals],
            "back shown": [_back_shown(final) for final in finals],
        }
        for (name, least) in credits:
            credits[name, least] += _credit(values[name], answer, least)
        before = sheet_states(puzzle.sheet, sequences[0][:2])[-1]
        first = cut_region(puzzle.cutouts[:1])
        touched = [_changed_paper(before, steps[2][0]).intersects(first) for steps in sequences]
        if sum(touched) == 3:
            one_untouched += 1
            untouched_answer += not touched[answer]
    print(f"{args.dataset}: {len(items)} items")
    print("| reader | picks the answer (%) |")
    print("|---|---|")
    for (name, least), credit in credits.items():
        print(f"| {'least' if least else 'most'} {name} | {100 * credit / len(items):.1f} |")
    share = 100 * untouched_answer / one_untouched if one_untouched else float("nan")
    print(f"\nfirst cutout leaves one option's third fold untouched: {one_untouched} items; "
          f"that option is the answer in {untouched_answer} ({share:.1f} %)")


if __name__ == "__main__":
    main()
