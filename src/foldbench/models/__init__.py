"""Model adapters behind one async interface: OpenAI-compatible servers, local transformers, and baselines.

The names below are imported from their modules on first use, so importing one module of this package (the
harness needs only :mod:`foldbench.models.base`) does not load the HTTP client or any other adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.lazy_names import lazy_exports

if TYPE_CHECKING:
    from foldbench.models.base import Model, ModelReply, ModelRequest
    from foldbench.models.baselines import OracleModel, RandomModel
    from foldbench.models.errors import ModelConfigError, PromptInputError
    from foldbench.models.fingerprint import request_fingerprint
    from foldbench.models.openai_compat import OpenAICompatibleModel, message_payload
    from foldbench.models.registry import make_model
    from foldbench.models.transformers_local import TransformersModel

_HOMES = {
    "Model": ".base",
    "ModelReply": ".base",
    "ModelRequest": ".base",
    "OracleModel": ".baselines",
    "RandomModel": ".baselines",
    "ModelConfigError": ".errors",
    "PromptInputError": ".errors",
    "request_fingerprint": ".fingerprint",
    "OpenAICompatibleModel": ".openai_compat",
    "message_payload": ".openai_compat",
    "make_model": ".registry",
    "TransformersModel": ".transformers_local",
}

__all__ = [
    "Model",
    "ModelConfigError",
    "ModelReply",
    "ModelRequest",
    "OpenAICompatibleModel",
    "OracleModel",
    "PromptInputError",
    "RandomModel",
    "TransformersModel",
    "make_model",
    "message_payload",
    "request_fingerprint",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
