"""Harness speed: overhead per item with the model excluded, and end-to-end items/s against a local endpoint.

Usage: python bench/bench_harness.py [--items 1000] [--runs 3]

1. Overhead: for each item, render the prompt, fingerprint it (images by content), look it up in the store,
   parse a correct reply, score it and commit it to SQLite; the median per-item time is printed.
2. End to end: the OpenAI-compatible adapter against a scripted server on 127.0.0.1, in its own process, that
   answers instantly, concurrency 32; items/s is the median over runs (each run uses a fresh store, so every item
   is requested).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foldbench.harness import Store, evaluate
from foldbench.harness.store import RunInfo
from foldbench.models._files import PromptFiles
from foldbench.models.base import ModelReply
from foldbench.models.fingerprint import prompt_record, request_fingerprint
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset


def overhead(dataset: Path, store_path: Path, modality: str) -> list[float]:
    task = make("mentalblackboard/prediction")
    items = read_items(dataset)
    texts = {item.id: task.oracle(item).model_dump_json() for item in items}
    timings = []
    digests = PromptFiles(max_bytes=0)  # as the runner keeps them
    with Store(store_path) as store:
        store.open_run(RunInfo("overhead", task.id, str(dataset), "pft-1", "bench", {}, modality, "v", "0", "now"))
        for item in items:
            start = time.perf_counter()
            prompt = task.render(item, modality)
            key = request_fingerprint("bench", {}, prompt, dataset, files=digests)
            store.cached_response(key)
            answer = task.parse(item, texts[item.id])
            scores = task.score(item, answer)
            store.record(
                run="overhead",
                item_id=item.id,
                key=key,
                model="bench",
                params={},
                prompt=prompt_record(prompt, dataset, digests),
                reply=ModelReply(texts[item.id]),
                scores=scores,
                answer=answer.model_dump_json(),
                parse_failure=None,
                metadata=item.metadata,
            )
            timings.append(time.perf_counter() - start)
    return timings


_SERVER = """
import sys, time
sys.path.insert(0, {root!r})
from tests.support.fake_openai import FakeOpenAI, always, reply
server = FakeOpenAI(always(reply({text!r}))).start()
print(server.base_url, flush=True)
sys.stdin.read()
"""


@contextmanager
def endpoint(text: str) -> Iterator[str]:
    """A scripted server in its own process (as a real endpoint would be) that answers ``text`` instantly."""
    code = _SERVER.format(root=str(Path(__file__).resolve().parents[1]), text=text)
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
            assert summary.scored == len(items) and summary.requested == len(items)
            return len(items) / elapsed

        return asyncio.run(go())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        dataset = root / "data"
        write_dataset("mentalblackboard/prediction", dataset, n=args.items, seed=0, modalities=("text", "image"))
        for modality in ("text", "image"):
            timings = overhead(dataset, root / f"overhead-{modality}.db", modality)
            print(
                f"harness overhead per item ({modality}; render + fingerprint + parse + score + store): "
                f"median {1000 * statistics.median(timings):.2f} ms, p90 "
                f"{1000 * sorted(timings)[int(0.9 * len(timings))]:.2f} ms over {len(timings)} items"
            )
        rates = [end_to_end(dataset, root / f"e2e-{run}.db") for run in range(args.runs)]
        print(
            f"end to end, local endpoint answering instantly, concurrency 32: median {statistics.median(rates):.0f} "
            f"items/s over {args.runs} runs of {args.items} items (min {min(rates):.0f}, max {max(rates):.0f})"
        )


if __name__ == "__main__":
    main()
