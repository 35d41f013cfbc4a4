"""A toy task and requests over real PNG files, for the model adapter tests."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from pydantic import BaseModel

from foldbench.models import ModelRequest
from foldbench.tasks.base import ImagePart, Item, ParseFailure, Prompt, Scores, TextPart, VideoPart


class ToyAnswer(BaseModel):
    """The answer to a toy item: one location."""

    location: int


class ToyTask:
    """A task whose items ask for one location; enough of the protocol for the adapters."""

    id = "toy/locate-v1"
    modalities: tuple[str, ...] = ("text", "image")

    def generate(self, n: int, seed: int, *, modalities: tuple[str, ...], knobs: Mapping[str, Any]) -> Iterator[Item]:
        for index in range(n):
            yield toy_item(index, location=(seed + index) % 32 + 1)

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        return iter(())

    def render(self, item: Item, modality: str) -> Prompt:
        return Prompt(parts=(TextPart(f"Where is item {item.id}?"),), template_version="toy-1")

    def parse(self, item: Item, text: str) -> BaseModel | ParseFailure:
        return ToyAnswer.model_validate_json(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        right = isinstance(answer, ToyAnswer) and answer.location == item.target["location"]
        return Scores(values={"accuracy": float(right)})

    def oracle(self, item: Item) -> BaseModel:
        return ToyAnswer(location=item.target["location"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> BaseModel:
        return ToyAnswer(location=int(rng.integers(1, 1_000_000)))


def toy_item(index: int, location: int = 7) -> Item:
    return Item(
        id=f"locate-{index:05d}",
        task=ToyTask.id,
        seed=index,
        engine_version="toy-1",
        inputs={},
        target={"location": location},
    )


def write_png(path: Path, colour: tuple[int, int, int], size: int = 8) -> Path:
    """A small solid PNG at ``path`` (directories created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (size, size), colour).save(path, format="PNG")
    return path


def make_request(
    dataset_dir: Path,
    parts: tuple[TextPart | ImagePart | VideoPart, ...] = (TextPart("Which location?"),),
    *,
    system: str | None = None,
    item: Item | None = None,
) -> ModelRequest:
    return ModelRequest(
        prompt=Prompt(parts=parts, template_version="toy-1", system=system),
        dataset_dir=dataset_dir,
        item=item if item is not None else toy_item(0),
        task=ToyTask(),
    )
