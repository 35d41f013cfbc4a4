"""Wall and CPU time of the test suite as CI runs it, and of its collection alone.

Usage: python bench/time_test_suite.py [--collect-only] [--workers auto]

Runs ``python -m pytest -q --collect-only`` and then (unless ``--collect-only``) the README's test command,
``python -m pytest -q -n auto --dist loadgroup``, from the repository root, each in its own process. Prints for
each the wall time, the CPU time of the process and its children, and the load average before and after (the
machine is shared: the CPU figure moves less with the load than the wall figure). Exits with pytest's status.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _timed(arguments: list[str]) -> tuple[int, float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    finished = subprocess.run([sys.executable, "-m", "pytest", *arguments], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = (finished.stdout.strip().splitlines() or [""])[-1]
    return finished.returncode, wall, cpu, f"load {load:.1f} -> {os.getloadavg()[0]:.1f}; {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect-only", action="store_true", help="time the collection alone")
    parser.add_argument("--workers", default="auto", help="pytest-xdist's -n (default: auto, one per core)")
    options = parser.parse_args()
    code, wall, cpu, note = _timed(["-q", "--collect-only"])
    print(f"collection: {wall:.1f} s wall, {cpu:.1f} s CPU ({note})")
    if not options.collect_only:
        code, wall, cpu, note = _timed(["-q", "-n", options.workers, "--dist", "loadgroup"])
        print(f"whole suite (-n {options.workers}): {wall:.1f} s wall, {cpu:.1f} s CPU ({note})")
    sys.exit(code)


if __name__ == "__main__":
    main()
