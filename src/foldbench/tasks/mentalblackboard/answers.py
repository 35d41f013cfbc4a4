"""The answers MentalBlackboard tasks accept, and how replies are read into them.

The last complete JSON object of the reply is the answer. Only an answer without a readable hole list (no
``resultHoles`` list for a prediction, no ``holes`` list and ``folds`` list for a plan) is a parse failure. Inside
the list every hole is read on its own, field by field, as the benchmark's scoring reads it: a hole whose shape,
size, location or direction cannot be read (an unknown shape, a location off the sheet, an impossible direction
such as 45 or all four angles at once) is kept as a *malformed hole* — it counts as a listed hole and can never
match a true hole, so it costs that hole alone, while its readable fields still count in the per-field scores.
An unreadable hole count falls back to the list's length; an unfolding step that is no fold code is kept as
given (it equals no true step).

Harmless variants are normalised: key spellings of the published prompts and code (``totalNumberofHoles``,
``totalNumberOfHoles``, ``unfoldingTypes``, ``resultHoles``, ``foldingTypes``, ``initialHoles``, ``holes``),
upper/lower case, numbers given as strings (``"90"``), both directions of a two-class shape (ellipse,
rectangle) given as ``"0, 180"``, an empty direction for circle and square, locations given as
``[row, column, tri]``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from foldbench.errors import FoldbenchError
from foldbench.pft.actions import Fold, parse_action
from foldbench.pft.grid import NUM_POSITIONS, position_of_row_col_tri
from foldbench.pft.holes import Hole, Shape, Size, direction_period
from foldbench.tasks.base import ParseFailure
from foldbench.text.replies import excerpt, last_json_object

__all__ = ["HoleAnswer", "PredictionAnswer", "PlanningAnswer", "parse_prediction", "parse_planning"]

_PREDICTION_KEYS = {
    "totalnumberofholes": "total_holes",
    "total_holes": "total_holes",
    "totalholes": "total_holes",
    "unfoldingtypes": "unfolding",
    "unfolding": "unfolding",
    "unfolding_steps": "unfolding",
    "resultholes": "result_holes",
    "result_holes": "result_holes",
}
_PLANNING_KEYS = {
    "foldingtypes": "folds",
    "folds": "folds",
    "folding_steps": "folds",
    "initialholes": "initial_holes",
    "initial_holes": "initial_holes",
    "holes": "initial_holes",
}


def _fold_of(value: Any) -> Fold | None:
    try:
        action = parse_action(value) if isinstance(value, str) else None
    except FoldbenchError:
        return None
    return action if isinstance(action, Fold) else None


def _step_code(value: Any) -> str:
    """A fold code normalised (``"h2-f"`` -> ``"H2-F"``); anything else kept as given, as a string."""
    fold = _fold_of(value)
    if fold is not None:
        return fold.code
    return value.strip() if isinstance(value, str) else str(value)


@lru_cache(maxsize=1024)
def _text_step_code(value: str) -> str:
    return _step_code(value)


def _step_codes(value: Any) -> list[str]:
    """Every step normalised by :func:`_step_code` (a step given as text is read once per spelling)."""
    if not isinstance(value, list):
        raise ValueError("must be a list of fold codes")
    return [_text_step_code(code) if type(code) is str else _step_code(code) for code in value]


def _read_location(value: Any) -> int:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    whole = all(isinstance(v, int) and not isinstance(v, bool) for v in value) if isinstance(value, list) else False
    if isinstance(value, list) and len(value) == 3 and whole:
        row, column, tri = value
        if 0 <= row < 4 and 0 <= column < 4 and tri in (0, 1):
            return position_of_row_col_tri(row, column, tri) + 1
        raise ValueError(f"[row, column, tri] {value} is off the paper")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= NUM_POSITIONS:
        raise ValueError(f"location must be 1..32 or [row, column, tri], got {value!r}")
    return value


def _read_direction(value: Any, shape: Shape | None) -> int | None:
    """Degrees 0/90/180/270, or None when none is given; raises ValueError for an impossible direction."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        numbers = re.findall(r"-?\d+", value)
        if not numbers or re.fullmatch(r"\s*-?\d+(\s*,\s*-?\d+)*\s*(degrees?)?\s*", value) is None:
            raise ValueError(f"direction must be 0, 90, 180 or 270, got {value!r}")
        values = {int(n) % 360 for n in numbers}
        if len(values) > 1 and not (len(values) == 2 and max(values) - min(values) == 180):
            raise ValueError(f"direction {value!r} names more than one direction")
        if len(values) == 2 and shape is not None and direction_period(shape) == 360:
            raise ValueError(f"direction {value!r} names two directions, and a {shape.value} has four")
        value = min(values)
    if isinstance(value, bool) or not isinstance(value, int) or value % 90:
        raise ValueError(f"direction must be 0, 90, 180 or 270, got {value!r}")
    return value % 360


