"""A task family from outside foldbench, added by one entry point of an installed distribution (``toyfam 0.1``, a
real ``*.dist-info`` on the path; tests/support/distributions.py), goes through every command with no edit to
foldbench: ``tasks``, ``generate``, ``suite`` (its default selection too), ``report``, ``export`` and
``export-runs``."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

import foldbench
from tests.support.distributions import write_toy_family

PACKAGE = Path(foldbench.__file__).parent


def _run(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), str(site), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return done


def test_a_family_declared_by_one_entry_point_goes_through_every_command(tmp_path: Path) -> None:
    site = write_toy_family(tmp_path / "site")
    foldbench_cli = ("-m", "foldbench")

    listed = _run(site, tmp_path, *foldbench_cli, "tasks", "--knobs")
    assert "toyfam/parity-v1\n" in listed.stdout and "mentalblackboard/prediction-v1\n" in listed.stdout
    assert listed.stderr == ""

    planned = _run(site, tmp_path, "-c", "from foldbench.harness.suite import plan_suite\n"
                   "print('\\n'.join(part.task_id for part in plan_suite(1)))").stdout.split()  # fmt: skip
    assert "toyfam/parity-v1" in planned and "pfp/final-fold-v4" not in planned and len(planned) > 20

    _run(site, tmp_path, *foldbench_cli, "generate", "toyfam", "--task", "parity", "-n", "8", "--out", "data")
    manifest = json.loads((tmp_path / "data" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["task"] == "toyfam/parity-v1" and manifest["items_written"] == 8
    items = [json.loads(line) for line in (tmp_path / "data" / "items.jsonl").read_text().splitlines()]
    assert all(item["target"]["parity"] == ("odd" if item["inputs"]["number"] % 2 else "even") for item in items)

    _run(site, tmp_path, *foldbench_cli, "suite", "--out", "suite", "-n", "8", "--tasks", "toyfam/parity")
    summary = (tmp_path / "suite" / "summary.md").read_text(encoding="utf-8")
    assert "| toyfam/parity-v1 | text | oracle | 8 | accuracy | 100.0 (" in summary
    assert "| toyfam/parity-v1 | text | random | 8 | accuracy |" in summary
    report = (tmp_path / "suite" / "reports" / "parity-v1-text-oracle" / "report.md").read_text(encoding="utf-8")
    assert "`toyfam/parity-v1`" in report and "| accuracy | 100.0 |" in report and "## By digits" in report

    db = str(tmp_path / "suite" / "runs.db")
    _run(site, tmp_path, *foldbench_cli, "report", "parity-v1-text-random", "--db", db, "--out", "again")
    again = (tmp_path / "again" / "report.md").read_text(encoding="utf-8")
    assert "`toyfam/parity-v1`" in again and "| parse_failure | 0.0 |" in again

    _run(site, tmp_path, *foldbench_cli, "export", "data", "--out", "hf")
    (shard,) = (tmp_path / "hf").rglob("*.parquet")
    table = pq.read_table(shard)
    assert table.num_rows == 8 and set(table.column("task").to_pylist()) == {"toyfam/parity-v1"}
    _run(site, tmp_path, *foldbench_cli, "export", "data", "--out", "lmms", "--format", "lmms-eval")
    assert (tmp_path / "lmms" / "foldbench_toyfam_parity.yaml").is_file()

    _run(site, tmp_path, *foldbench_cli, "export-runs", "parity-v1-text-oracle", "--db", db, "--out", "runs.csv")
    with (tmp_path / "runs.csv").open(encoding="utf-8") as rows:
        read = list(csv.DictReader(rows))
    assert len(read) == 8 and {row["task"] for row in read} == {"toyfam/parity-v1"}
    assert {row["metric_accuracy"] for row in read} == {"1"} and {row["meta_digits"] for row in read} <= {"1", "2"}
