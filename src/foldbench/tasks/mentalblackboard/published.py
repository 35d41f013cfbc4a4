"""Items made from the published MentalBlackboard records (the ``records`` knob, set by
``foldbench import mentalblackboard FILE.json --task T --out DIR``).

Each record (the format of :mod:`foldbench.pft.records`) gives the folds and the punched holes; the engine solves
them, and the item carries the engine's answer, which the import checks against the record's own
``unfoldingTypes``, ``resultHoles`` and ``totalNumberofHoles``. Generalization records come in pairs, ``X`` (the
solved reference) then ``X_mod`` (the target), with the changed attribute in the id (``PFHP_803_shape``).
Planning records keep their published punches, more than two in some; whether a plan within two punches exists
is stored with the item (``solvable``), as the task's own generator does.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from foldbench.errors import InvalidKnobError, RecordError
from foldbench.pft.actions import Fold, Rotation
from foldbench.pft.enumeration import group_of
from foldbench.pft.planner import find_plan
from foldbench.pft.records import actions_from_record, compare_record, holes_from_record, record_id, solve_record
from foldbench.pft.simulate import solve
from foldbench.tasks.mentalblackboard.sampling import hole_to_dict

__all__ = [
    "PLANNING_PUNCH_LIMIT",
    "answer_differences",
    "load_records",
    "record_count",
    "record_draw",
    "usable_records",
]

#: The most punches the paper's planning prompt allows.
PLANNING_PUNCH_LIMIT = 2

_ATTRIBUTE = re.compile(r"_(shape|size|location|direction)$")


@cache
def _load(path: str, mtime_ns: int) -> tuple[dict[str, Any], ...]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidKnobError(f"records file {path}: cannot read it as JSON: {error}") from None
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise InvalidKnobError(f"records file {path}: must be a JSON list of records (objects)")
    return tuple(data)


def load_records(path: str) -> tuple[dict[str, Any], ...]:
    """The records of a published file (read once per file version)."""
    try:
        mtime = Path(path).stat().st_mtime_ns
    except OSError as error:
        raise InvalidKnobError(f"records file {path}: {error.strerror or error}") from None
    return _load(path, mtime)


def _pairs(records: tuple[dict[str, Any], ...]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    by_id = {str(r.get("id")): r for r in records}
    pairs = []
    for index, record in enumerate(records):
        rid = record_id(record, index)
        if rid.endswith("_mod"):
            continue
        target = by_id.get(f"{rid}_mod")
        if target is None:
            raise RecordError(rid, "id", f"a generalization record needs its target {rid}_mod in the same file")
        pairs.append((record, target))
    return pairs


@cache
def _usable(task_name: str, path: str, mtime_ns: int) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The records (generalization: reference/target pairs) the engine can solve, and why the others cannot be."""
    records = _load(path, mtime_ns)
    entries: list[Any] = []
    skipped: list[str] = []
    candidates: list[Any] = _pairs(records) if task_name == "generalization" else list(records)
    for index, entry in enumerate(candidates):
        try:
            for record in entry if isinstance(entry, tuple) else (entry,):
                solve_record(record, index, check_rules=False)
        except RecordError as error:
            skipped.append(str(error))
        else:
            entries.append(entry)
    return tuple(entries), tuple(skipped)


def usable_records(task_name: str, path: str) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The entries of a records file a task makes items from (records, or pairs for generalization), and one line
    for each record the engine cannot solve (left out)."""
    load_records(path)
    return _usable(task_name, path, Path(path).stat().st_mtime_ns)


def record_count(task_name: str, path: str) -> int:
    """How many items a records file makes for a task."""
    return len(usable_records(task_name, path)[0])


def _describe(actions: list[Any]) -> dict[str, Any]:
    folds = [a for a in actions if isinstance(a, Fold)]
    sides = "front" if all(f.front for f in folds) else "back" if not any(f.front for f in folds) else "mixed"
    return {
        "group": group_of(actions),
        "sides": sides,
        "pattern": "".join("R" if isinstance(a, Rotation) else "F" for a in actions),
        "num_folds": len(folds),
        "num_rotations": len(actions) - len(folds),
        "fold_families": "".join(sorted({f.type.family for f in folds})),
    }


def _solved(record: dict[str, Any], index: int) -> tuple[list[Any], list[Any], Any]:
    rid = record_id(record, index)
    actions = actions_from_record(record, rid)
    holes = holes_from_record(record, "initialHoles", rid)
    _, solution = solve_record(record, index, check_rules=False)
    return actions, holes, solution


def _answer(solution: Any) -> dict[str, Any]:
    return {
        "unfolding": [f.code for f in solution.unfolding],
        "result_holes": [hole_to_dict(h) for h in solution.result_holes],
        "total_holes": len(solution.result_holes),
    }


def record_draw(task_name: str, path: str, index: int) -> tuple[dict, dict, dict]:
    """The inputs, target and metadata of item ``index`` made from a records file."""
    entry = usable_records(task_name, path)[0][index]
    if task_name == "generalization":
        reference, target = entry
        actions, reference_holes, reference_solution = _solved(reference, index)
        _, target_holes, solution = _solved(target, index)
        changed = _ATTRIBUTE.search(record_id(reference, index))
        inputs = {
            "actions": [a.code for a in actions],
            "reference": {"initial_holes": [hole_to_dict(h) for h in reference_holes], **_answer(reference_solution)},
            "initial_holes": [hole_to_dict(h) for h in target_holes],
            "changed": changed.group(1) if changed else None,
        }
        metadata = {"published_id": record_id(target, index), "changed": inputs["changed"], **_describe(actions)}
        return inputs, _answer(solution), metadata
    record = entry
    actions, holes, solution = _solved(record, index)
    metadata = {"published_id": record_id(record, index), **_describe(actions)}
    if task_name == "planning":
        if any(isinstance(a, Rotation) for a in actions):
            raise RecordError(record_id(record, index), "foldingTypes", "a planning record has no rotation")
        result = [hole_to_dict(h) for h in solution.result_holes]
        inputs = {"num_folds": len(actions), "max_holes": PLANNING_PUNCH_LIMIT, "result_holes": result}
        target = {"actions": [a.code for a in actions], "initial_holes": [hole_to_dict(h) for h in holes]}
        metadata.update(group=len(actions), punches=len(holes))
        if len(holes) > PLANNING_PUNCH_LIMIT:
            found = find_plan(solution.result_holes, len(actions), max_holes=PLANNING_PUNCH_LIMIT)
            metadata["solvable"] = found is not None
        return inputs, {**target, "result_holes": result}, metadata
    inputs = {"actions": [a.code for a in actions], "initial_holes": [hole_to_dict(h) for h in holes]}
    return inputs, _answer(solve(actions, holes)), metadata


def answer_differences(records: tuple[dict[str, Any], ...]) -> list[str]:
    """Where the records' own answers differ from the engine's, one line each (unsolvable records left out)."""
    found = []
    for index, record in enumerate(records):
        try:
            solved, _ = solve_record(record, index, check_rules=False)
        except RecordError:
            continue
        found.extend(compare_record(record, solved, index))
    return found
