"""JSON read from users' files, bounded: every way a hostile document can fail becomes a :class:`json.JSONDecodeError`.

The standard decoder raises :class:`RecursionError` on nesting deeper than the interpreter's stack (a ``.fold``
file of 100,000 ``[``) and a plain :class:`ValueError` on an integer longer than Python's 4,300-digit conversion
limit; readers that catch ``json.JSONDecodeError`` (a ``ValueError``) would let both through as tracebacks.
:func:`loads` turns them into decode errors that name what is wrong.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_INTEGER_DIGITS", "loads"]

MAX_INTEGER_DIGITS = 1000
"""Integers with more digits than this are refused (no foldbench file needs one)."""


def _bounded_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(literal.lstrip('-'))} digits (at most {MAX_INTEGER_DIGITS})")
    return int(literal)


_DECODER = json.JSONDecoder(parse_int=_bounded_int)
_PLAIN_DECODER = json.JSONDecoder()
_LONG_DIGIT_RUN = re.compile(rf"\d{{{MAX_INTEGER_DIGITS + 1}}}")
"""A text without such a run holds no over-long integer, so the C decoder reads it (a Python call per integer,
as the bounded decoder makes, costs more than the rest of the parse)."""


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
    decoder = _DECODER if _LONG_DIGIT_RUN.search(text) else _PLAIN_DECODER
    try:
        return decoder.decode(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply (past the reader's depth limit)", text, 0) from None
    except ValueError as error:  # an over-long integer
        raise json.JSONDecodeError(str(error), text, 0) from None
