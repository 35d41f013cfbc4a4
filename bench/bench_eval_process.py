"""A whole `foldbench eval` as a user runs it: a fresh process of the command line, start-up included.

Usage: python bench/bench_eval_process.py [--items 1000] [--runs 3] [--concurrency 32] [--limit N] [--tty]
       [--answer TEXT] [--src DIR ...]

A MentalBlackboard prediction dataset of ``--items`` text items is generated once beforehand (not timed). A
scripted OpenAI-compatible server (tests/support/fake_openai.py, the one bench_harness.py uses) runs in its own
process and answers every request at once. Each run is then a fresh ``python -m foldbench eval --task
mentalblackboard/prediction --model openai:bench --base-url URL --concurrency 32`` with a fresh run store: its
wall time, its CPU time (user + system of that process alone, from ``os.wait4``) and its peak resident memory
(``ru_maxrss``). The figures printed are medians over ``--runs`` runs with their spread.

The processes compile their bytecode into a scratch ``PYTHONPYCACHEPREFIX`` (even where
``PYTHONDONTWRITEBYTECODE`` is set) and one untimed run goes first, so start-up is measured as after an
install, with every module's bytecode cached.

With ``--tty`` the command's stderr is a pseudo-terminal, so its progress bar is drawn as in a terminal;
otherwise stderr is a pipe and the bar is off (as in a script or CI). ``--src`` names the ``src`` directories of
the foldbench versions to run (default: this checkout's); with several, their runs alternate, so a loaded machine
weighs on each alike (e.g. ``git archive COMMIT src | tar -x -C /tmp/before`` and ``--src /tmp/before/src src``).
``--limit N`` asks only the first N items (``--limit 1`` measures start-up: imports, reading the dataset, one item).
With several ``--src``, the stores of each version's first run are compared row by row (every table, leaving out
latencies, timestamps and row ids): a faster version must store the same requests, replies, turns and scores.
``--answer TEXT`` makes the endpoint reply ``TEXT`` instead of the first item's oracle answer (prose, a hole list
with malformed holes, ...), so the stores are compared on parse failures and odd answers too.
"""

from __future__ import annotations

import argparse
import os
import pty
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_harness import endpoint

from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset

TASK = "mentalblackboard/prediction"


@dataclass(frozen=True)
class Measured:
    """One fresh eval process: wall seconds, CPU seconds (user + system) and peak RSS in MB."""

    wall_s: float
    cpu_s: float
    peak_mb: float
    output: str


def _drain(fd: int, sink: list[bytes]) -> None:
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return
        if not chunk:
            return
        sink.append(chunk)


def run_eval(
    src: Path,
    dataset: Path,
    db: Path,
    base_url: str,
    concurrency: int,
    tty: bool,
    pycache: Path,
    limit: int | None = None,
) -> Measured:
    """One ``foldbench eval`` of the foldbench in ``src`` in a fresh process against ``base_url``, measured."""
    command = [
        sys.executable, "-m", "foldbench", "eval", "--task", TASK, "--data", str(dataset),
        "--model", "openai:bench", "--base-url", base_url, "--modality", "text",
        "--concurrency", str(concurrency), "--db", str(db),
    ]  # fmt: skip
    if limit is not None:
        command += ["--limit", str(limit)]
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("OPENAI_API_KEY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    terminal: list[bytes] = []
    master = reader = None
    if tty:
        master, replica = pty.openpty()
        stderr: int = replica
        env["COLUMNS"] = "120"
    else:
        stderr = subprocess.STDOUT
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, env=env)
    if tty:
        os.close(replica)
        reader = threading.Thread(target=_drain, args=(master, terminal), daemon=True)
        reader.start()
    assert process.stdout is not None
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if reader is not None and master is not None:
        reader.join(timeout=5)
        os.close(master)
    if process.returncode != 0:
        raise SystemExit(f"foldbench eval failed ({process.returncode}): {output}")
    return Measured(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output.strip())


