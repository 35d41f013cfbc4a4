"""Bounded work: a time budget gives an honest lower bound, contradictions are found before transitivity."""

from __future__ import annotations

import pytest

from foldbench.crease import summarize
from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import SelfIntersection
from foldbench.crease.layers import layer_constraints, solver

from .builders import map_pattern, square_with


def test_without_a_budget_the_library_counts_everything() -> None:
    compiled = compile_crease_pattern(map_pattern(3, 3))
    assert compiled.state_count == 1368 and not compiled.solution.stopped


def test_an_ended_budget_gives_a_lower_bound_and_says_so() -> None:
    summary = summarize(map_pattern(3, 3), timeout=1e-9)
    assert summary["stopped"] is True
    assert 1 <= summary["states"] < 1368
    assert any(warning.startswith("at least") for warning in summary["warnings"])


def test_progress_is_reported_per_component() -> None:
    seen: list[tuple[int, int, int]] = []
    compile_crease_pattern(map_pattern(2, 3), progress=lambda done, total, states: seen.append((done, total, states)))
    assert seen and seen[-1][0] == seen[-1][1] and seen[-1][2] == 60


def test_a_contradiction_of_the_local_constraints_is_found_before_transitivity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # long ends folded over a short middle: the two taco folds cannot nest, a taco-taco contradiction
    pattern = square_with([((0.4, 0), (0.4, 1), "V"), ((0.6, 0), (0.6, 1), "V")])
    built: list[int] = []
    original = layer_constraints.transitivity_variables

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(layer_constraints, "transitivity_variables", counting)
    with pytest.raises(SelfIntersection) as caught:
        compile_crease_pattern(pattern)
    assert "before building transitivity" in caught.value.message
    assert not built


def test_summaries_carry_errors_as_records() -> None:
    summary = summarize(square_with([((0.5, 0), (0.5, 1), "V"), ((0, 0.5), (1, 0.5), "V")]))
    assert summary["states"] is None
    assert summary["error"]["class"] == "GIF" and summary["error"]["code"] == "E_GEOM_MAEKAWA"


def test_a_long_component_reports_progress_before_it_ends() -> None:
    seen: list[tuple[int, int, int]] = []
    compile_crease_pattern(map_pattern(3, 4), timeout=60,
                           progress=lambda done, total, states: seen.append((done, total, states)))
    # the 3x4 map's one component (15,552 states) is counted in rounds: a first capped one, then the full count
    assert len(seen) >= 2 and seen[-1][2] == 15552
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] == 1
    assert [states for _, _, states in seen] == sorted(states for _, _, states in seen)


@pytest.mark.parametrize(("rows", "columns", "states"), [(3, 3, 1368), (3, 4, 15552), (2, 5, 1980)])
def test_a_count_continued_over_many_small_rounds_counts_every_state_once(
    monkeypatch: pytest.MonkeyPatch, rows: int, columns: int, states: int
) -> None:
    # rounds of 7 solutions, each resuming after the last solution of the one before
    monkeypatch.setattr(solver, "FIRST_BUDGETED_CAP", 7)
    monkeypatch.setattr(solver, "ROUND_FRACTION", 0.0)
    rounds: list[int] = []
    compiled = compile_crease_pattern(map_pattern(rows, columns), timeout=600,
                                      progress=lambda done, total, found: rounds.append(found))
    assert compiled.state_count == states and not compiled.solution.stopped
    assert len(rounds) > states // 7 - 2


def test_a_count_continued_in_rounds_reaches_the_limit_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "FIRST_BUDGETED_CAP", 100)
    monkeypatch.setattr(solver, "ROUND_FRACTION", 0.0)
    compiled = compile_crease_pattern(map_pattern(3, 3), limit=1000, timeout=600)
    assert compiled.state_count == 1000 and compiled.summary()["limited"]
