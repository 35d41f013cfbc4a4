"""Task specs refuse what the harness could not aggregate, and the runner refuses a multi-turn spec without a step."""

from __future__ import annotations

import pytest

from foldbench.harness.runner import default_solver
from foldbench.harness.solvers import MultiTurnSolver, OneShotSolver
from foldbench.messages import ImagePart
from foldbench.tasks.spec import Metric, Plot, TaskSpec
from foldbench.testing.toy_task import AdditionTask, GuessTask


def test_a_spec_refuses_an_undeclared_headline_a_repeated_metric_and_a_plot_of_unknown_metrics() -> None:
    with pytest.raises(ValueError, match="headline"):
        TaskSpec(engine_version="e", metrics=(Metric("accuracy"),), headline="exact_match")
    with pytest.raises(ValueError, match="repeat"):
        TaskSpec(engine_version="e", metrics=(Metric("a"), Metric("a")), headline="a")
    with pytest.raises(ValueError, match="undeclared"):
        plot = Plot("t", "k", ("b",), "x", "f.png")
        TaskSpec(engine_version="e", metrics=(Metric("a"),), headline="a", plots=(plot,))
    with pytest.raises(ValueError, match="max_turns"):
        TaskSpec(engine_version="e", metrics=(Metric("a"),), headline="a", max_turns=0)


def test_only_a_pooled_metric_names_its_counts() -> None:
    with pytest.raises(ValueError, match="pooled"):
        Metric("ratio", "pooled")
    with pytest.raises(ValueError, match="pooled"):
        Metric("share", "mean", numerator="hit", denominator="all")
    assert Metric("ratio", "pooled", "hit", "all").denominator == "all"


def test_the_default_solver_follows_the_declared_turns() -> None:
    one, many = AdditionTask(), GuessTask()
    (item,) = one.generate(1, 0)
    (game,) = many.generate(1, 0)
    assert isinstance(default_solver(one, item), OneShotSolver)
    solver = default_solver(many, game)
    assert isinstance(solver, MultiTurnSolver) and solver.max_turns == GuessTask.MAX_TURNS

    class NoStep(AdditionTask):
        spec = TaskSpec(engine_version="toy-1", metrics=(Metric("accuracy"),), headline="accuracy", max_turns=3)

    with pytest.raises(TypeError, match="no step"):
        default_solver(NoStep(), item)


def test_an_image_part_holds_a_path_or_bytes_but_not_both() -> None:
    with pytest.raises(ValueError):
        ImagePart()
    with pytest.raises(ValueError):
        ImagePart("a.png", b"png")
    assert ImagePart(data=b"png").label.startswith("memory:")
