"""The task registry: ids known without importing any family, ``register`` by class or ``"module:Class"``, the
latest version for an unversioned name, and a declaration that cannot be loaded reported as one line naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import foldbench
from foldbench.errors import UnknownNameError
from foldbench.tasks import registry
from foldbench.tasks.base import in_default_suite
from foldbench.tasks.registry import TaskEntry, TaskLoadError, make, register, resolve, runs_in_default_suite
from tests.support.cli import fresh_runs
from tests.support.distributions import write_broken_family, write_toy_family
from tests.support.parity_task import ParityTask

PACKAGE = Path(foldbench.__file__).parent
BUILTIN_FAMILIES = ("mentalblackboard", "origamibench", "origamispace", "pfp")
HEAVY = {"numba", "llvmlite", "gymnasium", "matplotlib", "pyarrow", "shapely", "PIL", "scipy", "imageio"}
ENGINES = ("foldbench.pft", "foldbench.pfp", "foldbench.crease", "foldbench.envs", "foldbench.origami")


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What a test registers is forgotten after it (the built-in declarations are read first)."""
    registry.task_ids()
    monkeypatch.setattr(registry, "_declared", dict(registry._declared))
    monkeypatch.setattr(registry, "_factories", dict(registry._factories))
    monkeypatch.setattr(registry, "_broken_families", dict(registry._broken_families))
    monkeypatch.setattr(registry, "_problems", list(registry._problems))  # a load failure is remembered here
    yield


def _python(code: str, *paths: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter whose path holds this foldbench and ``paths`` (distributions)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), *map(str, paths), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)


_IMPORT_AND_LIST = """
import json, sys
import foldbench.tasks
ids = foldbench.tasks.task_ids()
print(json.dumps({"ids": ids, "modules": sorted(sys.modules)}))
"""


def test_importing_the_tasks_and_listing_their_ids_imports_no_family_engine_or_heavy_library() -> None:
    done = _python(_IMPORT_AND_LIST)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    modules = set(report["modules"])
    assert {name.split(".")[0] for name in modules} & HEAVY == set()
    assert not [name for name in modules if name.startswith(ENGINES)]
    task_modules = {name for name in modules if name.startswith("foldbench.tasks.")}
    assert task_modules <= {
        "foldbench.tasks.base", "foldbench.tasks.knobs", "foldbench.tasks.spec", "foldbench.tasks.lazy",
        "foldbench.tasks.registry", *(f"foldbench.tasks.{family}" for family in BUILTIN_FAMILIES),
    }, task_modules  # fmt: skip
    assert {"mentalblackboard/prediction-v1", "pfp/single-step-v2", "origamibench/synthesis-v1"} <= set(report["ids"])
    assert {task_id.split("/")[0] for task_id in report["ids"]} == set(BUILTIN_FAMILIES)


def test_the_tasks_command_lists_every_task_without_importing_an_engine(tmp_path: Path) -> None:
    code = (
        "import json, sys\nfrom foldbench.cli import main\ntry:\n    main(['tasks'])\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)"
    )
    done = _python(code)
    modules = set(json.loads(done.stderr.strip().splitlines()[-1]))
    assert "pfp/final-fold-v4  (not in the default suite: suite --tasks pfp/final-fold-v4)" in done.stdout
    assert "mentalblackboard/prediction-v1\n" in done.stdout
    assert {name.split(".")[0] for name in modules} & HEAVY == set()
    assert not [name for name in modules if name.startswith(ENGINES)]


@pytest.mark.parametrize("family", BUILTIN_FAMILIES)
def test_each_built_in_table_names_the_class_of_each_id_and_declares_its_default_suite_flag(family: str) -> None:
    table = __import__(f"foldbench.tasks.{family}", fromlist=["TASK_TABLE"]).TASK_TABLE
    assert table, family
    for task_id, entry in table.items():
        assert isinstance(entry, TaskEntry) and entry.in_default_suite is not None, task_id
        task = make(task_id)  # raises TaskLoadError unless the class's own id is task_id
        assert task.id == task_id
        assert entry.in_default_suite == in_default_suite(type(task)), f"{task_id}: update {family}'s TASK_TABLE"
        assert runs_in_default_suite(task_id) == in_default_suite(task)


