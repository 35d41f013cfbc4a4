"""The run store: one SQLite file with runs, requests, responses, turns and scores.

Every response is stored with its turn (the run, item, turn index, request key and the task's feedback on it) and,
on an item's last turn, its score. The writes commit at once by default; the runner passes ``commit=False`` and
commits once per pass of its event loop (the replies that arrived in one pass share one transaction), so a run
killed at any point loses at most the requests that were in flight and the replies of that last pass; a
multi-turn conversation resumes at the first turn without a stored reply.
Requests are keyed by a fingerprint of the model, its parameters and the exact conversation (images by content):
a request whose successful response is already stored is served from the
store, never sent again, so re-running a command resumes it without re-billing anything.

A run may ask each item several times (``eval --repeats N``): scores, turns and failures carry the repeat index
(0 for the first asking, and for every run stored before repeats existed; such a store is brought to the current
layout the first time it is opened, its rows becoming repeat 0).
"""

from __future__ import annotations

import json
import sqlite3
import time
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
    repeat INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run, item_id, repeat)
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
    repeat INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run, item_id, repeat, turn)
);
CREATE TABLE IF NOT EXISTS failures (
    run TEXT NOT NULL REFERENCES runs(name),
    item_id TEXT NOT NULL,
    response_id INTEGER NOT NULL REFERENCES responses(id),
    repeat INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run, item_id, repeat)
);
"""

#: The tables whose rows belong to one asking of an item, with the primary key they have since repeats exist.
_REPEATED_TABLES = {
    "scores": "run, item_id, repeat",
    "turns": "run, item_id, repeat, turn",
    "failures": "run, item_id, repeat",
}


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
    repeat: int = 0


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn of an item's conversation, to be stored: its index, request and what the task said about it."""

    turn: int
    key: str
    prompt: Any
    feedback: str | None = None
    done: bool = True
    prompt_json: str | None = None
    """``prompt`` already encoded with sorted keys and no spaces (the request key's text of it), if at hand: stored
    as it is when it is ASCII (then it is what the store's own encoding gives)."""


@dataclass(frozen=True, slots=True)
class TurnRow:
    """One stored turn of an item's conversation, with the reply."""

    turn: int
    text: str
    error: str | None
    feedback: str | None
    done: bool
    cached: bool


_clock: list[tuple[int, str]] = [(-1, "")]  # the last whole second asked for, and its text


def _now() -> str:
    """The current UTC time to the second, ISO 8601 (the text is made once per second)."""
    second = int(time.time())
    last, text = _clock[0]
    if second != last:
        text = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
        _clock[0] = (second, text)
    return text


SQLITE_INTEGER_MAX = 2**63 - 1


