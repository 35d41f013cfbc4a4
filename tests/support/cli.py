"""The ``foldbench`` command run in the test's own process, with the result a subprocess would give.

``python -m foldbench ARGS`` runs :func:`foldbench.cli.main` and nothing else, so calling it here asserts the same
exit code and the same text while sparing each call the two to three seconds of CPU a fresh interpreter spends
importing foldbench. The start-up itself (the entry point, the imports of a bare process) keeps its own real
subprocess tests (``tests/test_cli.py``, ``tests/test_startup.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping


@contextlib.contextmanager
def _environment(overrides: Mapping[str, str]) -> Iterator[None]:
    """``os.environ`` with ``overrides`` inside the block, as it was after it."""
    saved = {name: os.environ.get(name) for name in overrides}
    os.environ.update(overrides)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_in_process(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``foldbench ARGS`` in this process: its exit code and everything it printed to stdout and stderr.

    ``env`` sets environment variables for the call only (``""`` as a value, like a subprocess given it)."""
    from foldbench.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: int = 0
    with _environment(env or {}), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as stop:
            if isinstance(stop.code, str):  # as the interpreter does: the message on stderr, status 1
                err.write(stop.code + "\n")
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    return subprocess.CompletedProcess(["foldbench", *args], code, out.getvalue(), err.getvalue())


_RUN_AND_LIST_MODULES = """
import json, sys
from foldbench.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def fresh_run_modules(args: list[str], env: Mapping[str, str]) -> tuple[object, set[str], str]:
    """Run the command line with ``args`` in a new interpreter (environment ``env``); returns its exit code, every
    module it imported and its output (stdout, then stderr)."""
    done = subprocess.run([sys.executable, "-c", _RUN_AND_LIST_MODULES, *args], capture_output=True, text=True,
                          env=dict(env), timeout=600)  # fmt: skip
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"]), done.stdout + done.stderr


_RUN_EACH = """
import contextlib, io, json, sys
from foldbench.cli import main
done = []
for args in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(args, {}) if isinstance(args, str) else main(args)
            code = 0
        except SystemExit as stop:
            if isinstance(stop.code, str):
                err.write(stop.code + "\\n")
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    done.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(done))
"""


def fresh_runs(
    commands: list[list[str] | str], env: Mapping[str, str], cwd: str | os.PathLike[str]
) -> list[subprocess.CompletedProcess[str]]:
    """Run the command line once per entry of ``commands`` (its arguments; a string is Python code, run the same
    way), one after another in one new interpreter (environment ``env``, working directory ``cwd``): what a fresh
    process sees on its path, for the price of one start-up. Returns each entry's exit code, stdout and stderr."""
    done = subprocess.run([sys.executable, "-c", _RUN_EACH, json.dumps(commands)], capture_output=True, text=True,
                          env=dict(env), cwd=cwd, timeout=600)  # fmt: skip
    assert done.returncode == 0 and done.stdout, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return [subprocess.CompletedProcess(["python", "-c", args] if isinstance(args, str) else ["foldbench", *args],
                                        code, out, err)
            for args, (code, out, err) in zip(commands, results, strict=True)]  # fmt: skip
