"""HTTP/1.1 framing for the adapter's transport: the head of a ``POST`` request, and one reply read from a stream.

A reply is read as RFC 9112 frames it: a status line and header fields up to the blank line (interim ``1xx``
replies skipped), then a body delimited by ``Transfer-Encoding: chunked``, by ``Content-Length``, or by the end of
the connection; a ``204`` or ``304`` has none. Whatever does not follow those rules is a :class:`MalformedReply`.
The body is read at most up to the caller's cap: past it, reading stops and the size seen is returned. Whether the
connection may carry another request follows the reply's version and its ``Connection`` field.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

__all__ = ["MalformedReply", "RawReply", "read_reply", "request_head"]

HEAD_LIMIT = 1 << 16
"""The longest head (status line and fields) or chunk-size line read; a longer one is malformed."""

_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
_FIELD_VALUE = re.compile(rb"[^\x00-\x08\x0a-\x1f\x7f]*")
_TARGET = re.compile(rb"[\x21-\x7e]+")
_STATUS_LINE = re.compile(rb"HTTP/(\d)\.(\d) ([0-9]{3})(?: [^\x00-\x08\x0a-\x1f\x7f]*)?")
_FIELD_LINE = re.compile(rb"([-!#$%&'*+.^_`|~0-9a-zA-Z]+):[ \t]*(.*?)[ \t]*")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")
_DIGITS = re.compile(rb"[0-9]{1,19}")


class MalformedReply(Exception):
    """The server sent something that is not a well-formed HTTP/1.1 reply (or closed the connection inside one)."""


@dataclass(frozen=True, slots=True)
class RawReply:
    """A reply as read: status, header fields (names in lower case, the last of a repeated name), the body's
    pieces and their total size (over the cap: the size seen when reading stopped, pieces empty), and whether the
    connection may carry another request."""

    status: int
    headers: dict[str, str]
    pieces: list[bytes]
    size: int
    reusable: bool


def request_head(target: str, headers: list[tuple[str, str]]) -> bytes:
    """The request line and header fields of ``POST target`` (``Host`` first, as RFC 9112 asks of a client),
    without the final blank line, so that a ``Content-Length`` field can follow.

    Raises:
        ValueError: the target or a field is not one HTTP allows (a space or a line break in it, a bad name).

    >>> request_head("/v1", [("Accept", "*/*"), ("Host", "h:1")])
    b'POST /v1 HTTP/1.1\\r\\nHost: h:1\\r\\nAccept: */*\\r\\n'
    """
    encoded_target = target.encode("ascii", "replace")
    if _TARGET.fullmatch(encoded_target) is None:
        raise ValueError(f"illegal request target {target!r}")
    lines = [b"POST %s HTTP/1.1\r\n" % encoded_target]
    ordered = sorted(headers, key=lambda field: field[0].lower() != "host")  # stable: the rest keep their order
    for name, value in ordered:
        raw_name, raw_value = name.encode("ascii", "replace"), value.encode("latin-1", "replace")
        if _TOKEN.fullmatch(raw_name) is None:
            raise ValueError(f"illegal header name {name!r}")
        if _FIELD_VALUE.fullmatch(raw_value) is None or raw_value != raw_value.strip(b" \t"):
            raise ValueError(f"illegal value of the header {name!r}")
        lines.append(b"%s: %s\r\n" % (raw_name, raw_value))
    return b"".join(lines)


async def read_reply(reader: asyncio.StreamReader, max_body: int) -> RawReply:
    """Read the next final reply from ``reader``, its body at most up to ``max_body`` bytes.

    Raises:
        MalformedReply: not HTTP/1.1, a framing error, or the end of the connection before the reply's end.
        OSError: the connection broke.
    """
    while True:
        head = await _read_through(reader, b"\r\n\r\n", "its head")
        lines = head[:-4].split(b"\r\n")
        status_line = _STATUS_LINE.fullmatch(lines[0])
        if status_line is None:
            raise MalformedReply(f"illegal status line {lines[0][:80]!r}")
        status = int(status_line[3])
        if status == 101:
            raise MalformedReply("the server switched protocols")
        headers = _fields(lines)
        if status >= 200:
            break
        # an interim reply (100 Continue, 103 Early Hints) has no body; the final one follows
    keep_alive = status_line.group(1, 2) == (b"1", b"1") and "close" not in _tokens(headers.get("connection", ""))
    if status in (204, 304):
        return RawReply(status, headers, [], 0, keep_alive)
    if "transfer-encoding" in headers:
        if _tokens(headers["transfer-encoding"]) != ["chunked"]:
            raise MalformedReply(f"unsupported transfer coding {headers['transfer-encoding'][:40]!r}")
        pieces, size = await _chunked_body(reader, max_body)
        return RawReply(status, headers, pieces, size, keep_alive and size <= max_body)
    if "content-length" in headers:
        length = _content_length(headers["content-length"])
        if length > max_body:
            return RawReply(status, headers, [], length, False)
        body = await _read_exactly(reader, length, "its body")
        return RawReply(status, headers, [body] if body else [], length, keep_alive)
    pieces, size = await _body_to_the_end(reader, max_body)
    return RawReply(status, headers, pieces, size, False)


def _fields(lines: list[bytes]) -> dict[str, str]:
    """The header fields of a head's lines after the status line (a folded line continues the field before it)."""
    headers: dict[str, str] = {}
    last = ""
    for line in lines[1:]:
        if line[:1] in (b" ", b"\t") and last:  # obsolete line folding: one space in its place
            if _FIELD_VALUE.fullmatch(line) is None:
                raise MalformedReply(f"illegal header line {line[:80]!r}")
            continued = line.strip(b" \t").decode("latin-1")
            headers[last] = f"{headers[last]} {continued}".lstrip(" ") if continued else headers[last]
            continue
        field = _FIELD_LINE.fullmatch(line)
        if field is None or _FIELD_VALUE.fullmatch(field[2]) is None:
            raise MalformedReply(f"illegal header line {line[:80]!r}")
        last = field[1].decode("ascii").lower()
        headers[last] = field[2].decode("latin-1")
    return headers


