"""The human-baseline server over HTTP: answers stored like model replies, resumption, and its safety (escaping,
schema-only posts, loopback by default with a token otherwise, no file outside the dataset)."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from foldbench.errors import FoldbenchError
from foldbench.harness.store import Store
from foldbench.human.forms import AnswerForm
from foldbench.human.pages import item_page
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
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, dict[str, str], bytes]:
        host, port = self.server.server_address[:2]
        connection = http.client.HTTPConnection("127.0.0.1" if host == "0.0.0.0" else host, port, timeout=10)
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        result = response.status, dict(response.getheaders()), response.read()
        connection.close()
        return result

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def pfp_server(pfp_data: Path, tmp_path: Path) -> Iterator[Running]:
    running = Running(_session(pfp_data, "pfp/single-step", tmp_path / "runs.db", "image"))
    yield running
    running.close()


def _post(item_id: str, **fields: str) -> str:
    return urlencode({"item": item_id, "shown": str(int(time.time() * 1000) - 1500), **fields})


def test_an_answer_is_stored_like_a_reply_and_a_repeated_post_stores_nothing(pfp_server: Running, pfp_data: Path):
    items = read_items(pfp_data)
    status, headers, _ = pfp_server.request("POST", "/p/ann/answer", _post(items[0].id, choice="C"))
    assert status == 303 and headers["Location"] == "/p/ann"
    assert pfp_server.request("POST", "/p/ann/answer", _post(items[0].id, choice="A"))[0] == 303
    with Store(pfp_server.server.session.db) as store:
        rows = list(store.scores("study-ann"))
        assert store.response_count() == 1
    assert [(r.item_id, r.answer) for r in rows] == [(items[0].id, {"answer": "C"})]
    assert rows[0].values["accuracy"] == float(items[0].target["answer"] == "C")
    assert 1.0 <= rows[0].latency_s < 60
    page = pfp_server.request("GET", "/p/ann")[2].decode()
    assert f'value="{items[1].id}"' in page and "item 2 of 3" in page


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
    body = urlencode({"item": item.id, "shown": str(int(time.time() * 1000)), **fields}, doseq=True)
    status, _, text = pfp_server.request("POST", "/p/ann/answer", body)
    assert status == 400
    assert text.decode().count("\n") == 1 and len(text) < 300
    with Store(pfp_server.server.session.db) as store:
        assert store.response_count() == 0


@pytest.mark.parametrize(
    "body",
    [
        "item=nope&shown=1&choice=A",  # an item the dataset does not hold
        "item=single-step-00000&shown=99999999999999&choice=A",  # a time in the future
        "item=single-step-00000&shown=abc&choice=A",
        "\xff\xfe",
        "a" * 70_000,
    ],
)
def test_malformed_posts_are_refused(pfp_server: Running, body: str):
    assert pfp_server.request("POST", "/p/ann/answer", body)[0] == 400
    with Store(pfp_server.server.session.db) as store:
        assert store.response_count() == 0


def test_hole_posts_outside_the_schema_are_refused(prediction_data: Path, tmp_path: Path):
    running = Running(_session(prediction_data, "mentalblackboard/prediction", tmp_path / "runs.db", "image"))
    try:
        item = read_items(prediction_data)[0]
        bad = [
            {"loc": "33", "shape-33": "star", "size-33": "small", "dir-33": "0"},
            {"loc": "3", "shape-3": "blob", "size-3": "small", "dir-3": "0"},
            {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "45"},
            {"loc": "3", "shape-3": "star", "size-3": "small"},
            {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "0", "shape-4": "star"},
            {"unfolding": "H9-F"},
        ]
        for fields in bad:
            assert running.request("POST", "/p/ann/answer", _post(item.id, **fields))[0] == 400, fields
        good = {"loc": "3", "shape-3": "star", "size-3": "small", "dir-3": "90", "unfolding": "H1-F"}
        assert running.request("POST", "/p/ann/answer", _post(item.id, **good))[0] == 303
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
    status, _, body = pfp_server.request("GET", path)
    assert status == 404
    assert b"outside the dataset" not in body and b"root:" not in body


def test_dataset_files_are_served(pfp_server: Running, pfp_data: Path):
    item = read_items(pfp_data)[0]
    page = pfp_server.request("GET", "/p/ann")[2].decode()
    path = item.inputs["images"]["composite"] if "composite" in item.inputs.get("images", {}) else None
    src = page.split('<img alt="', 1)[1].split('src="', 1)[1].split('"', 1)[0]
    status, headers, body = pfp_server.request("GET", src)
    assert status == 200 and headers["Content-Type"] == "image/png" and body.startswith(b"\x89PNG")
    if path is not None:
        assert body == (pfp_data / path).read_bytes()


def test_every_shown_value_is_escaped():
    evil = '<script>alert("x")</script>'
    prompt = Prompt(parts=(TextPart(evil), ImagePart(path='a" onerror="alert(1).png')), template_version="t")
    from foldbench.tasks.base import Item

    item = Item(id='x"><b>', task="t/t-v1", seed=0, engine_version="e", inputs={}, target={})
    page = item_page(
        item=item,
        prompt=prompt,
        form=AnswerForm("choice", (evil,)),
        participant="p",
        position=0,
        total=1,
        shown_ms=1,
        token=None,
    )
    assert "<script>alert" not in page and "<b>" not in page and 'onerror="' not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_participant_ids_are_checked(pfp_server: Running):
    assert pfp_server.request("GET", "/start?participant=%3Cb%3E")[0] == 400
    assert pfp_server.request("GET", "/p/%3Cb%3E")[0] == 404
    assert pfp_server.request("POST", "/p/a%20b/answer", "x=1")[0] == 404


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
        assert remote.request("GET", "/")[0] == 403
        assert remote.request("GET", "/p/ann?token=wrong")[0] == 403
        assert remote.request("POST", "/p/ann/answer", "item=x")[0] == 403
        status, _, page = remote.request("GET", f"/p/ann?token={token}")
        assert status == 200 and f"token={token}" in page.decode()  # links and the form carry it
    finally:
        remote.close()


def test_a_video_item_is_shown_with_controls(tmp_path: Path):
    data = tmp_path / "video"
    write_dataset("mentalblackboard/perception", data, n=1, seed=3, modalities=("video",), knobs={"size": 128})
    running = Running(_session(data, "mentalblackboard/perception", tmp_path / "runs.db", "video"))
    try:
        page = running.request("GET", "/p/ann")[2].decode()
        assert '<video controls preload="auto" src="/files/videos/' in page
        src = page.split("<video controls", 1)[1].split('src="', 1)[1].split('"', 1)[0]
        status, headers, body = running.request("GET", src)
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
