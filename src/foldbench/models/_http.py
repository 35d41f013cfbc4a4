"""The adapter's transport: ``POST`` a body to one server and read the reply, with the failures typed as the
adapter needs them.

The HTTP/1.1 protocol is h11's (request framing, reply parsing: ``Content-Length``, chunks or the end of the
connection, interim replies, keep-alive rules); this module keeps the connections: kept-alive connections to one
server (no limit of their own: the harness bounds the requests in flight), the server's addresses looked up once
for five minutes, TLS through the standard library with the system's certificates (its context made at the first
``https://`` connection). It adds what the adapter asks of it: a cap on the size of a reply's body (read as it
arrives, so a huge body is never held, and decompressed here, ``gzip`` or ``deflate``, within the same cap), and
failures typed by what the caller does about them: :class:`ConnectError` (nothing listens, unknown host, TLS
refused: no wait fixes it), :class:`DroppedError` (the connection broke or the reply is not well-formed HTTP: worth
another attempt) and :class:`PayloadError` (the reply's body cannot be decoded).

h11 is a small pure-Python library: importing it and sending a request through it cost a fraction of what a
full client library does (``bench/bench_eval_process.py``), which is most of a text eval's transport time against
a fast local server.
"""

from __future__ import annotations

import asyncio
import socket
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import h11

if TYPE_CHECKING:
    import ssl

__all__ = ["ConnectError", "ConnectionPool", "DroppedError", "HttpError", "PayloadError", "Reply"]

DECODED_ENCODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
"""The content encodings a reply may use; any other is a :class:`PayloadError`."""

ADDRESS_TTL_S = 300.0
"""How long the server's looked-up addresses are used before they are looked up again."""

_READ_SIZE = 1 << 16
_REQUESTS_KEPT = 4096
_END = h11.EndOfMessage()
_DEFAULT_PORTS = {"http": 80, "https": 443}


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


class _Connection:
    """One open connection and its h11 state."""

    __slots__ = ("reader", "writer", "protocol")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.protocol = h11.Connection(h11.CLIENT)

    def usable(self) -> bool:
        """Whether a kept-alive connection can take another request (the server has not closed it meanwhile)."""
        return not (self.reader.at_eof() or self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


class ConnectionPool:
    """Kept-alive connections to the server of ``url``, for the event loop that uses it.

    Args:
        url: any URL on the server (its scheme, host and port are used).
        headers: sent with every request (``Host``, ``Content-Length`` and ``Accept-Encoding: gzip, deflate``
            are added unless given).

    Raises:
        ValueError: ``url`` is not an ``http://`` or ``https://`` URL with a host.
    """

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        try:
            port = parts.port or _DEFAULT_PORTS[parts.scheme]
        except ValueError as error:
            raise ValueError(f"not an http:// or https:// URL with a valid port: {url!r} ({error})") from None
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self._host = parts.hostname
        self._port = port
        self._tls = parts.scheme == "https"
        given = {name.lower() for name in headers}
        names: list[tuple[str, str]] = []
        if "host" not in given:
            host = f"[{self._host}]" if ":" in self._host else self._host
            names.append(("Host", host if parts.port is None else f"{host}:{port}"))
        names.extend(headers.items())
        if "accept-encoding" not in given:
            names.append(("Accept-Encoding", "gzip, deflate"))
        self._headers = [(name.encode("ascii"), value.encode("latin-1")) for name, value in names]
        self._length_given = "content-length" in given
        self._requests: dict[tuple[str, int], h11.Request] = {}  # made (and checked by h11) once per target and length
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
            status, headers, chunks, size = await self._exchange(connection, path, body, max_body)
        except BaseException:  # a failure, a timeout or a cancellation: the connection is in an unknown state
            connection.close()
            raise
        if size > max_body:
            connection.close()
            return Reply(status, headers, b"", oversized=size)
        protocol = connection.protocol
        if protocol.our_state is h11.DONE and protocol.their_state is h11.DONE and not self.closed:
            protocol.start_next_cycle()
            self._idle.append(connection)
        else:
            connection.close()
        decoded = _decoded(b"".join(chunks), headers.get("content-encoding", ""), max_body)
        if len(decoded) > max_body:
            return Reply(status, headers, b"", oversized=len(decoded))
        return Reply(status, headers, decoded)

    async def _exchange(
        self, connection: _Connection, path: str, body: bytes, max_body: int
    ) -> tuple[int, dict[str, str], list[bytes], int]:
        """Send the request and read the reply: status, headers, body chunks and their total size (over
        ``max_body`` means the rest was not read)."""
        protocol = connection.protocol
        try:
            request = protocol.send(self._request(path, len(body)))
            data = protocol.send(h11.Data(data=body)) if body else b""
            end = protocol.send(_END)
            connection.writer.write(b"".join((request or b"", data or b"", end or b"")))
            await connection.writer.drain()
            status = 0
            reply_headers: dict[str, str] = {}
            chunks: list[bytes] = []
            size = 0
            reader = connection.reader
            while True:
                event = protocol.next_event()
                if event is h11.NEED_DATA:
                    protocol.receive_data(await reader.read(_READ_SIZE))
                elif type(event) is h11.Data:
                    size += len(event.data)
                    if size > max_body:
                        return status, reply_headers, [], size
                    chunks.append(event.data)
                elif type(event) is h11.Response:
                    status = event.status_code
                    reply_headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in event.headers}
                elif type(event) is h11.EndOfMessage:
                    return status, reply_headers, chunks, size
                elif type(event) is h11.ConnectionClosed:
                    raise DroppedError("the server closed the connection before its reply was complete")
                elif event is h11.PAUSED:  # a protocol switch nobody asked for
                    raise DroppedError("the server switched protocols")
                # an interim reply (100 Continue, 103 Early Hints) is skipped; the final one follows
        except h11.ProtocolError as error:
            raise DroppedError(f"not a well-formed HTTP reply: {_reason(error)}") from None
        except OSError as error:  # reset, broken pipe
            raise DroppedError(f"{type(error).__name__}: {_reason(error)}") from None

    def _request(self, path: str, length: int) -> h11.Request:
        """The request event of ``POST path`` with a body of ``length`` bytes: events are immutable, so one made for
        a target and length serves every request like it (h11 checks its fields once instead of per request;
        prompts of one task take a few hundred lengths, and at most :data:`_REQUESTS_KEPT` are kept)."""
        request = self._requests.get((path, length))
        if request is None:
            if len(self._requests) >= _REQUESTS_KEPT:
                self._requests.clear()
            length_header = [] if self._length_given else [(b"Content-Length", b"%d" % length)]
            request = h11.Request(method="POST", target=path, headers=[*self._headers, *length_header])
            self._requests[path, length] = request
        return request

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


_TLS_CONTEXT: list[ssl.SSLContext] = []


def _tls_context() -> ssl.SSLContext:
    """The verifying TLS context of every ``https://`` pool, made once (loading the system's certificates)."""
    if not _TLS_CONTEXT:
        import ssl

        context = ssl.create_default_context()
        context.set_alpn_protocols(["http/1.1"])
        _TLS_CONTEXT.append(context)
    return _TLS_CONTEXT[0]


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
