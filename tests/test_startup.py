"""What a fresh ``foldbench`` process imports: ``fold`` only the fold command and the crease engine (no numba for a
small pattern, never gymnasium, matplotlib or pyarrow); ``--help`` no subcommand module at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import foldbench
from foldbench.cli._lazy_group import load_command
from foldbench.cli.app import COMMANDS
from tests.support.cli import fresh_run_modules

PACKAGE = Path(foldbench.__file__).parent

SQUARE_WITH_ONE_VALLEY = {
    "file_spec": 1.1,
    "vertices_coords": [[0, 0], [0.5, 0], [1, 0], [1, 1], [0.5, 1], [0, 1]],
    "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [1, 4]],
    "edges_assignment": ["B", "B", "B", "B", "B", "B", "V"],
}


def _fresh(args: list[str], cache: Path) -> tuple[object, set[str], str]:
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env["FOLDBENCH_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(PACKAGE.parent) + os.pathsep + env.get("PYTHONPATH", "")
    return fresh_run_modules(args, env)


def _top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


NEVER_ON_THE_FOLD_PATH = {"numba", "llvmlite", "gymnasium", "matplotlib", "pyarrow", "PIL", "jinja2", "shapely",
                          "pydantic", "pydantic_core", "rich", "scipy"}
"""Top-level packages a ``foldbench fold`` of a small pattern never imports (rich: no console output is drawn
when stderr is not a terminal; pydantic: typer's option coercion is bypassed for plain values)."""


def test_fold_of_a_small_pattern_imports_neither_numba_nor_any_heavy_extra(tmp_path: Path) -> None:
    pattern = tmp_path / "small.fold"
    pattern.write_text(json.dumps(SQUARE_WITH_ONE_VALLEY), encoding="utf-8")
    code, modules, out = _fresh(["fold", str(pattern), "--limit", "5", "--state", "0", "--timeout", "30"],
                                tmp_path / "cache")
    assert code == 0 and "states 1" in out and "2 faces" in out, out
    assert _top_level(modules) & NEVER_ON_THE_FOLD_PATH == set()
    assert {"importlib.metadata", "typer._adapters", "tempfile"} & modules == set()
    assert {name for name in modules if name.startswith("foldbench.cli.")} <= {
        "foldbench.cli.app", "foldbench.cli._common", "foldbench.cli._lazy_group", "foldbench.cli.fold",
        "foldbench.cli._fold_report", "foldbench.cli._quick_params",
    }
    assert not any(name.startswith(("foldbench.tasks", "foldbench.envs", "foldbench.harness")) for name in modules)
    assert not (tmp_path / "cache" / "numba").exists()  # nothing was compiled


@pytest.mark.parametrize(("flag", "pillow"), [("--svg", False), ("--png", True)])
def test_pillow_is_imported_for_png_renders_only(flag: str, pillow: bool, tmp_path: Path) -> None:
    pattern = tmp_path / "small.fold"
    pattern.write_text(json.dumps(SQUARE_WITH_ONE_VALLEY), encoding="utf-8")
    code, modules, out = _fresh(["fold", str(pattern), "--out", str(tmp_path / "out"), flag, "--size", "64"],
                                tmp_path / "cache")
    assert code == 0, out
    assert ("PIL" in _top_level(modules)) is pillow
    written = {path.suffix for path in (tmp_path / "out").iterdir()}
    assert written == {".fold", flag.replace("--", ".")}


def test_help_imports_no_subcommand_module_and_no_engine(tmp_path: Path) -> None:
    code, modules, out = _fresh(["--help"], tmp_path / "cache")
    assert code == 0
    for name, entry in COMMANDS.items():
        assert name in out
        assert entry.module not in modules, entry.module
    assert _top_level(modules) & {"numpy", "numba", "pydantic", "shapely", "PIL", "rich"} == set()
    assert {"importlib.metadata", "tempfile"} & modules == set()  # entry points are read by task commands only
    assert not any(name.startswith(("foldbench.crease", "foldbench.pft", "foldbench.pfp", "foldbench.origami"))
                   for name in modules)


@pytest.mark.parametrize(("args", "exit_code"), [
    (["version"], 0), (["fold", "--help"], 0), (["tasks", "--help"], 0), (["fold", "{tmp}/missing.fold"], 2),
])
def test_a_command_given_plain_values_imports_no_pydantic(args: list[str], exit_code: int, tmp_path: Path) -> None:
    code, modules, out = _fresh([arg.replace("{tmp}", str(tmp_path)) for arg in args], tmp_path / "cache")
    assert code == exit_code, out
    assert _top_level(modules) & {"pydantic", "pydantic_core", "rich"} == set()
    assert {"typer._adapters", "importlib.metadata"} & modules == set()


def test_a_value_typer_must_read_still_gets_its_message(tmp_path: Path) -> None:
    """An odd spelling (``1_0``) and a value out of range go to typer's own coercion: read, or refused in its
    words."""
    pattern = tmp_path / "small.fold"
    pattern.write_text(json.dumps(SQUARE_WITH_ONE_VALLEY), encoding="utf-8")
    code, _, out = _fresh(["fold", str(pattern), "--limit", "1_0"], tmp_path / "cache")
    assert code == 0 and "states 1" in out
    done = subprocess.run([sys.executable, "-m", "foldbench", "fold", str(pattern), "--size", "10"],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(PACKAGE.parent) + os.pathsep
                               + os.environ.get("PYTHONPATH", "")})
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: foldbench fold: Invalid value for '--size': Input should be greater "
                                   "than or equal to 16 (see 'foldbench fold --help')")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_root_help_line_of_a_command_is_its_own_short_help(name: str) -> None:
    command = load_command(name, COMMANDS[name])
    assert command.name == name
    assert command.get_short_help_str(limit=1000) == COMMANDS[name].short_help
