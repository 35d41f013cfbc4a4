"""Holding a scripted server's replies at a known point, and waiting on a SQLite table instead of a clock.

A test that kills a run half-way lets :class:`ReplyGate` answer the first ``passing`` requests and hold every
later one until :meth:`ReplyGate.release`, so the run stops making progress at a known point; it then waits with
:func:`wait_for_rows` until what was answered is stored, kills the run, and releases the gate so a resumed run is
answered. The per-test timeout (pyproject) bounds every wait."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

from foldbench.testing.fake_openai import Behaviour


class ReplyGate:
    """Lets ``passing`` replies through, then holds each request until :meth:`release`."""

    def __init__(self, passing: int) -> None:
        self.passing = passing
        self._served = 0
        self._lock = threading.Lock()
        self._released = threading.Event()

    def __call__(self, behaviour: Behaviour) -> Behaviour:
        """Called in the server's request thread: returns ``behaviour`` at once or after the release."""
        with self._lock:
            self._served += 1
            held = self._served > self.passing
        if held:
            self._released.wait()
        return behaviour

    def release(self) -> None:
        """Answer the held requests and every later one."""
        self._released.set()


def count_rows(db: Path, query: str) -> int:
    """The first column of ``query``'s first row, 0 while the database or its tables do not exist yet."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            return int(connection.execute(query).fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def wait_for_rows(db: Path, query: str, at_least: int) -> int:
    """Wait until ``query`` counts ``at_least`` rows (the run writing them is held, so the count settles)."""
    while (found := count_rows(db, query)) < at_least:
        time.sleep(0.05)
    return found


def kill_once_stored(process: subprocess.Popen, db: Path, query: str, at_least: int, gate: ReplyGate) -> None:
    """Wait until ``query`` counts ``at_least`` rows, kill ``process`` with SIGKILL, and release ``gate`` (also
    when the wait fails), so that a resumed run is answered."""
    try:
        wait_for_rows(db, query, at_least)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    finally:
        gate.release()
