"""Reading two runs item by item: perception probes beside reasoning on the same configurations, and per-item
agreement between people and a model."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from foldbench.cli.app import main
from foldbench.errors import FoldbenchError
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.pairing import Agreement, PerceptionPairing, pair_runs
from foldbench.harness.report import compare_runs
from foldbench.harness.store import Store
from foldbench.human.session import HumanSession
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("pairing")
    prediction, perception, db = root / "prediction", root / "perception", root / "runs.db"
    write_dataset("mentalblackboard/prediction", prediction, n=6, seed=2, modalities=("text",))
    # 4 questions a configuration on average, over the first 5 configurations (or 10, if 5 are too few to balance)
    write_dataset("mentalblackboard/perception", perception, n=20, seed=2, modalities=("text",), knobs={"questions": 4})
    for model in ("oracle", "random"):
        run_dataset(
            EvalConfig(task="mentalblackboard/prediction", data=prediction, model=model, run_name=f"p-{model}", db=db)
        )
    run_dataset(
        EvalConfig(task="mentalblackboard/perception", data=perception, model="oracle", run_name="seeing", db=db)
    )
    return prediction, perception, db


def test_perception_is_put_beside_reasoning_on_the_same_configurations(runs: tuple[Path, Path, Path]) -> None:
    _, perception, db = runs
    with Store(db) as store:
        result = pair_runs(store, "p-oracle", "seeing")
    assert isinstance(result, PerceptionPairing)
    assert result.perception_run == "seeing" and result.reasoning_run == "p-oracle"
    paired = [
        i for i in read_items(perception) if i.metadata["source_item"] in {f"prediction-{k:05d}" for k in range(6)}
    ]
    assert result.configurations == len({i.metadata["source_item"] for i in paired}) >= 3
    assert result.perception.value == 1.0 and result.reasoning.value == 1.0
    kinds = Counter(item.metadata["question"] for item in paired)
    assert {kind: n for kind, (n, _) in result.by_question.items()} == dict(kinds)


def test_probes_of_another_seed_are_refused_in_one_line(runs: tuple[Path, Path, Path], tmp_path: Path, capsys) -> None:
    _, _, db = runs
    other = tmp_path / "other-seed"
    write_dataset("mentalblackboard/perception", other, n=20, seed=3, modalities=("text",), knobs={"questions": 4})
    run_dataset(EvalConfig(task="mentalblackboard/perception", data=other, model="oracle", run_name="seeing-3", db=db))
    with Store(db) as store, pytest.raises(FoldbenchError, match="do not share configurations"):
        pair_runs(store, "seeing-3", "p-oracle")
    with pytest.raises(SystemExit) as exit_code:
        main(["report", "seeing-3", "--pair", "p-oracle", "--db", str(db), "--out", str(tmp_path / "report")])
    assert exit_code.value.code != 0
    error = capsys.readouterr().err.strip()
    assert "do not share configurations" in error and "\n" not in error


def test_people_and_a_model_are_compared_item_by_item(runs: tuple[Path, Path, Path]) -> None:
    prediction, _, db = runs
    task = make("mentalblackboard/prediction")
    items = read_items(prediction)
    session = HumanSession(task=task, items=items, data=prediction, db=db, run="people", modality="text")
    for index, item in enumerate(items[:4]):
        holes = item.target["result_holes"] if index < 2 else item.target["result_holes"][:0]
        fields = {
            "item": [item.id],
            "unfolding": list(item.target["unfolding"]),
            "loc": [str(h["location"]) for h in holes],
        }
        for h in holes:
            fields |= {
                f"shape-{h['location']}": [h["shape"]],
                f"size-{h['location']}": [h["size"]],
                f"dir-{h['location']}": [str(h["direction"])],
            }
        assert session.answer("ann", item.id, fields, elapsed_ms=5000)
    with Store(db) as store:
        result = pair_runs(store, "people-ann", "p-oracle")
        header, table = compare_runs(store, ["p-oracle", "people-ann"])
    assert isinstance(result, Agreement)
    assert result.items == 4
    assert result.agree.value == 0.5
    assert result.first_only == [] and result.second_only == [items[2].id, items[3].id]
    # compare puts people beside the model, with the paired difference over the 4 items both answered
    assert header[-1] == "people-ann − p-oracle (paired)"
    exact = next(row for row in table if row[0] == "exact_match")
    assert exact[2].startswith("50.0 (") and exact[3].startswith("-50.0 (")


def test_pairing_unrelated_runs_is_a_clear_error(runs: tuple[Path, Path, Path]) -> None:
    _, _, db = runs
    with Store(db) as store, pytest.raises(FoldbenchError, match="no run named 'nope'"):
        pair_runs(store, "p-oracle", "nope")


def test_report_pair_writes_the_pairing(runs: tuple[Path, Path, Path], tmp_path: Path, capsys) -> None:
    _, _, db = runs
    with pytest.raises(SystemExit) as exit_code:
        main(["report", "seeing", "--pair", "p-random", "--db", str(db), "--out", str(tmp_path)])
    assert exit_code.value.code == 0
    text = (tmp_path / "pairing.md").read_text()
    assert "sees: 100 %" in text and "reasons (exact_match): 0 %" in text
