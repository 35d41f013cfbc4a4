"""The human-baseline web server: standard-library ``http.server`` on 127.0.0.1.

Routes: ``/`` (the start page), ``POST /start`` (open a visit for a participant id: a cookie, then the first
unanswered item), ``/item`` (the item the server now shows the visit, or the closing page), ``POST /answer``
(store the answer to that item, then show the next) and ``/files/PATH`` (a picture or video of the item being shown
to the visit, nothing else of the dataset: 404).

The server is the authority (see :mod:`foldbench.human.visits`): a page or post without a visit's cookie is sent
to the start page or refused (403), every post carries the visit's form token (else 403), an answer is accepted only
for the item the visit is being shown (else 409), and the time it took is measured by the server's clock. A post
that is not an answer of the task's schema gets a one-line 400 and stores nothing. Served on another address than
loopback only when asked explicitly, and then the start page needs the session's token (``?token=...``).
"""

from __future__ import annotations

import hmac
import ipaddress
import mimetypes
import secrets
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from foldbench.errors import FoldbenchError, UsageError
from foldbench.human.forms import FormError
from foldbench.human.pages import done_page, index_page, item_page
from foldbench.human.questions import ParticipantQuestion, participant_question, study_title
from foldbench.human.session import HumanSession, Page, valid_participant
from foldbench.human.visits import Visit, Visits, now_ms

__all__ = ["COOKIE", "MAX_POST_BYTES", "make_server", "serve", "is_loopback"]

