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

PACKAGE = Path(foldbench.__file__).parent

# Runs the command line in this process, then lists the modules it imported (stderr's last line).
_RUN_AND_LIST = """
import json, sys
from foldbench.cli import main
try:
    main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""

SQUARE_WITH_ONE_VALLEY = {
    "file_spec": 1.1,
    "vertices_coords": [[0, 0], [0.5, 0], [1, 0], [1, 1], [0.5, 1], [0, 1]],
    "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [1, 4]],
    "edges_assignment": ["B", "B", "B", "B", "B", "B", "V"],
}


def _fresh(args: list[str], cache: Path) -> tuple[int, set[str], str]:
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env["FOLDBENCH_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(PACKAGE.parent) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-c", _RUN_AND_LIST, *args], capture_output=True, text=True, env=env,
                          timeout=600)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"], set(report["modules"]), done.stdout


def _top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def test_fold_of_a_small_pattern_imports_neither_numba_nor_any_heavy_extra(tmp_path: Path) -> None:
    pattern = tmp_path / "small.fold"
    pattern.write_text(json.dumps(SQUARE_WITH_ONE_VALLEY), encoding="utf-8")
    code, modules, out = _fresh(["fold", str(pattern)], tmp_path / "cache")
    assert code == 0 and "states 1" in out and "2 faces" in out, out
    assert _top_level(modules) & {"numba", "llvmlite", "gymnasium", "matplotlib", "pyarrow"} == set()
    assert {name for name in modules if name.startswith("foldbench.cli.")} <= {
        "foldbench.cli.app", "foldbench.cli._common", "foldbench.cli._lazy_group", "foldbench.cli.fold",
        "foldbench.cli._fold_report",
    }
    assert not any(name.startswith(("foldbench.tasks", "foldbench.envs", "foldbench.harness")) for name in modules)
    assert not (tmp_path / "cache" / "numba").exists()  # nothing was compiled


def test_help_imports_no_subcommand_module_and_no_engine(tmp_path: Path) -> None:
    code, modules, out = _fresh(["--help"], tmp_path / "cache")
    assert code == 0
    for name, entry in COMMANDS.items():
        assert name in out
        assert entry.module not in modules, entry.module
    assert _top_level(modules) & {"numpy", "numba", "pydantic", "shapely", "PIL"} == set()
    assert not any(name.startswith("foldbench.crease") for name in modules)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_root_help_line_of_a_command_is_its_own_short_help(name: str) -> None:
    command = load_command(name, COMMANDS[name])
    assert command.name == name
    assert command.get_short_help_str(limit=1000) == COMMANDS[name].short_help
