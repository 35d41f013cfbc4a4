"""Where a foldability draw spends its CPU: drawing the simple folds, building the pattern, compiling the pattern
and its near-miss, and judging the stability of both (the steps of ``FoldabilityTask._item``, timed one by one).

Usage: python bench/foldability_draw_cpu.py [DRAWS] [SEED]

Prints the CPU seconds of each step over ``DRAWS`` draws (default 200) and how many draws each check turned away.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from foldbench.crease import build_crease_pattern, random_simple_folds
from foldbench.crease.io.generated import compile_generated
from foldbench.tasks.origamispace.foldability import _document, near_miss
from foldbench.tasks.origamispace.stability import option_stability


def main() -> None:
    draws = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    seconds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()

    def timed(step: str, work: Callable[[], Any]) -> Any:
        started = time.process_time()
        result = work()
        seconds[step] += time.process_time() - started
        return result

    warm = random_simple_folds(np.random.default_rng(0), 2)  # numba's load is not counted
    compile_generated(_document(build_crease_pattern(warm.segments, "".join(warm.assignments))))
    for _ in range(draws):
        count = int(rng.integers(2, 5))
        simple = timed("simple folds", lambda: random_simple_folds(rng, count))  # noqa: B023
        original = timed("build", lambda: _document(build_crease_pattern(simple.segments,  # noqa: B023
                                                                         "".join(simple.assignments))))  # noqa: B023
        compiled = timed("compile original", lambda: compile_generated(original))  # noqa: B023
        candidate = timed("near-miss", lambda: near_miss(original, rng, compiled.pattern))  # noqa: B023
        if candidate is None or compiled.error is not None:
            outcomes["original does not fold"] += 1
            continue
        judged = timed("compile near-miss", lambda: compile_generated(candidate))  # noqa: B023
        if judged.error is None or judged.error["class"] in ("CSE", "PRECISION"):
            outcomes["near-miss not GIF/PSI"] += 1
            continue
        stable = (timed("stability original", lambda: option_stability(original, None, compiled.pattern)).stable,  # noqa: B023
                  timed("stability near-miss", lambda: option_stability(candidate, judged.error,  # noqa: B023
                                                                        judged.pattern)).stable)  # noqa: B023
        outcomes[f"stable (original, near-miss) = {stable}"] += 1
    total = sum(seconds.values())
    for step, value in seconds.items():
        print(f"{value:7.2f} s  {100 * value / total:4.0f} %  {step}")
    print(f"{total:7.2f} s  in all, {draws} draws: {dict(outcomes)}")


if __name__ == "__main__":
    main()
