"""The reference-aware audit rules on generated choice datasets: for each task, ``--n`` items at ``--seed``, the
accuracy of the option nearest to / farthest from the reference (or last question) picture by ink area, grey L1
and outline IoU, and every flagged rule.

    .venv/bin/python bench/bench_audit_reference_rules.py --tasks pfp --n 240 --seed 4242
    .venv/bin/python bench/bench_audit_reference_rules.py --tasks origamibench/one-step-causal --n 240 --seed 31
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from foldbench.harness.audit import audit_dataset
from foldbench.tasks import task_ids
from foldbench.tasks.dataset import write_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="pfp", help="comma-separated task ids or id prefixes (default: pfp)")
    parser.add_argument("--n", type=int, default=240, help="items per dataset")
    parser.add_argument("--seed", type=int, default=4242)
    args = parser.parse_args()
    prefixes = args.tasks.split(",")
    for task_id in [t for t in task_ids() if any(t.startswith(p) for p in prefixes)]:
        with tempfile.TemporaryDirectory() as directory:
            write_dataset(task_id, Path(directory), n=args.n, seed=args.seed, modalities=("image",))
            report = audit_dataset(Path(directory))
        rules = [b for b in report.baselines if b.name.startswith("reference ")]
        shown = ", ".join(f"{b.name.removeprefix('reference ')} {100 * b.accuracy:.1f}" for b in rules)
        flagged = ", ".join(f"{b.name} {100 * b.accuracy:.1f}" for b in report.flagged) or "none"
        print(f"{task_id}: {shown or 'no reference picture'}; flagged: {flagged}")


if __name__ == "__main__":
    main()
