from __future__ import annotations

import json
from pathlib import Path

import pytest

from foldbench.errors import RecordError
from foldbench.pft.records import solve_record, solve_records
from tests.support.cli import run_in_process


def _record(rid: str, folds: list[tuple[str, bool]], holes: list[dict]) -> dict:
    return {
        "id": rid,
        "taskType": "Prediction",
        "numberofFoldingSteps": len(folds),
        "foldingTypes": [{"foldType": f, "foldToFront": front} for f, front in folds],
        "unfoldingTypes": [],
        "initialHoles": holes,
        "resultHoles": [],
        "totalNumberofHoles": 0,
        "extraField": "kept",
    }


GOOD = _record(
    "ok-1",
    [("vertical_left_to_right", True), ("rotation-90", True)],
    [{"shape": "ellipse", "size": "small", "direction": "90, 270", "location": 5}],
)


def test_a_record_is_solved_in_its_own_schema() -> None:
    solved, _ = solve_record(GOOD)
    # V1 then a quarter turn: Table 9 turns the reverse of V1 into H1 ("vertical left to right" unfolds as
    # "horizontal top to bottom").
    assert solved["unfoldingTypes"] == ["H1-F"]
    assert solved["totalNumberofHoles"] == 2
    assert solved["extraField"] == "kept"
    assert list(solved) == list(GOOD)
    assert {h["direction"] for h in solved["resultHoles"]} <= {"0, 180", "90, 270"}
    # After V1 and the quarter turn the paper lies in rows 0-1 and the crease is the horizontal midline, so the
    # hole at location 5 (row 0, column 2) pairs with its mirror in row 3, column 2: location 29. An ellipse at
    # 90 degrees mirrored across a horizontal line stays in the 90/270 class.
    assert sorted(h["location"] for h in solved["resultHoles"]) == [5, 29]
    assert {h["direction"] for h in solved["resultHoles"]} == {"90, 270"}


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (
            lambda r: r["foldingTypes"].__setitem__(0, {"foldType": "sideways", "foldToFront": True}),
            "foldingTypes[0].foldType",
        ),
        (lambda r: r.pop("foldingTypes"), "foldingTypes"),
        (lambda r: r["initialHoles"][0].__setitem__("location", 33), "initialHoles[0].location"),
        (lambda r: r["initialHoles"][0].__setitem__("shape", "hexagon"), "initialHoles[0].shape"),
        (lambda r: r["initialHoles"][0].__setitem__("direction", 45), "initialHoles[0].direction"),
        (lambda r: r["initialHoles"][0].__setitem__("location", 32), "initialHoles"),  # no paper there after V1 R90
        (lambda r: r["foldingTypes"].insert(0, {"foldType": "rotation-90", "foldToFront": True}), "foldingTypes"),
    ],
)
def test_bad_records_name_the_record_and_field(mutate, field: str) -> None:  # type: ignore[no-untyped-def]
    record = json.loads(json.dumps(GOOD))
    mutate(record)
    with pytest.raises(RecordError) as error:
        solve_record(record)
    assert error.value.record == "ok-1"
    assert error.value.field == field


def test_one_bad_record_does_not_stop_the_others() -> None:
    bad = json.loads(json.dumps(GOOD))
    bad["id"] = "bad-1"
    bad["initialHoles"][0]["location"] = 32
    solved, errors = solve_records([GOOD, bad, "not a record", GOOD])
    assert len(solved) == 2
    assert [e.record for e in errors] == ["bad-1", "#2"]


def test_cli_solve_reports_errors_and_writes_the_rest(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(GOOD))
    bad["id"] = "bad-1"
    bad["foldingTypes"][0]["foldType"] = "H9"
    source = tmp_path / "in.json"
    source.write_text(json.dumps([GOOD, bad]))
    out = tmp_path / "out.json"
    run = run_in_process("pft", "solve", str(source), "--out", str(out))
    assert run.returncode == 1
    assert "record bad-1: field 'foldingTypes[0].foldType'" in run.stderr
    assert "Traceback" not in run.stderr
    written = json.loads(out.read_text())
    assert [r["id"] for r in written] == ["ok-1"]


def test_cli_solve_rejects_malformed_json_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "in.json"
    source.write_text('[{"id": 1,')
    run = run_in_process("pft", "solve", str(source), "--out", str(tmp_path / "o.json"))
    assert run.returncode == 1  # bad data, not bad usage
    assert "not valid JSON" in run.stderr and "Traceback" not in run.stderr
