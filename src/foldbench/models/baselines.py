"""Baselines that answer from the task itself: the chance level (``random``) and the engine's answer (``oracle``).

They take the same requests as real models and go through the same parsing and scoring, so a report can place a
model between chance and a perfect score, and the oracle checks the whole pipeline end to end.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from foldbench.models.base import ModelReply, ModelRequest
from foldbench.models.errors import ModelConfigError
from foldbench.tasks.base import Item

__all__ = ["OracleModel", "RandomModel", "item_generator"]


def item_generator(seed: int, item: Item) -> np.random.Generator:
    """The random generator for ``item`` under ``seed``: it depends on both and on nothing else.

    >>> item = Item(id="x-00000", task="t/x-v1", seed=0, engine_version="e", inputs={}, target={})
    >>> bool(item_generator(0, item).integers(1 << 30) == item_generator(0, item).integers(1 << 30))
    True
    """
    digest = hashlib.sha256(item.id.encode("utf-8")).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, len(digest), 4)]
    return np.random.default_rng(np.random.SeedSequence([seed, *words]))


class RandomModel:
    """Answers each item with the task's own random well-formed answer, the same one for the same seed and item.

    Args:
        seed: the baseline's seed (the answer for an item depends only on it and the item's id).
    """

    def __init__(self, seed: int = 0) -> None:
        if seed < 0:
            raise ModelConfigError(f"random: seed must be at least 0, got {seed}")
        self.seed = seed
        self.name = "random"
        self.params: Mapping[str, Any] = {"seed": seed}

    async def complete(self, request: ModelRequest) -> ModelReply:
        """The random answer to the request's item, as JSON."""
        started = time.perf_counter()
        answer = request.task.random_answer(request.item, item_generator(self.seed, request.item))
        text = answer.model_dump_json()
        return ModelReply(text=text, latency_s=time.perf_counter() - started, finish_reason="stop")

    async def aclose(self) -> None:
        """Nothing to release."""


class OracleModel:
    """Answers each item with the engine's own answer (it must score 100%)."""

    def __init__(self) -> None:
        self.name = "oracle"
        self.params: Mapping[str, Any] = {}

    async def complete(self, request: ModelRequest) -> ModelReply:
        """The oracle answer to the request's item, as JSON."""
        started = time.perf_counter()
        text = request.task.oracle(request.item).model_dump_json()
        return ModelReply(text=text, latency_s=time.perf_counter() - started, finish_reason="stop")

    async def aclose(self) -> None:
        """Nothing to release."""
