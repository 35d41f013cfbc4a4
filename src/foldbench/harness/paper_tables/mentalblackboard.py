"""MentalBlackboard's main results table (paper 000, Table 2: prediction in video, 2D image and text).

Rows are models under the paper's three modality blocks; cells are percentages with two decimals. The paper
leaves direction unscored in text (a dash), and so does this table. The paper's exact match counts the result
holes only, as the task's ``exact_match`` does; foldbench's stricter ``holes_and_unfolding_exact`` is not a column
of it. In the text modality the task itself scores as the paper's text scoring does (direction takes no part), so
the text block reads the same metrics.
"""

from __future__ import annotations

from foldbench.harness.paper_tables.layout import PaperTable, Section, cell

__all__ = ["METRICS", "TABLES", "TEXT_METRICS"]

PREDICTION = "mentalblackboard/prediction"

#: Table 2's columns (header levels) and the prediction task's metric filling each: the one place to update when
#: a metric is renamed.
METRICS: dict[tuple[str, ...], str] = {
    ("Exact Match (%)",): "exact_match",
    ("Overall Partial Accuracy (%)",): "partial_accuracy",
    ("Hole Count Errors (%)", "Extra"): "extra_holes",
    ("Hole Count Errors (%)", "Missing"): "missing_holes",
    ("Unfolding Accuracy (%)", "Exact"): "unfolding_exact",
    ("Unfolding Accuracy (%)", "Steps"): "unfolding_steps",
    ("Field-wise Partial Accuracy (%)", "Shape"): "shape_accuracy",
    ("Field-wise Partial Accuracy (%)", "Size"): "size_accuracy",
    ("Field-wise Partial Accuracy (%)", "Location"): "location_accuracy",
    ("Field-wise Partial Accuracy (%)", "Direction"): "direction_accuracy",
}

#: Cells of the text block that read another metric: header -> metric. Empty: the task scores text replies without
#: direction already (``score_in_modality``), so the text block's metrics are the same names.
TEXT_METRICS: dict[tuple[str, ...], str] = {}

#: The columns the paper filled only in some modalities.
_ONLY_IN: dict[tuple[str, ...], tuple[str, ...]] = {
    ("Field-wise Partial Accuracy (%)", "Direction"): ("video", "image"),
}

TABLE_2 = PaperTable(
    key="table2",
    title="MentalBlackboard, Table 2: prediction across video, 2D image and text",
    note=(
        "Percentages over each run's items (mean over repeats). Exact match counts result holes only, as the "
        "paper; direction is not scored in text (—), as the paper."
    ),
    columns=tuple(
        cell(
            header,
            PREDICTION,
            metric,
            modalities=_ONLY_IN.get(header, ()),
            metric_in={"text": TEXT_METRICS[header]} if header in TEXT_METRICS else None,
        )
        for header, metric in METRICS.items()
    ),
    sections=(
        Section("Video-Based Prediction", (PREDICTION,), ("video",)),
        Section("2D Image-Based Prediction", (PREDICTION,), ("image",)),
        Section("Text-Based Prediction", (PREDICTION,), ("text",)),
    ),
    repeats="mean",
)

TABLES = (TABLE_2,)
