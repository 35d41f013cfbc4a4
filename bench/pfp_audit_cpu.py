"""CPU seconds of the PFP audit test's work, per task: writing the 240-item image dataset of seed 4242 and
auditing it; with ``--save`` / ``--compare``, also the hash of every file written and the audit report, to show
that a change left both identical.

Writes one dataset of each chosen task (default: every task of ``foldbench.tasks.pfp.TASKS``) under a temporary
folder, after a two-item warm-up of another seed (imports and first-use caches are not counted), and prints one
line per task: the CPU seconds of ``write_dataset`` and of ``audit_dataset``. Run it with ``PYTHONPATH`` set to
each tree to compare two versions:

    PYTHONPATH=/tmp/before/src python bench/pfp_audit_cpu.py --save /tmp/pfp_audit_before.json
    PYTHONPATH=src python bench/pfp_audit_cpu.py --compare /tmp/pfp_audit_before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

from foldbench.harness.audit import audit_dataset
from foldbench.tasks.dataset import write_dataset
from foldbench.tasks.pfp import TASKS


def _digests(folder: Path) -> dict[str, str]:
    """The SHA-256 of every file of a dataset, keyed by its path inside the dataset."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=240, help="items per task (default 240, as the audit test)")
    parser.add_argument("--seed", type=int, default=4242, help="dataset seed (default 4242, as the audit test)")
    parser.add_argument("--tasks", default="", help="comma-separated task names (default: all)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, help="write the files' hashes and the reports here")
    group.add_argument("--compare", type=Path, help="compare the files' hashes and the reports with these")
    args = parser.parse_args()
    names = [name for name in args.tasks.split(",") if name]
    chosen = [t for t in TASKS if not names or t.name in names]
    results: dict[str, dict[str, object]] = {}
    totals = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_dataset(chosen[0].id, root / "warm-up", n=2, seed=args.seed + 1, modalities=("image",))
        for task in chosen:
            out = root / task.name
            started = time.process_time()
            write_dataset(task.id, out, n=args.n, seed=args.seed, modalities=("image",))
            written = time.process_time()
            report = audit_dataset(out)
            audited = time.process_time()
            totals[0] += written - started
            totals[1] += audited - written
            print(f"{task.id}: write {written - started:6.2f} s, audit {audited - written:5.2f} s CPU", flush=True)
            results[task.id] = {"files": _digests(out), "report": report.to_dict()}
    print(f"all {len(chosen)} tasks: write {totals[0]:.2f} s, audit {totals[1]:.2f} s CPU")
    if args.save is not None:
        args.save.write_text(json.dumps(results, indent=0, sort_keys=True))
    if args.compare is not None:
        saved = json.loads(args.compare.read_text())
        failures = 0
        for task_id, result in results.items():
            before = saved.get(task_id, {})
            files = result["files"]
            assert isinstance(files, dict)
            differing = sorted(k for k in files.keys() | before.get("files", {}).keys()
                               if files.get(k) != before.get("files", {}).get(k))
            same_report = result["report"] == before.get("report")
            failures += bool(differing) or not same_report
            first = f" (first: {differing[0]})" if differing else ""
            print(f"{task_id}: {len(files)} files, {len(differing)} differ{first}; "
                  f"report {'identical' if same_report else 'DIFFERS'}")
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
