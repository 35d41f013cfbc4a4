"""Requests over real PNG files, for the model adapter tests (the adapters know no tasks, so neither do these)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from foldbench.messages import Conversation, ImagePart, Message, Part, Prompt, TextPart, VideoPart
from foldbench.models import ModelRequest

__all__ = ["ImagePart", "TextPart", "VideoPart", "make_conversation_request", "make_request", "write_png"]


def write_png(path: Path, colour: tuple[int, int, int], size: int = 8) -> Path:
    """A small solid PNG at ``path`` (directories created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (size, size), colour).save(path, format="PNG")
    return path


def make_request(
    dataset_dir: Path, parts: tuple[Part, ...] = (TextPart("Which location?"),), *, system: str | None = None
) -> ModelRequest:
    """A one-shot request: an optional system message and one user turn."""
    return ModelRequest(Prompt(parts=parts, template_version="toy-1", system=system).conversation(), dataset_dir)


def make_conversation_request(dataset_dir: Path | None, *turns: tuple[str, tuple[Part, ...]]) -> ModelRequest:
    """A request of several messages, each ``(role, parts)``."""
    return ModelRequest(Conversation(tuple(Message(role, parts) for role, parts in turns)), dataset_dir)  # type: ignore[arg-type]
