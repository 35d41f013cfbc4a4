"""The transport's reply reader (llhttp through httptools) against h11 as the reference: replies written by h11's
server side, cut into any socket reads, are read exactly as h11's client side reads them; and the reader's own
rules (the body cap, bytes after a reply, switched protocols, a reply cut short) hold."""

from __future__ import annotations

from dataclasses import dataclass

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.models._http import DroppedError, ReplyReader

FIELD_NAMES = ("X-Request-Id", "Retry-After", "Content-Type", "Server", "x-note", "Content-Encoding")
STATUSES = (200, 201, 204, 304, 400, 401, 404, 429, 500, 502, 503)
FIELD_VALUE = st.from_regex(r"([!-~]([ \t!-~]*[!-~])?)?", fullmatch=True)


@dataclass(frozen=True)
class Read:
    """What a reader made of a reply."""

    status: int
    headers: dict[str, str]
    body: bytes
    reusable: bool


@st.composite
def replies(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """The bytes h11's server side writes for a reply (interim replies first), and its body."""
    client_version = draw(st.sampled_from([b"1.1", b"1.0"]))
    server = h11.Connection(h11.SERVER)
    server.receive_data(
        b"POST /v1/chat/completions HTTP/" + client_version + b"\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
    )
    assert type(server.next_event()) is h11.Request and type(server.next_event()) is h11.EndOfMessage
    out = b""
    for status in draw(st.lists(st.sampled_from([100, 102, 103]), max_size=2)):
        out += server.send(h11.InformationalResponse(status_code=status, headers=[("X-Interim", "1")])) or b""
    status = draw(st.sampled_from(STATUSES))
    fields = draw(st.lists(st.tuples(st.sampled_from(FIELD_NAMES), FIELD_VALUE), max_size=5))
    if draw(st.booleans()):
        fields.append(("Connection", "close"))
    body = b"" if status in (204, 304) else draw(st.binary(max_size=2000))
    framing = draw(st.sampled_from(["length", "chunked", "h11's choice"]))
    if status not in (204, 304):
        if framing == "length":
            fields.append(("Content-Length", str(len(body))))
        elif framing == "chunked" and client_version == b"1.1":
            fields.append(("Transfer-Encoding", "chunked"))
    out += server.send(h11.Response(status_code=status, headers=fields)) or b""
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=4)))
    for start, stop in zip([0, *cuts], [*cuts, len(body)], strict=True):
        if stop > start:
            out += server.send(h11.Data(data=body[start:stop])) or b""
    trailers = [("X-Trailer", "t")] if draw(st.booleans()) and b"Transfer-Encoding: chunked" in out else []
    out += server.send(h11.EndOfMessage(headers=trailers)) or b""
    if draw(st.booleans()) and framing == "length":
        out = b"HTTP/1.0" + out.removeprefix(b"HTTP/1.1") if not out.startswith(b"HTTP/1.1 1") else out
    return out, body


def _pieces(raw: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(raw), *(cut % (len(raw) + 1) for cut in cuts)})
    return [raw[start:stop] for start, stop in zip(points, points[1:], strict=False)]


def _read_by_h11(pieces: list[bytes]) -> Read:
    client = h11.Connection(h11.CLIENT)
    client.send(
        h11.Request(method="POST", target="/v1/chat/completions", headers=[("Host", "x"), ("Content-Length", "0")])
    )
    client.send(h11.EndOfMessage())
    status, headers, body = 0, {}, b""
    for piece in [*pieces, b""]:  # b"": the connection closes
        client.receive_data(piece)
        while True:
            event = client.next_event()
            if event is h11.NEED_DATA or type(event) is h11.ConnectionClosed:
                break
            if type(event) is h11.Response:
                status = event.status_code
                headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in event.headers}
            elif type(event) is h11.Data:
                body += event.data
            elif type(event) is h11.EndOfMessage:
                reusable = client.our_state is h11.DONE and client.their_state is h11.DONE
                return Read(status, headers, body, reusable)
    raise AssertionError("h11 did not read a whole reply")


def _read_by_reader(pieces: list[bytes], max_body: int = 1 << 20) -> ReplyReader:
    reader = ReplyReader()
    reader.start(max_body)
    for piece in pieces:
        if reader.feed(piece):
            return reader
    reader.end()
    return reader


@settings(max_examples=300, deadline=None)
@given(reply=replies(), cuts=st.lists(st.integers(0, 10_000), max_size=6))
def test_replies_written_by_h11_are_read_as_h11_reads_them(reply: tuple[bytes, bytes], cuts: list[int]) -> None:
    raw, body = reply
    pieces = _pieces(raw, cuts)
    expected = _read_by_h11(pieces)
    reader = _read_by_reader(pieces)
    assert expected.body == body
    read = Read(reader.status, reader.headers, b"".join(reader.chunks), reader.reusable)
    assert read == expected
    assert reader.size == len(body)


@settings(max_examples=100, deadline=None)
@given(reply=replies(), cuts=st.lists(st.integers(0, 10_000), max_size=6), cap=st.integers(0, 2500))
def test_a_body_past_the_cap_stops_the_reading(reply: tuple[bytes, bytes], cuts: list[int], cap: int) -> None:
    raw, body = reply
    pieces = _pieces(raw, cuts)
    reader = ReplyReader()
    reader.start(cap)
    fed = 0
    for piece in pieces:
        fed += 1
        if reader.feed(piece):
            break
    else:
        reader.end()
    if len(body) <= cap:
        assert b"".join(reader.chunks) == body and reader.complete
        return
    assert cap < reader.size <= len(body) and reader.chunks == []  # nothing of it kept, the size seen reported
    earlier = ReplyReader()
    earlier.start(cap)
    for piece in pieces[: fed - 1]:
        assert not earlier.feed(piece)
    assert earlier.size <= cap  # it stopped at the first read that passed the cap


def test_bytes_after_a_whole_reply_leave_it_whole_but_the_connection_unused() -> None:
    for extra in (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz", b"garbage\r\n\r\n"):
        reader = _read_by_reader([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + extra])
        assert (reader.status, b"".join(reader.chunks), reader.complete) == (200, b"ok", True)
        assert not reader.reusable


def test_a_kept_alive_reader_reads_the_next_reply_of_its_connection() -> None:
    reader = _read_by_reader([b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-A:  1 \t\r\n\r\na"])
    assert reader.reusable and reader.headers["x-a"] == "1"  # the value without the white space around it, as h11
    reader.start(100)
    assert reader.feed(b"HTTP/1.1 503 No\r\nContent-Length: 2\r\n\r\nbb")
    assert (reader.status, reader.headers, b"".join(reader.chunks)) == (503, {"content-length": "2"}, b"bb")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n", "switched protocols"),
        (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched protocols"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", "closed the connection"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nabc", "closed the connection"),  # h11 refuses it too
        (b"HTTP/1.1 100 Continue\r\n\r\n", "closed the connection"),  # an interim reply alone
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "well-formed"),
    ],
)
def test_what_is_not_a_whole_reply_is_a_dropped_connection(raw: bytes, message: str) -> None:
    with pytest.raises(DroppedError, match=message):
        _read_by_reader([raw])
