from __future__ import annotations

import math

import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import GeometricallyImpossibleFold
from foldbench.crease.local_checks import check_vertices

from .builders import square_with


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


def _ray(degrees: float) -> tuple[float, float]:
    """Where the ray from the centre at ``degrees`` leaves the unit square."""
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    t = min(0.5 / abs(c) for c in (dx, dy) if abs(c) > 1e-12)
    return (0.5 + t * dx, 0.5 + t * dy)


def _vertex(directions: list[tuple[float, str]]) -> list:
    return [((0.5, 0.5), _ray(angle), letter) for angle, letter in directions]


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
