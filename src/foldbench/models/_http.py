"""A small HTTP/1.1 client on asyncio streams: ``POST`` a body to one server and read the reply, over kept-alive
connections (a pool per server and event loop).

It does what the OpenAI-compatible adapter needs and no more: one host (``http://`` or ``https://``), request
bodies in memory, replies framed by ``Content-Length``, chunked transfer or the end of the connection, a cap on the
reply's size, and ``gzip``/``deflate`` content encodings. Loading it costs a few milliseconds, where a full HTTP
client library costs a large part of a text evaluation's start-up; TLS is set up only for ``https://``.

Failures are typed by what the caller does about them: :class:`ConnectError` (nothing listens, unknown host: no
wait fixes it), :class:`DroppedError` (the connection broke mid-exchange: worth another attempt) and
:class:`PayloadError` (the reply cannot be decoded).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import ssl

__all__ = ["ConnectError", "ConnectionPool", "DroppedError", "HttpError", "PayloadError", "Reply"]

_MAX_HEADER_LINES = 200


class HttpError(Exception):
    """An exchange with the server failed."""


class ConnectError(HttpError):
    """No connection could be opened (refused, unknown host, TLS handshake refused)."""


class DroppedError(HttpError):
    """The connection broke, or the server sent something that is not an HTTP reply."""


class PayloadError(HttpError):
    """The reply's body cannot be decoded (bad chunk framing, bad content encoding)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """An HTTP reply: status, headers (names in lower case) and the body, or ``oversized`` with the size seen
    once the body passed the caller's cap (then ``body`` is empty and the rest was not read)."""

    status: int
    headers: dict[str, str]
    body: bytes
    oversized: int | None = None


class ConnectionPool:
    """Kept-alive connections to the server of ``url``, for the event loop that uses it.

    Args:
        url: any URL on the server (its scheme, host and port are used).
        headers: sent with every request (``Host`` and ``Content-Length`` are added).
    """

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        self.secure = parts.scheme == "https"
        self.host = parts.hostname
        self.port = parts.port or (443 if self.secure else 80)
        authority = parts.netloc.rpartition("@")[2]
        fixed = {"Host": authority, **headers}
        self._head = "".join(f"{name}: {value}\r\n" for name, value in fixed.items())
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self._tls: ssl.SSLContext | None = None
        self.closed = False

    async def post(self, path: str, body: bytes, max_body: int) -> Reply:
        """``POST path`` with ``body`` over an idle kept-alive connection (one the server has not closed), else a
        new one.

        Raises:
            ConnectError, DroppedError, PayloadError: see the module docstring.
        """
        request = f"POST {path} HTTP/1.1\r\n{self._head}Content-Length: {len(body)}\r\n\r\n".encode("latin-1") + body
        while self._idle:
            reader, writer = self._idle.pop()
            if not (reader.at_eof() or writer.is_closing()):
                return await self._exchange(reader, writer, request, max_body)
            writer.close()
        reader, writer = await self._connect()
        return await self._exchange(reader, writer, request, max_body)

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        try:
            if self.secure:
                return await asyncio.open_connection(
                    self.host, self.port, ssl=self._tls_context(), server_hostname=self.host, limit=1 << 20
                )
            return await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        except OSError as error:
            raise ConnectError(str(error) or type(error).__name__) from None

    def _tls_context(self) -> ssl.SSLContext:
        if self._tls is None:
            import ssl

            self._tls = ssl.create_default_context()
        return self._tls

    async def _exchange(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes, max_body: int
    ) -> Reply:
        kept = False
        try:
            writer.write(request)
            await writer.drain()
            reply, keep = await _read_reply(reader, max_body)
            kept = keep and not self.closed
            if kept:
                self._idle.append((reader, writer))
            return reply
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
            raise DroppedError(f"{type(error).__name__}: {error}") from None
        finally:
            if not kept:
                writer.close()

    async def close(self) -> None:
        """Close the idle connections; the pool takes no more requests' connections back."""
        self.closed = True
        idle, self._idle = self._idle, []
        for _, writer in idle:
            writer.close()
        for _, writer in idle:
            try:
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass


async def _read_reply(reader: asyncio.StreamReader, max_body: int) -> tuple[Reply, bool]:
    """The next reply on the connection, and whether the connection can carry another request."""
    version, status, headers = await _head(reader)
    while 100 <= status <= 199:  # an interim reply (100 Continue): the real one follows
        version, status, headers = await _head(reader)
    keep = version == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
    if status in (204, 304):
        return Reply(status, headers, b""), keep
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body, size = await _chunked(reader, max_body)
    elif "content-length" in headers:
        try:
            length = int(headers["content-length"])
        except ValueError:
            raise DroppedError(f"a bad Content-Length: {headers['content-length'][:40]!r}") from None
        if length > max_body:
            return Reply(status, headers, b"", oversized=length), False
        body, size = await reader.readexactly(length), length
    else:
        body, size = await _until_closed(reader, max_body)
        keep = False
    if size > max_body:
        return Reply(status, headers, b"", oversized=size), False
    body = _decoded(body, headers.get("content-encoding", ""), max_body)
    if len(body) > max_body:
        return Reply(status, headers, b"", oversized=len(body)), False
    return Reply(status, headers, body), keep


async def _head(reader: asyncio.StreamReader) -> tuple[str, int, dict[str, str]]:
    """A reply's status line and headers (names in lower case; repeated ones joined by commas), read at once."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        if not error.partial:
            raise DroppedError("the server closed the connection without a reply") from None
        raise DroppedError("the connection closed inside the reply's headers") from None
    lines = head.decode("latin-1").split("\r\n")[:-2]
    if len(lines) > _MAX_HEADER_LINES:
        raise DroppedError(f"more than {_MAX_HEADER_LINES} header lines")
    version, _, rest = lines[0].partition(" ")
    code = rest[:3]
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise DroppedError(f"not an HTTP reply: {lines[0][:60]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if colon:
            key = name.strip().lower()
            value = value.strip()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return version, int(code), headers


async def _chunked(reader: asyncio.StreamReader, max_body: int) -> tuple[bytes, int]:
    chunks: list[bytes] = []
    size = 0
    while True:
        line = await reader.readline()
        try:
            length = int(line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise PayloadError(f"a bad chunk size line: {line[:40]!r}") from None
        if length == 0:
            break
        size += length
        if size > max_body:
            return b"", size
        chunks.append(await reader.readexactly(length))
        if await reader.readline() not in (b"\r\n", b"\n"):
            raise PayloadError("a chunk is not followed by its line end")
    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
        pass  # trailer fields
    return b"".join(chunks), size


async def _until_closed(reader: asyncio.StreamReader, max_body: int) -> tuple[bytes, int]:
    chunks: list[bytes] = []
    size = 0
    while chunk := await reader.read(1 << 16):
        size += len(chunk)
        if size > max_body:
            return b"", size
        chunks.append(chunk)
    return b"".join(chunks), size


def _decoded(body: bytes, encoding: str, max_body: int) -> bytes:
    """``body`` decompressed (at most ``max_body + 1`` bytes of it, so a small bomb cannot fill the memory)."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding not in ("gzip", "x-gzip", "deflate"):
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