def _direction_or_problem(value: Any, shape: Shape | None) -> tuple[int | None, str | None]:
    try:
        direction = _read_direction(value, shape)
    except ValueError as error:
        return None, str(error)
    if direction is None and shape is not None:
        return None, f"a {shape.value} needs a direction"
    return direction, None


_SHAPES = {shape.value: shape for shape in Shape}
_SIZES = {size.value: size for size in Size}


def _read_hole(data: Any) -> dict[str, Any]:
    """One listed hole, each field read on its own; unreadable fields are None and ``problem`` says why."""
    if not isinstance(data, dict):
        return {"problem": "a hole must be an object with shape, size, direction and location"}
    data = {str(k).strip().lower(): v for k, v in data.items()}
    hole: dict[str, Any] = {}
    problems: list[str] = []
    for name, kind, members in (("shape", Shape, _SHAPES), ("size", Size, _SIZES)):
        raw = data.get(name)
        member = members.get(raw.strip().lower()) if isinstance(raw, str) else None
        if member is None:
            try:
                member = kind(raw)
            except ValueError:
                problems.append(f"{name} {raw!r} is not one of {', '.join(kind)}")
        hole[name] = member
    try:
        hole["location"] = _read_location(data.get("location"))
    except ValueError as error:
        hole["location"] = None
        problems.append(str(error))
    if hole["shape"] is not None and direction_period(hole["shape"]) == 90:
        # a circle or square looks the same at every angle: any direction, or none, is no error
        hole["direction"], _ = _direction_or_problem(data.get("direction"), None)
    else:
        hole["direction"], problem = _direction_or_problem(data.get("direction"), hole["shape"])
        if problem:
            problems.append(problem)
    given = data.get("problem")
    hole["problem"] = "; ".join(problems) or (given if isinstance(given, str) and given else None)
    return hole


class HoleAnswer(BaseModel):
    """One listed hole of an answer, read field by field; ``problem`` says why it is malformed (None if not)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    shape: Shape | None = None
    size: Size | None = None
    direction: int | None = None
    """Degrees (0, 90, 180, 270); None when the answer gives none or gives an impossible one."""
    location: int | None = None
    problem: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _read(cls, data: Any) -> Any:
        return _read_hole(data)

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if data.get("problem") is None:  # a well-formed hole is stored as just its four fields
            data.pop("problem", None)
        return data

    def direction_class(self) -> int | None:
        """The canonical direction (0 for circle and square, also when none is given), or None if unknown."""
        if self.shape is None:
            return None
        period = direction_period(self.shape)
        if self.direction is None:
            return 0 if period == 90 else None
        return self.direction % period

    def to_hole(self) -> Hole | None:
        """The engine's hole, or None when the hole is malformed."""
        if self.problem is not None or self.shape is None or self.size is None or self.location is None:
            return None
        direction = self.direction_class()
        return None if direction is None else Hole(self.shape, self.size, direction, self.location)


def _hole_answer(data: Any) -> HoleAnswer:
    """One listed hole, read by :func:`_read_hole` (which gives every field its type, so the hole is built without
    a second validation); a hole given as an object of hashable values is read once per spelling and the frozen
    answer reused (replies list holes from a small set)."""
    if type(data) is dict:
        values = tuple(data.values())
        try:  # the types are part of the key: 1, 1.0 and True are equal but read differently
            return _remembered_hole_answer(tuple(data), tuple(map(type, data)), values, tuple(map(type, values)))
        except TypeError:  # an unhashable value (a list, an object): read as it is
            pass
    return HoleAnswer.model_construct(**_read_hole(data))


@lru_cache(maxsize=4096)
def _remembered_hole_answer(
    keys: tuple[Any, ...], key_types: tuple[type, ...], values: tuple[Any, ...], value_types: tuple[type, ...]
) -> HoleAnswer:
    return HoleAnswer.model_construct(**_read_hole(dict(zip(keys, values, strict=True))))


