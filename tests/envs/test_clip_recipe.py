"""The optional CLIP pieces without torch: the embedder's missing-extra error, and the fine-tuning script's batch
sampler and split (the training itself needs the ``clip`` extra and is not run here)."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.envs import OpenClipEmbedder
from foldbench.errors import MissingDependencyError

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "finetune_clip_supcon.py"
spec = importlib.util.spec_from_file_location("finetune_clip_supcon", SCRIPT)
assert spec is not None and spec.loader is not None
recipe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recipe)


def test_the_clip_embedder_names_the_extra_when_open_clip_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "open_clip", None)
    with pytest.raises(MissingDependencyError, match=r"foldbench\[clip\]"):
        OpenClipEmbedder(weights="clip-origami.pt")


@given(st.lists(st.integers(0, 14), min_size=4, max_size=120), st.integers(0, 1000))
def test_balanced_batches_hold_two_or_more_of_each_category(labels: list[int], seed: int) -> None:
    seen: list[int] = []
    for batch in recipe.balanced_batches(labels, 32, random.Random(seed)):
        assert 4 <= len(batch) <= 32
        assert min(Counter(labels[i] for i in batch).values()) >= 2
        seen += batch
    assert len(seen) == len(set(seen))


def test_the_split_is_seeded_and_keeps_every_category_in_training(tmp_path: Path) -> None:
    grouped = {name: [tmp_path / name / f"{i}.png" for i in range(count)] for name, count in
               (("animals", 20), ("plants", 9), ("geometry", 2))}
    train, held = recipe.split(grouped, seed=3)
    assert recipe.split(grouped, seed=3) == (train, held)
    assert len(train) + len(held) == 31 and {label for _, label in train} == {0, 1, 2}
    # labels in name order (animals 0, geometry 1, plants 2); 10 % held out, none from a category of two
    assert Counter(label for _, label in held) == Counter({0: 2, 2: 1})


def test_a_pool_of_three_never_overfills_a_batch() -> None:
    """Eleven categories of three pictures: eleven whole pools of three would make a batch of 33 > 32."""
    labels = [label for label in range(11) for _ in range(3)]
    batches = list(recipe.balanced_batches(labels, 32, random.Random(0)))
    assert batches and all(len(batch) <= 32 for batch in batches)


@given(st.lists(st.integers(0, 5), max_size=12))
def test_a_validation_loss_is_reported_only_when_two_held_out_pictures_share_a_category(labels: list[int]) -> None:
    """The loss has no positive pair otherwise (it used to print nan)."""
    assert recipe.has_pair(labels) == any(labels.count(label) > 1 for label in labels)