MAX_POST_BYTES = 64 * 1024
#: The cookie that holds a visit's secret.
COOKIE = "foldbench_visit"
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
    # the headers and the body leave in two writes: without TCP_NODELAY the body waits for the client's delayed
    # acknowledgement of the headers (about 40 ms a response on Linux)
    disable_nagle_algorithm = True

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
        self.send_header("Cache-Control", "no-store")
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

    def _redirect(self, location: str, extra: dict[str, str] | None = None) -> None:
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain; charset=utf-8", {"Location": location, **(extra or {})})

    # who is asking ------------------------------------------------------------------------------------------

    def _access_granted(self, given: list[str]) -> bool:
        """Whether the start page may be used: always on loopback, else only with the session's token."""
        token = self.server.token
        if token is None:
            return True
        return len(given) == 1 and hmac.compare_digest(given[0].encode(), token.encode())

    def _visit(self) -> Visit | None:
        """The visit the request's cookie opens, or None."""
        header = self.headers.get("Cookie", "")
        try:
            morsel = SimpleCookie(header).get(COOKIE)
        except CookieError:
            return None
        return None if morsel is None else self.server.visits.find(morsel.value)

    def _page_of(self, visit: Visit) -> tuple[Page, ParticipantQuestion | None]:
        """The participant's next page, with the participant's version of its question."""
        page = self.server.session.next_page(visit.participant)
        if page.item is None or page.prompt is None or page.form is None:
            return page, None
        return page, participant_question(page.prompt, page.form.kind)

    # routing --------------------------------------------------------------------------------------------------

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        path = url.path
        try:
            if path == "/":
                if not self._access_granted(parse_qs(url.query).get("token", [])):
                    self._line(HTTPStatus.FORBIDDEN, "forbidden: the start page needs the session's token")
                    return
                session = self.server.session
                kind = session.forms[session.items[0].id].kind if session.items else "choice"
                token = self.server.token
                self._html(index_page(title=self.server.title, total=len(session.items), kind=kind, access_token=token))
            elif path == "/item":
                self._item()
            elif path.startswith("/files/"):
                self._file(unquote(path[len("/files/") :]))
            else:
                self._line(HTTPStatus.NOT_FOUND, "not found")
        except FormError as error:
            self._line(HTTPStatus.BAD_REQUEST, str(error))
        except FoldbenchError as error:
            self._line(HTTPStatus.CONFLICT, str(error))

    def _item(self) -> None:
        visit = self._visit()
        if visit is None:
            self._redirect("/")
            return
        page, question = self._page_of(visit)
        if page.item is None or page.form is None or question is None:
            self._html(done_page(title=self.server.title, answered=page.answered, total=page.total))
            return
        self.server.visits.show(visit, page.item.id)
        self.server.showing[visit.secret] = question.files()
        self._html(
            item_page(
                title=self.server.title,
                item=page.item,
                question=question,
                form=page.form,
                form_token=visit.form_token,
                position=page.position,
                total=page.total,
            )
        )

    def _shown_files(self, visit: Visit) -> frozenset[str]:
        """The files of the item the visit is being shown (remembered when its page was served; worked out again
        after a restart)."""
        files = self.server.showing.get(visit.secret)
        if files is None:
            page, question = self._page_of(visit)
            shown = page.item is not None and self.server.visits.shown_at(visit, page.item.id) is not None
            files = question.files() if question is not None and shown else frozenset()
            self.server.showing[visit.secret] = files
        return files

    def _file(self, relative: str) -> None:
        visit = self._visit()
        found = _dataset_file(self.server.session.data, relative)
        if visit is None or found is None or relative not in self._shown_files(visit):
            self._line(HTTPStatus.NOT_FOUND, "not found")
            return
        content_type = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        self._send(HTTPStatus.OK, found.read_bytes(), content_type)

    def _form(self) -> dict[str, list[str]] | None:
        """The posted form's fields, or None after answering with a one-line 400."""
        content_type = self.headers.get("Content-Type", "").split(";")[0].strip()
        if content_type != "application/x-www-form-urlencoded":
            self._line(HTTPStatus.BAD_REQUEST, "an answer is posted as a form (application/x-www-form-urlencoded)")
            return None
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._line(HTTPStatus.BAD_REQUEST, "missing Content-Length")
            return None
        if not 0 <= length <= MAX_POST_BYTES:
            self._line(HTTPStatus.BAD_REQUEST, f"a form is at most {MAX_POST_BYTES} bytes")
            return None
        body = self.rfile.read(length)
        try:
            return parse_qs(
                body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body), max_num_fields=MAX_POST_BYTES
            )
        except (UnicodeDecodeError, ValueError):
            self._line(HTTPStatus.BAD_REQUEST, "the form is malformed")
            return None

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if path == "/start":
            self._start()
        elif path == "/answer":
            self._answer()
        else:
            self._line(HTTPStatus.NOT_FOUND, "not found")

    def _start(self) -> None:
        fields = self._form()
        if fields is None:
            return
        if not self._access_granted(fields.get("token", [])):
            self._line(HTTPStatus.FORBIDDEN, "forbidden: the start page needs the session's token")
            return
        participant = fields.get("participant", [""])
        if len(participant) != 1 or not valid_participant(participant[0]):
            self._line(HTTPStatus.BAD_REQUEST, "a participant id is 1-32 letters, digits, '_' or '-'")
            return
        visit = self.server.visits.start(participant[0])
        cookie = f"{COOKIE}={visit.secret}; Path=/; HttpOnly; SameSite=Strict"
        self._redirect("/item", {"Set-Cookie": cookie})

    def _answer(self) -> None:
        visit = self._visit()
        if visit is None:
            self._line(HTTPStatus.FORBIDDEN, "forbidden: start on the start page first")
            return
        fields = self._form()
        if fields is None:
            return
        token = fields.get("form_token", [])
        if len(token) != 1 or not visit.accepts(token[0]):
            self._line(HTTPStatus.FORBIDDEN, "forbidden: the form's token is not this visit's")
            return
        try:
            page, _ = self._page_of(visit)
            item_ids = fields.get("item", [])
            shown = None if page.item is None else self.server.visits.shown_at(visit, page.item.id)
            if page.item is None or shown is None or item_ids != [page.item.id]:
                self._line(HTTPStatus.CONFLICT, "this is not the question you are being shown: reload the page")
                return
            self.server.session.answer(visit.participant, page.item.id, fields, now_ms() - shown)
            self.server.showing.pop(visit.secret, None)
        except FormError as error:
            self._line(HTTPStatus.BAD_REQUEST, str(error))
            return
        except FoldbenchError as error:
            self._line(HTTPStatus.CONFLICT, str(error))
            return
        self._redirect("/item")


class _HumanServer(HTTPServer):
    """One request at a time (the store is one SQLite file; answers are committed before the next request)."""

    def __init__(self, address: tuple[str, int], session: HumanSession, token: str | None, verbose: bool) -> None:
        self.session = session
        self.visits = Visits(session.db, run=session.run, dataset=str(session.data))
        self.title = study_title(session.task.id)
        #: The files each visit's shown item may serve, by visit secret (kept in memory; see ``_shown_files``).
        self.showing: dict[str, frozenset[str]] = {}
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
