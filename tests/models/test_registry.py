"""Models by spec: baselines, OpenAI-compatible servers, local transformers, and helpful errors."""

from __future__ import annotations

import sys
import types

import pytest

from foldbench.errors import MissingDependencyError, UnknownNameError
from foldbench.models import (
    Model,
    ModelConfigError,
    OpenAICompatibleModel,
    OracleModel,
    RandomModel,
    make_model,
)
from foldbench.models.registry import OPENAI_BASE_URL


def test_baselines() -> None:
    random_model = make_model("random", seed=3)
    assert isinstance(random_model, RandomModel) and random_model.params == {"seed": 3}
    assert isinstance(make_model("oracle"), OracleModel)
    with pytest.raises(ModelConfigError, match="take no parameters, got temperature"):
        make_model("random", temperature=0.0)


def test_openai_with_a_local_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    model = make_model("openai:Qwen/Qwen2.5-VL", base_url="http://127.0.0.1:8000/v1", temperature=0.2, max_tokens=9)
    assert isinstance(model, OpenAICompatibleModel) and isinstance(model, Model)
    assert model.name == "openai:Qwen/Qwen2.5-VL" and model.model == "Qwen/Qwen2.5-VL"
    assert model.params == {"temperature": 0.2, "max_tokens": 9, "extra_body": {}}
    assert "Authorization" not in model._headers


def test_openai_api_needs_the_key_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    with pytest.raises(ModelConfigError, match="set the environment variable MY_KEY"):
        make_model("openai:gpt-4o", api_key_env="MY_KEY")
    monkeypatch.setenv("MY_KEY", "sk-abc")
    model = make_model("openai:gpt-4o", api_key_env="MY_KEY")
    assert isinstance(model, OpenAICompatibleModel)
    assert model.base_url == OPENAI_BASE_URL and model._headers["Authorization"] == "Bearer sk-abc"
    assert model.api_key_env == "MY_KEY"


def test_a_key_in_the_environment_is_sent_to_a_local_server_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    model = make_model("openai:m", base_url="http://127.0.0.1:8000/v1")
    assert isinstance(model, OpenAICompatibleModel) and model._headers["Authorization"] == "Bearer sk-local"


def test_unknown_parameters_and_empty_names_are_config_errors() -> None:
    with pytest.raises(ModelConfigError, match="unknown parameter.*temprature"):
        make_model("openai:m", base_url="http://x/v1", temprature=0.1)
    with pytest.raises(ModelConfigError, match="needs a model name"):
        make_model("openai:", base_url="http://x/v1")
    with pytest.raises(ModelConfigError, match="needs a model path"):
        make_model("transformers:")


@pytest.mark.parametrize(
    ("spec", "suggestion"),
    [
        ("radnom", "Did you mean: random?"),
        ("orcale", "Did you mean: oracle?"),
        ("openia:gpt-4o", "Did you mean: openai:gpt-4o?"),
        ("transfomers:/m", "Did you mean: transformers:/m?"),
        ("gpt-4o", "Did you mean: openai:gpt-4o?"),
        ("zzz", "Known: openai:MODEL, oracle, random, transformers:PATH."),
    ],
)
def test_unknown_specs_suggest_a_fix(spec: str, suggestion: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        make_model(spec)
    assert str(caught.value) == f"unknown model '{spec}'.{' ' + suggestion}"


def test_transformers_without_the_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))  # installed (the real one: seconds to import)
    monkeypatch.setitem(sys.modules, "transformers", None)  # absent
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[local\]'"):
        make_model("transformers:/models/tiny")
