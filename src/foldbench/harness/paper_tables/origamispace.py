"""OrigamiSpace's results tables (paper 004, Tables 1 and 2).

Table 1: accuracy (%) on pattern prediction, multi-step spatial reasoning and the three kinds of spatial
relationship question, each the mean ± standard deviation over repeats, as the paper's "average of three runs".
Table 2: CP code generation under in-context learning (``codegen``) and environmental learning
(``codegen-feedback``): the rate of answers free of each compilation error class, the compile pass rate (CPR),
and the four similarity dimensions and total over the compiled answers, scaled to [0, 100]. The paper's
open-/closed-source and human blocks of Table 1, and its reinforcement-learning block of Table 2, are not
foldbench's to fill.
"""

from __future__ import annotations

from foldbench.harness.paper_tables.layout import PaperTable, Section, cell

__all__ = ["METRICS", "TABLES"]

PATTERN = "origamispace/pattern-prediction"
ORDERING = "origamispace/multi-step-ordering"
RELATIONSHIP = "origamispace/spatial-relationship"
CODEGEN = "origamispace/codegen"
FEEDBACK = "origamispace/codegen-feedback"
CODE_TASKS = (CODEGEN, FEEDBACK)

#: The metrics and metadata values filling the cells: the one place to update when a name changes.
METRICS = {
    "accuracy": "accuracy",
    "relationship kind": "kind",
    "Spatial Pose Localization": "pose",
    "Layering Relationship": "layering",
    "Geometric Change": "geometric",
    "CSE": "error_cse",
    "GIF": "error_gif",
    "PSI": "error_psi",
    "AFS": "error_afs",
    "CPR": "pass_rate",
    "TSS": "topology",
    "GS": "geometry",
    "CS": "constraints",
    "FFS": "folded_state",
    "Total": "paper_total",
}

TABLE_1 = PaperTable(
    key="table1",
    title="OrigamiSpace, Table 1: accuracy on the spatial reasoning tasks",
    note="Accuracy (%), mean ± standard deviation over repeats (the value alone for a run asked once).",
    columns=(
        cell(("Pattern Prediction",), PATTERN, METRICS["accuracy"]),
        cell(("Multi-step Spatial Reasoning",), ORDERING, METRICS["accuracy"]),
        *(
            cell(
                ("Spatial Relationship Prediction", kind),
                RELATIONSHIP,
                METRICS["accuracy"],
                where=(METRICS["relationship kind"], METRICS[kind]),
            )
            for kind in ("Spatial Pose Localization", "Layering Relationship", "Geometric Change")
        ),
    ),  # fmt: skip
    sections=(Section(None, (PATTERN, ORDERING, RELATIONSHIP)),),
    repeats="mean_std",
)

TABLE_2 = PaperTable(
    key="table2",
    title="OrigamiSpace, Table 2: CP code generation",
    note=(
        "Compilation: the rate of answers free of each error class and the compile pass rate (CPR); TSS, GS, CS, "
        "FFS and Total over the compiled answers; all scaled to [0, 100] (mean over repeats)."
    ),
    columns=(
        *(
            cell(("Compilation", name), CODE_TASKS, METRICS[name], rule="complement")
            for name in ("CSE", "GIF", "PSI", "AFS")
        ),
        cell(("Compilation", "CPR"), CODE_TASKS, METRICS["CPR"]),
        *(
            cell((name,), CODE_TASKS, METRICS[name], compiled_only=METRICS["CPR"])
            for name in ("TSS", "GS", "CS", "FFS", "Total")
        ),
    ),  # fmt: skip
    sections=(
        Section("In-context learning", (CODEGEN,)),
        Section("Environmental learning", (FEEDBACK,)),
    ),
    repeats="mean",
)

TABLES = (TABLE_1, TABLE_2)