def _count(value: int | None) -> int | None:
    """A usage count as the store keeps it: unknown (NULL) when it is not an integer SQLite can hold."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return value if -SQLITE_INTEGER_MAX - 1 <= value <= SQLITE_INTEGER_MAX else None


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def _json(data: Any) -> str:
    return _ENCODER.encode(data)


def _plain_dict(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """``mapping`` as a dict for the JSON encoder (itself when it is one: the encoder only reads it)."""
    return mapping if type(mapping) is dict else dict(mapping)


def _prompt_json(turn: TurnRecord) -> str:
    """The stored JSON of a turn's prompt: :func:`_json` of it, or the same text already made by the caller."""
    given = turn.prompt_json
    return given if given is not None and given.isascii() else _json(turn.prompt)


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def _add_repeats(db: sqlite3.Connection) -> None:
    """Bring a store written before repeats existed to the current layout: each per-item table gains the
    ``repeat`` column (its rows become repeat 0) and a primary key that includes it."""
    if all("repeat" in _columns(db, table) for table in _REPEATED_TABLES if _columns(db, table)):
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for table, key in _REPEATED_TABLES.items():
            columns = _columns(db, table)
            if not columns or "repeat" in columns:
                continue
            create = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
            old = f"{table}_before_repeats"
            db.execute(f"ALTER TABLE {table} RENAME TO {old}")
            body = create[0].split("(", 1)[1].rsplit("PRIMARY KEY", 1)[0]
            db.execute(f"CREATE TABLE {table} ({body}repeat INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ({key}))")
            listed = ", ".join(columns)
            db.execute(f"INSERT INTO {table} ({listed}, repeat) SELECT {listed}, 0 FROM {old}")
            db.execute(f"DROP TABLE {old}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


class _Writing:
    """The context of one write (see :meth:`Store._writing`); a class rather than a generator, as it wraps every
    stored turn and score."""

    __slots__ = ("_db", "_commit")

    def __init__(self, db: sqlite3.Connection, commit: bool) -> None:
        self._db = db
        self._commit = commit

    def __enter__(self) -> None:
        if not self._db.in_transaction:
            self._db.execute("BEGIN")

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self._db.rollback()
        elif self._commit:
            self._db.commit()


class Store:
    """The SQLite run store (one connection; use from one thread)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            _add_repeats(self._db)
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
        repeat: int = 0,
        commit: bool = True,
    ) -> int:
        """Store a reply (unless it came from the store: ``cached_id``) as turn ``turn.turn`` of an item's
        conversation (its ``repeat``-th asking); returns the response id.

        The turn is committed before returning, unless ``commit`` is false: then it stays in the open
        transaction until a later write that commits, or :meth:`commit` (the runner commits once per pass of its
        event loop, whatever arrived in that pass together).
        """
        with self._writing(commit):
            return self._insert_turn(run, item_id, turn, model, params, reply, cached_id, repeat)

    def commit(self) -> None:
        """Commit the writes left in the open transaction (nothing if none is open)."""
        if self._db.in_transaction:
            self._db.commit()

    def _writing(self, commit: bool) -> _Writing:
        """One write, in the open transaction (begun if none is): committed after it when ``commit`` is true;
        on an error the whole open transaction is rolled back."""
        return _Writing(self._db, commit)

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
        repeat: int = 0,
        commit: bool = True,
        first_attempt: bool = False,
    ) -> None:
        """Store an item's score (of its ``repeat``-th asking) on its last turn's reply (and forget its failure and
        the turns after that one, from an older attempt); committed at once unless ``commit`` is false (see
        :meth:`record_turn`). ``first_attempt`` says there is no older attempt to forget (a run that did not
        exist before), which saves the two deletions."""
        with self._writing(commit):
            if not first_attempt:
                where = "run = ? AND item_id = ? AND repeat = ?"
                self._db.execute(f"DELETE FROM failures WHERE {where}", (run, item_id, repeat))
                self._db.execute(f"DELETE FROM turns WHERE {where} AND turn > ?", (run, item_id, repeat, last_turn))
            self._db.execute(
                "INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run,
                    item_id,
                    key,
                    response_id,
                    int(cached),
                    answer,
                    parse_failure,
                    _json(_plain_dict(scores.values)),
                    _json(_plain_dict(scores.counts)),
                    _json(list(scores.notes)),
                    _json(_plain_dict(metadata)),
                    repeat,
                ),
            )

    def record_failure(self, *, run: str, item_id: str, response_id: int, repeat: int = 0, commit: bool = True) -> None:
        """Note that an item's last request (of its ``repeat``-th asking) failed (it is tried again the next time
        the run starts); committed at once unless ``commit`` is false (see :meth:`record_turn`)."""
        with self._writing(commit):
            self._db.execute("INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?)", (run, item_id, response_id, repeat))

    def _insert_turn(
        self,
        run: str,
        item_id: str,
        turn: TurnRecord,
        model: str,
        params: Mapping[str, Any],
        reply: ModelReply,
        cached_id: int | None,
        repeat: int,
    ) -> int:
        key = turn.key
        self._db.execute(
            "INSERT OR IGNORE INTO requests VALUES (?, ?, ?, ?)",
            (key, model, _json(_plain_dict(params)), _prompt_json(turn)),
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
            "INSERT OR REPLACE INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run,
                item_id,
                turn.turn,
                key,
                response_id,
                int(cached_id is not None),
                valid_text(turn.feedback) if turn.feedback is not None else None,
                int(turn.done),
                repeat,
            ),  # fmt: skip
        )
        return response_id

    # reading --------------------------------------------------------------------------------------------------

    def scored_items(self, run: str, repeat: int = 0) -> set[str]:
        """The ids of the items of a run that have a score (in their ``repeat``-th asking)."""
        query = "SELECT item_id FROM scores WHERE run = ? AND repeat = ?"
        return {r[0] for r in self._db.execute(query, (run, repeat))}

    def scored_askings(self, run: str) -> set[tuple[str, int]]:
        """(item id, repeat) of every scored asking of a run."""
        return {(r[0], r[1]) for r in self._db.execute("SELECT item_id, repeat FROM scores WHERE run = ?", (run,))}

    def repeats(self, run: str) -> list[int]:
        """The repeat indices of a run that have at least one score, in order (``[0]`` for a run asked once)."""
        query = "SELECT DISTINCT repeat FROM scores WHERE run = ? ORDER BY repeat"
        return [r[0] for r in self._db.execute(query, (run,))]

    def scores(self, run: str, repeat: int | None = 0) -> Iterator[ScoreRow]:
        """Every scored item of a run in its ``repeat``-th asking (every asking when ``repeat`` is None), by item
        id and then repeat."""
        query = (
            "SELECT s.item_id, s.score_values, s.score_counts, s.notes, s.metadata, s.answer, s.parse_failure, "
            "r.text, r.latency_s, r.attempts, r.prompt_tokens, r.completion_tokens, s.cached, s.repeat "
            "FROM scores s JOIN responses r ON r.id = s.response_id WHERE s.run = ?"
        )
        arguments: tuple[Any, ...] = (run,)
        if repeat is not None:
            query += " AND s.repeat = ?"
            arguments = (run, repeat)
        for row in self._db.execute(query + " ORDER BY s.item_id, s.repeat", arguments):
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
                row[13],
            )

    def turns(self, run: str, repeat: int = 0) -> dict[str, list[TurnRow]]:
        """Every stored turn of a run's ``repeat``-th asking, by item id and then turn index."""
        query = (
            "SELECT t.item_id, t.turn, r.text, r.error, t.feedback, t.done, t.cached FROM turns t "
            "JOIN responses r ON r.id = t.response_id WHERE t.run = ? AND t.repeat = ? ORDER BY t.item_id, t.turn"
        )
        result: dict[str, list[TurnRow]] = {}
        for item_id, turn, text, error, feedback, done, cached in self._db.execute(query, (run, repeat)):
            result.setdefault(item_id, []).append(TurnRow(turn, text, error, feedback, bool(done), bool(cached)))
        return result

    def turn_latencies(self, run: str) -> list[float]:
        """The latency in seconds of the reply to every stored turn of a run (every repeat), in no set order."""
        query = "SELECT r.latency_s FROM turns t JOIN responses r ON r.id = t.response_id WHERE t.run = ?"
        return [float(r[0]) for r in self._db.execute(query, (run,))]

    def failures(self, run: str, repeat: int | None = 0) -> list[tuple[str, str, str]]:
        """Items whose last request failed in their ``repeat``-th asking (any asking when None): (item id, error
        kind, error)."""
        query = (
            "SELECT f.item_id, r.error_kind, r.error FROM failures f JOIN responses r ON r.id = f.response_id "
            "WHERE f.run = ?"
        )
        arguments: tuple[Any, ...] = (run,)
        if repeat is not None:
            query += " AND f.repeat = ?"
            arguments = (run, repeat)
        return [(r[0], r[1] or "", r[2] or "") for r in self._db.execute(query + " ORDER BY f.item_id", arguments)]

    def response_count(self) -> int:
        """How many responses (successful or not) are stored in all."""
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
