"""Harness speed: overhead per item with the model excluded, and end-to-end items/s against a local endpoint.

Usage: python bench/bench_harness.py [--items 1000] [--runs 3] [--text-only]

1. Overhead: whole runs through the harness (render, request key with image digests, store lookup, the reply of
   a model that answers at once from a table, parse, score, SQLite commits), one fresh store per run: the median
   over runs of the time per item (one-shot, text and image), and per stored turn (the multi-turn toy guessing
   game of src/foldbench/testing/toy_task.py, about seven turns per conversation).
2. End to end: the OpenAI-compatible adapter against a scripted server on 127.0.0.1, in its own process, that
   answers instantly, concurrency 32; items/s is the median over runs (each run uses a fresh store, so every item
   is requested).

``--text-only`` measures the text overhead alone (a text dataset, no image, multi-turn or end-to-end part): quick
enough to run two versions alternately, e.g. ``for i in 1 2 3 4 5; do for s in /tmp/before/src src; do
PYTHONPATH=$s python bench/bench_harness.py --text-only; done; done``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from foldbench.harness import Store, evaluate
from foldbench.models.base import ModelReply, ModelRequest
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset


class InstantModel:
    """A model that answers at once from a table (reply by the text of the conversation's last message), so a run
    measures the harness alone."""

    name = "bench"
    params: dict[str, object] = {}

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer

    async def complete(self, request: ModelRequest) -> ModelReply:
        return ModelReply(self.answer(request.conversation.text), finish_reason="stop")

    async def aclose(self) -> None:
        pass


def _timed_run(task: Any, dataset: Path, items: list[Any], model: InstantModel, modality: str, db: Path) -> tuple[
        float, Any]:  # fmt: skip
    async def go() -> Any:
        with Store(db) as store:
            return await evaluate(
                store=store, run_name="bench", task=task, dataset_dir=dataset, items=items, model=model,
                modality=modality, concurrency=8,
            )  # fmt: skip

    start, cpu = time.perf_counter(), time.process_time()
    summary = asyncio.run(go())
    _CPU.append(time.process_time() - cpu)
    return time.perf_counter() - start, summary


_CPU: list[float] = []  # the CPU seconds of each timed run, in order (a loaded machine stretches wall time)


def overhead(dataset: Path, root: Path, modality: str, runs: int) -> list[float]:
    """Seconds per item of whole one-shot runs (render, request key with image digests, store lookup, the
    model's instant reply, parse, score, two SQLite commits), one fresh store per run."""
    task = make("mentalblackboard/prediction")
    items = read_items(dataset)
    texts = {task.render(item, modality).conversation().text: task.oracle(item).model_dump_json() for item in items}
    model = InstantModel(texts.__getitem__)
    per_item = []
    for run in range(runs):
        elapsed, summary = _timed_run(task, dataset, items, model, modality, root / f"{modality}-{run}.db")
        assert summary.scored == len(items) and summary.requested + summary.from_store == len(items)
        per_item.append(elapsed / len(items))
    return per_item


def multi_turn_overhead(root: Path, n: int, runs: int) -> list[tuple[float, int]]:
    """Seconds per stored turn of whole runs of the toy guessing game (a bisecting player that answers at once),
    and the number of turns, one fresh store per run."""
    from foldbench.testing.toy_task import GuessTask, bisect_reply

    task = GuessTask()
    items = list(task.generate(n, seed=0))
    model = InstantModel(lambda text: bisect_reply(text.replace("user: ", "")))
    results = []
    for run in range(runs):
        elapsed, summary = _timed_run(task, root, items, model, "text", root / f"guess-{run}.db")
        assert summary.scored == n
        results.append((elapsed / summary.requested, summary.requested))
    return results


_SERVER = """
import sys, time
from foldbench.testing.fake_openai import FakeOpenAI, always, reply
server = FakeOpenAI(always(reply({text!r}))).start()
print(server.base_url, flush=True)
sys.stdin.read()
"""


@contextmanager
def endpoint(text: str) -> Iterator[str]:
    """A scripted server in its own process (as a real endpoint would be) that answers ``text`` instantly."""
    code = _SERVER.format(text=text)
    process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.kill()
        process.wait()


def end_to_end(dataset: Path, store_path: Path) -> float:
    task = make("mentalblackboard/prediction")
    items = read_items(dataset)
    with endpoint(task.oracle(items[0]).model_dump_json()) as base_url:
        model = make_model("openai:bench", base_url=base_url)

        async def go() -> float:
            with Store(store_path) as store:
                start = time.perf_counter()
                summary = await evaluate(
                    store=store,
                    run_name="e2e",
                    task=task,
                    dataset_dir=dataset,
                    items=items,
                    model=model,
                    modality="text",
                    concurrency=32,
                )
                elapsed = time.perf_counter() - start
            await model.aclose()
            assert summary.scored == len(items) and summary.requested + summary.from_store == len(items)
            return len(items) / elapsed

        return asyncio.run(go())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--text-only", action="store_true", help="only the overhead per text item")
    args = parser.parse_args()
    modalities = ("text",) if args.text_only else ("text", "image")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        dataset = root / "data"
        write_dataset("mentalblackboard/prediction", dataset, n=args.items, seed=0, modalities=modalities)
        for modality in modalities:
            _CPU.clear()
            per_item = overhead(dataset, root, modality, args.runs)
            cpu = [seconds / args.items for seconds in _CPU]
            print(
                f"harness overhead per one-shot item ({modality}; whole runs with a model answering at once): "
                f"median {1000 * statistics.median(per_item):.2f} ms wall, {1000 * statistics.median(cpu):.2f} ms "
                f"CPU (min {1000 * min(cpu):.2f}, max {1000 * max(cpu):.2f}) over {args.runs} runs of {args.items} "
                "items"
            )
        if args.text_only:
            return
        turns = multi_turn_overhead(root, args.items, args.runs)
        print(
            f"harness overhead per stored turn (multi-turn guessing game, model answering at once): median "
            f"{1000 * statistics.median(t for t, _ in turns):.2f} ms over {args.runs} runs of {args.items} "
            f"conversations ({turns[0][1]} turns each run)"
        )
        rates = [end_to_end(dataset, root / f"e2e-{run}.db") for run in range(args.runs)]
        print(
            f"end to end, local endpoint answering instantly, concurrency 32: median {statistics.median(rates):.0f} "
            f"items/s over {args.runs} runs of {args.items} items (min {min(rates):.0f}, max {max(rates):.0f})"
        )


if __name__ == "__main__":
    main()
