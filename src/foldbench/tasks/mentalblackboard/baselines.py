"""The answers of the two built-in baselines for MentalBlackboard items: the engine's own and a random one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from foldbench.pft.actions import FOLD_TYPES
from foldbench.tasks.base import Item
from foldbench.tasks.mentalblackboard.answers import HoleAnswer, PlanningAnswer, PredictionAnswer
from foldbench.tasks.mentalblackboard.sampling import SHAPES

if TYPE_CHECKING:
    import numpy as np

__all__ = ["oracle_prediction", "oracle_planning", "random_prediction", "random_planning"]

_DIRECTIONS = (0, 90, 180, 270)


def _hole_answers(holes: list[dict[str, Any]]) -> list[HoleAnswer]:
    return [HoleAnswer.model_validate(h) for h in holes]


def oracle_prediction(item: Item) -> PredictionAnswer:
    """The ground truth as an answer."""
    target = item.target
    return PredictionAnswer(
        total_holes=target["total_holes"],
        unfolding=target["unfolding"],
        result_holes=_hole_answers(target["result_holes"]),
    )


def oracle_planning(item: Item) -> PlanningAnswer:
    """The plan the item was generated from (any plan that reproduces the holes would score the same)."""
    return PlanningAnswer(folds=item.target["actions"], initial_holes=_hole_answers(item.target["initial_holes"]))


def _random_holes(rng: np.random.Generator, count: int) -> list[HoleAnswer]:
    locations = sorted(int(x) + 1 for x in rng.choice(32, size=count, replace=False))
    return [
        HoleAnswer(
            shape=SHAPES[int(rng.integers(len(SHAPES)))],
            size=("small", "large")[int(rng.integers(2))],  # type: ignore[arg-type]
            direction=_DIRECTIONS[int(rng.integers(4))],
            location=location,
        )
        for location in locations
    ]


def _random_codes(rng: np.random.Generator, count: int, suffix: str) -> list[str]:
    return [f"{FOLD_TYPES[int(rng.integers(len(FOLD_TYPES)))].value}-{suffix}" for _ in range(count)]


def random_prediction(item: Item, rng: np.random.Generator) -> PredictionAnswer:
    """As many random unfolding steps as the item has folds, and one to eight random holes."""
    suffix = "B" if item.metadata.get("sides") == "back" else "F"
    count = int(rng.integers(1, 9))
    return PredictionAnswer(
        total_holes=count,
        unfolding=_random_codes(rng, int(item.metadata["num_folds"]), suffix),
        result_holes=_random_holes(rng, count),
    )


def random_planning(item: Item, rng: np.random.Generator) -> PlanningAnswer:
    """The required number of random folds and one or two random punches."""
    return PlanningAnswer(
        folds=_random_codes(rng, int(item.inputs["num_folds"]), "F"),
        initial_holes=_random_holes(rng, int(rng.integers(1, int(item.inputs["max_holes"]) + 1))),
    )
