"""The suite's grouping under ``pytest -n N --dist loadgroup`` (the README's test command) really keeps a group on
one worker: a module-scoped fixture is then built once, and the tests that read one large shared dataset do not
wait on one another's lock. pytest 9.2 silently stopped pytest-xdist 3.8 from grouping (every test was handed out
alone); this runs the suite's own grouping hook in a small pytest run with two workers and reads where each test
ran."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_TESTS = '''
import pytest


@pytest.fixture(scope="module")
def built_once():
    return object()


@pytest.fixture(scope="session")
def foldability_audit_dataset():
    return "a stand-in for the large shared dataset"


@pytest.mark.parametrize("i", range(4))
def test_module_fixture(built_once, i):
    assert built_once


@pytest.mark.parametrize("i", range(4))
def test_large_dataset(foldability_audit_dataset, i):
    assert foldability_audit_dataset


@pytest.mark.parametrize("i", range(4))
def test_free(i):
    assert i >= 0
'''


def test_grouped_tests_run_on_one_worker_and_the_others_spread(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    (tmp_path / "test_grouped.py").write_text(_TESTS)
    # only xdist is loaded: the other installed plugins have no part in grouping, and loading them all in three
    # processes took most of this test's time
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                   "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "xdist.plugin", "-n", "2",
         "--dist", "loadgroup", "-v", "test_grouped.py"],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    workers: dict[str, set[str]] = defaultdict(set)
    groups: dict[str, set[str]] = defaultdict(set)
    for worker, test, group in re.findall(r"\[(gw\d)\] \[ *\d+%\] PASSED test_grouped\.py::(\w+)\[\d\](?:@(\S+))?",
                                          run.stdout):  # fmt: skip
        workers[test].add(worker)
        groups[test].add(group)
    assert sum(1 for _ in re.finditer("PASSED", run.stdout)) == 12
    assert groups["test_module_fixture"] == {"test_grouped.py"}
    assert groups["test_large_dataset"] == {"dataset:foldability_audit_dataset"}
    assert groups["test_free"] == {""}
    assert len(workers["test_module_fixture"]) == 1 and len(workers["test_large_dataset"]) == 1
