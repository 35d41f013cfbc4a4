"""Typed columns for flat values: which Arrow type a set of JSON scalars fits, if one does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

__all__ = ["ARROW_TYPES", "scalar_kind", "column_kind"]

ARROW_TYPES = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
_INT64 = (-(2**63), 2**63 - 1)


def scalar_kind(value: Any) -> str | None:
    """The column type of one JSON scalar (None for lists, objects and integers beyond int64).

    >>> scalar_kind(True), scalar_kind(3), scalar_kind(2**70), scalar_kind([1])
    ('bool', 'int64', None, None)
    """
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64" if _INT64[0] <= value <= _INT64[1] else None
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return None


def column_kind(values: Iterable[Any]) -> str | None:
    """The one column type all non-null values fit (ints widen to floats), or None when there is none.

    >>> column_kind([1, None, 2.5]), column_kind([1, "a"]), column_kind([None])
    ('float64', None, None)
    """
    kinds = set()
    for value in values:
        if value is not None:
            kind = scalar_kind(value)
            if kind is None:
                return None
            kinds.add(kind)
    if kinds == {"int64", "float64"}:
        return "float64"
    return kinds.pop() if len(kinds) == 1 else None
