"""The adapter's transport: ``POST`` a body to one server and read the reply, with the failures typed as the
adapter needs them.

No HTTP is framed or parsed here: the request head (``POST``, target, fields, ``Content-Length``) is written by
h11, once per target and body length, and the body follows it as is; replies are parsed by llhttp (Node's HTTP
parser, through ``httptools``): status, fields, ``Content-Length``, chunked or to-the-end bodies, interim replies
skipped, keep-alive as the reply allows. This module keeps the connections: kept-alive connections to one server (no
limit of their own: the harness bounds the requests in flight), the server's addresses looked up once for five
minutes, TLS through the standard library with the system's certificates (its context made at the first
``https://`` connection). It adds what the adapter asks of it: a cap on the size of a reply's body (read as it
arrives, so a huge body is never held, and decompressed here, ``gzip`` or ``deflate``, within the same cap), and
failures typed by what the caller does about them: :class:`ConnectError` (nothing listens, unknown host, TLS
refused: no wait fixes it), :class:`DroppedError` (the connection broke or the reply is not well-formed HTTP: worth
another attempt) and :class:`PayloadError` (the reply's body cannot be decoded).

Against a fast local server the transport is most of a text eval's run time, so what runs per request is C where a
library offers it: llhttp parses a reply in one call per socket read, and the request head is made once
(``bench/bench_eval_process.py``).
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import h11
import httptools

if TYPE_CHECKING:
    import ssl

__all__ = ["ConnectError", "ConnectionPool", "DroppedError", "HttpError", "PayloadError", "Reply", "ReplyReader"]

DECODED_ENCODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
"""The content encodings a reply may use; any other is a :class:`PayloadError`."""

ADDRESS_TTL_S = 300.0
"""How long the server's looked-up addresses are used before they are looked up again."""

_READ_SIZE = 1 << 16
_HEADS_KEPT = 4096
_DEFAULT_PORTS = {"http": 80, "https": 443}
_FRAMING_FIELDS = frozenset({"content-length", "transfer-encoding"})
_OWS = b" \t"


class HttpError(Exception):
    """An exchange with the server failed."""


class ConnectError(HttpError):
    """No connection could be opened (refused, unknown host, TLS handshake refused)."""


class DroppedError(HttpError):
    """The connection broke, or the server sent something that is not a well-formed HTTP reply."""


class PayloadError(HttpError):
    """The reply's body cannot be decoded (an unknown or broken content encoding)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """An HTTP reply: status, headers (names in lower case) and the body, or ``oversized`` with the size seen
    once the body passed the caller's cap (then ``body`` is empty and the rest was not read)."""

    status: int
    headers: dict[str, str]
    body: bytes
    oversized: int | None = None


class ReplyReader:
    """The replies of one connection, parsed by llhttp as their bytes arrive.

    Call :meth:`start` before each reply, then :meth:`feed` each socket read until it returns true, or :meth:`end`
    when the connection closes first. Interim replies (``1xx``) are skipped; the final reply's ``status``,
    ``headers`` (names in lower case, the last of a repeated name kept, trailers left out), body ``chunks`` and
    ``size`` remain, and ``reusable`` says whether the connection can take another request.
    """

    __slots__ = (
        "parser", "status", "headers", "chunks", "size", "max_body", "complete", "reusable", "_in_head", "_final",
        "_switched",
    )  # fmt: skip

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.start(0)

    def start(self, max_body: int) -> None:
        """Expect a new reply, keeping at most ``max_body`` bytes of its body."""
        self.status = 0
        self.headers: dict[str, str] = {}
        self.chunks: list[bytes] = []
        self.size = 0
        self.max_body = max_body
        self.complete = False
        self.reusable = False
        self._in_head = False
        self._final = False
        self._switched = False

    def feed(self, data: bytes) -> bool:
        """Parse the next bytes of the connection; true once the reply is complete or its body passed the cap.

        Raises:
            DroppedError: the bytes are not a well-formed HTTP reply, or the server switched protocols.
        """
        try:
            self.parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade) as error:
            if self.complete:  # the bytes after a whole reply: it stands, the connection is not reused
                self.reusable = False
                return True
            if self._switched:
                raise DroppedError("the server switched protocols") from None
            raise DroppedError(f"not a well-formed HTTP reply: {_reason(error)}") from None
        return self.complete or self.size > self.max_body

    def end(self) -> None:
        """The connection closed: that completes a final reply whose body runs to the end of the connection (one
        that names neither a length nor a transfer coding, the one framing llhttp's binding cannot end itself).

        Raises:
            DroppedError: the reply was not complete.
        """
        if self._final and not self._in_head and not _FRAMING_FIELDS.intersection(self.headers):
            self.complete = True
            self.reusable = False
            return
        raise DroppedError("the server closed the connection before its reply was complete")

    # llhttp's callbacks

    def on_message_begin(self) -> None:
        if self.complete:  # more bytes after the reply: never answer a later request with them
            self.reusable = False
            return
        self.headers = {}
        self._in_head = True

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._in_head and not self.complete:
            self.headers[name.decode("latin-1").lower()] = value.rstrip(_OWS).decode("latin-1")

    def on_headers_complete(self) -> None:
        if self.complete:
            return
        self._in_head = False
        self.status = self.parser.get_status_code()
        self._final = self.status >= 200
        self._switched = self.status == 101

    def on_body(self, data: bytes) -> None:
        if self.complete:
            return
        self.size += len(data)
        if self.size <= self.max_body:
            self.chunks.append(data)
        else:
            self.chunks.clear()

    def on_message_complete(self) -> None:
        if self._final and not self.complete:
            self.complete = True
            self.reusable = self.parser.should_keep_alive()


