"""Names a package re-exports from its modules, imported on first use (a module ``__getattr__``, PEP 562), so
importing the package itself stays cheap."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, sources: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for names (``sources``: name -> the module defining it)
    that are imported the first time they are read, then kept in the package.

    >>> getattr_, _ = lazy_exports("json", {"JSONDecoder": "json.decoder"})
    >>> getattr_("JSONDecoder").__name__
    'JSONDecoder'
    """

    def __getattr__(name: str) -> Any:
        if name not in sources:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(sources[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(sources))

    return __getattr__, __dir__
