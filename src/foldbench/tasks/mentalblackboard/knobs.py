"""The knob schemas of the four MentalBlackboard tasks (see :mod:`foldbench.tasks.knobs`)."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator

from foldbench.pft.enumeration import GROUPS
from foldbench.tasks.knobs import CommaList, Knobs, Whole

__all__ = ["GeneralizationKnobs", "PictureKnobs", "PlanningKnobs", "PredictionKnobs", "PLANNING_FOLD_COUNTS"]

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


class PredictionKnobs(PictureKnobs):
    """Knobs of prediction and backward prediction."""

    groups: CommaList[Whole] | None = None
    """Configuration groups 1-9 (the paper's Table 8) to draw from; default: all nine."""
    sides: Literal["front", "back", "mixed"] | None = None
    """Fold sides: front (-F), back (-B) or mixed; default: front (back for backward prediction)."""

    _groups = field_validator("groups")(_check_groups)


class GeneralizationKnobs(PictureKnobs):
    """Knobs of generalization."""

    groups: CommaList[Whole] | None = None
    """Configuration groups 1-9 (the paper's Table 8) to draw from; default: 1-4."""
    sides: Literal["front", "back", "mixed"] | None = None
    """Fold sides: front (-F), back (-B) or mixed; default: front."""

    _groups = field_validator("groups")(_check_groups)


class PlanningKnobs(PictureKnobs):
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
