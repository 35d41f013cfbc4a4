"""The adapter's transport: ``POST`` a body to one server and read the reply, through httpx, with the failures typed
as the adapter needs them.

httpx does the HTTP: kept-alive connections (a pool per server and event loop), replies framed by
``Content-Length``, chunks or the end of the connection, ``gzip``/``deflate`` content encodings, TLS with the
system's certificates and the usual proxy variables. This module adds what the adapter asks of it: a cap on the
size of a reply's body (read as a stream, so a huge body is never held), and failures typed by what the caller does
about them: :class:`ConnectError` (nothing listens, unknown host: no wait fixes it), :class:`DroppedError` (the
connection broke or the reply is not well-formed HTTP: worth another attempt) and :class:`PayloadError` (the reply's
body cannot be decoded). httpx is imported when the first pool is made (at the first request), not when the
adapter is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import httpx

__all__ = ["ConnectError", "ConnectionPool", "DroppedError", "HttpError", "PayloadError", "Reply"]

DECODED_ENCODINGS = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
"""The content encodings a reply may use; any other is a :class:`PayloadError` (httpx would pass its bytes on
undecoded)."""


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
        import httpx

        # No connection limit of its own (the harness bounds how many requests are in flight) and no timeout of its
        # own (the adapter bounds each attempt as a whole). Redirects are not followed, so a plain http:// server
        # reached without a proxy never leads to TLS: only then does the client skip loading the certificate store.
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        needs_tls = parts.scheme == "https" or any(name.lower().endswith("_proxy") for name in os.environ)
        self._client: httpx.AsyncClient | None = httpx.AsyncClient(
            base_url=f"{parts.scheme}://{parts.netloc}", headers=dict(headers), limits=limits, timeout=None,
            verify=needs_tls, follow_redirects=False,
        )
        self.closed = False

    async def post(self, path: str, body: bytes, max_body: int) -> Reply:
        """``POST path`` with ``body`` and read the reply, its body capped at ``max_body`` decoded bytes.

        Raises:
            ConnectError, DroppedError, PayloadError: see the module docstring.
        """
        import httpx

        if self._client is None:
            raise DroppedError("the connection pool is closed")
        try:
            async with self._client.stream("POST", path, content=body) as response:
                headers = {name.lower(): value for name, value in response.headers.items()}
                encoding = headers.get("content-encoding", "").strip().lower()
                if encoding not in DECODED_ENCODINGS:
                    raise PayloadError(f"an unsupported content encoding: {encoding[:40]!r}")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > max_body:
                        return Reply(response.status_code, headers, b"", oversized=size)
                    chunks.append(chunk)
                return Reply(response.status_code, headers, b"".join(chunks))
        except httpx.ConnectError as error:
            raise ConnectError(_reason(error)) from None
        except httpx.DecodingError as error:
            raise PayloadError(f"the body cannot be decoded: {_reason(error)}") from None
        except (httpx.TransportError, httpx.StreamError) as error:
            raise DroppedError(f"{type(error).__name__}: {_reason(error)}") from None

    async def close(self) -> None:
        """Close the connections; the pool takes no more requests."""
        self.closed = True
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


def _reason(error: Any) -> str:
    return str(error) or type(error).__name__
