"""The layers import only downwards (docs/architecture.md): found by parsing every module's imports, those inside
functions too, so a lazy import that reaches up fails like any other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import foldbench

PACKAGE = Path(foldbench.__file__).parent

#: rank of every top-level package or module: it may import itself and strictly lower ranks only
RANKS: dict[str, int] = {
    **dict.fromkeys(("__init__", "errors", "messages", "text", "jsontext", "cache", "jit", "storage", "lazy_names"), 0),
    **dict.fromkeys(("pft", "pfp", "crease", "models"), 1),
    "origami": 2,  # the sheet OrigamiBench and OrigamiSpace fold, built on the crease compiler
    **dict.fromkeys(("tasks", "envs"), 3),
    "harness": 4,
    **dict.fromkeys(("export", "human"), 5),
    **dict.fromkeys(("integrations", "testing"), 6),
    **dict.fromkeys(("cli", "__main__"), 7),
}
#: the single modules of the core and the command line may import each other (they have no package of their own)
GROUPS = {**dict.fromkeys(("__init__", "errors", "messages", "text", "jsontext", "cache", "jit", "storage",
                           "lazy_names"), "core"),
          "__main__": "cli"}  # fmt: skip


def imported_modules(path: Path, package_root: Path = PACKAGE) -> set[str]:
    """Every ``foldbench...`` module a source file imports (relative imports resolved, imports in functions too)."""
    parts = path.relative_to(package_root.parent).with_suffix("").parts
    package = parts if path.name == "__init__.py" else parts[:-1]
    package = package[:-1] if package and package[-1] == "__init__" else package
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                found.add(f"{base}.{node.module}" if node.module else base)
            else:
                found.add(node.module or "")
    return {name for name in found if name.startswith("foldbench.")}


def owner(path: Path, package_root: Path = PACKAGE) -> str:
    """The top-level package or module a source file belongs to."""
    return path.relative_to(package_root).with_suffix("").parts[0]


def upward_imports(package_root: Path = PACKAGE) -> list[str]:
    """``file: imported module`` for every import of the same or a higher layer, and of any unranked package."""
    found = []
    for path in sorted(package_root.rglob("*.py")):
        source = owner(path, package_root)
        for name in sorted(imported_modules(path, package_root)):
            target = name.split(".")[1]
            if target == source or GROUPS.get(target, target) == GROUPS.get(source, source):
                continue
            if source not in RANKS or target not in RANKS or RANKS[target] >= RANKS[source]:
                found.append(f"{path.relative_to(package_root)}: {name}")
    return found


def test_no_module_imports_its_own_layer_or_a_higher_one() -> None:
    assert upward_imports() == []


def test_every_top_level_package_has_a_rank() -> None:
    names = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
             if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py"}  # fmt: skip
    assert names - set(RANKS) == set()


@pytest.mark.parametrize(
    ("layer", "source", "expected"),
    [
        ("crease", "def f():\n    from foldbench.envs.actions import X\n", ["crease/m.py: foldbench.envs.actions"]),
        ("tasks", "from foldbench.envs import sheet\n", ["tasks/m.py: foldbench.envs"]),
        ("harness", "from ..integrations import ray\n", ["harness/m.py: foldbench.integrations"]),
        ("harness", "from foldbench.tasks.base import Item\nfrom . import store\n", []),
        ("export", "import foldbench.human.questions\n", ["export/m.py: foldbench.human.questions"]),
    ],
)
def test_the_scan_finds_lazy_relative_and_sibling_imports(tmp_path: Path, layer: str, source: str,
                                                         expected: list[str]) -> None:  # fmt: skip
    root = tmp_path / "foldbench"
    (root / layer).mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / layer / "__init__.py").write_text("")
    (root / layer / "m.py").write_text(source)
    assert upward_imports(root) == expected


def test_the_benchmark_scripts_do_not_import_the_tests() -> None:
    bench = Path(__file__).resolve().parents[1] / "bench"
    importing = []
    for path in sorted(bench.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            importing += [f"{path.name}: {name}" for name in names if name == "tests" or name.startswith("tests.")]
    assert importing == []
