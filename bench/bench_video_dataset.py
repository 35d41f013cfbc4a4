"""Time to generate a MentalBlackboard video dataset (MP4 + key frames + unfolding MP4 per item) with the local
parallel executor, and the projection for the paper's 900-item video set.

Usage: python bench/bench_video_dataset.py [--items 40] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from foldbench.tasks.dataset import write_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        write_dataset(
            "mentalblackboard/prediction",
            Path(scratch) / "video",
            n=args.items,
            seed=1,
            modalities=("video", "frames"),
            workers=args.workers,
        )
        elapsed = time.perf_counter() - start
    per_item = elapsed / args.items
    print(
        f"{args.items} video items (groups 1-9, 512x512, 24 fps) with {args.workers} workers: {elapsed:.1f} s "
        f"({per_item:.2f} s per item); 900 items projected: {900 * per_item / 60:.1f} min"
    )


if __name__ == "__main__":
    main()
