"""An optional adapter that runs a local Hugging Face ``transformers`` model (vision-language or text-only).

``torch`` and ``transformers`` are imported only when the adapter is built (install ``foldbench[local]``).
The model loads from local files only (nothing is downloaded) on the first request, and generation runs in a
worker thread, one request at a time, so the event loop stays free.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
import time
from collections.abc import Mapping
from typing import Any

from foldbench.errors import MissingDependencyError
from foldbench.messages import ImagePart, TextPart, VideoPart
from foldbench.models._files import PromptFiles
from foldbench.models.base import ModelReply, ModelRequest
from foldbench.models.errors import ModelConfigError, PromptInputError

__all__ = ["TransformersModel", "import_backend"]

#: Model classes tried in order: image-text-to-text first, then the older vision-to-sequence, then text-only.
_MODEL_CLASSES = ("AutoModelForImageTextToText", "AutoModelForVision2Seq", "AutoModelForCausalLM")


def import_backend() -> tuple[Any, Any]:
    """The ``torch`` and ``transformers`` modules; raises :class:`MissingDependencyError` naming the extra."""
    try:
        torch = importlib.import_module("torch")
        transformers = importlib.import_module("transformers")
    except ImportError:
        raise MissingDependencyError("transformers", "local", "the local transformers adapter") from None
    return torch, transformers


class TransformersModel:
    """A local ``transformers`` model behind the async model interface.

    Args:
        model_path: a local model directory (or the id of a model already in the local Hugging Face cache).
        device: where to run it (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"mps"``).
        max_new_tokens: the reply length limit.
        temperature: 0 for greedy decoding, otherwise the sampling temperature.

    Raises:
        MissingDependencyError: ``torch`` or ``transformers`` is not installed.
        ModelConfigError: an argument out of range.
    """

    def __init__(
        self, model_path: str, *, device: str = "cpu", max_new_tokens: int = 1024, temperature: float = 0.0
    ) -> None:
        if not model_path:
            raise ModelConfigError("transformers: the model path is empty")
        if max_new_tokens < 1:
            raise ModelConfigError(
                f"transformers:{model_path}: max_new_tokens must be at least 1, got {max_new_tokens}"
            )
        if temperature < 0:
            raise ModelConfigError(f"transformers:{model_path}: temperature must be at least 0, got {temperature}")
        self._torch, self._transformers = import_backend()
        self.model_path = model_path
        self.device = device
        self.name = f"transformers:{model_path}"
        self.params: Mapping[str, Any] = {"max_new_tokens": max_new_tokens, "temperature": float(temperature)}
        self._lock = threading.Lock()
        self._files = PromptFiles(max_bytes=0)
        self._processor: Any = None
        self._model: Any = None

    def _load(self) -> None:
        """Load the processor and model once (callers hold the lock)."""
        if self._model is not None:
            return
        transformers = self._transformers
        try:
            processor = transformers.AutoProcessor.from_pretrained(self.model_path, local_files_only=True)
        except (OSError, ValueError) as error:
            raise ModelConfigError(f"{self.name}: cannot load its processor from local files: {error}") from None
        reasons = []
        for class_name in _MODEL_CLASSES:
            model_class = getattr(transformers, class_name, None)
            if model_class is None:
                continue
            try:
                model = model_class.from_pretrained(self.model_path, torch_dtype="auto", local_files_only=True)
            except ValueError as error:  # "Unrecognized configuration class ... for this kind of AutoModel"
                reasons.append(f"{class_name}: {str(error).splitlines()[0]}")
                continue
            except OSError as error:
                raise ModelConfigError(f"{self.name}: cannot load the model from local files: {error}") from None
            model.to(self.device)
            model.eval()
            self._processor, self._model = processor, model
            return
        raise ModelConfigError(f"{self.name}: no generation model class fits it ({'; '.join(reasons)})")

    def _images_and_messages(self, request: ModelRequest, multimodal: bool) -> tuple[list[Any], list[dict[str, Any]]]:
        """The PIL images of the conversation and its chat messages (content lists for processors, strings for
        tokenizers), one per message, assistant turns included."""
        import io

        from PIL import Image

        images: list[Any] = []
        messages: list[dict[str, Any]] = []
        for message in request.conversation.messages:
            content: list[dict[str, Any]] = []
            for part in message.parts:
                if isinstance(part, TextPart):
                    content.append({"type": "text", "text": part.text})
                    continue
                if isinstance(part, VideoPart) and not part.frames:
                    raise PromptInputError(f"video {part.path} has no key frames to show")
                pictures = [part] if isinstance(part, ImagePart) else [ImagePart(frame) for frame in part.frames]
                for picture in pictures:
                    data = self._files.image_bytes(picture, request.dataset_dir)
                    try:
                        with Image.open(io.BytesIO(data)) as opened:
                            images.append(opened.convert("RGB"))
                    except OSError as error:
                        raise PromptInputError(f"prompt image {picture.label} cannot be read: {error}") from None
                    content.append({"type": "image"})
            if multimodal:
                messages.append({"role": message.role, "content": content})
            else:
                text = "\n".join(p["text"] for p in content if p["type"] == "text")
                messages.append({"role": message.role, "content": text})
        return images, messages

    def _generate(self, request: ModelRequest) -> ModelReply:
        """Load (once) and run the model on one request; runs in a worker thread."""
        with self._lock:
            self._load()
            processor, model, torch = self._processor, self._model, self._torch
            multimodal = hasattr(processor, "image_processor")
            images, messages = self._images_and_messages(request, multimodal)
            if images and not multimodal:
                return ModelReply(
                    text="",
                    error=f"{self.name}: the prompt has {len(images)} images but the model reads text only",
                    error_kind="unsupported_input",
                )
            started = time.perf_counter()
            try:
                text = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
            except ValueError as error:  # no chat template
                raise ModelConfigError(f"{self.name}: cannot format a chat prompt: {error}") from None
            if multimodal:
                inputs = processor(text=[text], images=images or None, return_tensors="pt")
            else:
                inputs = processor(text, return_tensors="pt")
            inputs = inputs.to(self.device)
            max_new_tokens = int(request.params.get("max_tokens", self.params["max_new_tokens"]))
            temperature = float(request.params.get("temperature", self.params["temperature"]))
            sampling: dict[str, Any] = {"do_sample": temperature > 0}
            if temperature > 0:
                sampling["temperature"] = temperature
            try:
                with torch.inference_mode():
                    output = model.generate(**inputs, max_new_tokens=max_new_tokens, **sampling)
            except RuntimeError as error:  # out of memory, device errors
                return ModelReply(
                    text="",
                    error=f"{self.name}: generation failed: {str(error).splitlines()[0] if str(error) else error!r}",
                    error_kind="local_runtime",
                    latency_s=time.perf_counter() - started,
                )
            prompt_length = int(inputs["input_ids"].shape[1])
            new_tokens = output[0, prompt_length:]
            decoder = getattr(processor, "tokenizer", processor)
            reply = decoder.decode(new_tokens, skip_special_tokens=True)
            generated = int(new_tokens.shape[0])
            return ModelReply(
                text=reply,
                latency_s=time.perf_counter() - started,
                prompt_tokens=prompt_length,
                completion_tokens=generated,
                finish_reason="length" if generated >= max_new_tokens else "stop",
            )

    async def complete(self, request: ModelRequest) -> ModelReply:
        """Generate a reply in a worker thread (the model loads on the first call).

        Raises:
            ModelConfigError: the model cannot be loaded from local files or has no chat template.
            PromptInputError: an image of the prompt cannot be read.
        """
        return await asyncio.to_thread(self._generate, request)

    async def aclose(self) -> None:
        """Drop the model so its memory can be freed."""
        with self._lock:
            self._model = None
            self._processor = None
