"""The layers import only downwards: found by parsing every module's imports (those inside functions too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import foldbench

PACKAGE = Path(foldbench.__file__).parent


def _imports(path: Path) -> set[str]:
    """Every ``foldbench...`` module a source file imports (relative imports resolved)."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "foldbench" or name.startswith("foldbench.")}


def _modules(layer: str) -> list[Path]:
    root = PACKAGE / layer
    return sorted(root.rglob("*.py")) if root.is_dir() else [PACKAGE / f"{layer}.py"]


_ABOVE_HARNESS = ("foldbench.export", "foldbench.human", "foldbench.integrations", "foldbench.testing", "foldbench.cli")

#: layer -> the layers it must not import
FORBIDDEN = {
    "messages": ("foldbench.tasks", "foldbench.models", "foldbench.harness", "foldbench.cli"),
    "models": ("foldbench.tasks", "foldbench.harness", "foldbench.cli"),
    "tasks": ("foldbench.models", "foldbench.harness", *_ABOVE_HARNESS),
    "harness": _ABOVE_HARNESS,
    "export": ("foldbench.human", "foldbench.integrations", "foldbench.testing", "foldbench.cli"),
    "human": ("foldbench.export", "foldbench.integrations", "foldbench.testing", "foldbench.cli"),
    "integrations": ("foldbench.testing", "foldbench.cli"),
    "testing": ("foldbench.integrations", "foldbench.cli"),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_does_not_import_the_layers_above_it(layer: str) -> None:
    offending = {
        str(path.relative_to(PACKAGE)): sorted(name for name in _imports(path) if name.startswith(FORBIDDEN[layer]))
        for path in _modules(layer)
    }
    assert {path: names for path, names in offending.items() if names} == {}


def test_the_import_scan_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = PACKAGE / "models" / "registry.py"
    assert "foldbench.models.transformers_local" in _imports(module)  # imported lazily, inside make_model


def test_the_benchmark_scripts_do_not_import_the_tests() -> None:
    bench = PACKAGE.parents[1] / "bench"
    if not bench.is_dir():  # an installed package without the repository around it
        pytest.skip("bench/ is not beside the package")
    importing = []
    for path in sorted(bench.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            importing += [f"{path.name}: {name}" for name in names if name == "tests" or name.startswith("tests.")]
    assert importing == []
