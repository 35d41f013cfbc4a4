"""Which sub-patterns of a built-in base fold flat on their own, and how long a chain of them can be.

A state of a fold sequence is the union of the creases of its steps, so every state is a sub-pattern of the final
pattern that folds flat by itself. This script searches the sub-patterns of a sequence's final pattern made of
whole *groups*: the creases at one interior vertex other than the busiest one (a flap's kite vertex with its four
creases: a sub-pattern holding only some of them cannot be flat there), and, one by one, the creases left at the
busiest vertex (the centre). Each candidate is checked by Maekawa and Kawasaki at the centre first, then compiled.
It prints how many sub-patterns fold flat, the longest chain of them ordered by inclusion, and whether the
sequence's own states form a chain of that length.

    .venv/bin/python bench/base_sub_states.py frog-base
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from functools import cache

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.sequences import PAPER_SIZE, Crease, pattern_from_creases, sequence_by_name

Point = tuple[float, float]


def _key(point: Point) -> Point:
    return round(point[0], 6), round(point[1], 6)


def _interior(point: Point) -> bool:
    return all(1e-6 < value < PAPER_SIZE - 1e-6 for value in point)


def _groups(segments: list[Crease]) -> tuple[Point, list[list[int]]]:
    ends = Counter(_key(p) for c in segments for p in (c.p1, c.p2) if _interior(p))
    centre = max(ends, key=lambda point: ends[point])
    grouped: dict[Point, list[int]] = {}
    loose: list[list[int]] = []
    for index, crease in enumerate(segments):
        others = [_key(p) for p in (crease.p1, crease.p2) if _interior(p) and _key(p) != centre]
        if others:
            grouped.setdefault(others[0], []).append(index)
        else:
            loose.append([index])
    return centre, list(grouped.values()) + loose


def _flat_at(centre: Point, creases: list[Crease]) -> bool:
    """Maekawa and Kawasaki at the centre (two creases: one straight crease of one letter)."""
    rays = []
    for crease in creases:
        for here, there in ((crease.p1, crease.p2), (crease.p2, crease.p1)):
            if _key(here) == centre:
                rays.append((math.degrees(math.atan2(there[1] - here[1], there[0] - here[0])) % 360,
                             crease.assignment))
    if not rays:
        return True
    rays.sort()
    angles = [angle for angle, _ in rays]
    sectors = [(angles[(i + 1) % len(angles)] - angles[i]) % 360 for i in range(len(angles))]
    if len(rays) == 2:
        return abs(sectors[0] - 180) < 1e-6 and rays[0][1] == rays[1][1]
    mountains = sum(letter == "M" for _, letter in rays)
    return abs(2 * mountains - len(rays)) == 2 and abs(sum(sectors[0::2]) - 180) < 1e-6


def _folds(creases: list[Crease]) -> bool:
    try:
        return compile_crease_pattern(pattern_from_creases(creases), limit=1).state_count >= 1
    except CreasePatternError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", default="frog-base", help="a built-in sequence name")
    args = parser.parse_args()
    sequence = sequence_by_name(args.name)
    segments = sequence.final_segments()
    centre, groups = _groups(segments)
    started = time.perf_counter()
    flat: list[int] = []
    for mask in range(1, 1 << len(groups)):
        chosen = [segments[i] for g, group in enumerate(groups) if mask >> g & 1 for i in group]
        if _flat_at(centre, chosen) and _folds(chosen):
            flat.append(mask)
    print(f"{args.name}: {len(segments)} crease segments in {len(groups)} groups; {len(flat)} of "
          f"{(1 << len(groups)) - 1} group sub-patterns fold flat ({time.perf_counter() - started:.1f} s)")

    flat_set = set(flat)

    @cache
    def longest(mask: int) -> int:
        below = [m for m in flat_set if m != mask and m & mask == m]
        return 1 + max((longest(m) for m in below), default=0)

    full = (1 << len(groups)) - 1
    print(f"longest chain of flat sub-patterns ending at the full pattern: {longest(full)} states")
    states, whole = [], True
    for state in range(1, sequence.state_count):
        added = sequence.creases_until(state)
        covered = [[any(crease.covers(segments[i]) for crease in added) for i in group] for group in groups]
        whole = whole and all(all(marks) or not any(marks) for marks in covered)  # no group taken in part
        states.append(sum(1 << g for g, marks in enumerate(covered) if all(marks)))
    growing = all(a & b == a and a != b for a, b in zip(states, states[1:], strict=False))
    chain = whole and growing and all(s in flat_set for s in states)
    print(f"the sequence's own states: {len(states)}, a chain of flat sub-patterns: {chain}")


if __name__ == "__main__":
    main()
