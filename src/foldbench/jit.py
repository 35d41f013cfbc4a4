"""Compiled loops that cost nothing until they are needed.

:func:`kernel` marks a function written in numba's subset of Python. Nothing is compiled, and numba is not even
imported, until a call needs the compiled version: numba's import and its first dispatch cost about a second,
far more than a small crease pattern takes to fold. So, until numba is loaded in the process, a call whose
arguments hold at most :data:`PYTHON_LIMIT` array elements, or the kernel's own ``python_limit`` (counted
through tuples; parameters named as lookup tables not counted), runs the very same function as plain Python
over the same numpy arrays, its scalar results turned into Python numbers as numba returns them; the kernels
it calls run as Python too. Any other call compiles the function with numba (once per process and argument
types) and runs that; so does every call once kernels have spent :data:`PYTHON_SECONDS` as Python in the
process (a long run pays numba's start once rather than Python's slowness on every pattern); from then on
every kernel call runs compiled. Both ways give the same answers (the kernels keep to arithmetic whose numpy
and numba types agree; the tests compare them).

Compiled code is cached on disk under ``numba`` in foldbench's cache (:func:`foldbench.cache.cache_root`, i.e.
``$FOLDBENCH_CACHE_DIR``), or in ``$NUMBA_CACHE_DIR`` when that is set: never beside the sources, whose folder may
be read-only. A folder that cannot be written leaves the kernels compiled in memory only.

A kernel may call other kernels; numba sees them as its own compiled functions. Numba-only specialisations
of a plain function (:func:`numba.extending.overload`) are declared with :func:`compiled_overload` and are
registered when numba is first imported.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.cache import cache_root

__all__ = [
    "PYTHON_LIMIT",
    "PYTHON_SECONDS",
    "Kernel",
    "compiled_overload",
    "kernel",
    "kernels_run_as",
    "numba_cache_dir",
    "kernels_compiled",
    "numba_loaded",
]

PYTHON_LIMIT = 4096
"""Array elements (all counted arguments together) up to which a kernel runs as plain Python before numba is
loaded: a crease pattern whose every call is that small folds in 0.02-0.4 s of CPU so, while numba's import and
cache loads take 1.5 s of CPU (both measured on the OrigamiBench models, on a loaded machine)."""

PYTHON_SECONDS = 0.5
"""Time kernels may spend as plain Python in one process before numba is loaded for all later calls."""

MODES = ("auto", "python", "compiled")
_state: dict[str, Any] = {"mode": "auto", "python_seconds": 0.0}
_calls = threading.local()  # ``depth``: kernels running as Python in this thread, one inside the other
_overloads: list[tuple[Callable[..., Any], Callable[..., Any]]] = []
_numba_lock = threading.RLock()
_numba_ready: list[Any] = []


def numba_loaded() -> bool:
    """Whether a kernel has needed numba in this process (from then on kernels run compiled)."""
    return bool(_numba_ready)


def kernels_compiled() -> bool:
    """Whether a kernel called now runs compiled whatever its input's size: numba is loaded (or the mode is
    ``"compiled"``) and the mode is not ``"python"``. Code with a compiled-only path (one that relies on numba's
    semantics, e.g. its error model) takes it only then."""
    mode = _state["mode"]
    return mode == "compiled" or (mode == "auto" and bool(_numba_ready))


@contextmanager
def kernels_run_as(mode: str) -> Iterator[None]:
    """Inside the block, kernels run ``"python"`` (always plain Python), ``"compiled"`` (always numba) or
    ``"auto"`` (the default rule); for comparing the two ways."""
    if mode not in MODES:
        raise ValueError(f"kernel mode must be one of {', '.join(MODES)}, got {mode!r}")
    previous = _state["mode"]
    _state["mode"] = mode
    try:
        yield
    finally:
        _state["mode"] = previous


def numba_cache_dir() -> Path:
    """Where compiled kernels are cached: ``$NUMBA_CACHE_DIR`` if set, else ``numba`` in foldbench's cache."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or cache_root() / "numba")


def _element_count(value: Any, limit: int) -> int:
    """Array elements in ``value`` (arrays, tuples and lists of them), counting stops once past ``limit``."""
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, tuple | list):
        total = 0
        for part in value:
            total += _element_count(part, limit)
            if total > limit:
                break
        return total
    return 0


_AS_IS = frozenset({int, float, bool, np.ndarray, type(None)})


