"""Foldability questions: the compiler decides every option, the odd one is unique, and no blind baseline beats
chance (``foldbench audit``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from foldbench.crease.io.generated import compile_generated
from foldbench.harness.audit import audit_dataset
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from foldbench.tasks.origamispace.foldability import near_miss
from foldbench.tasks.origamispace.stability import option_stability
from tests.support.datasets import FOLDABILITY_AUDIT

ITEMS = FOLDABILITY_AUDIT.n


@pytest.fixture(scope="module")
def task():
    return make("origamispace/foldability-v2")


def test_exactly_one_option_is_odd_and_the_reason_is_the_compilers(task, foldability_audit_dataset: Path) -> None:
    items = read_items(foldability_audit_dataset)[:8]  # both variants, four of each
    assert {item.metadata["variant"] for item in items} == {"one-unfoldable", "one-foldable"}
    for item in items:
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


def test_options_judged_from_the_compilers_pattern_are_judged_as_from_their_documents(
        foldability_audit_dataset: Path) -> None:  # fmt: skip
    """Generation hands the compiler's pattern to the near-miss and the stability check instead of building it
    again: the results are those of building it from the document."""
    for item in read_items(foldability_audit_dataset)[:3]:
        for option, verdict in zip(item.inputs["options"], item.target["verdicts"], strict=True):
            built = compile_generated(option).pattern
            assert built is not None
            assert option_stability(option, verdict, built) == option_stability(option, verdict)
            seeded = [np.random.default_rng(seed) for seed in (5, 5)]
            assert near_miss(option, seeded[0], built) == near_miss(option, seeded[1])
            assert seeded[0].random() == seeded[1].random()  # both drew as much


def test_near_misses_change_one_thing() -> None:
    document = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]],
                "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]],
                "edges_assignment": ["B", "B", "B", "B", "V"]}
    changed = near_miss(document, np.random.default_rng(0))
    assert changed["edges_assignment"] == ["B", "B", "B", "B", "M"]  # no interior vertex to move: a flip
    assert changed["vertices_coords"] == document["vertices_coords"]


def test_no_blind_baseline_beats_or_misses_chance(foldability_audit_dataset: Path) -> None:
    report = audit_dataset(foldability_audit_dataset)
    assert report.items == ITEMS and report.band == pytest.approx((0.15, 0.35))
    assert len(report.baselines) >= 15  # pictures and records were both read
    assert not report.flagged, [(b.name, round(b.accuracy, 3)) for b in report.flagged]
    assert set(report.letters.values()) == {ITEMS // 4}
