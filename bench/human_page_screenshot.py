"""The picture of the human-baseline page in docs/human-page.md: an image item of mentalblackboard/prediction as a
participant sees it in a 1200-pixel-wide window (Debian's chromium, headless), after marking one hole.

Run: ``PYTHONPATH=. .venv/bin/python bench/human_page_screenshot.py [--out docs/human-page.png]``.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
from pathlib import Path

from foldbench.human.server import make_server
from foldbench.human.session import HumanSession
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.testing.cdp import Browser, chromium_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/human-page.png"))
    args = parser.parse_args()
    executable = chromium_path()
    if executable is None:
        raise SystemExit("error: chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "data"
        write_dataset("mentalblackboard/prediction", data, n=3, seed=11, modalities=("image",))
        session = HumanSession(
            task=make("mentalblackboard/prediction"),
            items=read_items(data),
            data=data,
            db=Path(scratch) / "runs.db",
            run="study",
            modality="image",
        )
        server = make_server(session, port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        browser = Browser(executable)
        try:
            browser.goto(url + "/")
            browser.evaluate("document.getElementById('participant').value = 'p01'")
            browser.click_and_wait("button[type=submit]")
            browser.command(
                "Emulation.setDeviceMetricsOverride", width=1200, height=900, deviceScaleFactor=1, mobile=False
            )
            browser.click("#tri-12")
            browser.evaluate("window.scrollTo(0, 0)")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            browser.screenshot(args.out, whole_page=False)
        finally:
            browser.close()
            server.shutdown()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
