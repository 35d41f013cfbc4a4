"""Export speed and Ray generation overhead.

1. ``export --format hf`` of a 10,000-item image dataset (PFP single-step: a composite picture plus question and
   option pictures per item). Generating 10,000 items takes far longer than exporting them, so the dataset is made
   from ``--base`` generated items, each repeated under new ids with its own copies of its files (the export reads
   every file and row as it would for 10,000 distinct items). Median of ``--repeats`` exports.
2. ``generate --executor ray`` against the local process pool at the same number of workers, on a Ray instance
   started beforehand (its start-up time is printed separately): Ray tasks write their own shards, the driver
   merges them. Runs alternate between the two; medians of ``--repeats`` runs each, their ratio, and whether every
   Ray dataset has the local one's bytes.

Usage: python bench/bench_export.py [--items 10000] [--base 100] [--gen-items 300] [--workers 2] [--repeats 3]
       [--skip-export]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from foldbench.export.hf import export_hf
from foldbench.integrations.ray_generate import sharded_items
from foldbench.tasks.dataset import local_items, write_dataset

TASK = "pfp/single-step-v2"


def _large_dataset(root: Path, items: int, base: int) -> Path:
    source = root / "base"
    write_dataset(TASK, source, n=base, seed=2, modalities=("image",), workers=2)
    lines = (source / "items.jsonl").read_text().splitlines()
    out = root / "large"
    (out / "images").mkdir(parents=True)
    with (out / "items.jsonl").open("w") as handle:
        for index in range(items):
            line = lines[index % base]
            old = json.loads(line)["id"]
            new = f"{old}-{index:06d}"
            shutil.copytree(source / "images" / old, out / "images" / new)
            handle.write(line.replace(f"images/{old}/", f"images/{new}/").replace(f'"id":"{old}"', f'"id":"{new}"'))
            handle.write("\n")
    manifest = json.loads((source / "manifest.json").read_text())
    manifest.update(n=items, items_written=items)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return out


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def _median_seconds(action, repeats: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for attempt in range(repeats):
        start = time.perf_counter()
        action(attempt)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--base", type=int, default=100)
    parser.add_argument("--gen-items", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-export", action="store_true", help="Only compare Ray and local generation.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        if not args.skip_export:
            large = _large_dataset(root, args.items, args.base)
            export = _median_seconds(lambda i: export_hf([large], root / f"export-{i}"), args.repeats)
            size = sum(p.stat().st_size for p in (root / "export-0").rglob("*.parquet")) / 1e6
            print(f"export --format hf of {args.items} image items: {export:.1f} s median ({args.items / export:.0f} "
                  f"items/s; {size:.0f} MB of Parquet)")  # fmt: skip
        import ray

        start = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        startup = time.perf_counter() - start
        local_times, ray_times = [], []
        for attempt in range(args.repeats):  # alternated, so a change in the machine's load hits both alike
            for executor, source, times in (("local", local_items, local_times), ("ray", sharded_items, ray_times)):
                start = time.perf_counter()
                write_dataset(TASK, root / f"{executor}-{attempt}", n=args.gen_items, seed=4, modalities=("image",),
                              workers=args.workers, source=source)  # fmt: skip
                times.append(time.perf_counter() - start)
        ray.shutdown()
        local, remote = statistics.median(local_times), statistics.median(ray_times)
        same = all(_tree(root / f"ray-{i}") == _tree(root / "local-0") for i in range(args.repeats))
        print(
            f"generate {args.gen_items} items with {args.workers} workers: local {local:.1f} s, ray {remote:.1f} s "
            f"(medians of {args.repeats}; ratio {remote / local:.2f}; Ray start-up {startup:.1f} s not included; "
            f"same bytes: {same})"
        )


if __name__ == "__main__":
    main()
