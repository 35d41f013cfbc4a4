"""foldbench's ``random`` baseline on the code-generation task, per difficulty level and on the paper preset.

For each set (generated easy, medium and hard items, and the paper preset's OrigamiBench models), it draws N items
from a seed, answers each with the task's ``random_answer`` (seeded per item, as ``foldbench eval --model random``
does) and prints the mean headline (``score``), the paper's total and the crease overlap. Pictures are not drawn:
the score never reads them.

    PYTHONPATH=src python bench/codegen_random_levels.py -n 200 --seed 31337
    PYTHONPATH=src python bench/codegen_random_levels.py -n 200 --seed 31337 --sets paper
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from foldbench.tasks.origamispace.codegen import CodegenTask

SETS: dict[str, dict[str, object]] = {"easy": {"difficulty": "easy"}, "medium": {"difficulty": "medium"},
                                      "hard": {"difficulty": "hard"}, "paper": {"preset": "paper"}}


def score_set(name: str, n: int, seed: int) -> dict[str, float]:
    """Mean scores of ``random`` on ``n`` items of one set."""
    task = CodegenTask()
    rows = []
    for index, item in enumerate(task.generate(n, seed, knobs=SETS[name])):
        answer = task.random_answer(item, np.random.default_rng([seed, index, 0x7A4D]))
        result = task.evaluate(item, answer)
        rows.append((result.score, result.total, result.creases, float(result.compiled)))
    means = np.mean(rows, axis=0)
    return dict(zip(("score", "paper_total", "creases", "compiled"), means, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31337)
    parser.add_argument("--sets", default="easy,medium,hard", help="comma-separated: easy, medium, hard, paper")
    args = parser.parse_args()
    print("| set | items | score | paper total | creases | compiled | seconds |")
    print("|---|---|---|---|---|---|---|")
    for name in args.sets.split(","):
        started = time.perf_counter()
        means = score_set(name, args.n, args.seed)
        print(f"| {name} | {args.n} | " + " | ".join(f"{100 * value:.1f}" for value in means.values())
              + f" | {time.perf_counter() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
