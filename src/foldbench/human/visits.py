"""Participant visits: who started through the start page, and when the server showed them each item.

The server, not the browser, is the authority on a participant's progress. Starting on the start page opens a
visit: a random secret (kept by the browser as a cookie; only its SHA-256 is stored) and a form token every post
must repeat. Each time the server shows an item it records the time once, so the time an answer took is measured
by the server's clock, and an answer is accepted only for the item the visit was last shown. Visits live in two
tables of the run store's SQLite file, so a restarted server continues them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Visit", "Visits"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS human_visits (
    secret_sha256 TEXT PRIMARY KEY,
    run TEXT NOT NULL,
    dataset TEXT NOT NULL,
    participant TEXT NOT NULL,
    form_token TEXT NOT NULL,
    started_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS human_shown (
    secret_sha256 TEXT NOT NULL,
    item_id TEXT NOT NULL,
    shown_ms INTEGER NOT NULL,
    PRIMARY KEY (secret_sha256, item_id)
);
"""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def now_ms() -> int:
    """The server's clock in milliseconds."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Visit:
    """One participant's visit: the cookie secret (only in memory), the form token and the participant id."""

    secret: str
    form_token: str
    participant: str

    def accepts(self, token: str) -> bool:
        """Whether a posted form token is this visit's (compared in constant time)."""
        return hmac.compare_digest(token.encode("utf-8"), self.form_token.encode("utf-8"))


class Visits:
    """The visits of one session (run and dataset) in the SQLite file ``db``."""

    def __init__(self, db: Path, *, run: str, dataset: str) -> None:
        self.db = Path(db)
        self.run = run
        self.dataset = dataset
        self._ready = False
        self._known: dict[str, Visit] = {}  # visits found before (a visit never changes once started)

    def _connect(self) -> sqlite3.Connection:
        if not self._ready:
            self.db.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.db, timeout=30)
        if not self._ready:
            connection.executescript(_SCHEMA)
            self._ready = True
        return connection

    def start(self, participant: str) -> Visit:
        """Open a new visit for ``participant`` (who may come back later with another visit)."""
        visit = Visit(secrets.token_urlsafe(24), secrets.token_urlsafe(18), participant)
        with self._connect() as connection:
            connection.execute(
                "INSERT INTO human_visits VALUES (?, ?, ?, ?, ?, ?)",
                (_digest(visit.secret), self.run, self.dataset, participant, visit.form_token, now_ms()),
            )
        connection.close()
        return visit

    def find(self, secret: str) -> Visit | None:
        """The visit a cookie secret opens in this session, or None."""
        if not secret or len(secret) > 64:
            return None
        if secret in self._known:
            return self._known[secret]
        connection = self._connect()
        try:
            row = connection.execute(
                "SELECT participant, form_token FROM human_visits WHERE secret_sha256 = ? AND run = ? AND dataset = ?",
                (_digest(secret), self.run, self.dataset),
            ).fetchone()
        finally:
            connection.close()
        if row is None:
            return None
        self._known[secret] = Visit(secret, row[1], row[0])
        return self._known[secret]

    def show(self, visit: Visit, item_id: str) -> int:
        """Record that ``visit`` is shown ``item_id`` (the first showing counts); returns when it was first shown."""
        shown = self.shown_at(visit, item_id)
        if shown is not None:
            return shown
        with self._connect() as connection:
            connection.execute(
                "INSERT OR IGNORE INTO human_shown VALUES (?, ?, ?)", (_digest(visit.secret), item_id, now_ms())
            )
            (shown,) = connection.execute(
                "SELECT shown_ms FROM human_shown WHERE secret_sha256 = ? AND item_id = ?",
                (_digest(visit.secret), item_id),
            ).fetchone()
        connection.close()
        return int(shown)

    def shown_at(self, visit: Visit, item_id: str) -> int | None:
        """When ``visit`` was first shown ``item_id``, or None if it never was."""
        connection = self._connect()
        try:
            row = connection.execute(
                "SELECT shown_ms FROM human_shown WHERE secret_sha256 = ? AND item_id = ?",
                (_digest(visit.secret), item_id),
            ).fetchone()
        finally:
            connection.close()
        return None if row is None else int(row[0])