def _holes(value: Any) -> Any:
    """The listed holes, each read by :func:`_hole_answer`."""
    if not isinstance(value, list):
        raise ValueError("must be a list of holes")
    return [hole if isinstance(hole, HoleAnswer) else _hole_answer(hole) for hole in value]


def _readable_count(value: Any) -> int | None:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


class PredictionAnswer(BaseModel):
    """Prediction, backward prediction and generalization: the hole count, unfolding steps and result holes."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    total_holes: int | None = None
    unfolding: list[str] = []
    result_holes: list[HoleAnswer]

    @field_validator("total_holes", mode="before")
    @classmethod
    def _total(cls, value: Any) -> int | None:
        return _readable_count(value)

    @field_validator("unfolding", mode="before")
    @classmethod
    def _unfolding(cls, value: Any) -> list[str]:
        return _step_codes(value) if isinstance(value, list) else []

    _result_holes = field_validator("result_holes", mode="before")(lambda value: _holes(value))

    def holes(self) -> list[Hole]:
        """The well-formed holes of the answer in the engine's vocabulary (malformed ones left out)."""
        return [h for h in (hole.to_hole() for hole in self.result_holes) if h is not None]

    @property
    def declared_total(self) -> int:
        """The number of holes the answer claims (its list length when it states none it can be read by)."""
        return self.total_holes if self.total_holes is not None else len(self.result_holes)


class PlanningAnswer(BaseModel):
    """Planning: the folds and the holes punched after them."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)  # built when a plan is first read

    folds: list[str]
    initial_holes: list[HoleAnswer]

    _folds = field_validator("folds", mode="before")(lambda value: _step_codes(value))
    _initial_holes = field_validator("initial_holes", mode="before")(lambda value: _holes(value))

    def holes(self) -> list[Hole]:
        """The well-formed punches in the engine's vocabulary (malformed ones left out)."""
        return [h for h in (hole.to_hole() for hole in self.initial_holes) if h is not None]

    def fold_actions(self) -> list[Fold] | None:
        """The folds as engine actions, or None when one of them is no fold code."""
        folds = [_fold_of(code) for code in self.folds]
        return None if any(f is None for f in folds) else folds  # type: ignore[return-value]


def _normalise_keys(data: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = aliases.get(str(key).strip().lower().replace(" ", ""), key)
        out.setdefault(name, value)
    return out


def _parse(text: str, model: type[BaseModel], aliases: dict[str, str]) -> BaseModel | ParseFailure:
    data = last_json_object(text)
    if isinstance(data, ParseFailure):
        return data
    return _validated(text, _normalise_keys(data, aliases), model)


def _validated(text: str, data: dict[str, Any], model: type[BaseModel]) -> BaseModel | ParseFailure:
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return ParseFailure("schema", f"{where}: {first['msg']}" if where else first["msg"], excerpt(text))


def _prediction_of(data: dict[str, Any]) -> PredictionAnswer | None:
    """The answer an object with a hole list makes, read by the same field readers as
    :class:`PredictionAnswer`'s validators, without a validation pass over what they return (None for an object
    without a hole list: its validation words the failure)."""
    holes = data.get("result_holes")
    if not isinstance(holes, list):
        return None
    fields: dict[str, Any] = {}
    if "total_holes" in data:
        fields["total_holes"] = _readable_count(data["total_holes"])
    if "unfolding" in data:
        unfolding = data["unfolding"]
        fields["unfolding"] = _step_codes(unfolding) if isinstance(unfolding, list) else []
    fields["result_holes"] = _holes(holes)
    return PredictionAnswer.model_construct(**fields)


def parse_prediction(text: str) -> PredictionAnswer | ParseFailure:
    """Read a reply to a prediction-type prompt."""
    data = last_json_object(text)
    if isinstance(data, ParseFailure):
        return data
    normalised = _normalise_keys(data, _PREDICTION_KEYS)
    answer = _prediction_of(normalised)
    if answer is not None:
        return answer
    return _validated(text, normalised, PredictionAnswer)  # type: ignore[return-value]


def parse_planning(text: str) -> PlanningAnswer | ParseFailure:
    """Read a reply to a planning prompt."""
    return _parse(text, PlanningAnswer, _PLANNING_KEYS)  # type: ignore[return-value]
