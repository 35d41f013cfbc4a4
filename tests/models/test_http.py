"""The adapter's transport against a raw scripted server: every way a reply can be framed (length, chunks, end of
connection, compressed), kept-alive connections reused, the size cap, and each broken exchange typed as the adapter
needs (cannot connect, dropped or malformed, undecodable)."""

from __future__ import annotations

import asyncio
import gzip
import zlib
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.models._http import ConnectError, ConnectionPool, DroppedError, PayloadError, Reply

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, dict[str, str], bytes]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in head[1:] if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return head[0], headers, body


def _serve(replies: list[bytes], *, connections: list[int] | None = None) -> Handler:
    """A handler that reads requests on a connection and writes the next raw reply for each; a reply ending in
    ``b"<close>"`` is written without that mark and the connection closed."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if connections is not None:
            connections.append(1)
        try:
            while replies:
                await _read_request(reader)
                raw = replies.pop(0)
                close = raw.endswith(b"<close>")
                writer.write(raw.removesuffix(b"<close>"))
                await writer.drain()
                if close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    return handle


async def _exchange(handler: Handler, count: int = 1, max_body: int = 1 << 20) -> list[Reply | Exception]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    pool = ConnectionPool(f"http://127.0.0.1:{port}/v1/chat/completions", {"Accept": "application/json"})
    results: list[Reply | Exception] = []
    try:
        for _ in range(count):
            try:
                results.append(await pool.post("/v1/chat/completions", b'{"q": 1}', max_body))
            except Exception as error:
                results.append(error)
    finally:
        await pool.close()
        server.close()
        await server.wait_closed()
    return results


def _run(handler: Handler, count: int = 1, max_body: int = 1 << 20) -> list[Reply | Exception]:
    return asyncio.run(_exchange(handler, count, max_body))


def _chunked(body: bytes, sizes: list[int]) -> bytes:
    out, at = b"", 0
    for size in sizes:
        piece = body[at : at + size]
        if piece:
            out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        at += size
    if at < len(body):
        out += f"{len(body) - at:x}\r\n".encode() + body[at:] + b"\r\n"
    return out + b"0\r\n\r\n"


def test_the_request_carries_host_length_and_the_given_headers() -> None:
    seen: list[tuple[str, dict[str, str], bytes]] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await _read_request(reader))
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()

    (reply,) = _run(handle)
    assert isinstance(reply, Reply) and (reply.status, reply.body) == (200, b"ok")
    line, headers, body = seen[0]
    assert line == "POST /v1/chat/completions HTTP/1.1" and body == b'{"q": 1}'
    assert headers["content-length"] == "8" and headers["accept"] == "application/json"
    assert headers["host"].startswith("127.0.0.1:")


@settings(max_examples=25, deadline=None)
@given(body=st.binary(max_size=3000), sizes=st.lists(st.integers(1, 700), max_size=8))
def test_a_chunked_reply_is_joined_whatever_the_chunk_sizes(body: bytes, sizes: list[int]) -> None:
    raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Note: a\r\n\r\n" + _chunked(body, sizes)
    (reply,) = _run(_serve([raw]))
    assert isinstance(reply, Reply) and reply.body == body and reply.headers["x-note"] == "a"


def test_kept_alive_connections_are_reused_and_a_closing_server_gets_a_new_one() -> None:
    connections: list[int] = []
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n"
    replies = [ok + b"a", ok + b"b", b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nc", ok + b"d"]
    results = _run(_serve(replies, connections=connections), count=4)
    assert [r.body for r in results if isinstance(r, Reply)] == [b"a", b"b", b"c", b"d"]
    assert len(connections) == 2  # the fourth request opened a second connection after "Connection: close"


def test_a_reply_without_length_reads_to_the_end_of_the_connection() -> None:
    (reply,) = _run(_serve([b"HTTP/1.0 200 OK\r\n\r\nthe whole rest<close>"]))
    assert isinstance(reply, Reply) and reply.body == b"the whole rest"


def test_an_interim_reply_is_skipped() -> None:
    (reply,) = _run(_serve([b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nyes"]))
    assert isinstance(reply, Reply) and (reply.status, reply.body) == (201, b"yes")


@pytest.mark.parametrize(
    ("encoding", "pack"),
    [("gzip", gzip.compress), ("deflate", zlib.compress), ("deflate", lambda b: zlib.compress(b, wbits=-15))],
)
def test_compressed_replies_are_decompressed(encoding: str, pack: Callable[[bytes], bytes]) -> None:
    text = b'{"choices": []}' * 50
    packed = pack(text)
    raw = f"HTTP/1.1 200 OK\r\nContent-Encoding: {encoding}\r\nContent-Length: {len(packed)}\r\n\r\n".encode() + packed
    (reply,) = _run(_serve([raw]))
    assert isinstance(reply, Reply) and reply.body == text


@pytest.mark.parametrize("framing", ["length", "chunked", "compressed", "to the end"])
def test_a_body_over_the_cap_is_not_read(framing: str) -> None:
    body = b" " * 5000
    if framing == "length":
        raw = b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + body
    elif framing == "chunked":
        raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + _chunked(body, [1000] * 5)
    elif framing == "compressed":
        packed = gzip.compress(body)
        raw = f"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {len(packed)}\r\n\r\n".encode() + packed
    else:
        raw = b"HTTP/1.1 200 OK\r\n\r\n" + body + b"<close>"
    (reply,) = _run(_serve([raw]), max_body=1000)
    assert isinstance(reply, Reply) and reply.body == b"" and reply.oversized is not None and reply.oversized > 1000


@pytest.mark.parametrize(
    "raw",
    [
        b"<close>",  # closed without a reply
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort<close>",  # closed inside the body
        b"HTTP/1.1 200 OK\r\nContent-Le<close>",  # closed inside the headers
        b"SSH-2.0-OpenSSH\r\n\r\n<close>",  # not HTTP
        b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n<close>",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n<close>",  # a bad chunk size
    ],
)
def test_a_broken_exchange_is_a_dropped_connection(raw: bytes) -> None:
    (result,) = _run(_serve([raw]))
    assert isinstance(result, DroppedError)


@pytest.mark.parametrize(
    "raw",
    [
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nnope",
        b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 4\r\n\r\nnope",
    ],
)
def test_an_undecodable_body_is_a_payload_error(raw: bytes) -> None:
    (result,) = _run(_serve([raw + b"<close>"]))
    assert isinstance(result, PayloadError)


def test_nothing_listening_is_a_connect_error() -> None:
    async def go() -> Exception | Reply:
        server = await asyncio.start_server(_serve([]), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        pool = ConnectionPool(f"http://127.0.0.1:{port}/", {})
        try:
            return await pool.post("/", b"", 100)
        except Exception as error:
            return error

    assert isinstance(asyncio.run(go()), ConnectError)


@pytest.mark.parametrize("url", ["ftp://host/x", "http:///nohost", "not a url"])
def test_a_pool_needs_an_http_url_with_a_host(url: str) -> None:
    with pytest.raises(ValueError, match="http"):
        ConnectionPool(url, {})


def test_a_numeric_address_is_used_without_a_look_up(monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_look_up(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a numeric address was looked up (in a thread of the event loop)")

    monkeypatch.setattr(asyncio.BaseEventLoop, "getaddrinfo", no_look_up)
    (reply,) = _run(_serve([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"]))
    assert isinstance(reply, Reply) and reply.body == b"ok"


def test_a_host_name_is_looked_up_and_its_addresses_tried_in_turn() -> None:
    async def go() -> Reply | Exception:
        server = await asyncio.start_server(_serve([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"]), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        pool = ConnectionPool(f"http://localhost:{port}/", {})  # ::1 may come first, where nothing listens
        try:
            return await pool.post("/", b"{}", 100)
        except Exception as error:
            return error
        finally:
            await pool.close()
            server.close()
            await server.wait_closed()

    reply = asyncio.run(go())
    assert isinstance(reply, Reply) and reply.body == b"ok", reply


def test_requests_of_one_length_share_a_checked_event_and_each_carries_its_own_body() -> None:
    seen: list[tuple[str, dict[str, str], bytes]] = []
    bodies = [b'{"q": 1}', b'{"q": 2}', b'{"q": 10}', b'{"q": 3}']

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in bodies:
            seen.append(await _read_request(reader))
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            await writer.drain()
        writer.close()

    async def go() -> list[Reply]:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        pool = ConnectionPool(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/", {})
        try:
            return [await pool.post("/v1/chat/completions", body, 100) for body in bodies]
        finally:
            await pool.close()
            server.close()
            await server.wait_closed()

    replies = asyncio.run(go())
    assert [r.body for r in replies] == [b"ok"] * 4
    assert [(headers["content-length"], body) for _, headers, body in seen] == [(str(len(b)), b) for b in bodies]
    requests = ConnectionPool("http://127.0.0.1:1/", {})
    assert requests._request_head("/a", 8) is requests._request_head("/a", 8)  # made and checked once
    assert requests._request_head("/a", 9) != requests._request_head("/a", 8)


@pytest.mark.parametrize("name", ["Content-Length", "transfer-encoding"])
def test_a_pool_sets_the_body_length_itself(name: str) -> None:
    with pytest.raises(ValueError, match="body's length"):
        ConnectionPool("http://127.0.0.1:1/", {name: "5"})
