"""What a model is shown: text, image and video parts, messages with a role, and conversations.

This module sits below both the tasks (which render items into prompts) and the model adapters (which send
conversations), so neither needs the other. An image is either a file of the dataset (by its relative path) or
PNG bytes held in memory (an environment that renders on the fly); both enter a request key by the sha256 of
their bytes, so the same picture is the same request however it is held.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "Conversation",
    "ImagePart",
    "Message",
    "Part",
    "Prompt",
    "Role",
    "TextPart",
    "VideoPart",
]


@dataclass(frozen=True, slots=True)
class TextPart:
    """A piece of text."""

    text: str


@dataclass(frozen=True, slots=True)
class ImagePart:
    """An image: a dataset file by its path relative to the dataset directory, or PNG bytes in memory.

    Exactly one of ``path`` and ``data`` is set.

    >>> ImagePart("images/a.png").label, ImagePart(data=b"png").label[:12]
    ('images/a.png', 'memory:8f8cb')
    """

    path: str | None = None
    data: bytes | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if (self.path is None) == (self.data is None):
            raise ValueError("an ImagePart holds either a dataset path or PNG bytes, not both or neither")

    @property
    def label(self) -> str:
        """The path, or ``memory:`` and the start of the bytes' sha256 (for logs and text views)."""
        if self.path is not None:
            return self.path
        assert self.data is not None
        return f"memory:{hashlib.sha256(self.data).hexdigest()[:12]}"


@dataclass(frozen=True, slots=True)
class VideoPart:
    """A video file of the dataset (for adapters that take video), with its key frames for those that do not."""

    path: str
    frames: tuple[str, ...] = ()


#: Anything a message can hold.
Part = TextPart | ImagePart | VideoPart

#: Who speaks a message.
Role = Literal["system", "user", "assistant"]


def _part_text(part: Part) -> str:
    if isinstance(part, TextPart):
        return part.text
    if isinstance(part, ImagePart):
        return f"<image {part.label}>"
    return f"<video {part.path}>"


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation: a role and its parts."""

    role: Role
    parts: tuple[Part, ...]

    @property
    def text(self) -> str:
        """The parts joined, pictures shown as placeholders.

        >>> Message("user", (TextPart("Look:"), ImagePart("a.png"))).text
        'Look:\\n<image a.png>'
        """
        return "\n".join(_part_text(p) for p in self.parts)


@dataclass(frozen=True, slots=True)
class Conversation:
    """The messages of a conversation, oldest first (an optional system message, then user and assistant turns).

    >>> opening = Conversation((Message("user", (TextPart("Guess a number."),)),))
    >>> later = opening.then(Message("assistant", (TextPart("5"),)), Message("user", (TextPart("higher"),)))
    >>> later.turn, len(later.messages), opening.turn
    (1, 3, 0)
    """

    messages: tuple[Message, ...]

    def then(self, *messages: Message) -> Conversation:
        """This conversation with ``messages`` appended."""
        return Conversation((*self.messages, *messages))

    @property
    def turn(self) -> int:
        """How many assistant replies the conversation holds (the index of the reply it asks for)."""
        return sum(m.role == "assistant" for m in self.messages)

    @property
    def system(self) -> str | None:
        """The text of the leading system message, if there is one."""
        if self.messages and self.messages[0].role == "system":
            return self.messages[0].text
        return None

    @property
    def parts(self) -> tuple[Part, ...]:
        """Every part of every message, in order."""
        return tuple(p for m in self.messages for p in m.parts)

    @property
    def text(self) -> str:
        """The conversation as text, one ``role: text`` block per message."""
        return "\n".join(f"{m.role}: {m.text}" for m in self.messages)


@dataclass(frozen=True, slots=True)
class Prompt:
    """The opening of a conversation as a task renders it: an optional system text, the first user turn, and the
    version of the template that produced them."""

    parts: tuple[Part, ...]
    template_version: str
    system: str | None = None

    @property
    def text(self) -> str:
        """The parts joined (pictures shown as placeholders), for logs and text-only views."""
        return "\n".join(_part_text(p) for p in self.parts)

    def conversation(self) -> Conversation:
        """The prompt as a conversation: the system message (when there is one), then the user turn.

        >>> Prompt((TextPart("Q"),), "t1", system="Be brief.").conversation().system
        'Be brief.'
        """
        user = Message("user", self.parts)
        if self.system:
            return Conversation((Message("system", (TextPart(self.system),)), user))
        return Conversation((user,))
