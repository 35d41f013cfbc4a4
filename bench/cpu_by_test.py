"""CPU time of each test (setup, call and teardown, its subprocesses included), slowest first.

Usage: python bench/cpu_by_test.py [--top N] PYTEST_ARGS...

Runs pytest in this process (no workers) on the given files or node ids and prints, for each test, the user + system
CPU seconds this process and the subprocesses it waited for spent while the test ran, then the total. CPU moves far
less than wall time with the load of a shared machine, so before/after figures of a change are comparable even when
the wall times are not. Exits with pytest's status.

Example: python bench/cpu_by_test.py --top 10 tests/harness/test_cli_eval.py -q -p no:cacheprovider
"""

from __future__ import annotations

import argparse
import resource
import sys
from collections.abc import Iterator

import pytest


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CpuByTest:
    """A pytest plugin recording the CPU seconds of each test's whole protocol."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        started = _cpu_seconds()
        yield
        self.seconds[item.nodeid] = _cpu_seconds() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=30, help="how many of the slowest tests to list (default 30)")
    options, pytest_args = parser.parse_known_args()
    plugin = CpuByTest()
    code = pytest.main(pytest_args, plugins=[plugin])
    ranked = sorted(plugin.seconds.items(), key=lambda pair: pair[1], reverse=True)
    for nodeid, seconds in ranked[: options.top]:
        print(f"{seconds:8.2f} s  {nodeid}")
    print(f"{sum(plugin.seconds.values()):8.2f} s  total CPU of {len(ranked)} tests")
    sys.exit(int(code))


if __name__ == "__main__":
    main()
