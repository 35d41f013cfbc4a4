"""The random and oracle baselines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from foldbench.models import Model, ModelConfigError, ModelReply, OracleModel, RandomModel
from tests.models.toy_task import ToyAnswer, make_request, toy_item


def _answer(model: Model, index: int, tmp_path: Path, location: int = 7) -> ModelReply:
    return asyncio.run(model.complete(make_request(tmp_path, item=toy_item(index, location))))


def test_oracle_replies_with_the_engine_answer_as_json(tmp_path: Path) -> None:
    for location in (1, 17, 32):
        reply = _answer(OracleModel(), 3, tmp_path, location)
        assert ToyAnswer.model_validate_json(reply.text) == ToyAnswer(location=location)
        assert reply.error is None and reply.prompt_tokens is None and reply.completion_tokens is None
        assert reply.latency_s >= 0


def test_random_is_deterministic_per_seed_and_item(tmp_path: Path) -> None:
    first = [_answer(RandomModel(seed=1), i, tmp_path).text for i in range(20)]
    again = [_answer(RandomModel(seed=1), i, tmp_path).text for i in reversed(range(20))][::-1]
    other_seed = [_answer(RandomModel(seed=2), i, tmp_path).text for i in range(20)]
    assert first == again
    assert first != other_seed
    assert len(set(first)) > 15  # draws out of a million differ between items
    assert all(isinstance(ToyAnswer.model_validate_json(text).location, int) for text in first)


def test_baselines_satisfy_the_model_protocol() -> None:
    for model in (RandomModel(), OracleModel()):
        assert isinstance(model, Model)
        asyncio.run(model.aclose())
    assert (RandomModel(4).name, dict(RandomModel(4).params)) == ("random", {"seed": 4})
    assert (OracleModel().name, dict(OracleModel().params)) == ("oracle", {})
    with pytest.raises(ModelConfigError, match="seed"):
        RandomModel(-1)
