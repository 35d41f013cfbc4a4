"""Datasets generated once per test run and shared by every test module (and every xdist worker) that asks.

A dataset is named by what generates it (task, size, seed, modalities, knobs) and written once under the run's
base temporary directory, a file lock keeping other workers from writing it too. Nothing outlives the run: the
base directory is new for every run, so no dataset made by older code is ever read."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from foldbench.tasks import make
from foldbench.tasks.dataset import write_dataset


@dataclass(frozen=True)
class Recipe:
    """The arguments of one ``write_dataset`` call."""

    task_id: str
    n: int
    seed: int
    modalities: tuple[str, ...]
    knobs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """A directory name that differs whenever an argument does."""
        text = json.dumps([self.task_id, self.n, self.seed, list(self.modalities), dict(self.knobs)], sort_keys=True)
        return f"{self.task_id.replace('/', '_')}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    def write(self, out: Path) -> None:
        write_dataset(self.task_id, out, n=self.n, seed=self.seed, modalities=self.modalities, knobs=self.knobs)


def every_task_recipe(task_id: str) -> Recipe:
    """The recipe of the suite's three-item dataset of ``task_id`` (the ``every_task_dataset`` fixture): seed 5,
    every modality of the task but video (which needs ffmpeg and is covered by its own tests). A module that asks
    for a few tasks' datasets with these recipes shares them with that fixture."""
    task = make(task_id)
    modalities = tuple(m for m in task.modalities if m != "video") or task.modalities[:1]
    return Recipe(task.id, n=3, seed=5, modalities=modalities)


def _run_directory(factory: pytest.TempPathFactory) -> Path:
    """The base temporary directory of this run, the same for all of its xdist workers."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _locked(path: Path, *, wait: bool) -> Iterator[bool]:
    """Hold ``path``'s lock inside the block; with ``wait=False``, yield False at once if another holds it."""
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def shared_datasets(factory: pytest.TempPathFactory, recipes: Mapping[Any, Recipe]) -> dict[Any, Path]:
    """Each recipe's dataset, written by the first worker of the run that takes it; treat them as read-only.

    A worker first writes every dataset no other worker is writing, then waits for the rest, so workers that need
    the same datasets at the same time share the work instead of waiting on one another."""
    shared = _run_directory(factory) / "shared"
    shared.mkdir(exist_ok=True)
    pending = list(dict.fromkeys(recipe.name for recipe in recipes.values()))
    by_name = {recipe.name: recipe for recipe in recipes.values()}
    for wait in (False, True):
        busy = []
        for name in pending:
            with _locked(shared / f"{name}.lock", wait=wait) as held:
                if not held:
                    busy.append(name)
                elif not (shared / f"{name}.done").exists():
                    shutil.rmtree(shared / name, ignore_errors=True)  # half-written by a worker that died
                    by_name[name].write(shared / name)
                    (shared / f"{name}.done").touch()
        pending = busy
    return {key: shared / recipe.name for key, recipe in recipes.items()}


def shared_dataset(
    factory: pytest.TempPathFactory,
    task_id: str,
    *,
    n: int,
    seed: int,
    modalities: tuple[str, ...],
    knobs: Mapping[str, Any] | None = None,
) -> Path:
    """``write_dataset(task_id, ..., n=n, seed=seed, modalities=modalities, knobs=knobs)``, once per run."""
    recipe = Recipe(task_id, n, seed, modalities, knobs or {})
    return shared_datasets(factory, {0: recipe})[0]


PFP_AUDIT_ITEMS = 240
PFP_AUDIT_SEED = 4242


def pfp_audit_recipe(task_id: str) -> Recipe:
    """The 240-item image dataset of seed 4242 of a PFP task: audited whole by ``tests/pfp/test_audit_pfp.py``,
    its first items checked by ``tests/pfp/test_tasks.py`` (so the run generates it once for both)."""
    return Recipe(task_id, PFP_AUDIT_ITEMS, PFP_AUDIT_SEED, ("image",))


FOLDABILITY_AUDIT = Recipe("origamispace/foldability-v2", n=240, seed=4242, modalities=("image",))
"""The foldability audit's 240 items: ``foldbench audit`` reads them all, and the tests that check the compiler's
verdicts and the stability of the options read the first few instead of generating items of their own."""


PATTERN_PREDICTION_AUDIT = Recipe("origamispace/pattern-prediction-v2", n=200, seed=20251, modalities=("image",),
                                  knobs={"size": 64})
"""Pattern prediction's 200 audited items: ``foldbench audit`` reads them all, and the oracle and random baselines
are run on them through the harness (one dataset for both claims)."""

ORDERING_AUDIT = Recipe("origamispace/multi-step-ordering-v3", n=160, seed=20251, modalities=("image",),
                        knobs={"size": 64})
"""Multi-step ordering's 160 audited items: ``foldbench audit`` reads them all, and the oracle and random baselines
are run on them through the harness (one dataset for both claims)."""

ONE_STEP_AUDITS = {task_id: Recipe(task_id, n=240, seed=4242, modalities=("image",), knobs={"size": 128})
                   for task_id in ("origamibench/one-step-associative-v5", "origamibench/one-step-causal-v4")}
"""Each one-step task's 240 audited items: ``foldbench audit`` reads them all, and the one-step tests check the
compiler's verdicts, the pictures and the answer forms on the first ones instead of generating items of their
own."""
