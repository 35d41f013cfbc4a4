"""The local transformers adapter: its missing-dependency error, its plumbing over a stand-in backend, and (when a
model is available) a real generation."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from foldbench.errors import MissingDependencyError
from foldbench.models import ModelConfigError, PromptInputError
from foldbench.models.transformers_local import TransformersModel
from foldbench.tasks.base import ImagePart, TextPart, VideoPart
from foldbench.testing.model_requests import make_conversation_request, make_request, write_png

PROMPT_IDS = [101, 102, 103, 104]


@pytest.mark.parametrize("missing", ["torch", "transformers"])
def test_a_missing_backend_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    if missing != "torch":  # torch installed: a stand-in, as importing the real one costs seconds of CPU
        monkeypatch.setitem(sys.modules, "torch", types.ModuleType("torch"))
    monkeypatch.setitem(sys.modules, missing, None)  # makes the import fail like an absent package
    with pytest.raises(MissingDependencyError) as caught:
        TransformersModel("/models/tiny")
    assert caught.value.package == "transformers" and caught.value.extra == "local"
    assert "pip install 'foldbench[local]'" in str(caught.value)
    assert "local transformers adapter" in str(caught.value)


class _Batch(dict[str, Any]):
    def to(self, device: str) -> _Batch:
        self["device"] = device
        return self


class _Tokenizer:
    def decode(self, ids: np.ndarray, skip_special_tokens: bool) -> str:
        assert skip_special_tokens
        return " ".join(str(int(i)) for i in ids)


class _Processor:
    """Stands in for a multimodal processor (or, with ``multimodal=False``, a plain tokenizer)."""

    def __init__(self, multimodal: bool) -> None:
        if multimodal:
            self.image_processor = object()
        self.tokenizer = _Tokenizer()
        self.decode = self.tokenizer.decode
        self.seen: dict[str, Any] = {}

    def apply_chat_template(self, messages: list[dict[str, Any]], add_generation_prompt: bool, tokenize: bool) -> str:
        assert add_generation_prompt and not tokenize
        self.seen["messages"] = messages
        return "<chat>"

    def __call__(self, text: Any, images: Any = None, return_tensors: str = "pt") -> _Batch:
        self.seen["text"], self.seen["images"] = text, images
        return _Batch(input_ids=np.array([PROMPT_IDS]))


class _Model:
    def __init__(self, new_tokens: list[int]) -> None:
        self.new_tokens = new_tokens
        self.seen: dict[str, Any] = {}

    def to(self, device: str) -> None:
        self.seen["device"] = device

    def eval(self) -> None:
        self.seen["eval"] = True

    def generate(self, **kwargs: Any) -> np.ndarray:
        self.seen["generate"] = kwargs
        return np.array([[*PROMPT_IDS, *self.new_tokens]])


def _backend(
    monkeypatch: pytest.MonkeyPatch, processor: _Processor, model: _Model, *, vision_class: bool = True
) -> dict[str, list[Any]]:
    """Install stand-in ``torch`` and ``transformers`` modules; returns the from_pretrained calls made."""
    calls: dict[str, list[Any]] = {"processor": [], "model": []}

    class AutoProcessor:
        @staticmethod
        def from_pretrained(path: str, **kwargs: Any) -> _Processor:
            calls["processor"].append((path, kwargs))
            return processor

    def model_class(name: str, fits: bool) -> type:
        def from_pretrained(path: str, **kwargs: Any) -> _Model:
            calls["model"].append((name, path, kwargs))
            if not fits:
                raise ValueError(f"Unrecognized configuration class for {name}\nmore lines")
            return model

        return type(name, (), {"from_pretrained": staticmethod(from_pretrained)})

    transformers = types.ModuleType("transformers")
    transformers.AutoProcessor = AutoProcessor  # type: ignore[attr-defined]
    transformers.AutoModelForImageTextToText = model_class("AutoModelForImageTextToText", vision_class)  # type: ignore[attr-defined]
    transformers.AutoModelForCausalLM = model_class("AutoModelForCausalLM", True)  # type: ignore[attr-defined]
    torch = types.ModuleType("torch")
    torch.inference_mode = contextlib.nullcontext  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "transformers", transformers)
    monkeypatch.setitem(sys.modules, "torch", torch)
    return calls


def test_a_vision_model_sees_system_text_and_images_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    processor, model = _Processor(multimodal=True), _Model([7, 8, 9])
    calls = _backend(monkeypatch, processor, model)
    write_png(tmp_path / "a.png", (255, 0, 0), size=4)
    write_png(tmp_path / "f0.png", (0, 255, 0), size=5)
    write_png(tmp_path / "f1.png", (0, 0, 255), size=6)
    parts = (TextPart("Look."), ImagePart("a.png"), VideoPart("v.mp4", ("f0.png", "f1.png")), TextPart("Where?"))
    adapter = TransformersModel("/models/tiny", device="cuda:1", max_new_tokens=16)
    reply = asyncio.run(adapter.complete(make_request(tmp_path, parts, system="Be brief.")))

    assert reply.error is None and reply.text == "7 8 9"
    assert (reply.prompt_tokens, reply.completion_tokens, reply.finish_reason) == (4, 3, "stop")
    assert calls["processor"] == [("/models/tiny", {"local_files_only": True})]
    assert [c[0] for c in calls["model"]] == ["AutoModelForImageTextToText"]
    assert all(c[2]["local_files_only"] for c in calls["model"])
    assert model.seen["device"] == "cuda:1" and model.seen["eval"]
    assert processor.seen["messages"] == [
        {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Look."},
                {"type": "image"},
                {"type": "image"},
                {"type": "image"},
                {"type": "text", "text": "Where?"},
            ],
        },
    ]
    assert processor.seen["text"] == ["<chat>"]
    images = processor.seen["images"]
    assert [(im.mode, im.size, im.getpixel((0, 0))) for im in images] == [
        ("RGB", (4, 4), (255, 0, 0)),
        ("RGB", (5, 5), (0, 255, 0)),
        ("RGB", (6, 6), (0, 0, 255)),
    ]
    generate = model.seen["generate"]
    assert generate["max_new_tokens"] == 16 and generate["do_sample"] is False and "temperature" not in generate
    assert generate["device"] == "cuda:1"


def test_a_reply_that_fills_the_limit_is_truncated_and_sampling_is_passed_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _Model([1, 2, 3])
    _backend(monkeypatch, _Processor(multimodal=True), model)
    adapter = TransformersModel("/m", max_new_tokens=3, temperature=0.7)
    reply = asyncio.run(adapter.complete(make_request(tmp_path)))
    assert reply.finish_reason == "length" and reply.completion_tokens == 3
    assert model.seen["generate"]["do_sample"] is True and model.seen["generate"]["temperature"] == 0.7
    assert adapter.name == "transformers:/m" and adapter.params == {"max_new_tokens": 3, "temperature": 0.7}


def test_a_text_only_model_gets_strings_and_refuses_images(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    processor = _Processor(multimodal=False)
    calls = _backend(monkeypatch, processor, _Model([5]), vision_class=False)
    adapter = TransformersModel("/text-only")
    reply = asyncio.run(adapter.complete(make_request(tmp_path, (TextPart("a"), TextPart("b")), system="S")))
    assert reply.text == "5"
    assert [c[0] for c in calls["model"]] == ["AutoModelForImageTextToText", "AutoModelForCausalLM"]
    assert processor.seen["messages"] == [{"role": "system", "content": "S"}, {"role": "user", "content": "a\nb"}]
    assert processor.seen["text"] == "<chat>"
    write_png(tmp_path / "a.png", (0, 0, 0))
    refused = asyncio.run(adapter.complete(make_request(tmp_path, (ImagePart("a.png"),))))
    assert refused.error_kind == "unsupported_input" and refused.text == ""


def test_load_and_input_failures_are_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _backend(monkeypatch, _Processor(multimodal=True), _Model([1]))

    def no_files(path: str, **kwargs: Any) -> None:
        raise OSError(f"{path} does not appear to have a file named config.json")

    adapter = TransformersModel("/nowhere")
    monkeypatch.setattr(sys.modules["transformers"].AutoProcessor, "from_pretrained", staticmethod(no_files))
    with pytest.raises(ModelConfigError, match="/nowhere.*config.json"):
        asyncio.run(adapter.complete(make_request(tmp_path)))
    _backend(monkeypatch, _Processor(multimodal=True), _Model([1]))
    adapter = TransformersModel("/m")
    with pytest.raises(PromptInputError, match="missing.png"):
        asyncio.run(adapter.complete(make_request(tmp_path, (ImagePart("missing.png"),))))
    with pytest.raises(ModelConfigError, match="max_new_tokens"):
        TransformersModel("/m", max_new_tokens=0)


# A real generation needs local weights, which no fresh clone has: bench/check_transformers_local.py runs one.


def test_a_conversation_reaches_the_processor_turn_by_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    processor = _Processor(multimodal=True)
    _backend(monkeypatch, processor, _Model([4]))
    data = write_png(tmp_path / "a.png", (0, 128, 255), size=3).read_bytes()
    request = make_conversation_request(
        None,
        ("user", (TextPart("Guess."), ImagePart(data=data))),
        ("assistant", (TextPart("50"),)),
        ("user", (TextPart("higher"),)),
    )
    reply = asyncio.run(TransformersModel("/m").complete(request))
    assert reply.error is None
    assert processor.seen["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Guess."}, {"type": "image"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "50"}]},
        {"role": "user", "content": [{"type": "text", "text": "higher"}]},
    ]
    assert [(im.size, im.getpixel((0, 0))) for im in processor.seen["images"]] == [((3, 3), (0, 128, 255))]
