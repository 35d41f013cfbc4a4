"""The CPU of the OpenAI-compatible adapter's transport alone: ``--requests`` POSTs of chat-sized bodies through
one ``ConnectionPool`` at ``--concurrency``, against a local server in its own process that answers each at once
with a fixed chat-completion reply (``bench_harness.endpoint``; its CPU is not counted).

Usage: python bench/bench_http_path.py [--requests 1000] [--concurrency 32] [--rounds 5] [--src DIR ...]

Each round runs every ``--src`` (the ``src`` directories of the foldbench versions to compare, default this
checkout's) in a fresh process, alternating, so a loaded machine weighs on each alike; the figure is the process
CPU time (``time.process_time``) of the requests, start-up and imports left out. Printed: the median and spread
per version, and with several versions the run-by-run ratio to the first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ANSWER = '{"holes": [{"x": 1, "y": 2}]}'
"""What the server answers to every request (a chat completion whose message is this text)."""


async def _client(base_url: str, requests: int, concurrency: int) -> float:
    from foldbench.models._http import ConnectionPool

    pool = ConnectionPool(base_url, {"Content-Type": "application/json"})
    bodies = [b'{"model": "bench", "messages": [{"role": "user", "content": "%s"}]}' % (b"x" * (900 + i % 113))
              for i in range(requests)]  # fmt: skip
    gate = asyncio.Semaphore(concurrency)

    async def one(body: bytes) -> None:
        async with gate:
            reply = await pool.post("/v1/chat/completions", body, 1 << 20)
            assert reply.status == 200 and json.loads(reply.body)["choices"][0]["message"]["content"] == ANSWER

    await one(bodies[0])  # the first connection and the imports it pulls in are not counted
    start = time.process_time()
    await asyncio.gather(*(one(body) for body in bodies))
    spent = time.process_time() - start
    await pool.close()
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--src", nargs="+", default=[str(Path(__file__).resolve().parents[1] / "src")])
    parser.add_argument("--client", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        print(asyncio.run(_client(args.client, args.requests, args.concurrency)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.bench_harness import endpoint  # the project's scripted OpenAI-compatible server, in its own process

    spent: dict[str, list[float]] = {src: [] for src in args.src}
    with endpoint(ANSWER) as base_url:
        for _ in range(args.rounds):
            for src in args.src:
                out = subprocess.run(
                    [sys.executable, __file__, "--client", f"{base_url}/chat/completions", "--requests",
                     str(args.requests), "--concurrency", str(args.concurrency)],
                    env={**os.environ, "PYTHONPATH": src}, capture_output=True, text=True, check=True,
                )  # fmt: skip
                spent[src].append(float(out.stdout))
    load = os.getloadavg()[0]
    print(f"{args.requests} requests at concurrency {args.concurrency}, {args.rounds} rounds, load average {load:.1f}:")
    for src, values in spent.items():
        ms = [v * 1000 for v in values]
        print(f"  {src}: CPU median {statistics.median(ms):.0f} ms (min {min(ms):.0f}, max {max(ms):.0f})")
    if len(args.src) > 1:
        first = spent[args.src[0]]
        for src in args.src[1:]:
            ratios = [a / b for a, b in zip(spent[src], first, strict=True)]
            print(f"  {src} / {args.src[0]}, round by round: median {statistics.median(ratios):.2f} "
                  f"(min {min(ratios):.2f}, max {max(ratios):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