def _as_numba_returns(value: Any) -> Any:
    """Numpy scalars as Python numbers (tuples walked), as a compiled function hands them back."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is tuple:
        return tuple([_as_numba_returns(part) for part in value])
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(_as_numba_returns(part) for part in value)
    return value


class Kernel:
    """A function compiled by numba on the first call that needs it (see the module's docstring).

    ``tables`` names parameters that hold fixed lookup tables: they are not counted as the input's size.
    ``python_limit`` replaces :data:`PYTHON_LIMIT` for a kernel whose work grows faster than its input (a search).
    """

    def __init__(self, function: Callable[..., Any], tables: tuple[str, ...] = (),
                 python_limit: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.py_func = function
        self.options = dict(options or {})
        self.python_limit = PYTHON_LIMIT if python_limit is None else python_limit
        self._dispatcher: Any = None
        code = function.__code__
        parameters = code.co_varnames[:code.co_argcount]
        unknown = set(tables) - set(parameters)
        if unknown:
            raise TypeError(f"{function.__qualname__} has no parameter {sorted(unknown)[0]!r}")
        self._counted = tuple(i for i, name in enumerate(parameters) if name not in tables)
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> Any:
        mode = _state["mode"]
        if mode == "python":
            return _as_numba_returns(self.py_func(*args))
        if mode == "auto" and (getattr(_calls, "depth", 0) > 0 or self._python_first(args)):
            return self._timed_python(args)  # a kernel called by one running as Python runs as Python too
        return self.dispatcher(*args)

    def _python_first(self, args: tuple[Any, ...]) -> bool:
        if _numba_ready or _state["python_seconds"] >= PYTHON_SECONDS:
            return False
        return _element_count([args[i] for i in self._counted], self.python_limit) <= self.python_limit

    def _timed_python(self, args: tuple[Any, ...]) -> Any:
        """Run as Python, adding the time of outermost calls to the process's Python budget."""
        depth = getattr(_calls, "depth", 0)
        _calls.depth = depth + 1
        if depth:  # inside an outer kernel, whose call is timed
            try:
                return _as_numba_returns(self.py_func(*args))
            finally:
                _calls.depth = depth
        start = time.perf_counter()
        try:
            return _as_numba_returns(self.py_func(*args))
        finally:
            _calls.depth = depth
            _state["python_seconds"] += time.perf_counter() - start

    @property
    def dispatcher(self) -> Any:
        """The numba dispatcher (numba is imported and the disk cache attached on first use)."""
        if self._dispatcher is None:
            with _numba_lock:
                if self._dispatcher is None:
                    self._dispatcher = _compile_lazily(self.py_func, self.options)
        return self._dispatcher

    def __repr__(self) -> str:
        return f"<kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def kernel(
    function: Callable[..., Any] | None = None, *, tables: tuple[str, ...] = (), python_limit: int | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """Decorator: ``function`` runs as plain Python on small inputs and compiled (numba, disk-cached) otherwise.

    ``@kernel`` or ``@kernel(tables=("name", ...), python_limit=N, options={...})`` (see :class:`Kernel`);
    ``options`` are passed to ``numba.njit`` (e.g. ``{"error_model": "numpy"}``).
    """
    if function is None:
        return lambda inner: Kernel(inner, tables, python_limit, options)
    return Kernel(function, tables, python_limit, options)


def compiled_overload(target: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: ``numba.extending.overload(target)``, registered when numba is first imported."""

    def register(implementation: Callable[..., Any]) -> Callable[..., Any]:
        with _numba_lock:
            _overloads.append((target, implementation))
            if _numba_ready:
                _numba_ready[0].extending.overload(target)(implementation)
        return implementation

    return register


def _numba() -> Any:
    """numba, imported on first need, with kernels typed as its dispatchers and the overloads registered."""
    with _numba_lock:
        if not _numba_ready:
            import numba
            import numba.extending
            from numba.core import types

            @numba.extending.typeof_impl.register(Kernel)
            def _typeof_kernel(value: Kernel, context: Any) -> Any:
                return types.Dispatcher(value.dispatcher)

            for target, implementation in _overloads:
                numba.extending.overload(target)(implementation)
            _numba_ready.append(numba)
        return _numba_ready[0]


def _compile_lazily(function: Callable[..., Any], options: dict[str, Any] | None = None) -> Any:
    """A numba dispatcher for ``function`` (``options`` passed to ``numba.njit``) whose cache lives in
    :func:`numba_cache_dir`."""
    numba = _numba()
    dispatcher = numba.njit(function, **(options or {}))
    try:
        dispatcher._cache = _cache_class()(function)
    except (RuntimeError, OSError):  # no writable cache folder: compile in memory only
        pass
    return dispatcher


@functools.cache
def _cache_class() -> type:
    """numba's function cache with one locator: :func:`numba_cache_dir`, one sub-folder per source folder."""
    from numba.core import caching

    base = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator

    class FoldbenchCacheLocator(base):  # type: ignore[misc,valid-type]
        def __init__(self, py_func: Callable[..., Any], py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(numba_cache_dir() / self.get_suitable_cache_subpath(py_file))

        @classmethod
        def from_function(cls, py_func: Callable[..., Any], py_file: str) -> Any:
            return super(base, cls).from_function(py_func, py_file)

    class FoldbenchCacheImpl(caching.CompileResultCacheImpl):  # type: ignore[misc]
        _locator_classes = [FoldbenchCacheLocator]

    class FoldbenchFunctionCache(caching.FunctionCache):  # type: ignore[misc]
        _impl_class = FoldbenchCacheImpl

    return FoldbenchFunctionCache
