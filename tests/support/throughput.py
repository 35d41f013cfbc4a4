"""Throughput of the scripted server and of the OpenAI-compatible adapter against it.

Run: ``.venv/bin/python -m tests.support.throughput [--requests 2000] [--concurrency 32] [--repeats 3]``.
Prints the median requests per second over the repeats for (1) a bare httpx client posting a fixed body and
(2) the adapter building the full request (text + one image as a data URL) and reading the reply.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from foldbench.models import OpenAICompatibleModel
from foldbench.tasks.base import ImagePart, TextPart
from tests.models.helpers import make_request, toy_item, write_png
from tests.support.fake_openai import FakeOpenAI, answering


async def _bare(url: str, requests: int, concurrency: int) -> float:
    body = b'{"model": "m", "messages": [{"role": "user", "content": "q"}]}'
    semaphore = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=concurrency)) as client:

        async def one() -> None:
            async with semaphore:
                response = await client.post(url, content=body)
                assert response.status_code == 200

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(requests)))
        return requests / (time.perf_counter() - started)


async def _adapter(base_url: str, dataset_dir: Path, requests: int, concurrency: int) -> float:
    model = OpenAICompatibleModel("fake", base_url=base_url, api_key=None)
    semaphore = asyncio.Semaphore(concurrency)
    asks = [
        make_request(dataset_dir, (TextPart(f"question {i}"), ImagePart("sheet.png")), item=toy_item(i))
        for i in range(requests)
    ]

    async def one(index: int) -> None:
        async with semaphore:
            answer = await model.complete(asks[index])
            assert answer.error is None and answer.text == f"question {index}", answer

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(requests)))
    rate = requests / (time.perf_counter() - started)
    await model.aclose()
    return rate


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory, FakeOpenAI(answering(lambda text: text)) as server:
        write_png(Path(directory) / "sheet.png", (200, 200, 200), size=512)
        url = server.base_url + "/chat/completions"
        bare = [asyncio.run(_bare(url, options.requests, options.concurrency)) for _ in range(options.repeats)]
        adapter = [
            asyncio.run(_adapter(server.base_url, Path(directory), options.requests, options.concurrency))
            for _ in range(options.repeats)
        ]
    print(f"requests={options.requests} concurrency={options.concurrency} repeats={options.repeats}")
    print(f"fake server, bare httpx client: median {statistics.median(bare):8.0f} requests/s")
    print(f"fake server, OpenAICompatibleModel (text + 512px PNG): median {statistics.median(adapter):8.0f} requests/s")


if __name__ == "__main__":
    main()
