"""Settings and datasets of the whole suite: property tests have no time limit, and the shared datasets are generated
once per run (see ``tests/support/datasets.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from foldbench.tasks import task_ids
from foldbench.testing.fake_openai import FakeOpenAI, Script
from tests.support.datasets import every_task_recipe, shared_dataset, shared_datasets

# No property test is held to a wall-clock limit (a loaded machine would fail it): speed is measured in bench/.
settings.register_profile("foldbench", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("foldbench")


@pytest.fixture(scope="session")
def every_task_dataset(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A three-item dataset of every registered task (every modality but video); read-only."""
    return shared_datasets(tmp_path_factory, {task_id: every_task_recipe(task_id) for task_id in task_ids()})


@pytest.fixture(scope="session")
def prediction_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve MentalBlackboard prediction items in text and image; read-only."""
    return shared_dataset(
        tmp_path_factory, "mentalblackboard/prediction", n=12, seed=3, modalities=("text", "image")
    )


@pytest.fixture
def fake_openai_server() -> Iterator[Callable[[Script], FakeOpenAI]]:
    """A factory fixture: ``fake_openai_server(script)`` starts a scripted OpenAI-compatible server
    (:class:`foldbench.testing.fake_openai.FakeOpenAI`) that stops after the test."""
    servers: list[FakeOpenAI] = []

    def start(script: Script) -> FakeOpenAI:
        server = FakeOpenAI(script).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


LONGEST_FIRST = (
    "tests/tasks/origamispace/test_foldability.py",  # the foldability audit: about 200 s, mostly generating items
    "tests/crease/test_overlay.py",
    "tests/tasks/origamispace/test_audit_spatial_relationship.py",
    "tests/tasks/test_conformance.py",
    "tests/pfp/test_audit_pfp.py",
    "tests/tasks/origamibench/test_audit_one_step.py",
    "tests/tasks/origamispace/test_audit_multiple_choice.py",
    "tests/pfp/test_tasks.py",
)
"""Modules whose tests take the longest (measured with ``--durations``), handed out first so that, with several
workers, no long test starts last while the others sit idle."""


ONE_WORKER_DATASETS = frozenset({"foldability_audit_dataset", "one_step_audit_datasets", "ordering_audit_dataset",
                                 "pattern_prediction_audit_dataset"})
"""Session fixtures of large shared datasets (seconds to a minute of CPU to write): the tests that read one run on
one worker, one after another, so that while the first writes it the other workers run other tests instead of
waiting on its lock."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under ``pytest -n N --dist loadgroup`` the tests that read one of :data:`ONE_WORKER_DATASETS` run on one
    worker, and the tests of a module that use a module- or class-scoped fixture run on one worker, so that fixture
    is built once, not once per worker (a test already in a group keeps it); the modules of
    :data:`LONGEST_FIRST` are handed out first."""
    rank = {module: index for index, module in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None or item.get_closest_marker("xdist_group") is not None:
            continue
        datasets = ONE_WORKER_DATASETS.intersection(info.names_closure)
        if datasets:
            item.add_marker(pytest.mark.xdist_group(f"dataset:{min(datasets)}"))
            continue
        scopes = {definition.scope for definitions in info.name2fixturedefs.values() for definition in definitions}
        if scopes & {"module", "class", "package"}:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
