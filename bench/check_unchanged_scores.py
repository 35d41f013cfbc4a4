"""Check that a change left scores alone: re-evaluate every run of an earlier store on the same datasets and
compare the per-item scores, and check that the earlier stored replies are still found by their request keys.

Usage: python bench/check_unchanged_scores.py BEFORE_DB [--work DIR]

BEFORE_DB is a run store written by an earlier foldbench (e.g. ``foldbench suite --out runs/before -n 10`` gives
``runs/before/runs.db``), its datasets still in place. For every run in it:

1. the same model (``random`` or ``oracle``; other models are skipped) is evaluated again, with this foldbench,
   on the run's dataset and modality into a fresh store, and every item's score values, counts, answer and parse
   failure must be equal;
2. the run is evaluated again under a new name in a copy of BEFORE_DB: every request must be answered from the
   store (0 sent), i.e. the request keys of unchanged prompts did not change.

Prints one line per run and a total; exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foldbench.harness import Store, evaluate
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items

_COLUMNS = "item_id, score_values, score_counts, answer, parse_failure"


def _scores(db: Path, run: str) -> dict[str, tuple[Any, ...]]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute(f"SELECT {_COLUMNS} FROM scores WHERE run = ?", (run,)).fetchall()
    return {row[0]: row[1:] for row in rows}


def _evaluate(db: Path, run: str, task_id: str, dataset: Path, model_name: str, params: dict[str, Any],
              modality: str) -> Any:  # fmt: skip
    task = make(task_id)
    model = make_model(model_name, seed=int(params.get("seed", 0)))
    with Store(db) as store:
        return asyncio.run(
            evaluate(
                store=store,
                run_name=run,
                task=task,
                dataset_dir=dataset,
                items=read_items(dataset),
                model=model,
                modality=modality,
            )
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="unchanged-"))
    fresh_db, copy_db = work / "fresh.db", work / "copy.db"
    shutil.copy(args.before, copy_db)
    with Store(args.before) as store:
        runs = store.runs()
    problems = checked_items = 0
    for info in runs:
        if info.model not in ("random", "oracle"):
            print(f"{info.name}: skipped (model {info.model})")
            continue
        dataset = Path(info.dataset)
        _evaluate(fresh_db, info.name, info.task, dataset, info.model, info.params, info.modality)
        before, after = _scores(args.before, info.name), _scores(fresh_db, info.name)
        differing = sorted(item for item in before.keys() | after.keys() if before.get(item) != after.get(item))
        resumed = _evaluate(copy_db, f"{info.name}-again", info.task, dataset, info.model, info.params, info.modality)
        checked_items += len(before)
        status = "same" if not differing and resumed.requested == 0 else "DIFFERENT"
        print(
            f"{info.name}: {len(before)} items, {len(differing)} scores differ, "
            f"{resumed.from_store} answered from the earlier store, {resumed.requested} sent: {status}"
        )
        problems += bool(differing) + (resumed.requested != 0)
    print(f"{len(runs)} runs, {checked_items} items: {'all unchanged' if not problems else f'{problems} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
