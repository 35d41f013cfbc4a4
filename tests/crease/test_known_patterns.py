"""Crease patterns with independently known answers: equal-angle vertices against a brute-force stacking
oracle, the waterbomb base and the square twist, and invariances every pattern must keep (mirror assignment,
rigid motions and scaling of the input)."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import GeometricallyImpossibleFold, SelfIntersection
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.simple_folds import random_simple_folds

from .builders import centre_vertex, square_twist


def stackings_of_equal_sectors(letters: str) -> int:
    """Flat-folded states of a vertex whose ``m`` sectors are all equal, by trying every stacking.

    Folded, every sector covers the same wedge, so a state is a stacking order of the ``m`` faces. Face ``i``
    lies between creases ``i`` and ``i + 1`` and shows its back when ``i`` is odd; crease ``i`` joins faces
    ``i - 1`` and ``i`` on side ``i % 2`` of the wedge. Two creases on the same side must nest or be apart in
    the stacking (paper cannot pass through a fold), and a valley brings the far face toward the viewer when
    the near face shows its front (a mountain the opposite; ``U`` either way).
    """
    count = len(letters)
    return sum(
        all(_crease_agrees(letters[i], height[(i - 1) % count], height[i], (i - 1) % 2 == 1) for i in range(count))
        for height in _stackings_without_crossings(count)
    )


@functools.cache
def _stackings_without_crossings(count: int) -> list[list[int]]:
    """Each face's level in every stacking of ``count`` equal sectors where no two creases on one side cross (the
    letters only decide which of these agree, so this is worked out once per number of sectors)."""
    heights = []
    for order in itertools.permutations(range(count)):
        height = [0] * count
        for level, face in enumerate(order):
            height[face] = level
        spans = [sorted((height[(i - 1) % count], height[i])) for i in range(count)]
        crossing = any(
            a[0] < b[0] < a[1] < b[1] or b[0] < a[0] < b[1] < a[1]
            for i, j in itertools.combinations(range(count), 2) if i % 2 == j % 2
            for a, b in [(spans[i], spans[j])]
        )
        if not crossing:
            heights.append(height)
    return heights


def _crease_agrees(letter: str, near_height: int, far_height: int, near_shows_back: bool) -> bool:
    if letter == "U":
        return True
    far_up = (letter == "V") != near_shows_back
    return (far_height > near_height) == far_up


def compiled_states(letters: str) -> int:
    """States the compiler finds for the equal-angle vertex (0 when it proves there are none)."""
    step = 360 / len(letters)
    try:
        return compile_crease_pattern(centre_vertex([(i * step, c) for i, c in enumerate(letters)])).state_count
    except (GeometricallyImpossibleFold, SelfIntersection):
        return 0


def test_the_oracle_counts_the_2x2_map() -> None:
    assert stackings_of_equal_sectors("UUUU") == 8  # OEIS A001418: a 2x2 map folds 8 ways


@pytest.mark.parametrize("letters", ["UUUUUU", "MMMMVV", "MVMMMM", "UUUUUUUU", "MVMVMMMM", "VVVVVMMM"])
def test_equal_angle_vertices_match_the_stacking_oracle(letters: str) -> None:
    assert compiled_states(letters) == stackings_of_equal_sectors(letters)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([4, 6, 8]).flatmap(lambda m: st.text(alphabet="MVU", min_size=m, max_size=m)))
def test_random_equal_angle_vertices_match_the_stacking_oracle(letters: str) -> None:
    assert compiled_states(letters) == stackings_of_equal_sectors(letters)


def _random_pattern(seed: int):  # type: ignore[no-untyped-def]
    return random_simple_folds(np.random.default_rng(seed), 2 + seed % 4, grid=None if seed % 2 else 8)


@pytest.mark.parametrize("seed", range(6))
def test_swapping_mountains_and_valleys_mirrors_every_state(seed: int) -> None:
    folds = _random_pattern(seed)
    swapped = [{"M": "V", "V": "M"}.get(letter, letter) for letter in folds.assignments]
    original = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    mirrored = compile_crease_pattern(build_crease_pattern(folds.segments, swapped))
    assert mirrored.state_count == original.state_count >= 1


@pytest.mark.parametrize("seed", range(6))
def test_rotating_scaling_and_moving_the_input_changes_nothing(seed: int) -> None:
    folds = _random_pattern(seed)
    rng = np.random.default_rng(100 + seed)
    angle = rng.uniform(0, 2 * math.pi)
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    moved = folds.segments @ rotation.T * rng.uniform(0.01, 1000) + rng.uniform(-50, 50, size=2)
    original = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    again = compile_crease_pattern(build_crease_pattern(moved, folds.assignments))
    assert again.state_count == original.state_count
    assert len(again.constraints.variables_faces) == len(original.constraints.variables_faces)
    assert again.pattern.face_count == original.pattern.face_count


def test_the_waterbomb_base_folds_one_way() -> None:
    # both diagonals valley, the horizontal midline mountain: the two big triangles take the four small ones
    # between them, and at each diagonal the pair attached to the top triangle must stay above the other pair
    # (the two folds there cannot interleave), so the stack is forced
    base = centre_vertex([(0, "M"), (45, "V"), (135, "V"), (180, "M"), (225, "V"), (315, "V")])
    compiled = compile_crease_pattern(base)
    assert compiled.pattern.face_count == 6 and compiled.state_count == 1


@pytest.mark.parametrize("sides", ["M", "V"])
def test_a_square_twist_folds_one_way(sides: str) -> None:
    # each pleat's three layers are ordered by its mountain and valley, and the square lies over all four
    compiled = compile_crease_pattern(square_twist(sides))
    assert compiled.pattern.face_count == 9 and compiled.state_count == 1


def test_a_square_twist_with_a_corner_swapped_breaks_big_little_big() -> None:
    with pytest.raises(GeometricallyImpossibleFold) as caught:
        compile_crease_pattern(square_twist("M", swapped_corner=2))
    assert caught.value.code == "E_GEOM_BIG_LITTLE_BIG"
    assert caught.value.where["coordinates"] == pytest.approx([0.625, 0.625])
