"""An explicit memo of fold states and holes, owned by whoever generates or checks puzzles.

A question and its pictures fold the same sequences several times (sampling, checking, drawing); a
:class:`FoldMemo` keeps the most recent results so the work is done once. It is an object passed in, never module
state: two generators (or two environments running rollouts in parallel) each hold their own, and a memo may also
be shared between threads (its operations take a lock). Entries are keyed by value (the sheet's name and the
fold steps, or the whole puzzle), so a stale entry cannot exist: the same key always has the same result.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

__all__ = ["DEFAULT_MEMO_SIZE", "FoldMemo"]

DEFAULT_MEMO_SIZE = 1024


class FoldMemo:
    """A bounded, thread-safe memo (least recently used entries leave first) of fold states and holes.

    >>> memo = FoldMemo(size=1)
    >>> memo.put("states", ("square", ()), "a"); memo.put("states", ("circle", ()), "b")
    >>> memo.get("states", ("square", ())) is None, memo.get("states", ("circle", ()))
    (True, 'b')
    """

    def __init__(self, size: int = DEFAULT_MEMO_SIZE) -> None:
        if size < 1:
            raise ValueError(f"a memo needs room for at least one entry, got size {size}")
        self.size = size
        self._entries: OrderedDict[tuple[str, Hashable], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, kind: str, key: Hashable) -> Any | None:
        """The remembered value of ``kind`` (``"states"``, ``"holes"`` or ``"pattern"``) for ``key``, or None."""
        with self._lock:
            value = self._entries.get((kind, key))
            if value is not None:
                self._entries.move_to_end((kind, key))
            return value

    def put(self, kind: str, key: Hashable, value: Any) -> None:
        """Remember ``value`` (the caller guarantees it is the exact result for ``key``)."""
        with self._lock:
            self._entries[(kind, key)] = value
            self._entries.move_to_end((kind, key))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)
