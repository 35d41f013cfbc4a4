"""A brute-force count of the flat-folded states of a polyomino (a cube net, a map), independent of the
compiler: every stacking order of its unit squares is tried.

Folded with every crease turned by 180 degrees, all squares of a polyomino land on one unit square, so a state
is a stacking order of the squares. A vertical crease at ``x = k`` lands on the side ``x = k mod 2`` of the
folded square and a horizontal one at ``y = k`` on ``y = k mod 2``; two creases on the same side must nest or
be apart in the stack (paper cannot pass through a fold). A square ``(c, r)`` shows its back when ``c + r`` is
odd; a valley brings the far square toward the viewer when the near one shows its front, a mountain the
opposite (``U`` either way).
"""

from __future__ import annotations

import itertools

from .builders import polyomino_creases


def count_stackings(cells: list[tuple[int, int]] | tuple[tuple[int, int], ...], letters: str | None = None) -> int:
    """The number of valid stacking orders of the polyomino with its creases assigned ``letters``."""
    creases, _ = polyomino_creases(list(cells))
    letters = letters or "U" * len(creases)
    order_of = {cell: index for index, cell in enumerate(sorted(set(cells)))}
    joined = []
    for (near, far), letter in zip(creases, letters, strict=True):
        side = ("x", far[0] % 2) if far[0] != near[0] else ("y", far[1] % 2)
        joined.append((order_of[near], order_of[far], side, letter, (near[0] + near[1]) % 2 == 1))
    count = 0
    for stack in itertools.permutations(range(len(order_of))):
        height = [0] * len(stack)
        for level, square in enumerate(stack):
            height[square] = level
        if any(letter != "U" and (height[far] > height[near]) != ((letter == "V") != near_shows_back)
               for near, far, _, letter, near_shows_back in joined):
            continue
        spans = [(side, sorted((height[near], height[far]))) for near, far, side, _, _ in joined]
        if any(first_side == second_side and (a[0] < b[0] < a[1] < b[1] or b[0] < a[0] < b[1] < a[1])
               for (first_side, a), (second_side, b) in itertools.combinations(spans, 2)):
            continue
        count += 1
    return count
