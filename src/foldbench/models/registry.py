"""Models by name: ``make_model("openai:gpt-4o")``, ``make_model("random")``, ``make_model("transformers:PATH")``."""

from __future__ import annotations

import difflib
import inspect
import os
from collections.abc import Callable
from typing import Any

from foldbench.errors import UnknownNameError
from foldbench.models.base import Model
from foldbench.models.baselines import OracleModel, RandomModel
from foldbench.models.errors import ModelConfigError

__all__ = ["MODEL_SPECS", "OPENAI_BASE_URL", "make_model"]

#: The OpenAI API root, used when ``openai:NAME`` is given no ``base_url``.
OPENAI_BASE_URL = "https://api.openai.com/v1"

#: The forms a model spec can take.
MODEL_SPECS = ("random", "oracle", "openai:MODEL", "transformers:PATH")


def _check_params(spec: str, factory: Callable[..., Any], params: dict[str, Any], fixed: set[str]) -> None:
    accepted = {
        name
        for name, parameter in inspect.signature(factory).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY and name not in fixed
    }
    unknown = sorted(set(params) - accepted)
    if unknown:
        takes = f"it takes {', '.join(sorted(accepted))}" if accepted else "it takes none"
        raise ModelConfigError(f"model {spec}: unknown parameter(s) {', '.join(unknown)}; {takes}")


def make_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    seed: int = 0,
    **params: Any,
) -> Model:
    """Build the model adapter a spec names.

    Args:
        spec: ``"random"``, ``"oracle"``, ``"openai:MODEL"`` (any OpenAI-compatible server) or
            ``"transformers:PATH"`` (a local model; needs ``foldbench[local]``).
        base_url: the server for ``openai:`` models; without it, the OpenAI API (which needs a key).
        api_key_env: the environment variable holding the API key.
        seed: the random baseline's seed (and the jitter seed of API retries).
        **params: generation and client settings of the adapter (``temperature``, ``max_tokens``,
            ``timeout_s``, ``max_retries``, ... for ``openai:``; ``device``, ``max_new_tokens``, ``temperature``
            for ``transformers:``). The baselines take none.

    Raises:
        UnknownNameError: the spec is none of the forms above (with a suggestion).
        ModelConfigError: a missing API key, an empty model name, or a parameter the adapter does not take.
        MissingDependencyError: ``transformers:`` without ``torch``/``transformers`` installed.

    >>> make_model("oracle").name
    'oracle'
    >>> make_model("radnom")
    Traceback (most recent call last):
    ...
    foldbench.errors.UnknownNameError: unknown model 'radnom'. Did you mean: random?
    """
    kind, colon, rest = spec.partition(":")
    if not colon and kind in ("random", "oracle"):
        if params:
            raise ModelConfigError(f"model {spec}: the baselines take no parameters, got {', '.join(sorted(params))}")
        return RandomModel(seed=seed) if kind == "random" else OracleModel()
    if colon and kind == "openai":
        if not rest:
            raise ModelConfigError("model openai: needs a model name, e.g. openai:gpt-4o")
        from foldbench.models.openai_compat import OpenAICompatibleModel  # the HTTP client, only when needed

        _check_params(spec, OpenAICompatibleModel, params, {"base_url", "api_key", "api_key_env", "jitter_seed"})
        api_key = os.environ.get(api_key_env) or None
        if base_url is None:
            if api_key is None:
                raise ModelConfigError(
                    f"model {spec}: the OpenAI API needs a key; set the environment variable {api_key_env} "
                    "(or give a base URL for a local server)"
                )
            base_url = OPENAI_BASE_URL
        return OpenAICompatibleModel(
            rest, base_url=base_url, api_key=api_key, api_key_env=api_key_env, jitter_seed=seed, **params
        )
    if colon and kind == "transformers":
        if not rest:
            raise ModelConfigError("model transformers: needs a model path, e.g. transformers:/models/qwen2-vl")
        from foldbench.models.transformers_local import TransformersModel

        _check_params(spec, TransformersModel, params, set())
        return TransformersModel(rest, **params)
    # Suggest the spec with its prefix mended ("openia:x" -> "openai:x", "gpt-4o" -> "openai:gpt-4o").
    mended = [f"openai:{rest}", f"transformers:{rest}"] if colon else [f"openai:{spec}"]
    close = difflib.get_close_matches(spec, mended, n=1)
    raise UnknownNameError("model", spec, [*close, *MODEL_SPECS])
