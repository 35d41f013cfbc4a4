"""``foldbench.crease`` names its public API without importing it: every name of ``__all__`` still imports from
the package (the very object of its module), and importing the package alone loads none of its modules."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import foldbench.crease as crease


@pytest.mark.parametrize("name", crease.__all__)
def test_every_public_name_imports_from_the_package(name: str) -> None:
    exec(f"from foldbench.crease import {name} as value", namespace := {})  # the statement users write
    home = importlib.import_module(crease._HOMES[name], "foldbench.crease")
    assert namespace["value"] is getattr(home, name)
    assert name in dir(crease)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        crease.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        exec("from foldbench.crease import no_such_name", {})


def test_importing_the_package_loads_none_of_its_modules() -> None:
    code = ("import json, sys; import foldbench.crease; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('foldbench.crease.') or m == 'numpy')))")
    source = str(Path(crease.__file__).parents[1])  # this checkout's sources, whatever is installed
    env = {**os.environ, "PYTHONPATH": source + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300,
                          env=env)
    assert json.loads(done.stdout) == []
