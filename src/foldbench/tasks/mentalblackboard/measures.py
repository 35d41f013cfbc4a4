"""What the MentalBlackboard tasks measure (see :mod:`foldbench.tasks.mentalblackboard.scoring`), as task specs.

Partial accuracy pools its counts over items (Σ matched / Σ (G + max(0, P − G))), the per-field accuracies
likewise over the listed holes (Σ matched / Σ (G + max(0, L − G))), and step-wise unfolding accuracy is
Σ correct steps / Σ true steps, as the benchmark defines them; the rest are per-item proportions. Exact match
(holes only) is the headline.
"""

from __future__ import annotations

from foldbench.pft import ENGINE_VERSION
from foldbench.tasks.spec import GalleryRenderer, Metric, Plot, TaskSpec

__all__ = ["BREAKDOWNS", "FOLDS_PLOT", "PLANNING_METRICS", "PREDICTION_METRICS", "mentalblackboard_spec"]

_FIELDS = tuple(
    Metric(
        f"{field}_accuracy",
        "pooled",
        f"{field}_matched",
        "direction_denominator" if field == "direction" else "field_denominator",
        group="field",
        label=field,
    )
    for field in ("shape", "size", "location", "direction")
)
_PARTIAL = Metric("partial_accuracy", "pooled", "holes_matched", "partial_denominator")
_HOLE_COUNTS = (Metric("extra_holes"), Metric("missing_holes"), Metric("malformed_holes"), Metric("parse_failure"))

#: Prediction, backward prediction and generalization: the paper's measures (exact match on holes only; no
#: direction in the text modality), then foldbench's stricter ones beside them.
PREDICTION_METRICS = (
    Metric("exact_match"),
    _PARTIAL,
    Metric("unfolding_exact"),
    Metric("unfolding_steps", "pooled", "unfolding_steps_correct", "unfolding_steps_total"),
    *_HOLE_COUNTS,
    *_FIELDS,
    Metric("holes_and_unfolding_exact"),
    Metric("directed_exact_match"),
    Metric("directed_partial_accuracy", "pooled", "directed_holes_matched", "partial_denominator"),
)

#: Planning: the holes a replayed plan makes (exact match only for a plan that keeps the rules), and whether the
#: plan kept every rule and replayed in full.
PLANNING_METRICS = (
    Metric("exact_match"),
    _PARTIAL,
    Metric("valid_plan"),
    *_HOLE_COUNTS,
    *_FIELDS,
)

#: Item metadata the reports break results down by (generalization adds the hole attribute it changed).
BREAKDOWNS = ("group", "num_folds", "fold_families", "pattern")

#: Accuracy against the number of folds.
FOLDS_PLOT = Plot(
    title="Accuracy by number of folds",
    by="num_folds",
    metrics=("exact_match", "partial_accuracy"),
    x_label="number of folds",
    file="accuracy_by_folds.png",
)


def mentalblackboard_spec(
    metrics: tuple[Metric, ...], gallery: GalleryRenderer, breakdowns: tuple[str, ...] = BREAKDOWNS
) -> TaskSpec:
    """The spec of a MentalBlackboard task with these metrics, this gallery renderer and these breakdowns."""
    return TaskSpec(
        engine_version=ENGINE_VERSION,
        metrics=metrics,
        headline="exact_match",
        breakdowns=breakdowns,
        plots=(FOLDS_PLOT,),
        gallery=gallery,
    )
