"""One-step items from OrigamiBench's shipped models: the derived sequences are checked by the compiler and end
in the model itself."""

from __future__ import annotations

import numpy as np
import pytest

from foldbench.crease.io.collection import paper_models
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.sequences import Crease, pattern_from_creases
from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.origamibench.model_sequences import derive_model_sequence
from foldbench.tasks.origamibench.one_step import contains_creases

SAILBOAT = "001_traditional_Sailboat"
KABUTO = "002_traditional_Kabuto"


def _entry(stem: str):
    return next(entry for entry in paper_models().entries if entry.path.stem == stem)


def test_a_traditional_model_gets_a_sequence_ending_in_the_model() -> None:
    entry = _entry(SAILBOAT)
    derived = derive_model_sequence(entry)
    assert derived.reason == "covered" and derived.sequence is not None
    sequence = derived.sequence
    assert len(sequence) >= 2 and sequence.category == "model"
    for state in range(1, len(sequence) + 1):
        assert sequence.compiled(state, limit=2).state_count >= 1  # every state folds flat
    for step in sequence.steps:
        assert 1 <= len(step.creases) <= 32  # one environment action each
    # the last state has exactly the model's creases, letters included (the model's unit square scaled to 10)
    read = read_crease_pattern(entry.path)
    coords = read.vertices_coords * read.scale + np.array(read.offset)
    model = pattern_from_creases([
        Crease(tuple(coords[a] * 10), tuple(coords[b] * 10), letter)
        for (a, b), letter in zip(read.edges_vertices.tolist(), read.edges_assignment, strict=True) if letter in "MV"])
    assert np.allclose(coords.min(axis=0), 0) and np.allclose(coords.max(axis=0), 1)
    final = sequence.final_pattern
    assert contains_creases(final, model) and contains_creases(model, final)
    assert not contains_creases(model, sequence.pattern(len(sequence) - 1))


def test_a_model_whose_collapse_needs_many_creases_is_not_covered() -> None:
    derived = derive_model_sequence(_entry("036_ku_Checkerboard_26x26"))
    assert derived.sequence is None and derived.reason == "collapse needs more creases than one action"


def test_associative_items_draw_from_the_named_models() -> None:
    task = make("origamibench/one-step-associative")
    knobs = {"models": f"{SAILBOAT},{KABUTO}", "size": 64,
             "sequences": f"model-{SAILBOAT},model-{KABUTO},blintz,cupboard,book-quarter-corner,half-corner-behind"}
    items = list(task.generate(12, 5, modalities=("image",), knobs=knobs))
    shown = {o["sequence"] for item in items for o in item.target["options"]}
    assert shown & {f"model-{SAILBOAT}", f"model-{KABUTO}"}
    for item in items:
        assert task.score(item, task.oracle(item)).values["accuracy"] == 1.0
        assert task.consistent_options(item).count(True) == 1


def test_an_unknown_model_is_refused_in_one_line() -> None:
    with pytest.raises(InvalidKnobError) as error:
        next(iter(make("origamibench/one-step-associative").generate(
            1, 0, modalities=("image",), knobs={"models": "no_such_model"})))
    assert "'models'" in str(error.value) and "no_such_model" in str(error.value) and "\n" not in str(error.value)
