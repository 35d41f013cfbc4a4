"""Baselines that answer without a model: the chance level (``random``) and the engine's answer (``oracle``).

They take the same requests as real models and their replies go through the same parsing and scoring, so a report
can place a model between chance and a perfect score, and the oracle checks the whole pipeline end to end. A
baseline knows no task: the harness hands it, per item, an *answer function* built from the task
(``task.oracle(item)``, ``task.random_answer(item, rng)``, or an environment's policy) with :meth:`answering`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from foldbench.models.base import ModelReply, ModelRequest
from foldbench.models.errors import ModelConfigError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["AnswerFunction", "BaselineModel", "OracleModel", "RandomModel", "item_generator"]

#: What a bound baseline replies to a request (a JSON answer, usually); the generator is the baseline's own for
#: this item and turn (see :func:`item_generator`).
AnswerFunction = Callable[[ModelRequest, "np.random.Generator"], str]


def item_generator(seed: int, item_id: str, turn: int = 0) -> np.random.Generator:
    """The random generator for reply ``turn`` to the item ``item_id`` under ``seed``; it depends on these alone.

    >>> bool(item_generator(0, "x-00000").integers(1 << 30) == item_generator(0, "x-00000").integers(1 << 30))
    True
    >>> bool(item_generator(0, "x-00000").integers(1 << 30) == item_generator(0, "x-00000", 1).integers(1 << 30))
    False
    """
    import numpy as np

    digest = hashlib.sha256(item_id.encode("utf-8")).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, len(digest), 4)]
    entropy = [seed, *words] if turn == 0 else [seed, *words, turn]
    return np.random.default_rng(np.random.SeedSequence(entropy))


class BaselineModel:
    """A model whose replies come from an answer function the harness supplies per item.

    Args:
        name: ``"random"`` or ``"oracle"``.
        params: what changes its replies (part of the request key).
        seed: the seed of the generators handed to the answer function.
    """

    def __init__(self, name: str, params: Mapping[str, Any], seed: int = 0) -> None:
        self.name = name
        self.params: Mapping[str, Any] = dict(params)
        self.seed = seed
        self._answer: AnswerFunction | None = None
        self._item_id = ""

    def answering(self, item_id: str, answer: AnswerFunction) -> BaselineModel:
        """A copy of this baseline that answers the item ``item_id`` with ``answer``."""
        bound = type(self).__new__(type(self))
        bound.__dict__.update(self.__dict__)
        bound._item_id, bound._answer = item_id, answer
        return bound

    async def complete(self, request: ModelRequest) -> ModelReply:
        """The answer function's reply to the request.

        Raises:
            ModelConfigError: the baseline was not given an answer function (use it through the harness).
        """
        if self._answer is None:
            raise ModelConfigError(f"{self.name}: a baseline answers only through the harness (no answer function)")
        started = time.perf_counter()
        rng = item_generator(self.seed, self._item_id, request.conversation.turn)
        text = self._answer(request, rng)
        return ModelReply(text=text, latency_s=time.perf_counter() - started, finish_reason="stop")

    async def aclose(self) -> None:
        """Nothing to release."""


class RandomModel(BaselineModel):
    """The chance level: the task's own random well-formed answer, the same one for the same seed, item and turn.

    Args:
        seed: the baseline's seed (the answer for an item depends only on it, the item's id and the turn).
    """

    def __init__(self, seed: int = 0) -> None:
        if seed < 0:
            raise ModelConfigError(f"random: seed must be at least 0, got {seed}")
        super().__init__("random", {"seed": seed}, seed)


class OracleModel(BaselineModel):
    """The engine's own answer (it must score 100%)."""

    def __init__(self) -> None:
        super().__init__("oracle", {})