def _tokens(value: str) -> list[str]:
    return [token.strip().lower() for token in value.split(",") if token.strip()]


def _content_length(value: str) -> int:
    lengths = {length.strip() for length in value.split(",")}
    if len(lengths) != 1:
        raise MalformedReply(f"conflicting Content-Length values {value[:40]!r}")
    (length,) = lengths
    if _DIGITS.fullmatch(length.encode("latin-1")) is None:
        raise MalformedReply(f"illegal Content-Length {length[:40]!r}")
    return int(length)


async def _chunked_body(reader: asyncio.StreamReader, max_body: int) -> tuple[list[bytes], int]:
    pieces: list[bytes] = []
    size = 0
    while True:
        line = (await _read_through(reader, b"\r\n", "a chunk's size"))[:-2]
        digits = line.split(b";", 1)[0].strip(b" \t")
        if _HEX.fullmatch(digits) is None:
            raise MalformedReply(f"illegal chunk size {line[:40]!r}")
        length = int(digits, 16)
        if length == 0:
            break
        size += length
        if size > max_body:
            return [], size
        piece = await _read_exactly(reader, length + 2, "a chunk")
        if piece[-2:] != b"\r\n":
            raise MalformedReply("a chunk does not end where its size says")
        pieces.append(piece[:-2])
    while await _read_through(reader, b"\r\n", "the trailer") != b"\r\n":  # trailer fields are not used
        pass
    return pieces, size


async def _body_to_the_end(reader: asyncio.StreamReader, max_body: int) -> tuple[list[bytes], int]:
    pieces: list[bytes] = []
    size = 0
    while piece := await reader.read(HEAD_LIMIT):
        size += len(piece)
        if size > max_body:
            return [], size
        pieces.append(piece)
    return pieces, size


async def _read_through(reader: asyncio.StreamReader, separator: bytes, what: str) -> bytes:
    try:
        return await reader.readuntil(separator)
    except asyncio.IncompleteReadError as error:
        if not error.partial and what == "its head":
            raise MalformedReply("the server closed the connection without a reply") from None
        raise MalformedReply(f"the server closed the connection inside {what}") from None
    except asyncio.LimitOverrunError:
        raise MalformedReply(f"{what} is over {HEAD_LIMIT} bytes") from None


async def _read_exactly(reader: asyncio.StreamReader, length: int, what: str) -> bytes:
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise MalformedReply(f"the server closed the connection inside {what}") from None
