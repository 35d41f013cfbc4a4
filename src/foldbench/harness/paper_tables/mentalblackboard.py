"""MentalBlackboard's main results table (paper 000, Table 2: prediction in video, 2D image and text).

Rows are models under the paper's three modality blocks; cells are percentages with two decimals. The paper
leaves direction unscored in text (a dash), and so does this table. The paper's exact match counts the result
holes only; foldbench's stricter "holes and unfolding steps" (``exact_match`` today) is not a column of it.
"""

from __future__ import annotations

from foldbench.harness.paper_tables.layout import PaperTable, Section, cell

__all__ = ["METRICS", "TABLES", "TEXT_METRICS"]

PREDICTION = "mentalblackboard/prediction"

#: Table 2's columns (header levels) and the prediction task's metric filling each: the one place to update when
#: a metric is renamed.
METRICS: dict[tuple[str, ...], str] = {
    ("Exact Match (%)",): "holes_exact",
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

#: Cells of the text block that read another metric (the paper's text scoring ignores hole direction): header ->
#: metric. Empty while the text task has no direction-blind metrics; its owner fills it when it has.
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
