"""``foldbench export-runs``: runs as one table, read back by pandas and by ``foldbench report --from``."""

from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.harness import Store
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.store import TurnRecord
from foldbench.models.base import ModelReply
from tests.export.conftest import run_cli


@pytest.fixture(scope="module")
def store_with_runs(every_task_dataset: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three runs and a failed request in one run store, shared by the module's tests (which only read it)."""
    db = tmp_path_factory.mktemp("runs") / "runs.db"
    for model in ("random", "oracle"):
        run_dataset(
            EvalConfig(
                task="mentalblackboard/prediction-v1",
                data=every_task_dataset["mentalblackboard/prediction-v1"],
                model=model,
                run_name=f"mb-{model}",
                db=db,
                modality="image",
            )
        )
    run_dataset(
        EvalConfig(
            task="pfp/folding-3d-v2",
            data=every_task_dataset["pfp/folding-3d-v2"],
            model="random",
            run_name="pfp-random",
            db=db,
        )
    )
    with Store(db) as store:  # one item whose request failed, as a run store holds it
        response = store.record_turn(
            run="pfp-random",
            item_id="folding-3d-999999",
            turn=TurnRecord(0, "k-failed", {}),
            model="random",
            params={},
            reply=ModelReply("", error="HTTP 500", error_kind="http_500"),
        )
        store.record_failure(run="pfp-random", item_id="folding-3d-999999", response_id=response)
    return db


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_one_row_per_item_and_run_with_every_metric(store_with_runs: Path, tmp_path: Path, suffix: str) -> None:
    import pandas as pd  # imported by a test that reads a table, not at collection
    out = tmp_path / f"table{suffix}"
    assert (
        run_cli("export-runs", "mb-random", "mb-oracle", "pfp-random", "--db", str(store_with_runs), "--out", str(out))
        == 0
    )
    table = pd.read_parquet(out) if suffix == ".parquet" else pd.read_csv(out)
    assert len(table) == 3 + 3 + 4
    assert set(table["run"]) == {"mb-random", "mb-oracle", "pfp-random"}
    with Store(store_with_runs) as store:
        for run in ("mb-random", "mb-oracle", "pfp-random"):
            for score in store.scores(run):
                row = table[(table["run"] == run) & (table["item_id"] == score.item_id)].iloc[0]
                assert row["status"] in ("scored", "parse_failure")
                assert row["modality"] == store.run(run).modality
                for name, value in score.values.items():
                    assert pd.isna(row[f"metric_{name}"]) if value is None else row[f"metric_{name}"] == value
                for key, value in score.metadata.items():
                    if isinstance(value, int | str) and f"meta_{key}" in table:
                        assert row[f"meta_{key}"] == value
    oracle = table[table["run"] == "mb-oracle"]
    assert (oracle["metric_exact_match"] == 1.0).all()
    failed = table[table["status"] == "request_failed"]
    assert failed["item_id"].tolist() == ["folding-3d-999999"] and failed["error_kind"].tolist() == ["http_500"]
    assert {"latency_s", "prompt_tokens", "completion_tokens", "parse_failure_kind"} <= set(table.columns)


@pytest.fixture(scope="module")
def reports_from_the_store(store_with_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """``foldbench report`` of two runs read from the store, once for both table formats."""
    out = tmp_path_factory.mktemp("reports")
    reports = {}
    for run in ("mb-random", "pfp-random"):
        assert run_cli("report", run, "--db", str(store_with_runs), "--out", str(out / run)) == 0
        reports[run] = (out / run / "report.md").read_text()
    return reports


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_report_from_the_table_matches_the_report_from_the_store(
    store_with_runs: Path, reports_from_the_store: dict[str, str], tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"table{suffix}"
    assert run_cli("export-runs", "mb-random", "pfp-random", "--db", str(store_with_runs), "--out", str(out)) == 0
    for run, expected in reports_from_the_store.items():
        assert run_cli("report", run, "--from", str(out), "--out", str(tmp_path / "b" / run)) == 0
        assert (tmp_path / "b" / run / "report.md").read_text() == expected


def test_bad_input_is_one_line(store_with_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "there.parquet"
    existing.write_bytes(b"x")
    cases = [
        (["export-runs", "nope", "--db", str(store_with_runs), "--out", str(tmp_path / "a.parquet")], "no run named"),
        (["export-runs", "mb-random", "--db", str(store_with_runs), "--out", str(tmp_path / "a.xlsx")], ".parquet or"),
        (["export-runs", "mb-random", "--db", str(store_with_runs), "--out", str(existing)], "already exists"),
        (["export-runs", "mb-random", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "b.csv")], "no run"),
        (["report", "mb-random", "--from", str(existing)], "cannot read it as a run table"),
        (["report", "mb-random", "--from", str(tmp_path / "missing.csv")], "does not exist"),
    ]
    for args, message in cases:
        assert run_cli(*args) == 1, args  # bad data or a path: exit 1
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (args, err)
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".parquet", ".csv", ".part")) == ["there.parquet"]
