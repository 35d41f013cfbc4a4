"""Where a fresh ``foldbench`` process spends its import time: ``python -X importtime`` self times, summed by
top-level package (the standard library as one line), median over ``--runs`` processes.

Bytecode is written and read under a scratch ``PYTHONPYCACHEPREFIX`` (one warm-up run first), as for an installed
package. The arguments after ``--`` are those of ``foldbench``; by default ``fold`` of the smallest OrigamiBench
model, and ``--help``.

    python bench/bench_startup_imports.py --runs 7
    python bench/bench_startup_imports.py --runs 7 -- fold small.fold --json
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

STANDARD_LIBRARY = "(standard library)"


def _self_times(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Milliseconds of import self time per top-level package in one fresh process."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "foldbench", *args], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    totals: dict[str, float] = collections.defaultdict(float)
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = (part.strip() for part in line.removeprefix("import time:").split("|"))
        top = name.split(".")[0]
        totals[STANDARD_LIBRARY if top in sys.stdlib_module_names or top.startswith("_") else top] += int(self_us)
    return {package: micros / 1000 for package, micros in totals.items()}


def _breakdown(args: list[str], runs: int, env: dict[str, str]) -> None:
    _self_times(args, env)  # writes the bytecode
    samples = [_self_times(args, env) for _ in range(runs)]
    packages = {package for sample in samples for package in sample}
    medians = {package: statistics.median(sample.get(package, 0.0) for sample in samples) for package in packages}
    totals = [sum(sample.values()) for sample in samples]
    print(f"foldbench {' '.join(args)}: imports {statistics.median(totals):.0f} ms "
          f"({min(totals):.0f}-{max(totals):.0f}), median of {runs}")
    for package, millis in sorted(medians.items(), key=lambda item: -item[1]):
        if millis >= 0.5:
            print(f"  {millis:7.1f} ms  {package}")


def _smallest_model() -> str:
    from foldbench.crease.io.collection import paper_models

    return str(min(paper_models().entries, key=lambda entry: (entry.edges, entry.name)).path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per command")
    parser.add_argument("command", nargs="*", help="foldbench's arguments (after --)")
    options = parser.parse_args()
    commands = [options.command] if options.command else [["fold", _smallest_model()], ["--help"]]
    print(f"load average at the start: {', '.join(f'{load:.1f}' for load in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as scratch:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(scratch) / "bytecode")
        env["FOLDBENCH_CACHE_DIR"] = str(Path(scratch) / "cache")
        for args in commands:
            _breakdown(args, options.runs, env)
    print(f"load average at the end: {', '.join(f'{load:.1f}' for load in os.getloadavg())} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
