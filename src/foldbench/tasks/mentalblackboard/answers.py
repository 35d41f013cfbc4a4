"""The answers MentalBlackboard tasks accept, and how replies are read into them.

Parsing is strict: the last complete JSON object of the reply must match the task's schema. Harmless variants
are normalised — key spellings of the published prompts (``totalNumberOfHoles``, ``unfoldingTypes``,
``resultHoles``, ``foldingTypes``, ``initialHoles``), upper/lower case, numbers given as strings (``"90"``),
both directions of a two-class shape (ellipse, rectangle) given as ``"0, 180"`` (for a shape with four classes
that names two directions and is refused), an empty direction for circle and square, locations given as
``[row, column, tri]`` — and everything else is a typed parse failure that scores as wrong.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, ValidationInfo, field_validator

from foldbench.errors import FoldbenchError
from foldbench.pft.actions import Fold, parse_action
from foldbench.pft.grid import NUM_POSITIONS, position_of_row_col_tri
from foldbench.pft.holes import Hole, Shape, Size, direction_period
from foldbench.tasks.base import ParseFailure
from foldbench.tasks.replies import excerpt, last_json_object

__all__ = ["HoleAnswer", "PredictionAnswer", "PlanningAnswer", "parse_prediction", "parse_planning"]

_KEY_ALIASES = {
    "totalnumberofholes": "total_holes",
    "total_holes": "total_holes",
    "totalholes": "total_holes",
    "unfoldingtypes": "unfolding",
    "unfolding": "unfolding",
    "unfolding_steps": "unfolding",
    "resultholes": "result_holes",
    "result_holes": "result_holes",
    "foldingtypes": "folds",
    "folds": "folds",
    "folding_steps": "folds",
    "initialholes": "initial_holes",
    "initial_holes": "initial_holes",
}


def _fold_codes(value: Any) -> list[str]:
    """A list of fold codes, normalised (``"h2-f"`` -> ``"H2-F"``); rotations and other words are rejected."""
    if not isinstance(value, list):
        raise ValueError("must be a list of fold codes")
    codes = []
    for code in value:
        action = parse_action(code) if isinstance(code, str) else None
        if not isinstance(action, Fold):
            raise ValueError(f"{code!r} is not a fold code (H1-F ... D4-B)")
        codes.append(action.code)
    return codes


class HoleAnswer(BaseModel):
    """One hole of an answer, normalised to the engine's vocabulary."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    shape: Shape
    size: Size
    direction: int | None
    """Degrees (0, 90, 180, 270); None when the answer gives none (allowed for circle and square only)."""
    location: int

    @field_validator("shape", "size", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("location", mode="before")
    @classmethod
    def _location(cls, value: Any) -> int:
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            value = int(value.strip())
        if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
            row, column, tri = value
            if 0 <= row < 4 and 0 <= column < 4 and tri in (0, 1):
                return position_of_row_col_tri(row, column, tri) + 1
            raise ValueError(f"[row, column, tri] {value} is off the paper")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= NUM_POSITIONS:
            raise ValueError(f"location must be 1..32 or [row, column, tri], got {value!r}")
        return value

    @field_validator("direction", mode="before")
    @classmethod
    def _direction(cls, value: Any, info: ValidationInfo) -> int | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None  # resolved against the shape in to_hole()
        if isinstance(value, str):
            numbers = re.findall(r"-?\d+", value)
            if not numbers or re.fullmatch(r"\s*-?\d+(\s*,\s*-?\d+)*\s*(degrees?)?\s*", value) is None:
                raise ValueError(f"direction must be 0, 90, 180 or 270, got {value!r}")
            values = {int(n) for n in numbers}
            if len(values) > 1 and not (len(values) == 2 and (max(values) - min(values)) == 180):
                raise ValueError(f"direction {value!r} names more than one direction")
            shape = info.data.get("shape")
            if len(values) == 2 and shape is not None and direction_period(shape) == 360:
                raise ValueError(f"direction {value!r} names two directions, and a {shape.value} has four")
            value = min(values)
        if isinstance(value, bool) or not isinstance(value, int) or value % 90:
            raise ValueError(f"direction must be 0, 90, 180 or 270, got {value!r}")
        return value % 360

    def to_hole(self) -> Hole:
        """The engine's hole (direction canonical for the shape)."""
        direction = self.direction
        if direction is None:
            if direction_period(self.shape) != 90:
                raise ValueError(f"a {self.shape.value} needs a direction")
            direction = 0
        return Hole(self.shape, self.size, direction, self.location)


class PredictionAnswer(BaseModel):
    """Prediction, backward prediction and generalization: the unfolding steps and the result holes."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    total_holes: int | None = None
    unfolding: list[str]
    result_holes: list[HoleAnswer]

    _codes = field_validator("unfolding", mode="before")(lambda value: _fold_codes(value))

    @field_validator("total_holes", mode="before")
    @classmethod
    def _total(cls, value: Any) -> Any:
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            return int(value.strip())
        return value

    def holes(self) -> list[Hole]:
        """The answer's holes in the engine's vocabulary."""
        return [h.to_hole() for h in self.result_holes]

    @property
    def declared_total(self) -> int:
        """The number of holes the answer claims (its list length when it states none)."""
        return self.total_holes if self.total_holes is not None else len(self.result_holes)


class PlanningAnswer(BaseModel):
    """Planning: the folds and the holes punched after them."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    folds: list[str]
    initial_holes: list[HoleAnswer]

    _codes = field_validator("folds", mode="before")(lambda value: _fold_codes(value))

    def holes(self) -> list[Hole]:
        """The punched holes in the engine's vocabulary."""
        return [h.to_hole() for h in self.initial_holes]


def _normalise_keys(data: dict[str, Any]) -> dict[str, Any]:
    return {_KEY_ALIASES.get(key.strip().lower().replace(" ", ""), key): value for key, value in data.items()}


def _parse(text: str, model: type[BaseModel]) -> BaseModel | ParseFailure:
    data = last_json_object(text)
    if isinstance(data, ParseFailure):
        return data
    try:
        answer = model.model_validate(_normalise_keys(data))
        holes = answer.holes()  # type: ignore[attr-defined]
    except (ValidationError, ValueError, FoldbenchError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else None
        where = ".".join(str(p) for p in first["loc"]) if first else ""
        message = first["msg"] if first else str(error)
        return ParseFailure("schema", f"{where}: {message}" if where else message, excerpt(text))
    if len({h.location for h in holes}) != len(holes):
        return ParseFailure("schema", "two holes of the answer are at one location", excerpt(text))
    return answer


def parse_prediction(text: str) -> PredictionAnswer | ParseFailure:
    """Read a reply to a prediction-type prompt."""
    return _parse(text, PredictionAnswer)  # type: ignore[return-value]


def parse_planning(text: str) -> PlanningAnswer | ParseFailure:
    """Read a reply to a planning prompt."""
    return _parse(text, PlanningAnswer)  # type: ignore[return-value]
