"""What a person's answer form may post, and how a post becomes the reply text a model would have written.

Each task declares how a person answers its items (``human_form(item)``, a
:class:`~foldbench.tasks.answer_forms.HumanForm` of one of four kinds):

* ``holes`` — the unfolded holes (triangles clicked on the sheet, each with shape, size and direction) and the
  unfolding steps (prediction, backward prediction, generalization);
* ``plan`` — the folds and the punched holes (planning);
* ``letters`` — one option letter (every multiple-choice task);
* ``choice`` — one of the answers the item offers as text (perception probes).

A post is checked field by field against that kind (only known field names, values from the task's
vocabularies, bounded counts), turned into the JSON reply the task's prompt asks for, and read by the task's own
strict parser: only what parses is an answer. Anything else raises :class:`FormError` (a 400, nothing stored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from foldbench.errors import FoldbenchError
from foldbench.pft.grid import NUM_POSITIONS
from foldbench.pft.holes import Shape, Size
from foldbench.tasks.answer_forms import FormKind, HumanForm
from foldbench.tasks.base import Item, ParseFailure, Task

__all__ = ["AnswerForm", "FOLD_CODES", "FormError", "FormKind", "form_for", "MAX_FIELDS"]

#: Every fold code a person can add to an unfolding or a plan.
FOLD_CODES: tuple[str, ...] = tuple(
    f"{kind}-{side}" for kind in ("H1", "H2", "V1", "V2", "D1", "D2", "D3", "D4") for side in ("F", "B")
)
SHAPES: tuple[str, ...] = tuple(s.value for s in Shape)
SIZES: tuple[str, ...] = tuple(s.value for s in Size)
DIRECTIONS: tuple[str, ...] = ("0", "90", "180", "270")
LETTERS: tuple[str, ...] = ("A", "B", "C", "D")

#: At most this many values in one post (32 holes × 4 fields, a few folds and the bookkeeping fit well inside).
MAX_FIELDS = 160
MAX_FOLDS = 8
_HOLE_FIELD = re.compile(r"^(shape|size|dir)-([0-9]{1,2})$")
_COMMON = frozenset({"item", "form_token"})


class FormError(FoldbenchError, ValueError):
    """A post that is not an answer of the task's schema (shown as a one-line 400)."""


@dataclass(frozen=True, slots=True)
class AnswerForm:
    """How one item is answered: the form kind and, for ``letters`` and ``choice``, the answers offered."""

    kind: FormKind
    choices: tuple[str, ...] = ()

    def reply_text(self, fields: Mapping[str, Sequence[str]]) -> str:
        """The JSON reply a post stands for; raises :class:`FormError` for anything outside the schema."""
        if sum(len(v) for v in fields.values()) > MAX_FIELDS:
            raise FormError(f"too many fields (at most {MAX_FIELDS})")
        if self.kind == "letters":
            letters = self.choices or LETTERS
            return json.dumps({"answer": _one_of(fields, "choice", letters, allowed=_COMMON | {"choice"})})
        if self.kind == "choice":
            return json.dumps({"answer": _one_of(fields, "choice", self.choices, allowed=_COMMON | {"choice"})})
        steps_field = "unfolding" if self.kind == "holes" else "fold"
        allowed = _COMMON | {"loc", steps_field}
        holes = _holes(fields, allowed)
        steps = list(fields.get(steps_field, []))
        if len(steps) > MAX_FOLDS or any(code not in FOLD_CODES for code in steps):
            raise FormError(f"'{steps_field}' must be at most {MAX_FOLDS} fold codes (H1-F ... D4-B)")
        if self.kind == "holes":
            return json.dumps({"total_holes": len(holes), "unfolding": steps, "result_holes": holes})
        return json.dumps({"folds": steps, "initial_holes": holes})


def _one_of(fields: Mapping[str, Sequence[str]], name: str, values: Sequence[str], *, allowed: frozenset[str]) -> str:
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise FormError(f"unknown field {unknown[0][:40]!r}")
    given = fields.get(name, [])
    if len(given) != 1 or given[0] not in values:
        raise FormError(f"'{name}' must be exactly one of the offered answers")
    return given[0]


def _holes(fields: Mapping[str, Sequence[str]], allowed: frozenset[str]) -> list[dict[str, object]]:
    locations = list(fields.get("loc", []))
    valid = {str(n) for n in range(1, NUM_POSITIONS + 1)}
    if any(loc not in valid for loc in locations) or len(set(locations)) != len(locations):
        raise FormError(f"'loc' must be distinct triangle numbers 1–{NUM_POSITIONS}")
    for name in fields:
        if name in allowed:
            continue
        match = _HOLE_FIELD.match(name)
        if match is None or match.group(2) not in locations:
            raise FormError(f"unknown field {name[:40]!r}")
    holes = []
    for loc in locations:
        values = {}
        for field, vocabulary in (("shape", SHAPES), ("size", SIZES), ("dir", DIRECTIONS)):
            given = fields.get(f"{field}-{loc}", [])
            if len(given) != 1 or given[0] not in vocabulary:
                raise FormError(f"'{field}-{loc}' must be one of {', '.join(vocabulary)}")
            values[field] = given[0]
        holes.append(
            {"shape": values["shape"], "size": values["size"], "direction": int(values["dir"]), "location": int(loc)}
        )
    return holes


def form_for(task: Task, item: Item) -> AnswerForm:
    """The answer form ``task`` declares for ``item`` (its ``human_form``); an error when it declares none."""
    declare = getattr(task, "human_form", None)
    declared = declare(item) if callable(declare) else None
    if declared is None:
        raise FoldbenchError(f"{task.id} has no answer form for people yet")
    if not isinstance(declared, HumanForm):
        raise FoldbenchError(f"{task.id}: human_form must give a HumanForm, got {type(declared).__name__}")
    return AnswerForm(declared.kind, declared.choices)


def parse_post(task: Task, item: Item, form: AnswerForm, fields: Mapping[str, Sequence[str]]) -> tuple[str, BaseModel]:
    """The reply text of a post and the task's reading of it; :class:`FormError` when it is not an answer."""
    text = form.reply_text(fields)
    answer = task.parse(item, text)
    if isinstance(answer, ParseFailure):
        raise FormError(f"not an answer of this task: {answer.message[:120]}")
    return text, answer
