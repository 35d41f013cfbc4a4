"""Every PFP choice task as ``foldbench suite`` composes it (default knobs): engine check and blind audit.

For each registered PFP task (or those named with ``--tasks``), writes ``--n`` items with the task's default knobs
(as the suite does), checks that the engine finds exactly the answer consistent and the options distinct on every
item, and runs ``foldbench audit`` on the dataset (every rule, the reference-aware ones included). Prints one
Markdown table of the baselines' accuracies (in %, flagged ones in bold) with the task as the column, and the
number of flagged rules per task.

    python bench/pfp_choice_audit.py --n 600 --seed 2027 --out /tmp/pfp-choice
    python bench/pfp_choice_audit.py --n 600 --seed 2027 --out /tmp/pfp-choice --tasks missing-step-strict
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _choice_audit_table import print_audit_table, proven_count  # bench/ is first on sys.path

from foldbench.harness.audit import audit_dataset
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.tasks.pfp import TASKS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600, help="items per task")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--out", type=Path, required=True, help="a folder for the datasets (one per task)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", default="", help="comma-separated task names (default: every PFP task)")
    args = parser.parse_args()
    wanted = [name for name in args.tasks.split(",") if name]
    unknown = sorted(set(wanted) - {t.name for t in TASKS})
    if unknown:
        parser.error(f"unknown PFP task {unknown[0]!r}; choose from {', '.join(t.name for t in TASKS)}")
    chosen = [t for t in TASKS if not wanted or t.name in wanted]
    reports = {}
    for task_type in chosen:
        task = task_type()
        folder = args.out / task.name
        write_dataset(task.id, folder, n=args.n, seed=args.seed, modalities=("image",), overwrite=True,
                      workers=args.workers)
        items = read_items(folder)
        proven = proven_count(task, items)
        print(f"{task.id}: {len(items)} items; engine: {proven} answers proven, options distinct", flush=True)
        reports[task.name] = audit_dataset(folder)
    print_audit_table(reports)


if __name__ == "__main__":
    main()