def test_the_family_packages_still_export_their_task_classes() -> None:
    from foldbench.tasks.mentalblackboard import PredictionTask
    from foldbench.tasks.pfp import TASKS, SingleStepTask, parse_choice

    assert make("mentalblackboard/prediction").__class__ is PredictionTask
    assert SingleStepTask in TASKS and len(TASKS) == 7 and callable(parse_choice)
    assert "TASKS" in dir(sys.modules["foldbench.tasks.pfp"])
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        getattr(sys.modules["foldbench.tasks.pfp"], "Nothing")  # noqa: B009


def test_a_task_registered_by_module_and_class_is_imported_only_when_made(
    isolated_registry: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "late_parity.py").write_text(
        "from tests.support.parity_task import ParityTask\n\n\nclass LateParity(ParityTask):\n"
        "    id = 'late/parity-v1'\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    register("late/parity-v1", "late_parity:LateParity")
    assert "late/parity-v1" in registry.task_ids()
    assert registry.origin("late/parity") == "register()"
    assert "late_parity" not in sys.modules
    task = make("late/parity")
    assert type(task).__name__ == "LateParity" and "late_parity" in sys.modules
    monkeypatch.delitem(sys.modules, "late_parity")


def test_a_declared_default_suite_flag_is_read_without_importing_and_an_undeclared_one_from_the_class(
    isolated_registry: None,
) -> None:
    class Hidden(ParityTask):
        id = "hidden/parity-v1"
        in_default_suite = False

    register("hidden/parity-v1", Hidden)
    register("toyfam/parity-v1", TaskEntry("module_that_is_never_imported:Task", in_default_suite=False))
    assert runs_in_default_suite("hidden/parity-v1") is False
    assert runs_in_default_suite("toyfam/parity-v1") is False  # from the entry: nothing imported
    register("shown/parity-v1", TaskEntry(Hidden, in_default_suite=True))
    assert runs_in_default_suite("shown/parity-v1") is True  # the entry's word over the class's


@pytest.mark.parametrize(
    ("task_id", "target", "message"),
    [
        ("parity", ParityTask, "family/name-vN"),
        ("toyfam/parity", ParityTask, "family/name-vN"),
        ("Toyfam/parity-v1", ParityTask, "family/name-vN"),
        ("toyfam/parity-v1", "toyfam.parity.ParityTask", "module:attribute"),
        ("toyfam/parity-v1", "toyfam.parity:", "module:attribute"),
        ("toyfam/parity-v1", 42, "neither callable"),
        ("pfp/single-step-v2", ParityTask, "already registered"),
    ],
)
def test_register_refuses_a_malformed_id_or_target_or_a_taken_id(
    isolated_registry: None, task_id: str, target: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        register(task_id, target)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("toyfam_not_installed.parity:ParityTask", "cannot import 'toyfam_not_installed.parity': ModuleNotFoundError"),
        ("tests.support.parity_task:NoSuchTask", "'tests.support.parity_task' has no attribute 'NoSuchTask'"),
        ("tests.support.parity_task:Parity.model_fields", "is a dict, not a task class or factory"),
    ],
)
def test_a_target_that_cannot_be_loaded_is_a_one_line_error_naming_the_task_and_the_others_still_work(
    isolated_registry: None, target: str, message: str
) -> None:
    register("broken/parity-v1", target)
    with pytest.raises(TaskLoadError) as raised:
        make("broken/parity")
    text = str(raised.value)
    assert "\n" not in text and text.startswith("task 'broken/parity-v1' (register()): ") and message in text
    assert make("pfp/single-step").id == "pfp/single-step-v2"


def test_a_task_whose_own_id_differs_from_its_registered_id_is_refused_when_made(isolated_registry: None) -> None:
    register("toyfam/parity-v2", ParityTask)
    with pytest.raises(TaskLoadError, match="makes a task whose id is 'toyfam/parity-v1'"):
        make("toyfam/parity-v2")


