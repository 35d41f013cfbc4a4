"""``foldbench import mentalblackboard``: records in the published format become a dataset whose answers are the
records' answers. The records below are written by hand in that format, their answers worked out by hand."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from foldbench.pft.records import holes_from_record
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from tests.support.cli import run_in_process


def _fold(name: str, front: bool = True) -> dict[str, Any]:
    return {"foldType": name, "foldToFront": front}


def _star(location: int, direction: int = 0, size: str = "small") -> dict[str, Any]:
    return {"shape": "star", "size": size, "direction": direction, "location": location}


# H1 (top onto bottom), a small star at 26 = [3, 0, 1]: unfolding undoes H1 as H2-F and mirrors the star into
# row 0, column 0, the same (right) triangle: location 2, direction 180 − 0 = 180.
ONE_FOLD = {
    "id": "PFHP_1",
    "taskType": "Prediction",
    "foldingTypes": [_fold("horizontal_top_to_bottom")],
    "unfoldingTypes": ["H2-F"],
    "initialHoles": [_star(26)],
    "resultHoles": [_star(26), _star(2, 180)],
    "totalNumberofHoles": 2,
}
# V1 backward, then a quarter turn: the reverse of V1 turned by 90° is H1 (the paper's Table 9), kept backward;
# the ellipse at 5 (row 0, column 2) pairs with its mirror across the horizontal midline, 29, both in {90, 270}.
TURNED = {
    "id": "PFHP_2",
    "taskType": "Prediction",
    "foldingTypes": [_fold("vertical_left_to_right", False), _fold("rotation-90")],
    "unfoldingTypes": ["H1-B"],
    "initialHoles": [{"shape": "ellipse", "size": "small", "direction": "90, 270", "location": 5}],
    "resultHoles": [
        {"shape": "ellipse", "size": "small", "direction": "90, 270", "location": 5},
        {"shape": "ellipse", "size": "small", "direction": "90, 270", "location": 29},
    ],
    "totalNumberofHoles": 2,
}
# H1 then V1, a star at 22 = [2, 2, 1]: V1 mirrors it to [2, 1, 0] = 19 (direction −0 = 0), H1 both into row 1:
# 14 and 11 at 180. Unfolding: V1 undone first (V2-F), then H1 (H2-F).
PLANNED = {
    "id": "PFHP_3",
    "taskType": "Planning",
    "foldingTypes": [_fold("horizontal_top_to_bottom"), _fold("vertical_left_to_right")],
    "unfoldingTypes": ["V2-F", "H2-F"],
    "initialHoles": [_star(22)],
    "resultHoles": [_star(22), _star(19), _star(14, 180), _star(11, 180)],
    "totalNumberofHoles": 4,
}
# A generalization pair: the reference is ONE_FOLD's, the target (``_mod``) changes the size to large.
REFERENCE = {**ONE_FOLD, "id": "PFHP_7_size", "taskType": "Generalization"}
TARGET = {
    **REFERENCE,
    "id": "PFHP_7_size_mod",
    "initialHoles": [_star(26, size="large")],
    "resultHoles": [_star(26, size="large"), _star(2, 180, "large")],
}


def _records_file(tmp_path: Path, records: list[dict[str, Any]]) -> str:
    path = tmp_path / "records.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return str(path)


def _import(tmp_path: Path, task: str, records: list[dict[str, Any]], modalities: tuple[str, ...] = ("text",)) -> list:
    out = tmp_path / task
    write_dataset(
        f"mentalblackboard/{task}",
        out,
        n=len(records) // (2 if task == "generalization" else 1),
        seed=0,
        modalities=modalities,
        knobs={"records": _records_file(tmp_path, records)},
    )
    return read_items(out)


def _same_holes(listed: list[dict[str, Any]], record: dict[str, Any]) -> bool:
    ours = Counter(holes_from_record({"h": listed}, "h"))
    return ours == Counter(holes_from_record(record, "resultHoles"))


@pytest.mark.parametrize("task", ["prediction", "backward-prediction"])
def test_prediction_records_round_trip_their_answers(tmp_path: Path, task: str) -> None:
    items = _import(tmp_path, task, [ONE_FOLD, TURNED])
    assert [item.metadata["published_id"] for item in items] == ["PFHP_1", "PFHP_2"]
    for item, record in zip(items, [ONE_FOLD, TURNED], strict=True):
        assert item.target["unfolding"] == record["unfoldingTypes"]
        assert item.target["total_holes"] == record["totalNumberofHoles"]
        assert _same_holes(item.target["result_holes"], record)
    assert items[1].metadata["sides"] == "back" and items[1].metadata["group"] == 5
    task_object = make(f"mentalblackboard/{task}")
    for item in items:  # the engine's answer is an exact match, and the prompt shows no answer
        prompt = task_object.render(item, "text")
        assert "H2-F" not in prompt.parts[0].text.split("unfolding steps to choose from")[0]
        assert task_object.score(item, task_object.oracle(item)).values["exact_match"] == 1.0


def test_a_planning_record_round_trips_and_keeps_its_punches(tmp_path: Path) -> None:
    three = {**PLANNED, "id": "PFHP_4", "initialHoles": [_star(22), _star(23), _star(24)], "resultHoles": []}
    (planned, punched_thrice) = _import(tmp_path, "planning", [PLANNED, three])
    assert planned.inputs["num_folds"] == 2 and planned.inputs["max_holes"] == 2
    assert _same_holes(planned.inputs["result_holes"], PLANNED)
    assert planned.target["actions"] == ["H1-F", "V1-F"]
    assert punched_thrice.metadata["punches"] == 3 and punched_thrice.metadata["solvable"] is False
    assert len(punched_thrice.inputs["result_holes"]) == 12  # three punches through four layers


def test_a_generalization_pair_becomes_one_item(tmp_path: Path) -> None:
    (item,) = _import(tmp_path, "generalization", [REFERENCE, TARGET], modalities=("text", "image"))
    assert item.metadata["changed"] == "size" and item.metadata["published_id"] == "PFHP_7_size_mod"
    assert _same_holes(item.inputs["reference"]["result_holes"], REFERENCE)
    assert _same_holes(item.target["result_holes"], TARGET)
    assert (tmp_path / "generalization" / item.inputs["images"]["reference_result"]).exists()


def test_the_command_line_imports_and_says_where_answers_differ(tmp_path: Path) -> None:
    wrong = {**ONE_FOLD, "id": "PFHP_9", "totalNumberofHoles": 3}
    path = _records_file(tmp_path, [ONE_FOLD, wrong])
    run = run_in_process("import", "mentalblackboard", path, "--task", "prediction", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    assert "wrote 2 items" in run.stdout
    assert "1 record answer(s) differ" in run.stderr and "PFHP_9: totalNumberofHoles 3 != 2" in run.stderr
    bad = run_in_process(
        "import", "mentalblackboard", str(tmp_path / "none.json"), "--task", "prediction", "--out", str(tmp_path / "x")
    )
    assert bad.returncode != 0 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
