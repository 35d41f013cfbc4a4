"""OrigamiBench's results tables (paper 003, Tables 1 and 2).

Table 1: one-step multiple choice, associative and causal accuracy with a percent sign and two decimals (the
random baseline is the paper's "Random Guessing" row). Table 2: full-step synthesis per step budget (10 and 25),
QE, GS and SS as fractions, each the mean ± standard deviation over episodes (all repeats' episodes together),
and the seconds per folding step. foldbench's GS headline is the exact polygon IoU; the paper's raster IoU is
``gs_raster``, which this table shows. Time is the model's mean reply latency per turn (the paper's seconds per
folding step also count the environment's work).
"""

from __future__ import annotations

from foldbench.harness.paper_tables.layout import PaperTable, Section, cell

__all__ = ["METRICS", "TABLES"]

ASSOCIATIVE = "origamibench/one-step-associative"
CAUSAL = "origamibench/one-step-causal"
SYNTHESIS = "origamibench/synthesis"

#: The metrics filling the cells and the metadata key of the step budget: the one place to update them.
METRICS = {
    "accuracy": "accuracy",
    "QE": "qe",
    "GS": "gs_raster",
    "SS": "ss_clip",  # the paper's CLIP similarity; empty unless the run was given CLIP weights (ss_shape is not SS)
    "budget": "budget",
}

TABLE_1 = PaperTable(
    key="table1",
    title="OrigamiBench, Table 1: one-step multiple choice, associative and causal",
    note="Accuracy over each run's items (mean over repeats).",
    columns=(cell(("Associative",), ASSOCIATIVE, METRICS["accuracy"]), cell(("Causal",), CAUSAL, METRICS["accuracy"])),
    sections=(Section(None, (ASSOCIATIVE, CAUSAL)),),
    repeats="mean",
    suffix="%",
)

BUDGETS = (10, 25)

TABLE_2 = PaperTable(
    key="table2",
    title="OrigamiBench, Table 2: full-step interactive synthesis",
    note=(
        "Mean ± standard deviation over episodes (every repeat's episodes together) at each step budget. GS is the "
        "raster IoU as the paper; Time is the model's mean reply latency per step in seconds (the paper's also "
        "counts the environment)."
    ),
    columns=(
        *(
            cell(
                (str(budget), name), SYNTHESIS, METRICS[name], rule="items_mean_std", where=(METRICS["budget"], budget)
            )
            for budget in BUDGETS
            for name in ("QE", "GS", "SS")
        ),
        cell(("Time",), SYNTHESIS, None, rule="seconds_per_turn"),
    ),  # fmt: skip
    sections=(Section(None, (SYNTHESIS,)),),
    repeats="pool",
    scale=1.0,
)

TABLES = (TABLE_1, TABLE_2)
