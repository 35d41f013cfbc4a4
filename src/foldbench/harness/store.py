"""The run store: one SQLite file with runs, requests, responses, turns and scores.

Every response is committed the moment it arrives, with its turn (the run, item, turn index, request key and the
task's feedback on it) and, on an item's last turn, its score, so a run killed at any point loses at most the
requests that were in flight; a multi-turn conversation resumes at the first turn without a stored reply.
Requests are keyed by a fingerprint of the model, its parameters and the exact conversation (images by content):
a request whose successful response is already stored is served from the
store, never sent again, so re-running a command resumes it without re-billing anything.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from foldbench.errors import FoldbenchError
from foldbench.models.base import ModelReply
from foldbench.tasks.base import Scores
from foldbench.text import valid_text

__all__ = ["Store", "StoreError", "RunInfo", "ScoreRow", "TurnRecord", "TurnRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    name TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    dataset TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    model TEXT NOT NULL,
    params TEXT NOT NULL,
    modality TEXT NOT NULL,
    template_version TEXT NOT NULL,
    foldbench_version TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    params TEXT NOT NULL,
    prompt TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS responses (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL REFERENCES requests(key),
    text TEXT NOT NULL,
    error TEXT,
    error_kind TEXT,
    latency_s REAL NOT NULL,
    attempts INTEGER NOT NULL,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    finish_reason TEXT,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_by_key ON responses(key);
CREATE TABLE IF NOT EXISTS scores (
    run TEXT NOT NULL REFERENCES runs(name),
    item_id TEXT NOT NULL,
    request_key TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id),
    cached INTEGER NOT NULL,
    answer TEXT,
    parse_failure TEXT,
    score_values TEXT NOT NULL,
    score_counts TEXT NOT NULL,
    notes TEXT NOT NULL,
    metadata TEXT NOT NULL,
    PRIMARY KEY (run, item_id)
);
CREATE TABLE IF NOT EXISTS turns (
    run TEXT NOT NULL REFERENCES runs(name),
    item_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    request_key TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id),
    cached INTEGER NOT NULL,
    feedback TEXT,
    done INTEGER NOT NULL,
    PRIMARY KEY (run, item_id, turn)
);
CREATE TABLE IF NOT EXISTS failures (
    run TEXT NOT NULL REFERENCES runs(name),
    item_id TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id),
    PRIMARY KEY (run, item_id)
);
"""


class StoreError(FoldbenchError):
    """A run store that cannot be opened, or a run whose settings clash with a stored one."""


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A run's settings as stored."""

    name: str
    task: str
    dataset: str
    engine_version: str
    model: str
    params: dict[str, Any]
    modality: str
    template_version: str
    foldbench_version: str
    created: str


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One scored item of a run, with the reply it was scored on."""

    item_id: str
    values: dict[str, float | None]
    counts: dict[str, int]
    notes: list[str]
    metadata: dict[str, Any]
    answer: dict[str, Any] | None
    parse_failure: dict[str, Any] | None
    text: str
    latency_s: float
    attempts: int
    prompt_tokens: int | None
    completion_tokens: int | None
    cached: bool


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn of an item's conversation, to be stored: its index, request and what the task said about it."""

    turn: int
    key: str
    prompt: Any
    feedback: str | None = None
    done: bool = True


@dataclass(frozen=True, slots=True)
class TurnRow:
    """One stored turn of an item's conversation, with the reply."""

    turn: int
    text: str
    error: str | None
    feedback: str | None
    done: bool
    cached: bool


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


SQLITE_INTEGER_MAX = 2**63 - 1


