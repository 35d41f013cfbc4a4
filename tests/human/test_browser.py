"""End to end in a real browser: Debian's chromium (headless) answers items of every answer kind through the
human-baseline page, the server is restarted in the middle, and the stored answers and scores are checked."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from foldbench.harness.store import Store
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from tests.support.cdp import Browser, chromium_path

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run installs it)"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``foldbench serve-human`` in its own process, restartable."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "foldbench", "serve-human", *self.args, "--port", str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stderr.read().decode() if self.process.stderr else "") from None
                time.sleep(0.1)
        raise TimeoutError("the server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    driver = Browser(CHROMIUM)
    yield driver
    driver.close()


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("human")
    out = {
        "prediction": root / "prediction",
        "planning": root / "planning",
        "pfp": root / "pfp",
        "perception": root / "perception",
    }
    write_dataset("mentalblackboard/prediction", out["prediction"], n=3, seed=11, modalities=("text", "image"))
    write_dataset("mentalblackboard/planning", out["planning"], n=2, seed=11, modalities=("text", "image"))
    write_dataset("pfp/single-step", out["pfp"], n=3, seed=11, modalities=("image",))
    write_dataset("mentalblackboard/perception", out["perception"], n=3, seed=11, modalities=("image",))
    return out


def _click_triangle(browser: Browser, loc: object) -> None:
    """A real click at the centroid of triangle ``loc`` of the sheet drawing."""
    point = browser.evaluate(
        f"(() => {{ const p = document.getElementById('tri-{loc}'); p.scrollIntoView({{block: 'center'}});"
        " let x = 0, y = 0; for (const q of p.points) { x += q.x; y += q.y; }"
        " const s = new DOMPoint(x / 3, y / 3).matrixTransform(p.getScreenCTM()); return [s.x, s.y]; })()"
    )
    browser.click_at(*point)


def _answer_holes(browser: Browser, holes: list[dict[str, object]], steps: list[str]) -> None:
    for hole in holes:
        loc = hole["location"]
        _click_triangle(browser, loc)
        browser.wait_for(f"!!document.querySelector('select[name=\"shape-{loc}\"]')")
        browser.select(f"shape-{loc}", str(hole["shape"]))
        browser.select(f"size-{loc}", str(hole["size"]))
        browser.select(f"dir-{loc}", str(hole["direction"]))
    for code in steps:
        browser.click(f'button.fold[data-code="{code}"]')
    browser.wait_for(f"document.querySelectorAll('#steps span').length === {len(steps)}")


def _current_item(browser: Browser) -> str:
    return str(browser.evaluate("document.querySelector('input[name=item]')?.value || ''"))


def test_people_answer_every_kind_through_chromium(browser: Browser, datasets: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    shots = tmp_path / "shots"
    shots.mkdir()
    predict = make("mentalblackboard/prediction")
    items = read_items(datasets["prediction"])
    server = Server(
        [
            "--task",
            "mentalblackboard/prediction",
            "--data",
            str(datasets["prediction"]),
            "--run",
            "people",
            "--modality",
            "image",
            "--db",
            str(db),
        ]
    )
    server.start()
    try:
        browser.goto(server.url + "/")
        browser.evaluate("document.getElementById('participant').value = 'ann'")
        browser.click_and_wait("button[type=submit]")
        assert _current_item(browser) == items[0].id
        assert browser.evaluate("document.querySelectorAll('.prompt img').length") >= 2
        assert browser.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        # item 1: the engine's answer, entered by clicking triangles and fold buttons
        truth = predict.oracle(items[0])
        _answer_holes(browser, [h.model_dump(mode="json") for h in truth.result_holes], truth.unfolding)
        browser.screenshot(shots / "holes.png")
        browser.click_and_wait("#submit")
        assert _current_item(browser) == items[1].id
        # a reload shows the same unanswered item, and a restarted server resumes there
        browser.goto(f"{server.url}/p/ann")
        assert _current_item(browser) == items[1].id
        server.stop()
        server.start()
        browser.goto(f"{server.url}/p/ann")
        assert _current_item(browser) == items[1].id
        # item 2: one hole, clicked on and off and on again, with no unfolding steps: wrong
        first = items[1].target["result_holes"][0]
        _click_triangle(browser, first["location"])
        _click_triangle(browser, first["location"])
        assert browser.evaluate("document.querySelectorAll('#holes tr').length") == 0
        _answer_holes(browser, [first], [])
        browser.click_and_wait("#submit")
        assert _current_item(browser) == items[2].id
    finally:
        server.stop()

    with Store(db) as store:
        info = store.run("people-ann")
        assert info is not None and info.model == "human" and info.params == {"participant": "ann"}
        rows = {row.item_id: row for row in store.scores("people-ann")}
    assert set(rows) == {items[0].id, items[1].id}
    assert rows[items[0].id].values["exact_match"] == 1.0
    assert rows[items[1].id].values["exact_match"] == 0.0
    assert rows[items[1].id].answer["result_holes"][0]["location"] == first["location"]
    assert all(row.latency_s > 0 for row in rows.values())

    # planning (fold-sequence builder, text modality) and Paper Folding Puzzles (letter buttons)
    plan_items = read_items(datasets["planning"])
    server = Server(
        [
            "--task",
            "mentalblackboard/planning",
            "--data",
            str(datasets["planning"]),
            "--run",
            "people",
            "--modality",
            "text",
            "--db",
            str(db),
        ]
    )
    server.start()
    try:
        browser.goto(f"{server.url}/p/bo")
        assert _current_item(browser) == plan_items[0].id
        target = plan_items[0].target
        _answer_holes(browser, target["initial_holes"], target["actions"])
        browser.screenshot(shots / "plan.png")
        browser.click_and_wait("#submit")
        assert _current_item(browser) == plan_items[1].id
    finally:
        server.stop()
    pfp_items = read_items(datasets["pfp"])
    server = Server(["--task", "pfp/single-step", "--data", str(datasets["pfp"]), "--run", "pfp", "--db", str(db)])
    server.start()
    try:
        browser.goto(f"{server.url}/p/bo")
        right = pfp_items[0].target["answer"]
        browser.screenshot(shots / "letters.png")
        browser.click_and_wait(f'button[name=choice][value="{right}"]')
        wrong = next(letter for letter in "ABCD" if letter != pfp_items[1].target["answer"])
        browser.click_and_wait(f'button[name=choice][value="{wrong}"]')
        assert _current_item(browser) == pfp_items[2].id
    finally:
        server.stop()

    with Store(db) as store:
        runs = {r.name: r for r in store.runs()}
        plan_rows = {row.item_id: row for row in store.scores("people-bo")}
        pfp_rows = {row.item_id: row for row in store.scores("pfp-bo")}
    assert runs["people-bo"].task == "mentalblackboard/planning-v1"
    assert runs["pfp-bo"].task == "pfp/single-step-v2" or runs["pfp-bo"].task.startswith("pfp/single-step-v")
    assert plan_rows[plan_items[0].id].values[make("mentalblackboard/planning").spec.headline] == 1.0
    assert json.loads(plan_rows[plan_items[0].id].text)["folds"] == target["actions"]
    pfp_headline = make("pfp/single-step").spec.headline
    assert pfp_rows[pfp_items[0].id].values[pfp_headline] == 1.0
    assert pfp_rows[pfp_items[1].id].values[pfp_headline] == 0.0
    assert pfp_rows[pfp_items[1].id].answer == {"answer": wrong}

    # perception probes: the offered answers as buttons
    probe_items = read_items(datasets["perception"])
    server = Server(
        [
            "--task",
            "mentalblackboard/perception",
            "--data",
            str(datasets["perception"]),
            "--run",
            "seeing",
            "--db",
            str(db),
        ]
    )
    server.start()
    try:
        browser.goto(f"{server.url}/p/bo")
        offered = browser.evaluate("[...document.querySelectorAll('button[name=choice]')].map(b => b.value)")
        assert offered == probe_items[0].inputs["choices"]
        browser.screenshot(shots / "choice.png")
        browser.click_and_wait(f'button[name=choice][value="{probe_items[0].target["answer"]}"]')
        assert _current_item(browser) == probe_items[1].id
    finally:
        server.stop()
    with Store(db) as store:
        (row,) = store.scores("seeing-bo")
    assert row.item_id == probe_items[0].id and row.values["correct"] == 1.0
