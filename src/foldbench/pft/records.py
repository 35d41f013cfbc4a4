"""Read and write the published MentalBlackboard dataset format.

The published dataset is a JSON list of records with, among others, ``id``, ``foldingTypes`` (a list of
``{"foldType": "horizontal_top_to_bottom" | ... | "rotation-90", "foldToFront": bool}``), ``unfoldingTypes``
(codes like ``"H2-F"``), ``initialHoles`` and ``resultHoles`` (``{shape, size, direction, location}``; the
direction is an int, ``"0, 180"`` / ``"90, 270"`` for ellipse and rectangle, or ``""`` for circle and square) and
``totalNumberofHoles``. This module converts between those records and the engine's types, and re-solves a record
from its folds and initial holes (:func:`solve_record`), keeping every other field as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from foldbench.errors import FoldbenchError, InvalidHoleError, RecordError
from foldbench.pft.actions import Action, Fold, FoldType, Rotation
from foldbench.pft.grid import NUM_POSITIONS, position_of_row_col_tri
from foldbench.pft.holes import Hole, Shape, direction_period
from foldbench.pft.rules import check_sequence
from foldbench.pft.simulate import Solution, solve

__all__ = [
    "FOLD_TYPE_NAMES",
    "actions_from_record",
    "holes_from_record",
    "hole_to_record",
    "action_to_record",
    "solve_record",
    "record_id",
    "solve_records",
    "compare_record",
]

#: The published name of each fold type.
FOLD_TYPE_NAMES: dict[FoldType, str] = {
    FoldType.H1: "horizontal_top_to_bottom",
    FoldType.H2: "horizontal_bottom_to_top",
    FoldType.V1: "vertical_left_to_right",
    FoldType.V2: "vertical_right_to_left",
    FoldType.D1: "diagonal_topLeft_to_bottomRight",
    FoldType.D2: "diagonal_topRight_to_bottomLeft",
    FoldType.D3: "diagonal_bottomLeft_to_topRight",
    FoldType.D4: "diagonal_bottomRight_to_topLeft",
}
_FOLD_TYPE_BY_NAME = {name.lower(): fold_type for fold_type, name in FOLD_TYPE_NAMES.items()}
_ROTATION = re.compile(r"^rotation[-_ ]?(90|180|270)$", re.IGNORECASE)


def record_id(record: Any, index: int) -> str:
    """A name for a record in messages: its ``id`` if it has one, else its index in the file."""
    if isinstance(record, dict) and isinstance(record.get("id"), (str, int)):
        return str(record["id"])
    return f"#{index}"


def _field(record: dict[str, Any], name: str, rid: str) -> Any:
    if name not in record:
        raise RecordError(rid, name, "missing")
    return record[name]


def actions_from_record(record: dict[str, Any], rid: str = "?") -> list[Action]:
    """The actions of a record's ``foldingTypes``."""
    items = _field(record, "foldingTypes", rid)
    if not isinstance(items, list) or not items:
        raise RecordError(rid, "foldingTypes", "must be a non-empty list")
    actions: list[Action] = []
    for index, item in enumerate(items):
        where = f"foldingTypes[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("foldType"), str):
            raise RecordError(rid, where, "must be an object with a string 'foldType'")
        name = item["foldType"].strip()
        rotation = _ROTATION.match(name)
        if rotation:
            actions.append(Rotation(int(rotation.group(1))))
            continue
        fold_type = _FOLD_TYPE_BY_NAME.get(name.lower())
        if fold_type is None:
            raise RecordError(
                rid,
                f"{where}.foldType",
                f"unknown fold type {name!r} (expected one of {', '.join(FOLD_TYPE_NAMES.values())}, "
                "or rotation-90/180/270)",
            )
        front = item.get("foldToFront", True)
        if not isinstance(front, bool):
            raise RecordError(rid, f"{where}.foldToFront", f"must be true or false, got {front!r}")
        actions.append(Fold(fold_type, front))
    return actions