def _count(value: int | None) -> int | None:
    """A usage count as the store keeps it: unknown (NULL) when it is not an integer SQLite can hold."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return value if -SQLITE_INTEGER_MAX - 1 <= value <= SQLITE_INTEGER_MAX else None


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class Store:
    """The SQLite run store (one connection; use from one thread)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: cannot open the run store: {error}") from None

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # runs -------------------------------------------------------------------------------------------------------

    def open_run(self, info: RunInfo) -> bool:
        """Create the run, or check that a stored run of that name has the same settings.

        Returns True when the run already existed (the caller resumes it).
        """
        existing = self.run(info.name)
        if existing is None:
            self._db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    info.name,
                    info.task,
                    info.dataset,
                    info.engine_version,
                    info.model,
                    _json(info.params),
                    info.modality,
                    info.template_version,
                    info.foldbench_version,
                    info.created,
                ),
            )
            return False
        for field in ("task", "dataset", "engine_version", "model", "params", "modality", "template_version"):
            if getattr(existing, field) != getattr(info, field):
                raise StoreError(
                    f"run '{info.name}' already exists with {field} {getattr(existing, field)!r}, not "
                    f"{getattr(info, field)!r}; choose another --run name"
                )
        return True

    def run(self, name: str) -> RunInfo | None:
        """The stored settings of a run, or None."""
        row = self._db.execute("SELECT * FROM runs WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        values = list(row)
        values[5] = json.loads(values[5])
        return RunInfo(*values)

    def runs(self) -> list[RunInfo]:
        """Every stored run, oldest first."""
        names = [r[0] for r in self._db.execute("SELECT name FROM runs ORDER BY created, name")]
        return [info for name in names if (info := self.run(name)) is not None]

    # requests and responses --------------------------------------------------------------------------------------

    def cached_response(self, key: str) -> tuple[int, ModelReply] | None:
        """The latest successful response to a request, if one is stored."""
        row = self._db.execute(
            "SELECT id, text, latency_s, attempts, prompt_tokens, completion_tokens, finish_reason FROM responses "
            "WHERE key = ? AND error IS NULL ORDER BY id DESC LIMIT 1",
            (key,),
        ).fetchone()
        if row is None:
            return None
        response_id, text, latency, attempts, prompt_tokens, completion_tokens, finish = row
        return response_id, ModelReply(text, None, None, latency, attempts, prompt_tokens, completion_tokens, finish)

    def record_turn(
        self,
        *,
        run: str,
        item_id: str,
        turn: TurnRecord,
        model: str,
        params: Mapping[str, Any],
        reply: ModelReply,
        cached_id: int | None = None,
    ) -> int:
        """Store a reply (unless it came from the store: ``cached_id``) as turn ``turn.turn`` of an item's
        conversation, in one transaction committed before returning; returns the response id."""
        with self._db:
            self._db.execute("BEGIN")
            return self._insert_turn(run, item_id, turn, model, params, reply, cached_id)

    def record_score(
        self,
        *,
        run: str,
        item_id: str,
        key: str,
        response_id: int,
        cached: bool,
        scores: Scores,
        answer: str | None,
        parse_failure: str | None,
        metadata: Mapping[str, Any],
        last_turn: int = 0,
    ) -> None:
        """Store an item's score on its last turn's reply (and forget turns after it, from an older attempt)."""
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM failures WHERE run = ? AND item_id = ?", (run, item_id))
            self._db.execute("DELETE FROM turns WHERE run = ? AND item_id = ? AND turn > ?", (run, item_id, last_turn))
            self._db.execute(
                "INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run,
                    item_id,
                    key,
                    response_id,
                    int(cached),
                    answer,
                    parse_failure,
                    _json(dict(scores.values)),
                    _json(dict(scores.counts)),
                    _json(list(scores.notes)),
                    _json(dict(metadata)),
                ),
            )

    def record_failure(self, *, run: str, item_id: str, response_id: int) -> None:
        """Note that an item's last request failed (it is tried again the next time the run starts)."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO failures VALUES (?, ?, ?)", (run, item_id, response_id))

    def _insert_turn(
        self,
        run: str,
        item_id: str,
        turn: TurnRecord,
        model: str,
        params: Mapping[str, Any],
        reply: ModelReply,
        cached_id: int | None,
    ) -> int:
        key = turn.key
        self._db.execute(
            "INSERT OR IGNORE INTO requests VALUES (?, ?, ?, ?)", (key, model, _json(dict(params)), _json(turn.prompt))
        )
        if cached_id is None:
            cursor = self._db.execute(
                "INSERT INTO responses (key, text, error, error_kind, latency_s, attempts, prompt_tokens, "
                "completion_tokens, finish_reason, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    valid_text(reply.text),
                    valid_text(reply.error) if reply.error is not None else None,
                    reply.error_kind,
                    reply.latency_s,
                    reply.attempts,
                    _count(reply.prompt_tokens),
                    _count(reply.completion_tokens),
                    reply.finish_reason,
                    _now(),
                ),
            )
            response_id = int(cursor.lastrowid or 0)
        else:
            response_id = cached_id
        self._db.execute(
            "INSERT OR REPLACE INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run, item_id, turn.turn, key, response_id, int(cached_id is not None),
                valid_text(turn.feedback) if turn.feedback is not None else None, int(turn.done),
            ),
        )
        return response_id

    # reading --------------------------------------------------------------------------------------------------

    def scored_items(self, run: str) -> set[str]:
        """The ids of the items of a run that have a score."""
        return {r[0] for r in self._db.execute("SELECT item_id FROM scores WHERE run = ?", (run,))}

    def scores(self, run: str) -> Iterator[ScoreRow]:
        """Every scored item of a run, by item id."""
        query = (
            "SELECT s.item_id, s.score_values, s.score_counts, s.notes, s.metadata, s.answer, s.parse_failure, "
            "r.text, r.latency_s, r.attempts, r.prompt_tokens, r.completion_tokens, s.cached "
            "FROM scores s JOIN responses r ON r.id = s.response_id WHERE s.run = ? ORDER BY s.item_id"
        )
        for row in self._db.execute(query, (run,)):
            yield ScoreRow(
                row[0],
                json.loads(row[1]),
                json.loads(row[2]),
                json.loads(row[3]),
                json.loads(row[4]),
                json.loads(row[5]) if row[5] else None,
                json.loads(row[6]) if row[6] else None,
                row[7],
                row[8],
                row[9],
                row[10],
                row[11],
                bool(row[12]),
            )

    def turns(self, run: str) -> dict[str, list[TurnRow]]:
        """Every stored turn of a run, by item id and then turn index."""
        query = (
            "SELECT t.item_id, t.turn, r.text, r.error, t.feedback, t.done, t.cached FROM turns t "
            "JOIN responses r ON r.id = t.response_id WHERE t.run = ? ORDER BY t.item_id, t.turn"
        )
        result: dict[str, list[TurnRow]] = {}
        for item_id, turn, text, error, feedback, done, cached in self._db.execute(query, (run,)):
            result.setdefault(item_id, []).append(TurnRow(turn, text, error, feedback, bool(done), bool(cached)))
        return result

    def failures(self, run: str) -> list[tuple[str, str, str]]:
        """Items whose last request failed: (item id, error kind, error)."""
        query = (
            "SELECT f.item_id, r.error_kind, r.error FROM failures f JOIN responses r ON r.id = f.response_id "
            "WHERE f.run = ? ORDER BY f.item_id"
        )
        return [(r[0], r[1] or "", r[2] or "") for r in self._db.execute(query, (run,))]

    def response_count(self) -> int:
        """How many responses (successful or not) are stored in all."""
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
