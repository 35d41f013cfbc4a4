"""The evaluation harness: run models on tasks (render -> solve -> score), store every turn, aggregate the metrics
tasks declare with their intervals, write reports, and run the suite."""

from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.harness.executors import Executor, LocalExecutor
from foldbench.harness.metrics import Summary, aggregate, aggregate_by, cost_summary, paired_differences
from foldbench.harness.runner import RunAborted, RunSummary, default_solver, evaluate, summary_line
from foldbench.harness.solvers import Generate, MultiTurnSolver, OneShotSolver, Solver, TurnOutcome
from foldbench.harness.stats import Estimate
from foldbench.harness.store import RunInfo, ScoreRow, Store, StoreError, TurnRow

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
