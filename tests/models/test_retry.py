"""Backoff pauses and Retry-After parsing."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from foldbench.models._retry import backoff_delay, is_retryable_status, parse_retry_after


@given(st.integers(0, 200), st.floats(0, 10), st.floats(0, 100), st.integers(0, 2**32))
def test_backoff_stays_in_the_upper_half_of_its_ceiling(retry: int, base: float, cap: float, seed: int) -> None:
    ceiling = min(cap, base * 2.0 ** min(retry, 64))
    delay = backoff_delay(retry, base_s=base, max_s=cap, rng=random.Random(seed))
    assert ceiling / 2 <= delay <= ceiling


def test_backoff_grows_then_saturates() -> None:
    rng = random.Random(0)
    ceilings = [max(backoff_delay(i, base_s=1.0, max_s=8.0, rng=rng) for _ in range(50)) for i in range(6)]
    assert ceilings[0] < ceilings[1] < ceilings[2] < ceilings[3]
    assert all(4.0 <= c <= 8.0 for c in ceilings[3:])


def test_retry_after_forms() -> None:
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    later = (now + timedelta(seconds=42)).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert parse_retry_after(later, now=now) == 42.0
    assert parse_retry_after("1.5") == 1.5
    assert parse_retry_after("inf") is None and parse_retry_after("") is None and parse_retry_after("later") is None


def test_which_statuses_are_retried() -> None:
    assert [s for s in range(400, 600) if is_retryable_status(s)] == [408, 409, 425, 429, *range(500, 600)]
