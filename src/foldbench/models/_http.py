"""The adapter's transport: ``POST`` a body to one server and read the reply, through aiohttp, with the failures
typed as the adapter needs them.

aiohttp does the HTTP: kept-alive connections (one session per server and event loop), replies framed by
``Content-Length``, chunks or the end of the connection, TLS; at 32 requests in flight it costs well under a
millisecond per request (``bench/bench_eval_process.py``). This module adds what the adapter asks of it: a cap on
the size of a reply's body (read as a stream, so a huge body is never held, and decompressed here, ``gzip`` or
``deflate``, within the same cap), and failures typed by what the caller does about them: :class:`ConnectError`
(nothing listens, unknown host: no wait fixes it), :class:`DroppedError` (the connection broke or the reply is not
well-formed HTTP: worth another attempt) and :class:`PayloadError` (the reply's body cannot be decoded). aiohttp is
imported when the first pool is made (at the first request), not when the adapter is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import aiohttp
    import yarl

__all__ = ["ConnectError", "ConnectionPool", "DroppedError", "HttpError", "PayloadError", "Reply"]

DECODED_ENCODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
"""The content encodings a reply may use; any other is a :class:`PayloadError`."""


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


class ConnectionPool:
    """Kept-alive connections to the server of ``url``, for the event loop that uses it.

    Args:
        url: any URL on the server (its scheme, host and port are used).
        headers: sent with every request.

    Raises:
        ValueError: ``url`` is not an ``http://`` or ``https://`` URL with a host.
    """

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        import aiohttp

        self.origin = f"{parts.scheme}://{parts.netloc}"
        self._urls: dict[str, yarl.URL] = {}  # each path's URL, parsed once (aiohttp parses a string on every request)
        # No connection limit of its own (the harness bounds how many requests are in flight) and no timeout of its
        # own (the adapter bounds each attempt as a whole).
        self._session: aiohttp.ClientSession | None = aiohttp.ClientSession(
            headers=headers,
            connector=aiohttp.TCPConnector(limit=0, ttl_dns_cache=300),
            timeout=aiohttp.ClientTimeout(total=None),
            auto_decompress=False,  # decoded here, within the cap (a small compressed body cannot fill the memory)
        )
        self.closed = False

    async def post(self, path: str, body: bytes, max_body: int) -> Reply:
        """``POST path`` with ``body`` and read the reply, its body capped at ``max_body`` decoded bytes.

        Raises:
            ConnectError, DroppedError, PayloadError: see the module docstring.
        """
        import aiohttp
        import yarl

        if self._session is None:
            raise DroppedError("the connection pool is closed")
        try:
            url = self._urls.get(path)
            if url is None:
                url = self._urls[path] = yarl.URL(self.origin + path)
            async with self._session.post(url, data=body) as response:
                headers = {name.lower(): value for name, value in response.headers.items()}
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.content.iter_any():
                    size += len(chunk)
                    if size > max_body:
                        return Reply(response.status, headers, b"", oversized=size)
                    chunks.append(chunk)
        except aiohttp.ClientConnectorError as error:
            raise ConnectError(_reason(error.os_error or error)) from None
        except aiohttp.ClientError as error:  # refused mid-way, cut short, badly framed: worth another attempt
            raise DroppedError(f"{type(error).__name__}: {_reason(error)}") from None
        decoded = _decoded(b"".join(chunks), headers.get("content-encoding", ""), max_body)
        if len(decoded) > max_body:
            return Reply(response.status, headers, b"", oversized=len(decoded))
        return Reply(response.status, headers, decoded)

    async def close(self) -> None:
        """Close the connections; the pool takes no more requests."""
        self.closed = True
        session, self._session = self._session, None
        if session is not None:
            await session.close()


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