_STORED_ROWS = {
    "runs": "SELECT name, task, engine_version, model, params, modality, template_version FROM runs ORDER BY name",
    "requests": "SELECT key, model, params, prompt FROM requests ORDER BY key",
    "responses": "SELECT key, text, error, error_kind, attempts, prompt_tokens, completion_tokens, finish_reason "
    "FROM responses ORDER BY key, text",
    "turns": "SELECT item_id, turn, request_key, cached, feedback, done, repeat FROM turns "
    "ORDER BY item_id, repeat, turn",
    "scores": "SELECT item_id, request_key, cached, answer, parse_failure, score_values, score_counts, notes, "
    "metadata, repeat FROM scores ORDER BY item_id, repeat",
    "failures": "SELECT item_id, repeat FROM failures ORDER BY item_id, repeat",
}
"""What two versions must store alike: every column but latencies, timestamps and row ids."""


def differing_tables(first: Path, second: Path) -> list[str]:
    """The tables whose rows (as :data:`_STORED_ROWS` reads them) differ between two run stores."""
    with sqlite3.connect(first) as a, sqlite3.connect(second) as b:
        return [
            table for table, query in _STORED_ROWS.items() if a.execute(query).fetchall() != b.execute(query).fetchall()
        ]


def _spread(values: list[float], unit: str, digits: int = 2) -> str:
    return (
        f"median {statistics.median(values):.{digits}f} {unit} "
        f"(min {min(values):.{digits}f}, max {max(values):.{digits}f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--limit", type=int, default=None, help="ask only the first N items")
    parser.add_argument("--tty", action="store_true", help="draw the progress bar on a pseudo-terminal")
    parser.add_argument("--answer", default=None, help="the endpoint's reply (default: the first item's oracle answer)")
    parser.add_argument("--src", type=Path, nargs="+", default=[ROOT / "src"], help="foldbench src directories")
    args = parser.parse_args()
    sources = [path.resolve() for path in args.src]
    results: dict[Path, list[Measured]] = {src: [] for src in sources}
    load_at_start = os.getloadavg()[0]
    stores: list[Path] = []
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        dataset = root / "data"
        write_dataset(TASK, dataset, n=args.items, seed=0, modalities=("text",))
        answer = args.answer if args.answer is not None else make(TASK).oracle(read_items(dataset)[0]).model_dump_json()
        with endpoint(answer) as base_url:
            for index, src in enumerate(sources):  # untimed: compiles each version's bytecode
                run_eval(src, dataset, root / f"warm-up-{index}.db", base_url, args.concurrency, args.tty,
                         root / f"pycache-{index}")  # fmt: skip
            for run in range(args.runs):
                for index, src in enumerate(sources):
                    db = root / f"run-{index}-{run}.db"
                    pycache = root / f"pycache-{index}"
                    measured = run_eval(src, dataset, db, base_url, args.concurrency, args.tty, pycache, args.limit)
                    results[src].append(measured)
                    if run == 0:
                        stores.append(db)
        comparisons = []
        for index in range(1, len(sources)):
            differing = differing_tables(stores[0], stores[index])
            verdict = f"rows differ in {', '.join(differing)}" if differing else "every stored row identical"
            comparisons.append(f"{sources[index]} against {sources[0]}, the first runs' stores: {verdict}")
    where = "a pseudo-terminal (progress bar drawn)" if args.tty else "a pipe (no progress bar)"
    print(
        f"fresh `foldbench eval` process, {args.items} {TASK} text items, local endpoint answering at once, "
        f"concurrency {args.concurrency}{f', only the first {args.limit} asked' if args.limit else ''}, stderr on "
        f"{where}, {args.runs} runs each; load average {load_at_start:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end on {os.cpu_count()} cores:"
    )
    for src, measured in results.items():
        print(f"{src}: {measured[-1].output}")
        print(f"  wall {_spread([r.wall_s for r in measured], 's')}")
        print(f"  CPU  {_spread([r.cpu_s for r in measured], 's')} (user + system of the eval process)")
        print(f"  peak RSS {_spread([r.peak_mb for r in measured], 'MB', 0)}")
    if len(sources) > 1:
        for line in comparisons:
            print(line)
        first = results[sources[0]]
        for src in sources[1:]:
            cpu = [b.cpu_s / a.cpu_s for a, b in zip(first, results[src], strict=True)]
            wall = [b.wall_s / a.wall_s for a, b in zip(first, results[src], strict=True)]
            print(
                f"{src} / {sources[0]}, run by run: CPU ratio median {statistics.median(cpu):.2f} "
                f"(min {min(cpu):.2f}, max {max(cpu):.2f}), wall ratio median {statistics.median(wall):.2f} "
                f"(min {min(wall):.2f}, max {max(wall):.2f})"
            )


if __name__ == "__main__":
    main()
