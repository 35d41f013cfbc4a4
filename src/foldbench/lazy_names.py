"""Package names imported from their modules on first use (PEP 562), for packages whose ``__init__`` must stay
light (an evaluation or a fold from a fresh process imports only what it uses)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``homes`` is imported from its module
    (``package.<home>``) when first asked for and then kept in the package's namespace; ``public`` (the package's
    ``__all__``) is listed by ``dir`` before any is imported.

    >>> getattr_, dir_ = lazy_names("json", {"JSONDecoder": "decoder"}, ["JSONDecoder"])
    >>> getattr_("JSONDecoder").__name__, "JSONDecoder" in dir_()
    ('JSONDecoder', True)
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'json' has no attribute 'nothing'
    """
    names = tuple(public)

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
