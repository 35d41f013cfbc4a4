"""Model adapters behind one async interface: OpenAI-compatible servers, local transformers, and baselines."""

from foldbench.models.base import Model, ModelReply, ModelRequest
from foldbench.models.baselines import OracleModel, RandomModel
from foldbench.models.errors import ModelConfigError, PromptInputError
from foldbench.models.fingerprint import request_fingerprint
from foldbench.models.openai_compat import OpenAICompatibleModel, message_payload
from foldbench.models.registry import make_model
from foldbench.models.transformers_local import TransformersModel

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
