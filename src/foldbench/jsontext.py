"""JSON read from users' files, bounded: every way a hostile document can fail becomes a :class:`json.JSONDecodeError`.

The standard decoder raises :class:`RecursionError` on nesting deeper than the interpreter's stack (a ``.fold``
file of 100,000 ``[``) and a plain :class:`ValueError` on an integer longer than Python's 4,300-digit conversion
limit; readers that catch ``json.JSONDecodeError`` (a ``ValueError``) would let both through as tracebacks.
:func:`loads` turns them into decode errors that name what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_INTEGER_DIGITS", "has_long_digit_run", "loads"]

MAX_INTEGER_DIGITS = 1000
"""Integers with more digits than this are refused (no foldbench file needs one)."""


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(literal.lstrip('-'))} digits (at most {MAX_INTEGER_DIGITS})")
    return int(literal)


_DECODER = json.JSONDecoder(parse_int=_bounded_int)
_PLAIN_DECODER = json.JSONDecoder()
_DIGITS_ONLY = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
"""Turns every ASCII digit of a UTF-8 text into ``0`` and every other byte into a blank (JSON numbers are written
in ASCII digits only)."""
_LONG_RUN = b"0" * (MAX_INTEGER_DIGITS + 1)


def has_long_digit_run(text: str) -> bool:
    """Whether ``text`` holds more than :data:`MAX_INTEGER_DIGITS` ASCII digits in a row.

    A text without such a run holds no over-long integer, so the C decoder alone reads it (a Python call per
    integer, as the bounded decoder makes, costs more than the rest of the parse). The digits are found by a byte
    translation and one substring search, both in C: about 45 ms for the 43 MB of the 366 OrigamiBench models,
    where the regular expression ``[0-9]{1001}`` took 0.6-1.7 s.

    >>> has_long_digit_run("[" + "7" * 1001 + "]"), has_long_digit_run("7" * 1000 + ".5")
    (True, False)
    """
    translated = text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY)
    return _LONG_RUN in translated


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises only :class:`json.JSONDecodeError` on bad input.

    >>> loads('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads('[' * 100_000)
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: nested too deeply (past the reader's depth limit): line 1 column 1 (char 0)
    >>> loads('9' * 5000)
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: an integer of 5000 digits (at most 1000): line 1 column 1 (char 0)
    """
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    decoder = _DECODER if has_long_digit_run(text) else _PLAIN_DECODER
    try:
        return decoder.decode(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply (past the reader's depth limit)", text, 0) from None
    except ValueError as error:  # an over-long integer
        raise json.JSONDecodeError(str(error), text, 0) from None
