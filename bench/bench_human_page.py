"""How fast the human-baseline page loads locally: an image item's page (the HTML with its prompt and form) and
the page with every picture it shows, fetched over HTTP from ``foldbench serve-human``'s server on 127.0.0.1.

Run: ``.venv/bin/python bench/bench_human_page.py [--repeats 50]``; prints the median and the 90th percentile of
the page alone and of the page with its pictures (a prediction item in the image modality, 512-pixel pictures).
"""

from __future__ import annotations

import argparse
import http.client
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

from foldbench.human.server import make_server
from foldbench.human.session import HumanSession
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset


def _get(port: int, path: str, cookie: str) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Cookie": cookie})
    body = connection.getresponse().read()
    connection.close()
    return body


def _start(port: int) -> str:
    """Begin a visit on the start page; returns its cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    connection.request("POST", "/start", body="participant=bench", headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.getheader("Set-Cookie", "").split(";", 1)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "data"
        write_dataset("mentalblackboard/prediction", data, n=5, seed=1, modalities=("image",), knobs={"groups": [7]})
        task = make("mentalblackboard/prediction")
        session = HumanSession(
            task=task, items=read_items(data), data=data, db=Path(scratch) / "runs.db", run="bench", modality="image"
        )
        server = make_server(session, port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
        cookie = _start(port)
        page_times, full_times = [], []
        for _ in range(args.repeats):
            started = time.perf_counter()
            page = _get(port, "/item", cookie).decode()
            page_times.append(time.perf_counter() - started)
            for src in re.findall(r'<img alt="[^"]*" title="[^"]*" src="([^"]+)"', page):
                _get(port, src, cookie)
            full_times.append(time.perf_counter() - started)
        server.shutdown()
        pictures = len(re.findall(r"<img ", page))
    for label, times in (("page", page_times), (f"page + {pictures} pictures", full_times)):
        ordered = sorted(times)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(
            f"image item, {label}: median {1000 * statistics.median(times):.1f} ms, 90th percentile {1000 * p90:.1f} ms"
        )


if __name__ == "__main__":
    main()
