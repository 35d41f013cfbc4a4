"""The evaluation harness: run models on tasks, store every reply, aggregate metrics, write reports."""

from foldbench.harness.metrics import aggregate, aggregate_by, cost_summary
from foldbench.harness.runner import RunAborted, RunSummary, evaluate, summary_line
from foldbench.harness.store import RunInfo, ScoreRow, Store, StoreError

__all__ = [
    "RunAborted",
    "RunInfo",
    "RunSummary",
    "ScoreRow",
    "Store",
    "StoreError",
    "aggregate",
    "aggregate_by",
    "cost_summary",
    "evaluate",
    "summary_line",
]