@given(versions=st.sets(st.integers(1, 40), min_size=1, max_size=6), asked=st.integers(1, 40))
def test_an_unversioned_name_resolves_to_its_highest_version_and_a_versioned_one_to_itself(
    versions: set[int], asked: int
) -> None:
    saved = dict(registry._declared)
    try:
        for version in versions:
            register(f"versioned/parity-v{version}", ParityTask)
        assert resolve("versioned/parity") == f"versioned/parity-v{max(versions)}"
        if asked in versions:
            assert resolve(f"versioned/parity-v{asked}") == f"versioned/parity-v{asked}"
        else:
            with pytest.raises(UnknownNameError, match="Did you mean"):
                resolve(f"versioned/parity-v{asked}")
    finally:
        registry._declared.clear()
        registry._declared.update(saved)


def test_a_third_party_family_is_listed_and_made_from_its_entry_point(tmp_path: Path) -> None:
    code = (
        "import json, sys\nfrom foldbench.tasks import make, task_ids\nfrom foldbench.tasks.registry import origin\n"
        "listed = 'toyfam/parity-v1' in task_ids(); loaded = 'toyfam.parity' in sys.modules\n"
        "task = make('toyfam/parity')\n"
        "print(json.dumps([listed, loaded, task.id, type(task).__module__, origin(task.id)]))"
    )
    done = _python(code, write_toy_family(tmp_path / "site"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        True, False, "toyfam/parity-v1", "toyfam.parity", "entry point 'toyfam = toyfam:TASK_TABLE' of toyfam 0.1",
    ]  # fmt: skip


def test_entry_points_that_cannot_be_loaded_are_named_in_one_line_errors_and_every_other_task_works(
    tmp_path: Path,
) -> None:
    paths = (write_toy_family(tmp_path / "toy"), write_broken_family(tmp_path / "broken"))
    out = tmp_path / "out"
    failing = (("ghostfam", "echo"), ("crashfam", "echo"), ("toyfam", "missing"))
    commands: list[list[str] | str] = [
        ["tasks"],
        *(["generate", family, "--task", task, "--out", str(out / task), "-n", "2"] for family, task in failing),
        ["generate", "toyfam", "--task", "parity", "--out", str(out / "parity"), "-n", "2"],
    ]
    # one fresh interpreter runs the commands in turn: the distributions are found on its path as by a new process
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), *map(str, paths), env.get("PYTHONPATH", "")])
    listed, *ran, worked = fresh_runs(commands, env, tmp_path)
    by_task = dict(zip(failing, ran, strict=True))

    assert listed.returncode == 0, listed.stderr
    assert "toyfam/parity-v1\n" in listed.stdout and "pfp/single-step-v2\n" in listed.stdout
    assert "toyfam/missing-v1  (cannot be loaded; see the warning)\n" in listed.stdout
    warnings = listed.stderr.strip().splitlines()
    assert len(warnings) == 3 and all(w.startswith("warning: ") for w in warnings), listed.stderr
    assert any("entry point 'ghostfam = ghostfam_absent.tables:TASK_TABLE' of brokenfam 0.1" in w for w in warnings)
    assert any("RuntimeError: crashfam cannot start: no configuration" in w for w in warnings)
    assert any("'toyfam.parity' has no attribute 'MissingTask'" in w for w in warnings)

    cases = {
        ("ghostfam", "echo"): "entry point 'ghostfam = ghostfam_absent.tables:TASK_TABLE' of brokenfam 0.1: cannot "
        "import 'ghostfam_absent.tables': ModuleNotFoundError: No module named 'ghostfam_absent'",
        ("crashfam", "echo"): "entry point 'crashfam = crashfam:TASK_TABLE' of brokenfam 0.1: cannot import "
        "'crashfam': RuntimeError: crashfam cannot start: no configuration",
        ("toyfam", "missing"): "task 'toyfam/missing-v1' (entry point 'toyfam/missing-v1 = toyfam.parity:MissingTask'"
        " of brokenfam 0.1): 'toyfam.parity' has no attribute 'MissingTask'",
    }
    for (family, task), message in cases.items():
        failed = by_task[family, task]
        assert failed.returncode == 1, failed.stderr
        assert failed.stderr.strip() == f"error: {message}"
        assert "Traceback" not in failed.stderr and not (out / task).exists()

    assert worked.returncode == 0, worked.stderr
    assert json.loads((out / "parity" / "manifest.json").read_text())["items_written"] == 2
