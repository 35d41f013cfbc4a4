"""Foldability questions: the compiler decides every option, the odd one is unique, and no blind baseline beats
chance (``foldbench audit``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from foldbench.crease.io.generated import compile_generated
from foldbench.harness.audit import audit_dataset
from foldbench.tasks import make
from foldbench.tasks.dataset import write_dataset
from foldbench.tasks.origamispace.foldability import near_miss

ITEMS = 240


@pytest.fixture(scope="module")
def task():
    return make("origamispace/foldability-v2")


def test_exactly_one_option_is_odd_and_the_reason_is_the_compilers(task) -> None:
    for item in task.generate(8, 11, modalities=("image",), knobs={}):
        foldable = task.foldable_options(item)
        answer = "ABCD".index(item.target["answer"])
        odd_foldable = item.metadata["variant"] == "one-foldable"
        assert foldable[answer] == odd_foldable
        assert foldable.count(odd_foldable) == 1
        assert [verdict is None for verdict in item.target["verdicts"]] == foldable
        if not odd_foldable:
            verdict = compile_generated(item.inputs["options"][answer]).error
            assert verdict["class"] == item.target["reason"]["class"] and verdict["class"] in {"GIF", "PSI"}
            assert verdict["where"] == item.target["reason"]["where"]


def test_near_misses_change_one_thing() -> None:
    document = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
                "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]],
                "edges_assignment": ["B", "B", "B", "B", "V"]}
    changed = near_miss(document, np.random.default_rng(0))
    assert changed["edges_assignment"] == ["B", "B", "B", "B", "M"]  # no interior vertex to move: a flip
    assert changed["vertices_coords"] == document["vertices_coords"]


def test_no_blind_baseline_beats_or_misses_chance(tmp_path: Path) -> None:
    write_dataset("origamispace/foldability-v2", tmp_path, n=ITEMS, seed=4242, modalities=("image",))
    report = audit_dataset(tmp_path)
    assert report.items == ITEMS and report.band == pytest.approx((0.15, 0.35))
    assert len(report.baselines) >= 15  # pictures and records were both read
    assert not report.flagged, [(b.name, round(b.accuracy, 3)) for b in report.flagged]
    assert set(report.letters.values()) == {ITEMS // 4}
