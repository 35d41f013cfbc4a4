"""A time budget over every stage of compiling one crease pattern.

The compiler's stages announce themselves with :func:`enter_stage` and what they have learnt with
:func:`note`; both do nothing unless a :func:`time_budget` is active. Inside one, a stage entered after the
budget has ended raises :class:`BudgetExceeded` at once, and (in the main thread, where POSIX timers can
interrupt) a timer raises it in the middle of a stage that runs past the budget. The counting stage stops on
its own at the budget (its result is then a lower bound), so there the timer waits a grace period longer.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from foldbench.errors import FoldbenchError

__all__ = [
    "COUNTING",
    "BudgetExceeded",
    "StageCallback",
    "TimeBudget",
    "enter_stage",
    "note",
    "remaining_seconds",
    "time_budget",
]

COUNTING = "counting"
"""The stage that stops itself at the budget (a lower bound on the states) rather than being cut off."""

COUNTING_GRACE_FRACTION = 0.25
"""The counting stage may overrun the budget by this fraction of it (at least ``COUNTING_GRACE_MIN`` s) to
finish its last round and check the components not yet counted, before the timer cuts it off."""
COUNTING_GRACE_MIN = 1.0

TIMER_REPEAT = 0.05
"""Seconds between the timer's repeats once it has fired: an interruption raised where it cannot propagate (a
callback from compiled code swallows it) is raised again until one ends the stage."""

StageCallback = Callable[[str], None]
"""Told the name of each stage as it starts (e.g. to show it on a progress bar)."""


class BudgetExceeded(FoldbenchError):
    """The time budget ended during ``stage``; ``known`` holds what had been found by then."""

    def __init__(self, stage: str, seconds: float, known: dict[str, Any]) -> None:
        self.stage = stage
        self.seconds = seconds
        self.known = dict(known)
        super().__init__(f"the time budget of {seconds:g} s ended while {stage}")

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` record of ``foldbench fold --json`` for a run the budget stopped."""
        return {"class": "BUDGET", "code": "E_TIME_BUDGET", "message": str(self),
                "where": {"stage": self.stage, "budget_seconds": self.seconds, "known": self.known}}


@dataclass
class TimeBudget:
    """The active budget: its deadline (``time.perf_counter`` seconds), the current stage, the facts noted."""

    seconds: float
    deadline: float
    on_stage: StageCallback | None = None
    stage: str = "starting"
    known: dict[str, Any] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    stage_started: float = 0.0
    timer: bool = False

    def exceeded(self) -> BudgetExceeded:
        """The error for the budget ending now, with the stages' times so far among what is known."""
        self._close_stage(time.perf_counter())
        known = {**self.known, "stage_seconds": {k: round(v, 4) for k, v in self.stage_seconds.items()}}
        return BudgetExceeded(self.stage, self.seconds, known)

    def _close_stage(self, now: float) -> None:
        if self.stage_started:
            self.stage_seconds[self.stage] = self.stage_seconds.get(self.stage, 0.0) + now - self.stage_started
        self.stage_started = now

    def enter(self, stage: str) -> None:
        """Start ``stage``: raise when the budget has already ended, else re-arm the timer for this stage."""
        now = time.perf_counter()
        self._close_stage(now)
        self.stage = stage
        if now >= self.deadline:
            raise self.exceeded()
        if self.on_stage is not None:
            self.on_stage(stage)
        if self.timer:
            grace = max(COUNTING_GRACE_MIN, COUNTING_GRACE_FRACTION * self.seconds) if stage == COUNTING else 0.0
            signal.setitimer(signal.ITIMER_REAL, max(self.deadline + grace - now, 1e-6), TIMER_REPEAT)


_active: list[TimeBudget] = []


def enter_stage(stage: str) -> None:
    """Announce the start of a compiler stage to the active budget (nothing without one)."""
    if _active:
        _active[-1].enter(stage)


def note(**facts: Any) -> None:
    """Record facts found so far (counts of vertices, faces, variables, states...) with the active budget."""
    if _active:
        _active[-1].known.update(facts)


def remaining_seconds() -> float | None:
    """Seconds left in the active budget (None without one; never below zero)."""
    if not _active:
        return None
    return max(0.0, _active[-1].deadline - time.perf_counter())


@contextmanager
def time_budget(seconds: float | None, on_stage: StageCallback | None = None) -> Iterator[TimeBudget | None]:
    """Bound every stage compiled inside the block to ``seconds`` in all (None: no budget).

    Raises:
        BudgetExceeded: the budget ended; says in which stage and what was known.
    """
    if seconds is None:
        yield None
        return
    started = time.perf_counter()
    budget = TimeBudget(seconds, started + seconds, on_stage, stage_started=started)
    budget.timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous_handler: Any = None
    if budget.timer:
        def on_alarm(signum: int, frame: Any) -> None:
            if budget in _active:  # not once the block is being left
                raise budget.exceeded()

        previous_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6), TIMER_REPEAT)
    _active.append(budget)
    try:
        yield budget
    finally:
        _active.remove(budget)
        if budget.timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)
