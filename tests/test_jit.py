"""Kernels (foldbench.jit): run as plain Python or compiled they answer alike; compiled code is cached in
foldbench's cache folder, never beside the sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import foldbench
from foldbench import jit
from foldbench.crease.graph import planar
from foldbench.crease.io.collection import paper_models_folder
from foldbench.crease.layers import _cell_kernels
from foldbench.crease.precision.folded_gaps import _narrow_gaps_small
from foldbench.crease.summary import compile_with_summary
from foldbench.origami import metrics

PACKAGE = Path(foldbench.__file__).parent


def _both_ways(kernel: jit.Kernel, *args: object) -> tuple[object, object]:
    with jit.kernels_run_as("python"):
        as_python = kernel(*(np.copy(a) if isinstance(a, np.ndarray) else a for a in args))
    with jit.kernels_run_as("compiled"):
        as_compiled = kernel(*(np.copy(a) if isinstance(a, np.ndarray) else a for a in args))
    return as_python, as_compiled


def _same(first: object, second: object) -> None:
    if isinstance(first, tuple):
        assert isinstance(second, tuple) and len(first) == len(second)
        for a, b in zip(first, second, strict=True):
            _same(a, b)
    elif isinstance(first, np.ndarray):
        assert isinstance(second, np.ndarray)
        assert first.dtype == second.dtype
        np.testing.assert_array_equal(first, second)
    else:
        assert type(first) is type(second)
        assert first == second


coordinates = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(points=arrays(np.float64, st.tuples(st.integers(0, 12), st.just(2)), elements=coordinates),
       nudges=st.lists(st.sampled_from([0.0, 1e-9, -1e-9, 3e-7, 1e-6, 2e-6]), min_size=2, max_size=2),
       tolerance=st.sampled_from([1e-6, 1e-3, 0.25]))
def test_merging_close_points_is_the_same_as_python_and_compiled(
    points: np.ndarray, nudges: list[float], tolerance: float,
) -> None:
    points = np.concatenate([points, points[:3] + np.array(nudges)])  # near-duplicates around the tolerance
    cells = np.floor(points / tolerance).astype(np.int64)
    _same(*_both_ways(planar._merge_small, points, cells, tolerance))


@settings(max_examples=60, deadline=None)
@given(coords=arrays(np.float64, st.tuples(st.integers(0, 9), st.just(2)), elements=coordinates),
       edge_picks=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=12),
       band=st.tuples(st.sampled_from([0.0, 1e-9, 1e-3]), st.sampled_from([1e-6, 0.1, 0.5, 1.0])))
def test_narrow_gaps_are_the_same_as_python_and_compiled(
    coords: np.ndarray, edge_picks: list[tuple[int, int]], band: tuple[float, float],
) -> None:
    count = len(coords)
    ends = np.array([(a % count, b % count) for a, b in edge_picks if count and a % count != b % count],
                    dtype=np.int64).reshape(-1, 2)
    _same(*_both_ways(_narrow_gaps_small, coords, ends, band[0], band[1]))


@settings(max_examples=40, deadline=None)
@given(mask=arrays(np.bool_, st.tuples(st.integers(0, 12), st.integers(0, 12))))
def test_connected_regions_of_a_mask_are_the_same_as_python_and_compiled(mask: np.ndarray) -> None:
    labels, count = _both_ways(metrics._label, mask)
    _same(labels, count)


def test_a_scalar_result_comes_back_as_a_python_number_either_way() -> None:
    pairs = np.array([[0, 1], [0, 2], [1, 2]], dtype=np.int64)
    offsets = np.array([0, 2, 3, 3], dtype=np.int64)
    as_python, as_compiled = _both_ways(_cell_kernels._variable_of, pairs, offsets, np.int64(0), np.int64(2))
    assert as_python == 1 and type(as_python) is int
    _same(as_python, as_compiled)


NUMPY_SCALAR = st.one_of(st.integers(-2**63, 2**63 - 1).map(np.int64), st.integers(-128, 127).map(np.int8),
                         st.floats(width=64).map(np.float64), st.booleans().map(np.bool_))
RETURNED = st.recursive(NUMPY_SCALAR | st.integers() | st.floats() | st.booleans() | st.none()
                        | arrays(np.int64, st.integers(0, 3)),
                        lambda inner: st.tuples(inner, inner) | st.tuples(inner), max_leaves=6)


@given(RETURNED)
def test_python_runs_return_python_numbers_in_the_same_nesting(value: object) -> None:
    def plain(part: object) -> object:  # what numba hands back: Python numbers, arrays as they are
        if isinstance(part, tuple):
            return tuple(plain(inner) for inner in part)
        return part.item() if isinstance(part, np.generic) else part

    returned = jit._as_numba_returns(value)
    expected = plain(value)
    assert repr(returned) == repr(expected)  # values, types of numbers (bool, int, float) and nesting alike
    assert type(returned) is type(expected)


def _smallest_models(count: int) -> list[Path]:
    """The ``count`` smallest OrigamiBench model files by size (17-32 edges). Chosen by the file's size, not its
    counted edges, because the parametrisation runs at collection, and counting reads all 366 files (43 MB of
    JSON, about 3 s in every process that collects)."""
    return sorted(paper_models_folder().glob("*.fold"), key=lambda path: (path.stat().st_size, path.name))[:count]


@pytest.mark.parametrize("path", _smallest_models(10), ids=lambda path: path.stem)
def test_a_pattern_compiles_the_same_with_kernels_as_python_and_compiled(path: Path) -> None:
    results = []
    for mode in ("python", "compiled"):
        with jit.kernels_run_as(mode):
            summary, compiled = compile_with_summary(path, budget=120)
        for clock in ("timings", "search_seconds"):
            summary.pop(clock)
        assert compiled is not None, summary
        results.append((summary, [compiled.state_values(state) for state in range(min(compiled.state_count, 4))]))
    assert results[0] == results[1]


def test_a_table_parameter_must_exist() -> None:
    def loop(values, table):  # type: ignore[no-untyped-def]
        return values[0] + table[0]

    assert jit.kernel(tables=("table",))(loop)(np.ones(1), np.ones(5000)) == 2.0
    with pytest.raises(TypeError, match="no parameter 'tabel'"):
        jit.kernel(tables=("tabel",))(loop)
    with pytest.raises(ValueError, match="kernel mode"):
        with jit.kernels_run_as("interpreted"):
            pass


def test_the_default_cache_folder_is_in_foldbenchs_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("FOLDBENCH_CACHE_DIR", str(tmp_path))
    assert jit.numba_cache_dir() == tmp_path / "numba"
    monkeypatch.delenv("FOLDBENCH_CACHE_DIR")
    assert jit.numba_cache_dir() == Path.home() / ".cache" / "foldbench" / "numba"
    assert PACKAGE not in jit.numba_cache_dir().parents
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert jit.numba_cache_dir() == tmp_path / "elsewhere"


# A fresh process compiles one kernel on 2,000 points (past the plain-Python limit) and reports where the
# compiled code went and whether it came from the cache.
_COMPILE_ONE = """
import json, sys
import numpy as np
from foldbench import jit
from foldbench.crease.graph import planar
points = np.random.default_rng(5).random((2000, 2))
kept, labels = planar._merge_small(points, np.floor(points / 1e-6).astype(np.int64), 1e-6)
dispatcher = planar._merge_small.dispatcher
path = getattr(dispatcher._cache, "cache_path", None)
print(json.dumps({"loaded": jit.numba_loaded(), "kept": len(kept), "cache_path": path,
                  "hits": sum(dispatcher.stats.cache_hits.values())}))
