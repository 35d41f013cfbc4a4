"""The random and oracle baselines: they answer through an answer function the harness builds from the task."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from foldbench.harness.baselines import for_item
from foldbench.models import Model, ModelConfigError, ModelReply, OracleModel, RandomModel
from foldbench.tasks.base import Item
from foldbench.testing.model_requests import make_request
from foldbench.testing.toy_task import AdditionTask, Sum

TASK = AdditionTask()
ITEMS = list(TASK.generate(20, seed=5))


def _answer(model: Model, item: Item, tmp_path: Path) -> ModelReply:
    return asyncio.run(for_item(model, TASK, item).complete(make_request(tmp_path)))


def test_oracle_replies_with_the_engine_answer_as_json(tmp_path: Path) -> None:
    for item in ITEMS[:3]:
        reply = _answer(OracleModel(), item, tmp_path)
        assert Sum.model_validate_json(reply.text).sum == item.inputs["a"] + item.inputs["b"]
        assert reply.error is None and reply.prompt_tokens is None and reply.completion_tokens is None
        assert reply.latency_s >= 0


def test_random_is_deterministic_per_seed_and_item(tmp_path: Path) -> None:
    first = [_answer(RandomModel(seed=1), item, tmp_path).text for item in ITEMS]
    again = [_answer(RandomModel(seed=1), item, tmp_path).text for item in reversed(ITEMS)][::-1]
    other_seed = [_answer(RandomModel(seed=2), item, tmp_path).text for item in ITEMS]
    assert first == again
    assert first != other_seed
    assert len(set(first)) > 15  # draws out of 2,000 differ between items
    assert all(isinstance(Sum.model_validate_json(text).sum, int) for text in first)


def test_a_baseline_without_the_harness_refuses_to_answer(tmp_path: Path) -> None:
    with pytest.raises(ModelConfigError, match="through the harness"):
        asyncio.run(OracleModel().complete(make_request(tmp_path)))


def test_baselines_satisfy_the_model_protocol() -> None:
    for model in (RandomModel(), OracleModel()):
        assert isinstance(model, Model)
        asyncio.run(model.aclose())
    assert (RandomModel(4).name, dict(RandomModel(4).params)) == ("random", {"seed": 4})
    assert (OracleModel().name, dict(OracleModel().params)) == ("oracle", {})
    with pytest.raises(ModelConfigError, match="seed"):
        RandomModel(-1)
