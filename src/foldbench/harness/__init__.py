"""The evaluation harness: run models on tasks (render -> solve -> score), store every turn, aggregate the metrics
tasks declare with their intervals, write reports, and run the suite.

The names below are imported from their modules on first use, so running an evaluation (which needs the runner
and the store) does not load the metrics, their statistics or the report writer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.lazy_names import lazy_exports

if TYPE_CHECKING:
    from foldbench.harness.config import EvalConfig, RunOptions
    from foldbench.harness.executors import Executor, LocalExecutor
    from foldbench.harness.metrics import Summary, aggregate, aggregate_by, cost_summary, paired_differences
    from foldbench.harness.runner import RunAborted, RunSummary, default_solver, evaluate, summary_line
    from foldbench.harness.solvers import Generate, MultiTurnSolver, OneShotSolver, Solver, TurnOutcome
    from foldbench.harness.stats import Estimate
    from foldbench.harness.store import RunInfo, ScoreRow, Store, StoreError, TurnRow

_HOMES = {
    "EvalConfig": ".config",
    "RunOptions": ".config",
    "Executor": ".executors",
    "LocalExecutor": ".executors",
    "Summary": ".metrics",
    "aggregate": ".metrics",
    "aggregate_by": ".metrics",
    "cost_summary": ".metrics",
    "paired_differences": ".metrics",
    "RunAborted": ".runner",
    "RunSummary": ".runner",
    "default_solver": ".runner",
    "evaluate": ".runner",
    "summary_line": ".runner",
    "Generate": ".solvers",
    "MultiTurnSolver": ".solvers",
    "OneShotSolver": ".solvers",
    "Solver": ".solvers",
    "TurnOutcome": ".solvers",
    "Estimate": ".stats",
    "RunInfo": ".store",
    "ScoreRow": ".store",
    "Store": ".store",
    "StoreError": ".store",
    "TurnRow": ".store",
}

__all__ = [
    "Estimate",
    "EvalConfig",
    "Executor",
    "Generate",
    "LocalExecutor",
    "MultiTurnSolver",
    "OneShotSolver",
    "RunAborted",
    "RunInfo",
    "RunOptions",
    "RunSummary",
    "ScoreRow",
    "Solver",
    "Store",
    "StoreError",
    "Summary",
    "TurnOutcome",
    "TurnRow",
    "aggregate",
    "aggregate_by",
    "cost_summary",
    "default_solver",
    "evaluate",
    "paired_differences",
    "summary_line",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