def _direction(value: Any, shape: Shape, rid: str, where: str) -> int:
    if isinstance(value, bool):
        raise RecordError(rid, where, f"must be 0, 90, 180 or 270, got {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        numbers = [int(n) for n in re.findall(r"-?\d+", value)]
        if not numbers:
            if direction_period(shape) == 90:
                return 0  # circle and square have no direction
            raise RecordError(rid, where, f"a {shape.value} needs a direction (0, 90, 180 or 270), got {value!r}")
        classes = {n % direction_period(shape) for n in numbers}
        if len(classes) != 1 or re.fullmatch(r"\s*-?\d+(\s*,\s*-?\d+)*\s*", value) is None:
            raise RecordError(rid, where, f"names more than one direction class for a {shape.value}: {value!r}")
        number = numbers[0]
    else:
        raise RecordError(rid, where, f"must be a number or a string, got {type(value).__name__}")
    if number % 90:
        raise RecordError(rid, where, f"must be 0, 90, 180 or 270, got {value!r}")
    return number


def _location(value: Any, rid: str, where: str) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isascii() and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= NUM_POSITIONS:
            raise RecordError(rid, where, f"location {value} is off the paper (locations are 1..32)")
        return value
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        row, column, tri = value
        if not (0 <= row < 4 and 0 <= column < 4 and tri in (0, 1)):
            raise RecordError(rid, where, f"[row, column, tri] {value} is off the paper")
        return position_of_row_col_tri(row, column, tri) + 1
    raise RecordError(rid, where, f"must be a location 1..32 or [row, column, tri], got {value!r}")


def holes_from_record(record: dict[str, Any], field: str = "initialHoles", rid: str = "?") -> list[Hole]:
    """The holes listed in a record's ``field``."""
    items = _field(record, field, rid)
    if not isinstance(items, list):
        raise RecordError(rid, field, "must be a list of holes")
    holes: list[Hole] = []
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        if not isinstance(item, dict):
            raise RecordError(rid, where, "must be an object with shape, size, direction and location")
        for key in ("shape", "size", "location"):
            if key not in item:
                raise RecordError(rid, f"{where}.{key}", "missing")
        shape_name = item["shape"]
        try:
            shape = Shape(str(shape_name).strip().lower())
        except ValueError:
            raise RecordError(
                rid, f"{where}.shape", f"unknown shape {shape_name!r} (expected one of {', '.join(Shape)})"
            ) from None
        size = str(item["size"]).strip().lower()
        if size not in ("small", "large"):
            raise RecordError(rid, f"{where}.size", f"must be small or large, got {item['size']!r}")
        direction = _direction(item.get("direction", ""), shape, rid, f"{where}.direction")
        location = _location(item["location"], rid, f"{where}.location")
        holes.append(Hole(shape, size, direction, location))  # type: ignore[arg-type]
    return holes


def hole_to_record(hole: Hole) -> dict[str, Any]:
    """A hole in the published format (direction as an int, a two-class string, or ``""``)."""
    period = direction_period(hole.shape)
    direction: int | str
    if period == 90:
        direction = ""
    elif period == 180:
        direction = "0, 180" if hole.direction == 0 else "90, 270"
    else:
        direction = hole.direction
    return {"shape": hole.shape.value, "size": hole.size.value, "direction": direction, "location": hole.location}


def action_to_record(action: Action) -> dict[str, Any]:
    """An action in the published ``foldingTypes`` format."""
    if isinstance(action, Rotation):
        return {"foldType": f"rotation-{action.degrees}", "foldToFront": True}
    return {"foldType": FOLD_TYPE_NAMES[action.type], "foldToFront": action.front}


def solve_record(record: Any, index: int = 0, *, check_rules: bool = True) -> tuple[dict[str, Any], Solution]:
    """Recompute a record's ``unfoldingTypes``, ``resultHoles`` and ``totalNumberofHoles``.

    Returns a new record with every other field (and the field order) kept, and the solution. Raises
    :class:`RecordError` naming the record and the field when the record is malformed or cannot be solved.
    """
    rid = record_id(record, index)
    if not isinstance(record, dict):
        raise RecordError(rid, "(record)", f"must be a JSON object, got {type(record).__name__}")
    actions = actions_from_record(record, rid)
    holes = holes_from_record(record, "initialHoles", rid)
    if check_rules:
        try:
            check_sequence(actions)
        except FoldbenchError as error:
            raise RecordError(rid, "foldingTypes", f"invalid sequence: {error}") from None
    try:
        solution = solve(actions, holes)
    except InvalidHoleError as error:
        raise RecordError(rid, "initialHoles", str(error)) from None
    except FoldbenchError as error:
        raise RecordError(rid, "foldingTypes", str(error)) from None
    out = dict(record)
    out["unfoldingTypes"] = [fold.code for fold in solution.unfolding]
    out["resultHoles"] = [hole_to_record(h) for h in solution.result_holes]
    out["totalNumberofHoles"] = len(solution.result_holes)
    return out, solution


def solve_records(
    records: Sequence[Any], *, check_rules: bool = True
) -> tuple[list[dict[str, Any]], list[RecordError]]:
    """Solve every record; return the solved ones and the errors of the others (which are left out)."""
    solved: list[dict[str, Any]] = []
    errors: list[RecordError] = []
    for index, record in enumerate(records):
        try:
            solved.append(solve_record(record, index, check_rules=check_rules)[0])
        except RecordError as error:
            errors.append(error)
    return solved, errors


def compare_record(original: dict[str, Any], solved: dict[str, Any], index: int = 0) -> list[str]:
    """How a record's own answer differs from the engine's (hole lists compared as multisets)."""
    rid = record_id(original, index)
    found: list[str] = []
    if original.get("unfoldingTypes") != solved["unfoldingTypes"]:
        found.append(f"record {rid}: unfoldingTypes {original.get('unfoldingTypes')} != {solved['unfoldingTypes']}")
    try:
        theirs = sorted(holes_from_record(original, "resultHoles", rid), key=Hole.sort_key)
    except RecordError as error:
        return found + [str(error)]
    ours = sorted(holes_from_record(solved, "resultHoles", rid), key=Hole.sort_key)
    if theirs != ours:
        found.append(
            f"record {rid}: resultHoles differ: only in the file {sorted(set(theirs) - set(ours), key=Hole.sort_key)}, "
            f"only in the engine {sorted(set(ours) - set(theirs), key=Hole.sort_key)}"
        )
    if original.get("totalNumberofHoles") != solved["totalNumberofHoles"]:
        found.append(
            f"record {rid}: totalNumberofHoles {original.get('totalNumberofHoles')} != {solved['totalNumberofHoles']}"
        )
    return found
