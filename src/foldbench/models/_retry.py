"""When to retry a failed call and how long to wait: exponential backoff with jitter, or the server's Retry-After."""

from __future__ import annotations

import email.utils
import math
import random
from datetime import UTC, datetime

__all__ = ["RETRYABLE_STATUS", "backoff_delay", "is_retryable_status", "parse_retry_after"]

#: Statuses worth asking again after a pause (besides every 5xx).
RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


def is_retryable_status(status: int) -> bool:
    """True for rate limits, request timeouts and server errors (5xx); False for other client errors.

    >>> [is_retryable_status(s) for s in (200, 401, 404, 429, 500, 503)]
    [False, False, False, True, True, True]
    """
    return status in RETRYABLE_STATUS or 500 <= status <= 599


def backoff_delay(retry_index: int, *, base_s: float, max_s: float, rng: random.Random) -> float:
    """The pause before retry number ``retry_index`` (0 for the first retry), in seconds.

    The ceiling doubles with each retry, ``min(max_s, base_s * 2**retry_index)``, and the pause is drawn
    uniformly from its upper half, so concurrent callers spread out without ever retrying at once.

    >>> rng = random.Random(0)
    >>> backoff_delay(0, base_s=0.0, max_s=60, rng=rng)
    0.0
    >>> 4.0 <= backoff_delay(3, base_s=1.0, max_s=60, rng=rng) <= 8.0
    True
    >>> 30.0 <= backoff_delay(50, base_s=1.0, max_s=60, rng=rng) <= 60.0
    True
    """
    ceiling = min(max_s, base_s * 2.0 ** min(retry_index, 64))
    return ceiling / 2 + rng.random() * ceiling / 2


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta seconds or an HTTP date; None when absent or unreadable.

    >>> parse_retry_after("2"), parse_retry_after("0.25"), parse_retry_after(None), parse_retry_after("soon")
    (2.0, 0.25, None, None)
    >>> parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now=datetime(1994, 11, 6, 8, 49, 30, tzinfo=UTC))
    7.0
    >>> parse_retry_after("-3")
    0.0
    """
    if value is None or not value.strip():
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            moment = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        seconds = (moment - (now or datetime.now(UTC))).total_seconds()
    if not math.isfinite(seconds):
        return None
    return max(0.0, seconds)
