"""The synthesis environment's actions: one JSON object that adds one crease or a few creases at once.

Coordinates are in the paper frame: (0, 0) is the bottom-left corner of the square, (10, 10) the top-right one.
Actions arrive as a dict or as JSON text from a model; both are read strictly (unknown keys, non-finite numbers,
too many creases and over-long text are refused) and never with ``eval``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from foldbench.crease.sheet_rules import MAX_CREASES_PER_ACTION

__all__ = [
    "MAX_ACTION_CHARS",
    "MAX_CREASES_PER_ACTION",
    "PAPER_SIZE",
    "AddCrease",
    "AddCreases",
    "Crease",
    "ParsedAction",
    "SchemaRejection",
    "parse_action",
]

PAPER_SIZE: float = 10.0
"""The side of the square in the action frame."""
MAX_ACTION_CHARS: int = 8192
"""JSON text longer than this is refused before it is parsed."""

Coordinate = Annotated[float, Field(allow_inf_nan=False)]
Point = tuple[Coordinate, Coordinate]


class Crease(BaseModel):
    """One crease: a segment from ``p1`` to ``p2`` folded as a mountain (``M``) or a valley (``V``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    p1: Point
    p2: Point
    assignment: Literal["M", "V"]


class AddCrease(Crease):
    """``{"action": "add_crease", "p1": [x, y], "p2": [x, y], "assignment": "M" | "V"}``."""

    action: Literal["add_crease"]


class AddCreases(BaseModel):
    """``{"action": "add_creases", "creases": [{"p1", "p2", "assignment"}, ...]}``: creases that must be added
    together (one alone would not fold flat)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["add_creases"]
    creases: Annotated[list[Crease], Field(min_length=1, max_length=MAX_CREASES_PER_ACTION)]


@dataclass(frozen=True, slots=True)
class SchemaRejection:
    """An action that is not a well-formed action object: ``code`` names the reason."""

    code: Literal["E_ACTION_TOO_LONG", "E_ACTION_NOT_JSON", "E_ACTION_SCHEMA"]
    message: str


@dataclass(frozen=True, slots=True)
class ParsedAction:
    """A well-formed action: its creases in the paper frame, in the order given."""

    creases: tuple[Crease, ...]

    def to_dict(self) -> dict[str, Any]:
        """The action as a JSON-ready dict (``add_crease`` for one crease, else ``add_creases``)."""
        if len(self.creases) == 1:
            return {"action": "add_crease", **self.creases[0].model_dump(mode="json")}
        return {"action": "add_creases", "creases": [c.model_dump(mode="json") for c in self.creases]}


_FENCE = re.compile(r"^```(?:json)?\s*\n?(?P<body>.*?)\n?```$", re.DOTALL)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def _load_json(text: str) -> Any | SchemaRejection:
    if len(text) > MAX_ACTION_CHARS:
        return SchemaRejection("E_ACTION_TOO_LONG", f"the action has {len(text)} characters (limit {MAX_ACTION_CHARS})")
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced["body"].strip()
    try:
        return json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        return SchemaRejection("E_ACTION_NOT_JSON", f"not one JSON object: {str(error)[:160]}")


def parse_action(action: Any) -> ParsedAction | SchemaRejection:
    """Read an action (a dict, or JSON text with at most a surrounding code fence) strictly.

    >>> parse_action('{"action": "add_crease", "p1": [0, 0], "p2": [10, 10], "assignment": "V"}').creases[0].p2
    (10.0, 10.0)
    >>> parse_action("fold it in half").code
    'E_ACTION_NOT_JSON'
    >>> parse_action({"action": "add_crease"}).code
    'E_ACTION_SCHEMA'
    """
    if isinstance(action, (str, bytes)):
        text = action.decode("utf-8", "replace") if isinstance(action, bytes) else action
        loaded = _load_json(text)
        if isinstance(loaded, SchemaRejection):
            return loaded
        action = loaded
    if not isinstance(action, dict):
        return SchemaRejection("E_ACTION_SCHEMA", f"an action is a JSON object, got {type(action).__name__}")
    kind = action.get("action")
    model: type[AddCrease] | type[AddCreases] = AddCreases if kind == "add_creases" else AddCrease
    try:
        parsed = model.model_validate(action, strict=False)
    except (ValidationError, RecursionError, TypeError, ValueError) as error:
        first = str(error).splitlines()
        detail = " ".join(first[:3])[:240] if first else type(error).__name__
        name = kind if isinstance(kind, str) else "action"
        return SchemaRejection("E_ACTION_SCHEMA", f"not a valid {name}: {detail}")
    if isinstance(parsed, AddCreases):
        return ParsedAction(tuple(parsed.creases))
    return ParsedAction((Crease(p1=parsed.p1, p2=parsed.p2, assignment=parsed.assignment),))
