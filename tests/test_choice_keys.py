"""Where a choice item keeps its options, offered answers, probe question and subtask is spelled in one module
(:mod:`foldbench.tasks.choice_fields`, read through :class:`~foldbench.tasks.choice_question.ChoiceQuestion`):
found by parsing every module, so a layer that reads ``item.inputs["options"]`` or a task that writes
``{"subtask": ...}`` by hand fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import foldbench

PACKAGE = Path(foldbench.__file__).parent

#: the keys of a choice item that only the contract spells
CONTRACT_KEYS = frozenset({"options", "choices", "question", "subtask"})
#: the modules of the contract itself
CONTRACT = frozenset({Path("tasks/choice_fields.py"), Path("tasks/choice_question.py")})
#: packages whose "choices" is another record's (an OpenAI-compatible reply), never an item's
OTHER_RECORDS = ("models", "testing")


def _key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and node.value in CONTRACT_KEYS else None


def spelled_keys(source: str, *, writes: bool) -> list[str]:
    """``line: code`` for every read of a contract key in ``source`` (a subscript ``x["options"]`` or a call
    ``x.get("options")``) and, with ``writes``, every dict display with such a key, outside a task's
    ``manifest_notes`` (prose about a dataset, not an item's fields)."""
    tree = ast.parse(source)
    notes = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "manifest_notes"
             for n in ast.walk(f)}  # fmt: skip
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            hit = _key(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            hit = _key(node.args[0]) if node.func.attr in ("get", "pop", "setdefault") else None
        elif isinstance(node, ast.Dict) and writes and id(node) not in notes:
            hit = next((k for k in map(_key, (k for k in node.keys if k is not None)) if k), None)
        else:
            hit = None
        if hit:
            found.append(f"{node.lineno}: {(ast.get_source_segment(source, node) or '').splitlines()[0]}")
    return found


def keys_outside_the_contract(package_root: Path = PACKAGE) -> list[str]:
    """``file:line: code`` for every contract key spelled outside the contract (dict displays checked under
    ``tasks/``, where items are written)."""
    found = []
    for path in sorted(package_root.rglob("*.py")):
        relative = path.relative_to(package_root)
        if relative in CONTRACT or relative.parts[0] in OTHER_RECORDS:
            continue
        writes = relative.parts[0] == "tasks"
        found += [f"{relative}:{hit}" for hit in spelled_keys(path.read_text(encoding="utf-8"), writes=writes)]
    return found


def test_no_module_outside_the_contract_spells_a_choice_key() -> None:
    assert keys_outside_the_contract() == []


@pytest.mark.parametrize(
    ("source", "writes", "caught"),
    [
        ('options = item.inputs["options"]', False, True),
        ('kind = row.metadata.get("question")', False, True),
        ("breakdown = metadata['subtask']", False, True),
        ('inputs = {"puzzle": p, "options": o}', True, True),
        ('inputs = {"puzzle": p, "options": o}', False, False),  # outside tasks/, a dict may say "options"
        ('metadata = {**source, "question": kind}', True, True),
        ('def manifest_notes(self, knobs):\n    return {"options": "four names"}', True, False),
        ('size = item.inputs["size"]', True, False),
        ('picture = images["composite"]', True, False),
    ],
)
def test_the_scan_finds_a_spelled_key(source: str, writes: bool, caught: bool) -> None:
    assert bool(spelled_keys(source, writes=writes)) is caught


def test_the_scan_would_have_found_the_keys_before_the_contract(tmp_path: Path) -> None:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "task.py").write_text('def oracle(item):\n    return item.inputs["options"][0]\n')
    (tmp_path / "tasks" / "choice_fields.py").write_text('OPTIONS = {"options": []}\n')
    assert keys_outside_the_contract(tmp_path) == ['tasks/task.py:2: item.inputs["options"]']