class _Connection:
    """One open connection and the reader of its replies."""

    __slots__ = ("reader", "writer", "replies")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.replies = ReplyReader()

    def usable(self) -> bool:
        """Whether a kept-alive connection can take another request (the server has not closed it meanwhile)."""
        return not (self.reader.at_eof() or self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


class ConnectionPool:
    """Kept-alive connections to the server of ``url``, for the event loop that uses it.

    Args:
        url: any URL on the server (its scheme, host and port are used).
        headers: sent with every request (``Host`` and ``Accept-Encoding: gzip, deflate`` are added unless given;
            ``Content-Length`` is always the body's).

    Raises:
        ValueError: ``url`` is not an ``http://`` or ``https://`` URL with a host, or ``headers`` name a body
            length or transfer coding.
    """

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        try:
            port = parts.port or _DEFAULT_PORTS[parts.scheme]
        except ValueError as error:
            raise ValueError(f"not an http:// or https:// URL with a valid port: {url!r} ({error})") from None
        given = {name.lower() for name in headers}
        if given & _FRAMING_FIELDS:
            raise ValueError(
                f"the transport sets the body's length; headers may not name {sorted(given & _FRAMING_FIELDS)}"
            )
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self._host = parts.hostname
        self._port = port
        self._tls = parts.scheme == "https"
        names: list[tuple[str, str]] = []
        if "host" not in given:
            host = f"[{self._host}]" if ":" in self._host else self._host
            names.append(("Host", host if parts.port is None else f"{host}:{port}"))
        names.extend(headers.items())
        if "accept-encoding" not in given:
            names.append(("Accept-Encoding", "gzip, deflate"))
        self._headers = [(name.encode("ascii"), value.encode("latin-1")) for name, value in names]
        self._reuse = not any(n.lower() == "connection" and "close" in v.lower() for n, v in headers.items())
        self._heads: dict[tuple[str, int], bytes] = {}  # written (and checked) by h11 once per target and length
        self._idle: list[_Connection] = []
        self._addresses: list[tuple[Any, ...]] = []
        self._looked_up_at = 0.0
        self.closed = False

    async def post(self, path: str, body: bytes, max_body: int) -> Reply:
        """``POST path`` with ``body`` and read the reply, its body capped at ``max_body`` decoded bytes.

        Raises:
            ConnectError, DroppedError, PayloadError: see the module docstring.
        """
        if self.closed:
            raise DroppedError("the connection pool is closed")
        connection = self._kept_alive() or await self._open()
        try:
            replies = await self._exchange(connection, path, body, max_body)
        except BaseException:  # a failure, a timeout or a cancellation: the connection is in an unknown state
            connection.close()
            raise
        status, headers, size = replies.status, replies.headers, replies.size
        if size > max_body:
            connection.close()
            return Reply(status, headers, b"", oversized=size)
        chunks = replies.chunks
        if replies.reusable and self._reuse and not self.closed:
            self._idle.append(connection)
        else:
            connection.close()
        decoded = _decoded(b"".join(chunks), headers.get("content-encoding", ""), max_body)
        if len(decoded) > max_body:
            return Reply(status, headers, b"", oversized=len(decoded))
        return Reply(status, headers, decoded)

    async def _exchange(self, connection: _Connection, path: str, body: bytes, max_body: int) -> ReplyReader:
        """Send the request and read the reply (complete, or its body past ``max_body`` and the rest not read)."""
        try:
            head = self._request_head(path, len(body))
        except h11.ProtocolError as error:
            raise DroppedError(f"not a valid HTTP request: {_reason(error)}") from None
        replies = connection.replies
        replies.start(max_body)
        try:
            connection.writer.write(head + body)
            await connection.writer.drain()
            reader = connection.reader
            while True:
                data = await reader.read(_READ_SIZE)
                if not data:
                    replies.end()
                    return replies
                if replies.feed(data):
                    return replies
        except OSError as error:  # reset, broken pipe
            raise DroppedError(f"{type(error).__name__}: {_reason(error)}") from None

    def _request_head(self, path: str, length: int) -> bytes:
        """The bytes h11 writes before a body of ``length`` bytes in ``POST path``: made once for a target and
        length and reused (h11 checks the fields once instead of per request; prompts of one task take a few hundred
        lengths, and at most :data:`_HEADS_KEPT` are kept)."""
        head = self._heads.get((path, length))
        if head is None:
            if len(self._heads) >= _HEADS_KEPT:
                self._heads.clear()
            fields = [*self._headers, (b"Content-Length", b"%d" % length)]
            head = h11.Connection(h11.CLIENT).send(h11.Request(method="POST", target=path, headers=fields)) or b""
            self._heads[path, length] = head
        return head

    def _kept_alive(self) -> _Connection | None:
        """An idle connection the server has not closed, if there is one (the others are closed)."""
        while self._idle:
            connection = self._idle.pop()
            if connection.usable():
                return connection
            connection.close()
        return None

    async def _open(self) -> _Connection:
        """A new connection to the first of the server's addresses that accepts one."""
        loop = asyncio.get_running_loop()
        context = _tls_context() if self._tls else None
        problems: list[str] = []
        for family, kind, proto, address in await self._lookup(loop):
            sock = socket.socket(family, kind, proto)
            try:
                sock.setblocking(False)
                await loop.sock_connect(sock, address)
                reader, writer = await asyncio.open_connection(
                    sock=sock, ssl=context, server_hostname=self._host if context is not None else None,
                    limit=_READ_SIZE,
                )  # fmt: skip
            except OSError as error:  # refused, unreachable, TLS refused (ssl.SSLError is an OSError)
                sock.close()
                problems.append(_reason(error))
                continue
            except BaseException:
                sock.close()
                raise
            return _Connection(reader, writer)
        raise ConnectError(f"cannot connect to {self._host}:{self._port}: {'; '.join(problems) or 'no address'}")

    async def _lookup(self, loop: asyncio.AbstractEventLoop) -> list[tuple[Any, ...]]:
        """The server's addresses: ``(family, type, proto, sockaddr)``, looked up at most every
        :data:`ADDRESS_TTL_S` seconds."""
        now = time.monotonic()
        if not self._addresses or now - self._looked_up_at > ADDRESS_TTL_S:
            try:  # an address written as numbers needs no lookup (and no thread to wait on one)
                found = socket.getaddrinfo(self._host, self._port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
            except OSError:
                try:
                    found = await loop.getaddrinfo(self._host, self._port, type=socket.SOCK_STREAM)
                except OSError as error:  # unknown host, no network
                    raise ConnectError(f"cannot look up {self._host}: {_reason(error)}") from None
            self._addresses = [(family, kind, proto, address) for family, kind, proto, _, address in found]
            self._looked_up_at = now
        return self._addresses

    async def close(self) -> None:
        """Close the connections; the pool takes no more requests."""
        self.closed = True
        idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
        for connection in idle:
            try:
                await connection.writer.wait_closed()
            except OSError:
                pass


@cache
def _tls_context() -> ssl.SSLContext:
    """The verifying TLS context of every ``https://`` pool, made once (loading the system's certificates)."""
    import ssl

    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


def _reason(error: Any) -> str:
    return str(error) or type(error).__name__


def _decoded(body: bytes, encoding: str, max_body: int) -> bytes:
    """``body`` decompressed (at most ``max_body + 1`` bytes of it, so a small bomb cannot fill the memory)."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding not in DECODED_ENCODINGS:
        raise PayloadError(f"an unsupported content encoding: {encoding[:40]!r}")
    import zlib

    if encoding != "deflate":
        window = 16 + zlib.MAX_WBITS
    elif body[:1] and body[0] & 0x0F == 8:
        window = zlib.MAX_WBITS  # zlib-wrapped, as the standard says
    else:
        window = -zlib.MAX_WBITS  # raw deflate, as some servers send it
    try:
        return zlib.decompressobj(window).decompress(body, max_body + 1)
    except zlib.error as error:
        raise PayloadError(f"the {encoding} body cannot be decompressed: {error}") from None
