"""The transport's HTTP/1.1 framing: replies read as h11 (a reference implementation of the protocol) reads them,
whatever their framing and however they arrive in pieces; what is refused; the request head and its checks."""

from __future__ import annotations

import asyncio

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.models._http1 import MalformedReply, RawReply, read_reply, request_head

_NAMES = st.sampled_from(["Content-Type", "X-Note", "Server", "Date", "ETag", "x-request-id", "Vary"])
_VALUES = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=20).map(lambda v: v.strip())
_FIELDS = st.lists(st.tuples(_NAMES, _VALUES), max_size=5)


def _read(raw: bytes, pieces: list[int], max_body: int = 1 << 20) -> RawReply | MalformedReply:
    """``read_reply`` over ``raw`` arriving in pieces of the given sizes, then the end of the connection."""

    async def go() -> RawReply | MalformedReply:
        reader = asyncio.StreamReader(limit=1 << 16)
        at = 0
        for size in pieces:
            reader.feed_data(raw[at : at + size])
            at += size
        reader.feed_data(raw[at:])
        reader.feed_eof()
        try:
            return await read_reply(reader, max_body)
        except MalformedReply as error:
            return error

    return asyncio.run(go())


def _h11_read(raw: bytes) -> tuple[int, dict[str, str], bytes, bool] | None:
    """What h11 reads from ``raw`` as the reply to a POST: status, fields, body, keep-alive (None: refused)."""
    client = h11.Connection(h11.CLIENT)
    client.send(h11.Request(method="POST", target="/", headers=[("Host", "h"), ("Content-Length", "0")]))
    client.send(h11.EndOfMessage())
    client.receive_data(raw)
    client.receive_data(b"")
    status, headers, body = 0, {}, b""
    try:
        while True:
            event = client.next_event()
            if type(event) is h11.Response:
                status = event.status_code
                headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in event.headers}
            elif type(event) is h11.Data:
                body += event.data
            elif type(event) is h11.EndOfMessage:
                return status, headers, body, client.their_state is h11.DONE and client.our_state is h11.DONE
            elif event is h11.NEED_DATA or type(event) is h11.ConnectionClosed or event is h11.PAUSED:
                return None
    except h11.ProtocolError:
        return None


def _chunked(body: bytes, sizes: list[int], extension: bytes) -> bytes:
    out, at = b"", 0
    for size in [*sizes, len(body)]:
        piece = body[at : at + size]
        if piece:
            out += b"%x%s\r\n" % (len(piece), extension) + piece + b"\r\n"
        at += len(piece)
    return out + b"0\r\n\r\n"


@settings(max_examples=80, deadline=None)
@given(
    version=st.sampled_from([b"1.1", b"1.0"]),
    status=st.sampled_from([200, 201, 204, 400, 429, 500, 503]),
    fields=_FIELDS,
    body=st.binary(max_size=600),
    framing=st.sampled_from(["length", "chunked", "to the end"]),
    sizes=st.lists(st.integers(1, 200), max_size=4),
    extension=st.sampled_from([b"", b";a=b", b" ;x"]),
    close=st.booleans(),
    interim=st.booleans(),
    pieces=st.lists(st.integers(0, 300), max_size=6),
)
def test_a_reply_is_read_as_h11_reads_it(
    version: bytes,
    status: int,
    fields: list[tuple[str, str]],
    body: bytes,
    framing: str,
    sizes: list[int],
    extension: bytes,
    close: bool,
    interim: bool,
    pieces: list[int],
) -> None:
    head = [b"HTTP/%s %d Reason here" % (version, status)]
    head += [b"%s: %s" % (name.encode(), value.encode()) for name, value in fields]
    if close:
        head.append(b"Connection: close")
    to_the_end = False
    if status == 204:
        payload = b""
    elif framing == "length":
        head.append(b"Content-Length: %d" % len(body))
        payload = body
    elif framing == "chunked" and version == b"1.1":
        head.append(b"Transfer-Encoding: chunked")
        payload = _chunked(body, sizes, extension)
    else:
        payload, to_the_end = body, True
    raw = (b"HTTP/1.1 100 Continue\r\n\r\n" if interim else b"") + b"\r\n".join(head) + b"\r\n\r\n" + payload
    expected = _h11_read(raw)
    got = _read(raw, pieces)
    assert expected is not None
    assert isinstance(got, RawReply)
    status_read, headers, body_read, keep_alive = expected
    assert (got.status, got.headers, b"".join(got.pieces)) == (status_read, headers, body_read)
    assert got.reusable is (keep_alive and not to_the_end)  # a body read to the end of the connection ends it
    assert got.size == len(expected[2])


@pytest.mark.parametrize(
    "raw",
    [
        b"",  # closed at once
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        b"HTTP/1.1 200 OK\r\nContent-Le",
        b"SSH-2.0-OpenSSH\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nabc",
        b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nabc",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n",  # longer than its size
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",  # no last chunk
        b"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nX-Note: a\x00b\r\n\r\n",
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\n\r\n",
    ],
)
def test_what_is_not_a_well_formed_reply_is_refused(raw: bytes) -> None:
    assert isinstance(_read(raw, []), MalformedReply)
    assert _h11_read(raw) is None or raw.startswith(b"HTTP/1.1 101")  # h11 refuses them too (101: it pauses)


def test_a_head_over_the_limit_is_refused() -> None:
    raw = b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n"
    assert isinstance(_read(raw, []), MalformedReply)


def test_a_folded_field_continues_the_one_before() -> None:
    got = _read(b"HTTP/1.1 200 OK\r\nX-Note: a\r\n  b c \r\nContent-Length: 0\r\n\r\n", [])
    assert isinstance(got, RawReply) and got.headers["x-note"] == "a b c"


@pytest.mark.parametrize("framing", ["length", "chunked", "to the end"])
def test_reading_stops_past_the_cap(framing: str) -> None:
    body = b"x" * 5000
    if framing == "length":
        raw = b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + body
    elif framing == "chunked":
        raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + _chunked(body, [1000] * 5, b"")
    else:
        raw = b"HTTP/1.1 200 OK\r\n\r\n" + body
    got = _read(raw, [100, 1000], max_body=1000)
    assert isinstance(got, RawReply) and got.pieces == [] and got.size > 1000 and not got.reusable


def test_the_request_head_puts_host_first_and_keeps_the_other_fields_in_order() -> None:
    head = request_head("/v1/chat/completions?x=1", [("Accept", "a/b"), ("Host", "h:8"), ("Authorization", "B k")])
    assert head == b"POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: h:8\r\nAccept: a/b\r\nAuthorization: B k\r\n"
    with_body = head + b"Content-Length: 2\r\n\r\n{}"
    server = h11.Connection(h11.SERVER)
    server.receive_data(with_body)
    request = server.next_event()
    assert type(request) is h11.Request and request.target == b"/v1/chat/completions?x=1"
    assert server.next_event() == h11.Data(data=b"{}")


@pytest.mark.parametrize(
    ("target", "headers"),
    [
        ("/a b", []),
        ("/a", [("Authorization", "Bearer key\r\nX-Injected: 1")]),
        ("/a", [("Authorization", "Bearer key\n")]),
        ("/a", [("Bad Name", "x")]),
        ("/a", [("X", " padded")]),
    ],
)
def test_an_illegal_target_or_field_is_not_sent(target: str, headers: list[tuple[str, str]]) -> None:
    with pytest.raises(ValueError, match="illegal"):
        request_head(target, headers)
