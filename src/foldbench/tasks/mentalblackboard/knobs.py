"""The knob schemas of the four MentalBlackboard tasks (see :mod:`foldbench.tasks.knobs`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ValidationError, field_validator, model_validator

from foldbench.pft.enumeration import GROUPS
from foldbench.tasks.knobs import CommaList, Knobs, Whole

__all__ = [
    "GeneralizationKnobs",
    "PaperKnobs",
    "PictureKnobs",
    "PlanningKnobs",
    "PredictionDrawKnobs",
    "PredictionKnobs",
    "PLANNING_FOLD_COUNTS",
]

PLANNING_FOLD_COUNTS = (1, 2, 3, 4)


class PictureKnobs(Knobs):
    """Knobs of the pictures every MentalBlackboard task draws."""

    size: Whole = 512
    """Picture size in pixels for the image, video and frames encodings: even, 64 to 4096."""
    fps: Whole = 24
    """Video frame rate: 1 to 120."""

    @field_validator("size")
    @classmethod
    def _size(cls, value: int) -> int:
        if value % 2 or not 64 <= value <= 4096:
            raise ValueError("must be an even number of pixels from 64 to 4096")
        return value

    @field_validator("fps")
    @classmethod
    def _fps(cls, value: int) -> int:
        if not 1 <= value <= 120:
            raise ValueError("must be a whole number from 1 to 120")
        return value


def _check_groups(value: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if value is not None and (not value or any(g not in GROUPS for g in value)):
        raise ValueError("must be chosen from 1..9")
    return value


class PaperKnobs(PictureKnobs):
    """Knobs of the four tasks the paper defines: how the prompt is worded and whether to compose as the paper."""

    prompt: Literal["paper", "hints"] = "paper"
    """paper: the paper's content and answer keys (totalNumberofHoles, unfoldingTypes, resultHoles; locations as
    1-32, or [row, column, tri] in text); hints: foldbench's wording, which also gives the fold and turn counts,
    the sheet's cell diagonals, the meaning of each code and, in generalization, the example's unfolding steps."""
    preset: Literal["paper"] | None = None
    """paper: the paper's composition (see docs/papers/mentalblackboard.md); it sets the groups, fold counts,
    sides, punches and shapes, so it cannot be combined with the knobs that choose them."""

    records: str | None = None
    """A file of published records (a JSON list) to make the items from, in its order, instead of drawing them;
    set by 'foldbench import mentalblackboard'. It fixes the composition, so it takes no preset and no knob that
    chooses configurations."""

    @model_validator(mode="after")
    def _composition_once(self) -> PaperKnobs:
        clash = sorted({"groups", "folds", "sides", "max_holes"} & self.model_fields_set)
        if self.records is not None and (clash or self.preset is not None):
            _refuse(
                "records", self.records, f"the records set the composition; leave out {', '.join(clash or ['preset'])}"
            )
        if self.preset is not None and clash:
            _refuse(
                "preset", self.preset, f"preset={self.preset} sets the composition itself; leave out {', '.join(clash)}"
            )
        return self


def _refuse(knob: str, value: Any, reason: str) -> None:
    """Raise a validation error on ``knob`` (a model-level check names no knob by itself)."""
    error = {"type": "value_error", "loc": (knob,), "input": value, "ctx": {"error": ValueError(reason)}}
    raise ValidationError.from_exception_data("knobs", [error])  # type: ignore[list-item]


class PredictionDrawKnobs(PictureKnobs):
    """Knobs that choose the configurations of prediction and backward prediction."""

    groups: CommaList[Whole] | None = None
    """Configuration groups 1-9 (the paper's Table 8) to draw from; default: all nine."""
    sides: Literal["front", "back", "mixed"] | None = None
    """Fold sides: front (-F), back (-B) or mixed; default: front (back for backward prediction)."""

    _groups = field_validator("groups")(_check_groups)


class PredictionKnobs(PredictionDrawKnobs, PaperKnobs):
    """Knobs of prediction and backward prediction."""


class GeneralizationKnobs(PaperKnobs):
    """Knobs of generalization."""

    groups: CommaList[Whole] | None = None
    """Configuration groups 1-9 (the paper's Table 8) to draw from; default: 1-4."""
    sides: Literal["front", "back", "mixed"] | None = None
    """Fold sides: front (-F), back (-B) or mixed; default: front."""

    _groups = field_validator("groups")(_check_groups)


class PlanningKnobs(PaperKnobs):
    """Knobs of planning."""

    folds: CommaList[Whole] | None = None
    """Fold counts 1-4 to draw from; default: all four."""
    max_holes: Whole = 2
    """The most punches a plan may make: 1 or 2."""

    @field_validator("folds")
    @classmethod
    def _folds(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if value is not None and (not value or any(f not in PLANNING_FOLD_COUNTS for f in value)):
            raise ValueError("must be chosen from 1..4")
        return value

    @field_validator("max_holes")
    @classmethod
    def _max_holes(cls, value: int) -> int:
        if value not in (1, 2):
            raise ValueError("must be 1 or 2")
        return value
