from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import GeometricallyImpossibleFold
from foldbench.crease.graph.local_checks import check_vertices, kawasaki_residuals, vertices_creases

from .builders import ray_end, square_with


def _fails(creases: list, code: str) -> GeometricallyImpossibleFold:
    with pytest.raises(GeometricallyImpossibleFold) as caught:
        check_vertices(square_with(creases))
    assert caught.value.code == code
    assert caught.value.error_class == "GIF"
    return caught.value


def test_maekawa_counts_are_reported() -> None:
    error = _fails([((0.5, 0), (0.5, 1), "V"), ((0, 0.5), (1, 0.5), "V")], "E_GEOM_MAEKAWA")
    assert error.where["valleys"] == 4 and error.where["mountains"] == 0
    assert error.where["coordinates"] == [0.5, 0.5]


def test_kawasaki_reports_the_angles() -> None:
    creases = [((0.5, 0.5), (0.5, 0), "M"), ((0.5, 0.5), (1, 0.9), "V"), ((0.5, 0.5), (0.5, 1), "V"),
               ((0.5, 0.5), (0, 0.5), "V")]
    error = _fails(creases, "E_GEOM_KAWASAKI")
    assert len(error.where["sector_angles_degrees"]) == 4


def _vertex(directions: list[tuple[float, str]]) -> list:
    return [((0.5, 0.5), ray_end(angle), letter) for angle, letter in directions]


def test_big_little_big() -> None:
    # sectors 40, 100, 140, 80 degrees (Kawasaki holds); the 40-degree sector is a strict local minimum
    _fails(_vertex([(0, "M"), (40, "M"), (140, "V"), (280, "M")]), "E_GEOM_BIG_LITTLE_BIG")


def test_big_little_big_satisfied() -> None:
    pattern = square_with(_vertex([(0, "M"), (40, "V"), (140, "M"), (280, "M")]))
    assert check_vertices(pattern).checked_vertices == 1
    assert compile_crease_pattern(pattern).state_count >= 1


def test_odd_degree_with_unassigned_creases() -> None:
    creases = [((0.5, 0.5), (0.5, 0), "U"), ((0.5, 0.5), (1, 1), "U"), ((0.5, 0.5), (0, 1), "U")]
    _fails(creases, "E_GEOM_ODD_DEGREE")


def test_valid_vertex_passes_and_compiles() -> None:
    pattern = square_with(_vertex([(0, "M"), (90, "M"), (180, "M"), (270, "V")]))
    assert check_vertices(pattern).checked_vertices == 1
    assert compile_crease_pattern(pattern).state_count == 1


def _layer_states(pattern) -> int:  # type: ignore[no-untyped-def]
    """States found by the layer solver alone (the local checks skipped); 0 when no layer order exists."""
    from foldbench.crease.compiler import crease_assignment_orders
    from foldbench.crease.errors import SelfIntersection
    from foldbench.crease.layers.folding import fold_faces
    from foldbench.crease.layers.solver import LayerSolver
    from foldbench.crease.precision.overlay import build_overlay

    folded = fold_faces(pattern)
    overlay = build_overlay(pattern, folded)
    try:
        solution = LayerSolver(overlay.constraints).solve(
            crease_assignment_orders(pattern, folded, overlay.constraints), 1)
    except SelfIntersection:
        return 0
    return solution.state_count


def test_a_run_of_equal_small_sectors_needs_mixed_creases() -> None:
    # sectors 30, 30, 120, 30, 30, 120: the first run of two small sectors is bounded by three mountains
    directions = [(0, "M"), (30, "M"), (60, "M"), (180, "V"), (210, "M"), (240, "V")]
    error = _fails(_vertex(directions), "E_GEOM_BIG_LITTLE_BIG")
    assert len(error.where["run_edges"]) == 3
    assert _layer_states(square_with(_vertex(directions))) == 0  # the solver agrees: it cannot be layered


