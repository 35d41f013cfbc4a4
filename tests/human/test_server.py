"""The human-baseline server over HTTP: answers stored like model replies, resumption, and its safety: the server
is the authority (visits begun on the start page, a form token on every post, only the item shown is answered, the
time measured by the server), only the shown item's files are served, escaping, schema-only posts, loopback by
default with a token otherwise."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from foldbench.errors import FoldbenchError
from foldbench.harness.store import Store
from foldbench.human import server as server_module
from foldbench.human import visits as visits_module
from foldbench.human.forms import AnswerForm
from foldbench.human.pages import item_page
from foldbench.human.questions import participant_question
from foldbench.human.server import make_server
from foldbench.human.session import HumanSession
from foldbench.messages import ImagePart, Prompt, TextPart
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset


@pytest.fixture(scope="module")
def pfp_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pfp") / "data"
    write_dataset("pfp/single-step", out, n=3, seed=5, modalities=("image",))
    (out.parent / "secret.txt").write_text("outside the dataset")
    (out / "link.txt").symlink_to(out.parent / "secret.txt")
    return out


@pytest.fixture(scope="module")
def prediction_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pred") / "data"
    write_dataset("mentalblackboard/prediction", out, n=2, seed=5, modalities=("text", "image"))
    return out


def _session(data: Path, task: str, db: Path, modality: str) -> HumanSession:
    return HumanSession(task=make(task), items=read_items(data), data=data, db=db, run="study", modality=modality)


class Running:
    def __init__(self, session: HumanSession, **options: object) -> None:
        self.server = make_server(session, port=0, **options)  # type: ignore[arg-type]
        # a short poll: shutdown() waits for the loop to look again (half a second at the default, per test)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def client(self) -> Client:
        return Client(self)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Client:
    """One browser: keeps the visit cookie the server sets."""

    def __init__(self, running: Running) -> None:
        self.running = running
        self.cookie: str | None = None

    def request(
        self, method: str, path: str, body: str | None = None, *, cookie: bool = True
    ) -> tuple[int, dict[str, str], bytes]:
        host, port = self.running.server.server_address[:2]
        connection = http.client.HTTPConnection("127.0.0.1" if host == "0.0.0.0" else host, port, timeout=10)
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
        if cookie and self.cookie is not None:
            headers["Cookie"] = self.cookie
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        result = response.status, dict(response.getheaders()), response.read()
        connection.close()
        if "Set-Cookie" in result[1]:
            self.cookie = result[1]["Set-Cookie"].split(";", 1)[0]
        return result

    def start(self, participant: str, token: str | None = None) -> str:
        """Start on the start page; returns the first item page."""
        fields = {"participant": participant, **({"token": token} if token else {})}
        status, headers, _ = self.request("POST", "/start", urlencode(fields))
        assert status == 303 and headers["Location"] == "/item", status
        return self.page()

    def page(self) -> str:
        status, _, body = self.request("GET", "/item")
        assert status == 200, (status, body)
        return body.decode()

    def form_token(self) -> str:
        return self.page().split('name="form_token" value="', 1)[1].split('"', 1)[0]

    def answer(self, item_id: str, **fields: str) -> tuple[int, dict[str, str], bytes]:
        body = urlencode({"item": item_id, "form_token": self.form_token(), **fields}, doseq=True)
        return self.request("POST", "/answer", body)


@pytest.fixture
def pfp_server(pfp_data: Path, tmp_path: Path) -> Iterator[Running]:
    running = Running(_session(pfp_data, "pfp/single-step", tmp_path / "runs.db", "image"))
    yield running
    running.close()


def _responses(running: Running) -> int:
    with Store(running.server.session.db) as store:
        return store.response_count()


def test_an_answer_is_stored_like_a_reply_and_a_repeated_post_stores_nothing(pfp_server: Running, pfp_data: Path):
    items = read_items(pfp_data)
    ann = pfp_server.client()
    ann.start("ann")
    token = ann.form_token()
    status, headers, _ = ann.answer(items[0].id, choice="C")
    assert status == 303 and headers["Location"] == "/item"
    repeat = urlencode({"item": items[0].id, "form_token": token, "choice": "A"})
    assert ann.request("POST", "/answer", repeat)[0] == 409  # no longer the item shown
    with Store(pfp_server.server.session.db) as store:
        rows = list(store.scores("study-ann"))
        assert store.response_count() == 1
    assert [(r.item_id, r.answer) for r in rows] == [(items[0].id, {"answer": "C"})]
    assert rows[0].values["accuracy"] == float(items[0].target["answer"] == "C")
    assert 0 <= rows[0].latency_s < 60
    page = ann.page()
    assert f'value="{items[1].id}"' in page and "Question 2 of 3" in page


def test_the_server_measures_the_time_an_answer_took(pfp_server: Running, pfp_data: Path, monkeypatch):
    items = read_items(pfp_data)
    ann = pfp_server.client()
    monkeypatch.setattr(visits_module, "now_ms", lambda: 1_000_000_000)
    ann.start("ann")
    monkeypatch.setattr(server_module, "now_ms", lambda: 1_000_004_500)
    # a time the browser claims is not a field of the form at all
    assert ann.answer(items[0].id, choice="A", shown="1")[0] == 400
    assert ann.answer(items[0].id, choice="A")[0] == 303
    with Store(pfp_server.server.session.db) as store:
        (row,) = store.scores("study-ann")
    assert row.latency_s == 4.5


def test_the_answer_key_and_files_of_other_items_are_not_served(pfp_server: Running, pfp_data: Path):
    items = read_items(pfp_data)
    shown_image = items[0].inputs["images"]["composite"]
    other_image = items[1].inputs["images"]["composite"]
    assert (pfp_data / other_image).is_file() and (pfp_data / "items.jsonl").is_file()
    ann = pfp_server.client()
    assert ann.request("GET", f"/files/{shown_image}")[0] == 404  # no visit yet
    page = ann.start("ann")
    assert f'src="/files/{shown_image}"' in page
    status, headers, body = ann.request("GET", f"/files/{shown_image}")
    assert status == 200 and headers["Content-Type"] == "image/png" and body == (pfp_data / shown_image).read_bytes()
    for path in ("items.jsonl", "manifest.json", other_image):
        status, _, body = ann.request("GET", f"/files/{path}")
        assert status == 404 and b"target" not in body, path
    assert ann.answer(items[0].id, choice="A")[0] == 303
    assert ann.request("GET", f"/files/{shown_image}")[0] == 404  # no longer shown
    assert ann.request("GET", f"/files/{other_image}")[0] == 404  # next, but not shown yet
    ann.page()
    assert ann.request("GET", f"/files/{other_image}")[0] == 200


def test_an_answer_needs_a_visit_begun_on_the_start_page(pfp_server: Running, pfp_data: Path):
    item = read_items(pfp_data)[0]
    stranger = pfp_server.client()
    body = urlencode({"item": item.id, "form_token": "x", "choice": "A"})
    assert stranger.request("POST", "/answer", body)[0] == 403
    stranger.cookie = "foldbench_visit=made-up"
    assert stranger.request("POST", "/answer", body)[0] == 403
    assert stranger.request("GET", "/item")[1]["Location"] == "/"  # sent to the start page
    assert _responses(pfp_server) == 0
    with Store(pfp_server.server.session.db) as store:
        assert store.runs() == []  # no participant id was written down


def test_a_post_must_carry_the_visits_form_token(pfp_server: Running, pfp_data: Path):
    item = read_items(pfp_data)[0]
    ann, bo = pfp_server.client(), pfp_server.client()
    ann.start("ann")
    bo.start("bo")
    for token in ("", "guess", bo.form_token()):
        body = urlencode({"item": item.id, "form_token": token, "choice": "A"})
        assert ann.request("POST", "/answer", body)[0] == 403, token
    no_token = urlencode({"item": item.id, "choice": "A"})
    assert ann.request("POST", "/answer", no_token)[0] == 403
    assert _responses(pfp_server) == 0


def test_only_the_item_being_shown_can_be_answered(pfp_server: Running, pfp_data: Path):
    items = read_items(pfp_data)
    ann = pfp_server.client()
    ann.start("ann")
    status, _, text = ann.answer(items[1].id, choice="A")  # not shown yet
    assert status == 409 and text.decode().count("\n") == 1
    assert ann.answer("nope", choice="A")[0] == 409
    assert _responses(pfp_server) == 0
    # a second visit of the same participant is shown the same item, but answers only once it was shown there
    again = pfp_server.client()
    status, headers, _ = again.request("POST", "/start", urlencode({"participant": "ann"}))
    assert status == 303
    body = urlencode({"item": items[0].id, "form_token": ann.form_token(), "choice": "A"})
    assert again.request("POST", "/answer", body)[0] == 403  # the other visit's token
    assert ann.answer(items[0].id, choice="B")[0] == 303
    assert _responses(pfp_server) == 1


def test_the_start_page_lists_no_participant(pfp_server: Running, pfp_data: Path):
    ann = pfp_server.client()
    ann.start("annabel")
    assert ann.answer(read_items(pfp_data)[0].id, choice="A")[0] == 303
    status, _, page = pfp_server.client().request("GET", "/")
    assert status == 200 and b"annabel" not in page
    assert b'<label for="participant"' in page and b"3 questions" in page


def test_a_visit_continues_on_a_restarted_server(pfp_data: Path, tmp_path: Path):
    items = read_items(pfp_data)
    first = Running(_session(pfp_data, "pfp/single-step", tmp_path / "runs.db", "image"))
    ann = first.client()
    try:
        ann.start("ann")
        assert ann.answer(items[0].id, choice="A")[0] == 303
        ann.page()  # shows item 2
    finally:
        first.close()
    second = Running(_session(pfp_data, "pfp/single-step", tmp_path / "runs.db", "image"))
    try:
        ann.running = second
        assert f'value="{items[1].id}"' in ann.page()
        assert ann.answer(items[1].id, choice="B")[0] == 303
        with Store(tmp_path / "runs.db") as store:
            assert len(list(store.scores("study-ann"))) == 2
    finally:
        second.close()


def test_the_closing_page_counts_the_answers(pfp_server: Running, pfp_data: Path):
    ann = pfp_server.client()
    ann.start("ann")
    for item in read_items(pfp_data):
        assert ann.answer(item.id, choice="A")[0] == 303
    page = ann.page()
    assert "Thank you" in page and "You answered 3 of 3 questions" in page


@pytest.mark.parametrize(
    "fields",
    [
        {"choice": "E"},
        {"choice": "A", "extra": "1"},
        {"choice": ["A", "B"]},
        {},
        {"choice": "<script>"},
    ],
)
def test_a_tampered_post_gets_a_one_line_400_and_nothing_is_stored(pfp_server: Running, pfp_data: Path, fields):
    item = read_items(pfp_data)[0]
    ann = pfp_server.client()
    ann.start("ann")
    status, _, text = ann.answer(item.id, **fields)
    assert status == 400
    assert text.decode().count("\n") == 1 and len(text) < 300
    assert _responses(pfp_server) == 0


@pytest.mark.parametrize("body", ["\xff\xfe", "a" * 70_000, "a=1&&&=", "choice=A&choice"])
def test_malformed_posts_are_refused(pfp_server: Running, body: str):
    ann = pfp_server.client()
    ann.start("ann")
    assert ann.request("POST", "/answer", body)[0] in (400, 403)
    assert _responses(pfp_server) == 0


def test_hole_posts_outside_the_schema_are_refused(prediction_data: Path, tmp_path: Path):
    running = Running(_session(prediction_data, "mentalblackboard/prediction", tmp_path / "runs.db", "image"))
    try:
        item = read_items(prediction_data)[0]
        ann = running.client()
        ann.start("ann")
        bad = [
            {"loc": "33", "shape-33": "star", "size-33": "small", "dir-33": "0"},
            {"loc": "3", "shape-3": "blob", "size-3": "small", "dir-3": "0"},
            {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "45"},
            {"loc": "3", "shape-3": "star", "size-3": "small"},
            {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "0", "shape-4": "star"},
            {"unfolding": "H9-F"},
        ]
        for fields in bad:
            assert ann.answer(item.id, **fields)[0] == 400, fields
        good = {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "90", "unfolding": "H1-F"}
        assert ann.answer(item.id, **good)[0] == 303
        with Store(tmp_path / "runs.db") as store:
            (row,) = store.scores("study-ann")
        assert row.answer["result_holes"] == [{"shape": "star", "size": "small", "direction": 90, "location": 3}]
        assert row.answer["unfolding"] == ["H1-F"]
    finally:
        running.close()


@pytest.mark.parametrize(
    "path",
    [
        "/files/../secret.txt",
        "/files/%2e%2e/secret.txt",
        "/files/..%2fsecret.txt",
        "/files/%2fetc%2fpasswd",
        "/files//etc/passwd",
        "/files/link.txt",
        "/files/images",
        "/files/nothing.png",
        "/files/a%00b",
    ],
)
def test_no_file_outside_the_dataset_is_served(pfp_server: Running, path: str):
    ann = pfp_server.client()
    ann.start("ann")
    status, _, body = ann.request("GET", path)
    assert status == 404
    assert b"outside the dataset" not in body and b"root:" not in body


def test_every_shown_value_is_escaped():
    evil = '<script>alert("x")</script>'
    prompt = Prompt(parts=(TextPart(evil), ImagePart(path='a" onerror="alert(1).png')), template_version="t")
    from foldbench.tasks.base import Item

    item = Item(id='x"><b>', task="t/t-v1", seed=0, engine_version="e", inputs={}, target={})
    page = item_page(
        title=evil,
        item=item,
        question=participant_question(prompt, "choice"),
        form=AnswerForm("choice", (evil,)),
        form_token='"><b>',
        position=0,
        total=1,
    )
    assert "<script>alert" not in page and "<b>" not in page and 'onerror="' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_participant_ids_are_checked(pfp_server: Running):
    client = pfp_server.client()
    for participant in ("<b>", "a b", "x" * 33, ""):
        assert client.request("POST", "/start", urlencode({"participant": participant}))[0] == 400
    assert client.request("POST", "/start", "participant=a&participant=b")[0] == 400
    assert client.cookie is None


def test_loopback_by_default_and_a_token_otherwise(pfp_data: Path, tmp_path: Path):
    session = _session(pfp_data, "pfp/single-step", tmp_path / "runs.db", "image")
    with pytest.raises(FoldbenchError, match="--allow-remote"):
        make_server(session, host="0.0.0.0", port=0)
    local = Running(session)
    try:
        assert local.server.server_address[0] == "127.0.0.1" and local.server.token is None
    finally:
        local.close()
    remote = Running(session, host="0.0.0.0", allow_remote=True)
    try:
        token = remote.server.token
        assert token and len(token) >= 20
        client = remote.client()
        assert client.request("GET", "/")[0] == 403
        assert client.request("GET", "/?token=wrong")[0] == 403
        assert client.request("POST", "/start", urlencode({"participant": "ann", "token": "wrong"}))[0] == 403
        assert client.cookie is None
        status, _, page = client.request("GET", f"/?token={token}")
        assert status == 200 and f'name="token" value="{token}"' in page.decode()  # the start form carries it
        assert "Question 1 of 3" in client.start("ann", token)
    finally:
        remote.close()


def test_a_video_item_is_shown_with_controls(tmp_path: Path):
    data = tmp_path / "video"
    write_dataset("mentalblackboard/perception", data, n=1, seed=3, modalities=("video",), knobs={"size": 128})
    running = Running(_session(data, "mentalblackboard/perception", tmp_path / "runs.db", "video"))
    try:
        client = running.client()
        page = client.start("ann")
        assert '<video controls preload="auto" src="/files/videos/' in page
        src = page.split("<video controls", 1)[1].split('src="', 1)[1].split('"', 1)[0]
        status, headers, body = client.request("GET", src)
        assert status == 200 and headers["Content-Type"] == "video/mp4" and body[4:8] == b"ftyp"
    finally:
        running.close()


def test_serve_human_refuses_another_host_without_the_flag_in_one_line(pfp_data: Path, tmp_path: Path, capsys):
    from foldbench.cli.app import main

    with pytest.raises(SystemExit) as exit_code:
        main(
            [
                "serve-human",
                "--task",
                "pfp/single-step",
                "--data",
                str(pfp_data),
                "--run",
                "r",
                "--host",
                "0.0.0.0",
                "--db",
                str(tmp_path / "runs.db"),
            ]
        )
    assert exit_code.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error:") and "--allow-remote" in error and "\n" not in error