"""


def _fresh_process(code: str, cache: Path) -> tuple[dict, str]:
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env["FOLDBENCH_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(PACKAGE.parent) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


@pytest.fixture(scope="module")
def first_compile(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, Path]:
    """A fresh process's report of compiling one kernel into an empty cache folder, what it printed on stderr, and
    that folder (then holding the compiled code): the tests below that only need some kernel compiled in a fresh
    process start from a copy of it instead of compiling again."""
    cache = tmp_path_factory.mktemp("jit-cache")
    report, err = _fresh_process(_COMPILE_ONE, cache)
    return report, err, cache


def _copy_of(cache: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    return copy


def test_compiled_code_is_cached_in_foldbenchs_cache_and_loaded_by_the_next_process(
    first_compile: tuple[dict, str, Path], tmp_path: Path
) -> None:
    first, first_err, cache = first_compile
    assert first["loaded"] and first["kept"] == 2000 and first["hits"] == 0
    assert first_err == ""  # compiling says nothing
    cache_path = Path(first["cache_path"])
    assert cache / "numba" in cache_path.parents
    assert PACKAGE not in cache_path.parents
    assert list(cache_path.glob("_planar_kernels.merge_small-*.nbi"))
    second, second_err = _fresh_process(_COMPILE_ONE, _copy_of(cache, tmp_path))
    assert second["hits"] == 1 and second["kept"] == 2000 and second_err == ""


_PYTHON_THEN_COMPILED = """
import json
import numpy as np
from foldbench import jit
from foldbench.crease.graph import planar
points = np.random.default_rng(1).random((8, 2))
cells = np.floor(points / 1e-6).astype(np.int64)
loaded = []
for budget in (jit.PYTHON_SECONDS, 0.0):  # the second call finds the Python budget spent
    jit.PYTHON_SECONDS = budget
    planar._merge_small(points, cells, 1e-6)
    loaded.append(jit.numba_loaded())
print(json.dumps(loaded))
"""


def test_small_calls_run_as_python_until_the_python_budget_is_spent(
    first_compile: tuple[dict, str, Path], tmp_path: Path
) -> None:
    # the cache already holds the kernel: what is checked is which way each call runs, not the compiling
    loaded, err = _fresh_process(_PYTHON_THEN_COMPILED, _copy_of(first_compile[2], tmp_path))
    assert loaded == [False, True] and err == ""


_TWO_THREADS = """
import json, threading
import numpy as np
from foldbench import jit
from foldbench.crease.graph import planar
inside, release = threading.Event(), threading.Event()

def waiting(values):
    inside.set()
    release.wait(60)
    return values.shape[0]

waiter = threading.Thread(target=jit.kernel(waiting), args=(np.zeros(3),))
waiter.start()
inside.wait(60)  # the other thread is inside a kernel running as Python
points = np.random.default_rng(5).random((2000, 2))
planar._merge_small(points, np.floor(points / 1e-6).astype(np.int64), 1e-6)
loaded = jit.numba_loaded()
release.set()
waiter.join()
print(json.dumps(loaded))
"""


def test_a_kernel_running_as_python_in_one_thread_leaves_other_threads_calls_alone(
    first_compile: tuple[dict, str, Path], tmp_path: Path
) -> None:
    loaded, err = _fresh_process(_TWO_THREADS, _copy_of(first_compile[2], tmp_path))
    assert loaded is True and err == ""  # the 8,000-element call was compiled, not run as Python


def test_an_unwritable_cache_folder_leaves_kernels_compiled_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result, err = _fresh_process(_COMPILE_ONE, blocker)
    assert result["loaded"] and result["kept"] == 2000 and result["cache_path"] is None
    assert err == ""