def _kawasaki_sectors(draw: st.DrawFn, degree: int) -> list[int]:
    """Sectors (multiples of 15 degrees) whose alternating sums are both 180."""
    halves = []
    for _ in range(2):
        cuts = sorted(draw(st.lists(st.integers(1, 11), min_size=degree // 2 - 1, max_size=degree // 2 - 1,
                                    unique=True)))
        bounds = [0, *cuts, 12]
        halves.append([15 * (b - a) for a, b in itertools.pairwise(bounds)])
    return [angle for pair in zip(*halves, strict=True) for angle in pair]


@st.composite
def _maekawa_vertices(draw: st.DrawFn) -> list[tuple[float, str]]:
    degree = draw(st.sampled_from([4, 6]))
    sectors = _kawasaki_sectors(draw, degree)
    majority = draw(st.sampled_from("MV"))
    minority = "V" if majority == "M" else "M"
    letters = [majority] * (degree // 2 + 1) + [minority] * (degree // 2 - 1)
    letters = draw(st.permutations(letters))
    start = draw(st.integers(0, 23)) * 15
    directions, angle = [], start
    for sector, letter in zip(sectors, letters, strict=True):
        directions.append((angle % 360, letter))
        angle += sector
    return directions


@settings(max_examples=60, deadline=None)
@given(_maekawa_vertices())
def test_big_little_big_rejects_only_vertices_the_solver_cannot_layer(directions: list) -> None:
    pattern = square_with(_vertex(directions))
    try:
        check_vertices(pattern)
    except GeometricallyImpossibleFold as error:
        assert error.code == "E_GEOM_BIG_LITTLE_BIG"
        assert _layer_states(pattern) == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 23), min_size=1, max_size=8, unique=True), st.sampled_from("MVU"))
def test_creases_around_a_vertex_are_listed_counter_clockwise(steps: list[int], letter: str) -> None:
    # directions on a 15-degree lattice include the exact horizontal ones (180 degrees: a signed zero in y)
    pattern = square_with(_vertex([(15 * step, letter) for step in steps]))
    neighbours, on_boundary = vertices_creases(pattern)
    centre = next(v for v, xy in enumerate(pattern.vertices_coords.tolist()) if xy == [0.5, 0.5])
    assert not on_boundary[centre]

    def direction(edge: int) -> float:
        a, b = pattern.edges_vertices[edge].tolist()
        other = pattern.vertices_coords[b if a == centre else a]
        return math.degrees(math.atan2(other[1] - 0.5, other[0] - 0.5)) % 360

    listed = [direction(edge) for edge in neighbours[centre]]
    assert len(listed) == len(steps)
    # counter-clockwise from the direction nearest to -180 degrees: at most one descent, closing the circle
    turns = [(later - earlier) % 360 for earlier, later in zip(listed, listed[1:] + listed[:1], strict=True)]
    assert all(turn > 0 for turn in turns) or len(listed) == 1
    assert math.isclose(sum(turns), 360, abs_tol=1e-9) or len(listed) == 1
    assert sorted(round(d, 6) for d in listed) == sorted(round(15.0 * step, 6) for step in steps)


def test_the_kept_crease_walk_follows_the_pattern_not_its_identity() -> None:
    """The walk kept from the last check is reused only for the same coordinates, edges and assignments."""
    pattern = square_with([((0.5, 0), (0.5, 1), "V"), ((0, 0.5), (0.5, 0.5), "M"), ((0.5, 0.5), (1, 0.5), "V")])
    assert check_vertices(pattern).checked_vertices == 1
    turned = replace(pattern, edges_assignment=tuple("V" if a == "M" else a for a in pattern.edges_assignment))
    with pytest.raises(GeometricallyImpossibleFold) as caught:
        check_vertices(turned)
    assert caught.value.code == "E_GEOM_MAEKAWA"
    creases_before, _ = vertices_creases(pattern)
    centre = next(v for v, creases in enumerate(creases_before) if len(creases) == 4)
    assert kawasaki_residuals(pattern)[0][centre] < 1e-12
    pattern.vertices_coords[centre] += (0.01, 0.02)  # moved in place: the same arrays, other angles
    assert kawasaki_residuals(pattern)[0][centre] > 1e-3
    creases_before[centre].clear()  # the caller's copy, not the kept walk
    assert len(vertices_creases(pattern)[0][centre]) == 4
