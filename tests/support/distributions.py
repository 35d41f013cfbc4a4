"""Distributions written into a directory that is then put on a process's path, as if installed beside foldbench:
a real package with a ``*.dist-info`` folder whose ``entry_points.txt`` declares task families in the
``foldbench.tasks`` group, which :mod:`foldbench.tasks.registry` reads through :mod:`importlib.metadata`."""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_broken_family", "write_toy_family"]

_PARITY_SOURCE = Path(__file__).with_name("parity_task.py")


def _dist_info(root: Path, name: str, entry_points: str) -> None:
    info = root / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[foldbench.tasks]\n{entry_points}", encoding="utf-8")


def write_toy_family(root: Path) -> Path:
    """The distribution ``toyfam 0.1`` in ``root``: the package ``toyfam`` (a light ``__init__`` with its table
    of tasks, the task ``toyfam/parity-v1`` in ``toyfam/parity.py``) and one entry point,
    ``toyfam = toyfam:TASK_TABLE``. Returns ``root``."""
    package = root / "toyfam"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        '"""A task family from outside foldbench; importing it imports nothing heavy."""\n\n'
        'TASK_TABLE = {"toyfam/parity-v1": "toyfam.parity:ParityTask"}\n',
        encoding="utf-8",
    )
    (package / "parity.py").write_text(_PARITY_SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    _dist_info(root, "toyfam", "toyfam = toyfam:TASK_TABLE\n")
    return root


def write_broken_family(root: Path) -> Path:
    """The distribution ``brokenfam 0.1`` in ``root``, whose three entry points cannot be loaded: a family in a
    module that does not exist (``ghostfam``), a family whose package raises while it is imported
    (``crashfam``), and a single task naming a class its module lacks (``toyfam/missing-v1``). Returns ``root``."""
    package = root / "crashfam"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('raise RuntimeError("crashfam cannot start:\\nno configuration")\n',
                                         encoding="utf-8")  # fmt: skip
    _dist_info(
        root,
        "brokenfam",
        "ghostfam = ghostfam_absent.tables:TASK_TABLE\n"
        "crashfam = crashfam:TASK_TABLE\n"
        "toyfam/missing-v1 = toyfam.parity:MissingTask\n",
    )
    return root
