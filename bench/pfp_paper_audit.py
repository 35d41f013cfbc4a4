"""The PFP types composed as the papers' test split (``preset=paper``): composition, engine check and blind audit.

For each of the papers' five types, writes ``--n`` items (600 is the papers' test split of one type) with the
``paper`` preset, counts the items per subtask (and per base shape for multi-step), checks that the engine finds
exactly the answer consistent and the options distinct on every item, and runs ``foldbench audit`` on the
dataset. Prints one Markdown table of the baselines' accuracies (in %) with the type as the column. Multi-step's
option records are its options' fold sequences (``inputs.options``), so the audit's record rules read them;
``--odd-step any`` generates multi-step with the odd step branching off at any step instead of the last.

    python bench/pfp_paper_audit.py --n 600 --seed 2027 --out /tmp/pfp-paper
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from _choice_audit_table import print_audit_table, proven_count  # bench/ is first on sys.path

from foldbench.harness.audit import audit_dataset
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.tasks.pfp import FoldingTask, InverseTask, MissingStepTask, SingleStepTask, UnfoldingTask

PAPER_TYPES = (SingleStepTask, MissingStepTask, InverseTask, FoldingTask, UnfoldingTask)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600, help="items per type")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--out", type=Path, required=True, help="a folder for the datasets (one per type)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--types", default="", help="comma-separated type names (default: all five)")
    parser.add_argument("--odd-step", choices=("last", "any"), default="last", help="multi-step's odd_step knob")
    args = parser.parse_args()
    chosen = [t for t in PAPER_TYPES if not args.types or t.name in args.types.split(",")]
    reports = {}
    for task_type in chosen:
        task = task_type()
        folder = args.out / task.name
        write_dataset(
            task.id,
            folder,
            n=args.n,
            seed=args.seed,
            modalities=("image",),
            knobs={"preset": "paper", **({"odd_step": args.odd_step} if task.name == "multi-step" else {})},
            overwrite=True,
            workers=args.workers,
        )
        items = read_items(folder)
        subtasks = Counter(item.metadata["subtask"] for item in items)
        splits = Counter(item.metadata["split"] for item in items)
        line = f"{task.name}: {len(items)} items, subtasks {dict(subtasks)}, splits {dict(splits)}"
        if "sheet" in task.spec.breakdowns:
            line += f", sheets {dict(Counter(item.metadata['sheet'] for item in items))}"
        proven = proven_count(task, items)
        print(f"{line}; engine: {proven} of {len(items)} answers proven, options distinct", flush=True)
        reports[task.name] = audit_dataset(folder)
        if "odd_step" in task.spec.breakdowns:
            print(f"{task.name}: odd_step {dict(Counter(item.metadata['odd_step'] for item in items))}", flush=True)
    print_audit_table(reports)


if __name__ == "__main__":
    main()
