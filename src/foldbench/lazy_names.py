"""Names a package re-exports from its modules, imported on first use (a module ``__getattr__``, PEP 562), so
importing the package itself stays cheap (an evaluation or a fold from a fresh process imports only what it uses)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, sources: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for names (``sources``: name -> the module defining it,
    absolute or relative to ``package`` such as ``".store"``) that are imported the first time they are read, then
    kept in the package.

    >>> getattr_, dir_ = lazy_exports("json", {"JSONDecoder": ".decoder", "dumps": "json"})
    >>> getattr_("JSONDecoder").__name__, getattr_("dumps").__name__, "JSONDecoder" in dir_()
    ('JSONDecoder', 'dumps', True)
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'json' has no attribute 'nothing'
    """

    def __getattr__(name: str) -> Any:
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(sources[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(sources))

    return __getattr__, __dir__
