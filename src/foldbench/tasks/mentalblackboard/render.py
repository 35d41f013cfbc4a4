"""Prompts for MentalBlackboard items, worded by the functions of :mod:`foldbench.tasks.mentalblackboard.wording`.

Their text has ``@@image PATH`` lines where a picture goes and ``@@video PATH|FRAME,FRAME,...`` lines where a video
goes (with the key frames sent to models that take images only); :func:`render_prompt` turns that into a
:class:`~foldbench.tasks.base.Prompt` of text, image and video parts. Bump :data:`TEMPLATE_VERSION` whenever a
prompt's wording changes; it is stored with every run.
"""

from __future__ import annotations

from typing import Any

from foldbench.tasks.base import ImagePart, Prompt, TextPart, VideoPart
from foldbench.tasks.mentalblackboard.wording import PROMPTS

__all__ = ["TEMPLATE_VERSION", "render_prompt"]

TEMPLATE_VERSION = "mentalblackboard-prompts-v2"
_IMAGE_MARK = "@@image "
_VIDEO_MARK = "@@video "


def render_prompt(template: str, **context: Any) -> Prompt:
    """The prompt ``template`` (a name in :data:`~foldbench.tasks.mentalblackboard.wording.PROMPTS`) worded with
    ``context``, as text, image and video parts."""
    text = PROMPTS[template](**context)
    if _IMAGE_MARK not in text and _VIDEO_MARK not in text:  # a text prompt: one part, its lines as they are
        whole = "\n".join(text.splitlines()).strip("\n")
        return Prompt((TextPart(whole),) if whole else (), TEMPLATE_VERSION)
    parts: list[TextPart | ImagePart | VideoPart] = []
    buffer: list[str] = []
    for line in text.splitlines():
        if line.startswith((_IMAGE_MARK, _VIDEO_MARK)):
            if buffer:
                parts.append(TextPart("\n".join(buffer).strip("\n")))
                buffer = []
            if line.startswith(_IMAGE_MARK):
                parts.append(ImagePart(line[len(_IMAGE_MARK) :].strip()))
            else:
                path, _, frames = line[len(_VIDEO_MARK) :].strip().partition("|")
                parts.append(VideoPart(path, tuple(f for f in frames.split(",") if f)))
        else:
            buffer.append(line)
    if buffer:
        parts.append(TextPart("\n".join(buffer).strip("\n")))
    return Prompt(tuple(p for p in parts if not (isinstance(p, TextPart) and not p.text)), TEMPLATE_VERSION)
