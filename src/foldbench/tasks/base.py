"""The task protocol every benchmark family implements, and the item record they all produce."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Item", "Task"]


class Item(BaseModel):
    """One benchmark question: plain, JSON-serialisable data with its ground truth.

    Same task id, seed and engine version give the same item, byte for byte.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    """Unique within its dataset, e.g. ``"prediction-00017"``."""
    task: str
    """The versioned task id, e.g. ``"mentalblackboard/prediction-v1"``."""
    seed: int
    """The seed this item alone is generated from (derived from the dataset seed and the item's index)."""
    engine_version: str
    """The version of the engine that computed the ground truth."""
    inputs: dict[str, Any]
    """What the question shows: task-specific fields, plus encodings per modality (text, image paths)."""
    target: dict[str, Any]
    """The ground truth."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Facts for grouping results (configuration group, fold families, ...), never shown to a model."""


@runtime_checkable
class Task(Protocol):
    """A benchmark task: generates items and the files (images, ...) they refer to."""

    id: str
    """Versioned id, ``family/name-vN``."""
    modalities: tuple[str, ...]
    """The encodings this task can write (``"text"``, ``"image"``, ...)."""

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...], knobs: Mapping[str, Any]
    ) -> Iterator[Item]:
        """Yield ``n`` items, deterministically from ``seed``."""
        ...

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The files an item refers to, as ``(relative path, bytes)``."""
        ...
