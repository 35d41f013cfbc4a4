"""End to end in a real browser: Debian's chromium (headless) answers items of every answer kind through the
human-baseline page (clicks and keys), the server is restarted in the middle, the page's layout is measured (the
question beside the pictures, pictures at the size models get, buttons that fit their words), the server's
refusals are asked from the page itself, and the stored answers and scores are checked."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from foldbench.cli.human import build_session
from foldbench.harness.store import Store
from foldbench.human.server import make_server
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from foldbench.testing.cdp import Browser, chromium_path

CHROMIUM = chromium_path()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed (apt-get install chromium; .ci/run installs it)"
    ),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``foldbench serve-human`` in its own process, restartable (the first study runs through the command, and is
    resumed by a new process)."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "foldbench", "serve-human", *self.args, "--port", str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
        assert self.process.stdout is not None and self.process.stderr is not None
        # the first line, "serving N items ... at URL", is printed once the socket listens
        if not self.process.stdout.readline().startswith("serving "):
            self.process.wait()
            raise RuntimeError(self.process.stderr.read())

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


class InProcessServer:
    """The same server in a thread of this process, for the parts whose subject is the page and not the command
    (each ``serve-human`` process costs about a second of CPU to start): the session is built as the command
    builds it."""

    def __init__(self, args: list[str]) -> None:
        options = dict(zip(args[::2], args[1::2], strict=True))
        self.session = build_session(options["--task"], Path(options["--data"]), options["--run"],
                                     Path(options["--db"]), options.get("--modality"), None)  # fmt: skip
        self.server: Any = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> None:
        self.server = make_server(self.session, port=0)
        # a short poll: shutdown() waits for the loop to look again (half a second at the default)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread is not None:
            self.server.shutdown()
            self.server.server_close()
            self.thread.join()
            self.thread = None


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


def _start(browser: Browser, server: Server, participant: str) -> None:
    """Begin on the start page, as a participant does: type the id into its labelled field and press Start."""
    browser.goto(server.url + "/")
    assert browser.evaluate("document.querySelector('label[for=participant]').textContent").startswith("Participant id")
    browser.evaluate(f"document.getElementById('participant').value = {json.dumps(participant)}")
    browser.click_and_wait("button[type=submit]")


def _status(browser: Browser, fetch: str) -> int:
    """The HTTP status of a request made from the page (with its cookie), e.g. ``fetch('/files/items.jsonl')``."""
    return int(browser.evaluate(f"{fetch}.then(r => r.status)"))


def _post_from_page(fields: str) -> str:
    """A fetch() that posts ``fields`` (a JavaScript object expression) to /answer as a form."""
    return (
        "fetch('/answer', {method: 'POST', redirect: 'manual', headers: {'Content-Type': "
        f"'application/x-www-form-urlencoded'}}, body: new URLSearchParams({fields}).toString()}})"
    )


def _panel_in_view(browser: Browser) -> bool:
    """Whether the question and the first answer control are inside the window."""
    return bool(
        browser.evaluate(
            "(() => { const q = document.querySelector('.question').getBoundingClientRect();"
            " const c = document.querySelector('#answer button, #answer svg').getBoundingClientRect();"
            " return q.top >= 0 && q.top < innerHeight && c.top >= 0 && c.bottom <= innerHeight; })()"
        )
    )


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
        _start(browser, server, "ann")
        assert _current_item(browser) == items[0].id
        assert "prediction-" not in browser.evaluate("document.title")  # a title, not the item or task id
        assert browser.evaluate("document.querySelector('header').textContent").endswith("Question 1 of 3")
        assert browser.evaluate("document.querySelectorAll('.material img').length") >= 2
        assert browser.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        question = browser.evaluate("document.querySelector('.question').textContent")
        assert "JSON" not in question and "{" not in question and "Submit" in question
        # the question and controls are seen with the pictures, at the top and scrolled to the last picture
        assert _panel_in_view(browser)
        browser.evaluate("[...document.querySelectorAll('.material img')].pop().scrollIntoView()")
        assert _panel_in_view(browser)
        # a click enlarges a picture to the window, a second click puts it back
        browser.click(".material img")
        assert browser.evaluate("document.querySelector('.material img').getBoundingClientRect().width") == 1200
        browser.click(".material img.zoomed")
        assert browser.evaluate("document.querySelectorAll('img.zoomed').length") == 0
        # item 1: the engine's answer, entered by clicking triangles and fold buttons
        truth = predict.oracle(items[0])
        _answer_holes(browser, [h.model_dump(mode="json") for h in truth.result_holes], truth.unfolding)
        browser.screenshot(shots / "holes.png")
        browser.click_and_wait("#submit")
        assert _current_item(browser) == items[1].id
        # a reload shows the same unanswered item, and a restarted server resumes there
        browser.goto(f"{server.url}/item")
        assert _current_item(browser) == items[1].id
        server.stop()
        server.start()
        browser.goto(f"{server.url}/item")
        assert _current_item(browser) == items[1].id
        # item 2: one hole, clicked on and off and on again, with no unfolding steps, sent with Enter: wrong
        first = items[1].target["result_holes"][0]
        _click_triangle(browser, first["location"])
        _click_triangle(browser, first["location"])
        assert browser.evaluate("document.querySelectorAll('#holes tr').length") == 0
        _answer_holes(browser, [first], [])
        browser.evaluate("document.activeElement.blur()")
        browser.press_and_wait("Enter")
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

    # planning (fold-sequence builder, text modality)
    plan_items = read_items(datasets["planning"])
    server = InProcessServer(
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
        _start(browser, server, "bo")
        assert _current_item(browser) == plan_items[0].id
        target = plan_items[0].target
        _answer_holes(browser, target["initial_holes"], target["actions"])
        browser.screenshot(shots / "plan.png")
        browser.click_and_wait("#submit")
        assert _current_item(browser) == plan_items[1].id
    finally:
        server.stop()
    with Store(db) as store:
        plan_rows = {row.item_id: row for row in store.scores("people-bo")}
        assert store.run("people-bo").task == "mentalblackboard/planning-v1"  # type: ignore[union-attr]
    assert plan_rows[plan_items[0].id].values[make("mentalblackboard/planning").spec.headline] == 1.0
    assert json.loads(plan_rows[plan_items[0].id].text)["folds"] == target["actions"]


def test_letters_by_keyboard_and_the_refusals_in_chromium(browser: Browser, datasets: dict[str, Path], tmp_path: Path):
    """Paper Folding Puzzles: the composite at the size a model gets, A-D and Enter, and what the server refuses
    to a page's own requests (the answer key, another item's answer, a post without the form token)."""
    db = tmp_path / "runs.db"
    pfp_items = read_items(datasets["pfp"])
    server = InProcessServer(["--task", "pfp/single-step", "--data", str(datasets["pfp"]), "--run", "pfp",
                              "--db", str(db)])  # fmt: skip
    server.start()
    try:
        _start(browser, server, "bo")
        assert _current_item(browser) == pfp_items[0].id
        composite = browser.evaluate(
            "(() => { const i = document.querySelector('.material img'); return [i.width, i.naturalWidth]; })()"
        )
        assert composite[0] == composite[1] > 600  # shown at the size models get
        assert _panel_in_view(browser)
        # refusals, asked from the page itself with its cookie (the page's own policy forbids fetch(): lifted here
        # so that the server's answers are what is tested)
        browser.command("Page.setBypassCSP", enabled=True)
        browser.goto(f"{server.url}/item")
        assert _status(browser, "fetch('/files/items.jsonl')") == 404
        assert _status(browser, "fetch('/files/manifest.json')") == 404
        assert _status(browser, f"fetch('/files/{pfp_items[1].inputs['images']['composite']}')") == 404
        token = browser.evaluate("document.querySelector('input[name=form_token]').value")
        other = json.dumps({"item": pfp_items[1].id, "form_token": token, "choice": "A"})
        assert _status(browser, _post_from_page(other)) == 409
        tokenless = json.dumps({"item": pfp_items[0].id, "choice": "A"})
        assert _status(browser, _post_from_page(tokenless)) == 403
        browser.command("Page.setBypassCSP", enabled=False)
        # item 1 by keyboard: the right letter, then Enter
        right = pfp_items[0].target["answer"]
        browser.press(right.lower())
        assert browser.evaluate("document.querySelector('button.picked').value") == right
        browser.press_and_wait("Enter")
        assert _current_item(browser) == pfp_items[1].id
        # item 2 by the number key of a wrong option; item 3 by a click
        wrong = next(letter for letter in "ABCD" if letter != pfp_items[1].target["answer"])
        browser.press(str("ABCD".index(wrong) + 1))
        browser.press_and_wait("Enter")
        browser.click_and_wait('button[name=choice][value="A"]')
        assert "You answered 3 of 3 questions" in browser.evaluate("document.body.textContent")
    finally:
        server.stop()
    headline = make("pfp/single-step").spec.headline
    with Store(db) as store:
        rows = {row.item_id: row for row in store.scores("pfp-bo")}
    assert rows[pfp_items[0].id].values[headline] == 1.0
    assert rows[pfp_items[1].id].values[headline] == 0.0
    assert rows[pfp_items[1].id].answer == {"answer": wrong}
    assert len(rows) == 3


def test_word_choices_fit_their_buttons_in_chromium(browser: Browser, datasets: dict[str, Path], tmp_path: Path):
    """Perception probes: the offered answers as buttons wide enough for their words, chosen by number key."""
    probe_items = read_items(datasets["perception"])
    server = InProcessServer(
        [
            "--task",
            "mentalblackboard/perception",
            "--data",
            str(datasets["perception"]),
            "--run",
            "seeing",
            "--db",
            str(tmp_path / "runs.db"),
        ]
    )
    server.start()
    try:
        _start(browser, server, "bo")
        for item in probe_items:
            offered = browser.evaluate("[...document.querySelectorAll('button[name=choice]')].map(b => b.value)")
            assert offered == item.inputs["choices"]
            assert browser.evaluate(
                "[...document.querySelectorAll('button[name=choice]')].every(b => b.scrollWidth <= b.clientWidth)"
            )
            number = offered.index(item.target["answer"]) + 1
            if number <= 9:  # the first nine answers have a number key
                browser.press(str(number))
                browser.press_and_wait("Enter")
            else:
                browser.click_and_wait(f'button[name=choice][value="{item.target["answer"]}"]')
        assert "You answered 3 of 3 questions" in browser.evaluate("document.body.textContent")
    finally:
        server.stop()
    with Store(tmp_path / "runs.db") as store:
        rows = list(store.scores("seeing-bo"))
    assert len(rows) == 3 and all(row.values["correct"] == 1.0 for row in rows)
