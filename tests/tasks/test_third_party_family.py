"""A task family from outside foldbench, added by one entry point of an installed distribution (``toyfam 0.1``, a
real ``*.dist-info`` on the path; tests/support/distributions.py), goes through every command with no edit to
foldbench: ``tasks``, ``generate``, ``suite`` (its default selection too), ``report``, ``export`` and
``export-runs``."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pyarrow.parquet as pq

import foldbench
from tests.support.cli import fresh_runs
from tests.support.distributions import write_toy_family

PACKAGE = Path(foldbench.__file__).parent


def _env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), str(site), env.get("PYTHONPATH", "")])
    return env


def test_a_family_declared_by_one_entry_point_goes_through_every_command(tmp_path: Path) -> None:
    site = write_toy_family(tmp_path / "site")
    db = str(tmp_path / "suite" / "runs.db")
    commands: dict[str, list[str] | str] = {
        "tasks": ["tasks", "--knobs"],
        "planned": "from foldbench.harness.suite import plan_suite\n"
        "print('\\n'.join(part.task_id for part in plan_suite(1)))",
        "generate": ["generate", "toyfam", "--task", "parity", "-n", "8", "--out", "data"],
        "suite": ["suite", "--out", "suite", "-n", "8", "--tasks", "toyfam/parity"],
        "report": ["report", "parity-v1-text-random", "--db", db, "--out", "again"],
        "export": ["export", "data", "--out", "hf"],
        "lmms": ["export", "data", "--out", "lmms", "--format", "lmms-eval"],
        "runs": ["export-runs", "parity-v1-text-oracle", "--db", db, "--out", "runs.csv"],
    }
    # one fresh interpreter runs every command in turn: the distribution is found on its path as by a new process
    ran = dict(zip(commands, fresh_runs(list(commands.values()), _env(site), tmp_path), strict=True))
    for name, done in ran.items():
        assert done.returncode == 0, f"{name}: {done.stderr}"

    listed = ran["tasks"]
    assert "toyfam/parity-v1\n" in listed.stdout and "mentalblackboard/prediction-v1\n" in listed.stdout
    assert listed.stderr == ""

    planned = ran["planned"].stdout.split()
    assert "toyfam/parity-v1" in planned and "pfp/final-fold-v4" not in planned and len(planned) > 20

    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["task"] == "toyfam/parity-v1" and manifest["items_written"] == 8
    items = [json.loads(line) for line in (tmp_path / "data" / "items.jsonl").read_text().splitlines()]
    assert all(item["target"]["parity"] == ("odd" if item["inputs"]["number"] % 2 else "even") for item in items)

    summary = (tmp_path / "suite" / "summary.md").read_text(encoding="utf-8")
    assert "| toyfam/parity-v1 | text | oracle | 8 | accuracy | 100.0 (" in summary
    assert "| toyfam/parity-v1 | text | random | 8 | accuracy |" in summary
    report = (tmp_path / "suite" / "reports" / "parity-v1-text-oracle" / "report.md").read_text(encoding="utf-8")
    assert "`toyfam/parity-v1`" in report and "| accuracy | 100.0 |" in report and "## By digits" in report

    again = (tmp_path / "again" / "report.md").read_text(encoding="utf-8")
    assert "`toyfam/parity-v1`" in again and "| parse_failure | 0.0 |" in again

    (shard,) = (tmp_path / "hf").rglob("*.parquet")
    table = pq.read_table(shard)
    assert table.num_rows == 8 and set(table.column("task").to_pylist()) == {"toyfam/parity-v1"}
    assert (tmp_path / "lmms" / "foldbench_toyfam_parity.yaml").is_file()

    with (tmp_path / "runs.csv").open(encoding="utf-8") as rows:
        read = list(csv.DictReader(rows))
    assert len(read) == 8 and {row["task"] for row in read} == {"toyfam/parity-v1"}
    assert {row["metric_accuracy"] for row in read} == {"1"} and {row["meta_digits"] for row in read} <= {"1", "2"}
