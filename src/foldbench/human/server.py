"""The human-baseline web server: standard-library ``http.server`` on 127.0.0.1.

Routes: ``/`` (start page), ``/start?participant=ID`` (redirect to the participant's page), ``/p/ID`` (the next
unanswered item, or the done page), ``POST /p/ID/answer`` (store an answer, then redirect back) and
``/files/PATH`` (a file of the dataset directory, never anything outside it: 404). A post that is not an answer of
the task's schema gets a one-line 400 and stores nothing. Served on another address than loopback only when asked
explicitly, and then every request must carry the session's token (``?token=...``), else 403.
"""

from __future__ import annotations

import hmac
import ipaddress
import mimetypes
import secrets
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from foldbench.errors import FoldbenchError, UsageError
from foldbench.human.forms import FormError
from foldbench.human.pages import done_page, index_page, item_page
from foldbench.human.session import HumanSession, valid_participant

__all__ = ["MAX_POST_BYTES", "make_server", "serve", "is_loopback"]

MAX_POST_BYTES = 64 * 1024
_CSP = (
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _dataset_file(root: Path, relative: str) -> Path | None:
    """The file ``relative`` names inside ``root``, or None (outside it, missing, or not a regular file)."""
    if "\x00" in relative or relative.startswith(("/", "\\")):
        return None
    candidate = (root / relative).resolve()
    if not candidate.is_relative_to(root) or not candidate.is_file():
        return None
    return candidate


class _Handler(BaseHTTPRequestHandler):
    server: _HumanServer
    server_version = "foldbench-human"
    sys_version = ""
    timeout = 30  # seconds a connection may stay silent (one request at a time: a stalled client must not block)

    def log_message(self, format: str, *args: object) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    # responses ----------------------------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", _CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store" if content_type.startswith("text/") else "private, max-age=3600")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _html(self, page: str, status: int = 200) -> None:
        self._send(status, page.encode("utf-8"), "text/html; charset=utf-8")

    def _line(self, status: int, message: str) -> None:
        """A one-line plain-text answer (errors)."""
        self._send(status, (" ".join(message.split()) + "\n").encode("utf-8"), "text/plain; charset=utf-8")

    def _redirect(self, location: str) -> None:
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain; charset=utf-8", {"Location": location})

    def _url(self, path: str) -> str:
        token = self.server.token
        return path if token is None else f"{path}?token={quote(token, safe='')}"

    # routing --------------------------------------------------------------------------------------------------

    def _authorised(self, query: dict[str, list[str]]) -> bool:
        token = self.server.token
        if token is None:
            return True
        given = query.get("token", [""])
        return len(given) == 1 and hmac.compare_digest(given[0].encode(), token.encode())

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        if not self._authorised(query):
            self._line(HTTPStatus.FORBIDDEN, "forbidden: this page needs the session's token")
            return
        path = url.path
        session = self.server.session
        try:
            if path == "/":
                self._html(
                    index_page(
                        task=session.task.id,
                        run=session.run,
                        participants=session.participants(),
                        token=self.server.token,
                    )
                )
            elif path == "/start":
                participant = query.get("participant", [""])[0]
                if not valid_participant(participant):
                    self._line(HTTPStatus.BAD_REQUEST, "a participant id is 1-32 letters, digits, '_' or '-'")
                    return
                self._redirect(self._url(f"/p/{participant}"))
            elif path.startswith("/p/") and path.count("/") == 2:
                self._item(unquote(path[3:]))
            elif path.startswith("/files/"):
                self._file(unquote(path[len("/files/") :]))
            else:
                self._line(HTTPStatus.NOT_FOUND, "not found")
        except FormError as error:
            self._line(HTTPStatus.BAD_REQUEST, str(error))
        except FoldbenchError as error:
            self._line(HTTPStatus.CONFLICT, str(error))

    def _item(self, participant: str) -> None:
        if not valid_participant(participant):
            self._line(HTTPStatus.NOT_FOUND, "not found")
            return
        page = self.server.session.next_page(participant)
        if page.item is None or page.prompt is None or page.form is None:
            self._html(done_page(participant, page.total))
            return
        self._html(
            item_page(
                item=page.item,
                prompt=page.prompt,
                form=page.form,
                participant=participant,
                position=page.position,
                total=page.total,
                shown_ms=int(time.time() * 1000),
                token=self.server.token,
            )
        )

    def _file(self, relative: str) -> None:
        found = _dataset_file(self.server.session.data, relative)
        if found is None:
            self._line(HTTPStatus.NOT_FOUND, "not found")
            return
        content_type = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, found.read_bytes(), content_type)

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if not self._authorised(parse_qs(url.query)):
            self._line(HTTPStatus.FORBIDDEN, "forbidden: this page needs the session's token")
            return
        parts = url.path.split("/")
        if len(parts) != 4 or parts[1] != "p" or parts[3] != "answer" or not valid_participant(unquote(parts[2])):
            self._line(HTTPStatus.NOT_FOUND, "not found")
            return
        participant = unquote(parts[2])
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip()
        if content_type != "application/x-www-form-urlencoded":
            self._line(HTTPStatus.BAD_REQUEST, "an answer is posted as a form (application/x-www-form-urlencoded)")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._line(HTTPStatus.BAD_REQUEST, "missing Content-Length")
            return
        if not 0 <= length <= MAX_POST_BYTES:
            self._line(HTTPStatus.BAD_REQUEST, f"an answer is at most {MAX_POST_BYTES} bytes")
            return
        body = self.rfile.read(length)
        try:
            fields = parse_qs(
                body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body), max_num_fields=MAX_POST_BYTES
            )
            self.server.session.answer(participant, fields)
        except (UnicodeDecodeError, ValueError, FormError) as error:
            message = str(error) if isinstance(error, FormError) else "the form is malformed"
            self._line(HTTPStatus.BAD_REQUEST, message)
            return
        except FoldbenchError as error:
            self._line(HTTPStatus.CONFLICT, str(error))
            return
        self._redirect(self._url(f"/p/{quote(participant)}"))


class _HumanServer(HTTPServer):
    """One request at a time (the store is one SQLite file; answers are committed before the next request)."""

    def __init__(self, address: tuple[str, int], session: HumanSession, token: str | None, verbose: bool) -> None:
        self.session = session
        self.token = token
        self.verbose = verbose
        super().__init__(address, _Handler)


def make_server(
    session: HumanSession,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    allow_remote: bool = False,
    token: str | None = None,
    verbose: bool = False,
) -> _HumanServer:
    """A server for ``session`` (not yet serving). Any address other than loopback needs ``allow_remote``, and
    then a token (given, or drawn at random) that every request must carry."""
    if not is_loopback(host):
        if not allow_remote:
            raise UsageError(f"--host {host} serves other machines: pass --allow-remote to do so on purpose")
        token = token or secrets.token_urlsafe(18)
    try:
        return _HumanServer((host, port), session, token, verbose)
    except OSError as error:
        raise FoldbenchError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def serve(server: _HumanServer) -> None:
    """Serve until interrupted."""
    try:
        server.serve_forever()
    finally:
        server.server_close()
