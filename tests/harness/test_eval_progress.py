"""The eval command draws a progress bar only where one can show: stderr a terminal, or the environment telling
rich to draw anyway (``FORCE_COLOR``, ``TTY_COMPATIBLE``); elsewhere it makes none and leaves rich unimported."""

from __future__ import annotations

import io
import sys

import pytest

from foldbench.cli import evaluate


class _Stream(io.StringIO):
    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        if self.closed:
            raise ValueError("I/O operation on closed file")  # as a real stream says
        return self.terminal


@pytest.mark.parametrize(
    ("terminal", "environment", "drawn"),
    [
        (True, {}, True),
        (False, {}, False),
        (False, {"FORCE_COLOR": "1"}, True),
        (False, {"TTY_COMPATIBLE": "1"}, True),
    ],
)
def test_a_bar_is_made_only_where_it_can_show(
    monkeypatch: pytest.MonkeyPatch, terminal: bool, environment: dict[str, str], drawn: bool
) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stderr", _Stream(terminal))
    assert evaluate._stderr_may_be_drawn_on() is drawn


def test_without_a_terminal_the_advance_function_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    stream = _Stream(False)
    monkeypatch.setattr(sys, "stderr", stream)
    bars = evaluate._Bars()
    advance = bars.start("run", 3)
    for _ in range(3):
        advance()
    bars.close()
    assert stream.getvalue() == ""


def test_a_closed_stderr_is_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    stream = _Stream(True)
    stream.close()
    monkeypatch.setattr(sys, "stderr", stream)
    assert evaluate._stderr_may_be_drawn_on() is False
