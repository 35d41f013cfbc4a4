"""OrigamiBench's synthesis protocol (paper 003, section 2 and appendix D): what the model is shown and told.

* **Prompt** (``prompt="paper"``): instructions with a silent step-by-step method, the three pictures in a fixed
  order (target folded, current folded, current crease pattern), the action schemas, and a worked few-shot example:
  a built-in fold sequence (:data:`EXAMPLE_SEQUENCE`) shown as its target, its start, each action taken and the
  result, every picture drawn by the engine from the replayed actions. ``prompt="foldbench"`` is foldbench's own
  prompt (four pictures, with the back view, and the JSON state).
* **Feedback** (``feedback="feasible"``): after each action, only whether it could be folded (true or false), as
  the paper gives; ``feedback="detailed"`` adds foldbench's reason for a refusal (the stage, the error class and
  code, the place).
* **Scores**: GS as the paper computes it (the raster IoU of the two forms drawn at 512 pixels in one frame, the
  environment's ``gs_raster``) is the headline; the exact polygon IoU of the aligned forms stays beside it. SS
  compares the two "projected images" of :func:`paper_pictures` (each form drawn alone, framed on itself).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any, Literal

from PIL import Image

from foldbench.messages import ImagePart, Part, TextPart
from foldbench.origami.folded import AlignedFold
from foldbench.origami.pictures import crease_pattern_image, episode_window, fitted_window, folded_image, png_bytes
from foldbench.origami.sheet import Sheet, apply_action, blank_sheet
from foldbench.text.prompts import PromptTemplate, load_prompt

__all__ = [
    "EXAMPLE_IMAGES",
    "EXAMPLE_SEQUENCE",
    "PAPER_PICTURE_SIZE",
    "FeedbackMode",
    "PromptMode",
    "example_actions",
    "example_pictures",
    "feedback_parts",
    "paper_pictures",
    "paper_prompt_parts",
    "paper_template",
    "plain_state",
]

PromptMode = Literal["paper", "foldbench"]
FeedbackMode = Literal["feasible", "detailed"]
EXAMPLE_SEQUENCE = "fish-base"
"""The built-in fold sequence the few-shot example shows (three steps, as a base like the paper's example)."""
PAPER_PICTURE_SIZE = 512
"""The side of the pictures GS and SS are computed on (the paper's 512 x 512 renders)."""
EXAMPLE_IMAGES: tuple[str, ...] = ("example_target", "example_start_folded", "example_start_pattern",
                                   "example_end_pattern", "example_end_folded")
"""The example's pictures, by the names the prompt places them under."""
_IMAGE_MARK = re.compile(r"<image:([a-z_]+)>")


@cache
def paper_template() -> PromptTemplate:
    """The paper-protocol prompt template."""
    return load_prompt("foldbench.origami", "synthesis-paper.txt")


@cache
def example_actions() -> tuple[dict[str, Any], ...]:
    """The example sequence's actions, one ``add_creases`` per fold step (paper frame)."""
    from foldbench.crease.sequences import sequence_by_name

    return tuple(sequence_by_name(EXAMPLE_SEQUENCE).actions())


def _replayed() -> Sheet:
    sheet = blank_sheet()
    for action in example_actions():
        result = apply_action(sheet, action)
        if not result.accepted:  # the built-in sequences are checked by the compiler; this would be a defect
            raise RuntimeError(f"the example sequence {EXAMPLE_SEQUENCE} is refused: {result.feedback}")
        sheet = result.sheet
    return sheet


@cache
def example_pictures(size: int) -> Mapping[str, bytes]:
    """The example's pictures as PNG bytes: its target (the sheet its actions fold), its start and its end."""
    end = _replayed()
    start = blank_sheet()
    window = episode_window(end.aligned)
    return {
        "example_target": png_bytes(folded_image(end.aligned, "front", size, window, square_outline=True)),
        "example_start_folded": png_bytes(folded_image(start.aligned, "front", size, window, square_outline=True)),
        "example_start_pattern": png_bytes(crease_pattern_image(start.aligned, size)),
        "example_end_pattern": png_bytes(crease_pattern_image(end.aligned, size)),
        "example_end_folded": png_bytes(folded_image(end.aligned, "front", size, window, square_outline=True)),
    }


def paper_prompt_parts(images: Mapping[str, str], foldable: str = "no action yet") -> tuple[list[Part], str]:
    """The paper-protocol prompt as parts (text with each picture where the prompt names it) and its version.

    Args:
        images: picture name -> asset path, for the example's pictures and ``target``, ``current_folded``,
            ``current_pattern``.
        foldable: what the prompt says of the previous action.
    """
    template = paper_template()
    steps = [json.dumps(action) for action in example_actions()]
    text = template.render(example_steps=steps, foldable=foldable)
    parts: list[Part] = []
    position = 0
    for mark in _IMAGE_MARK.finditer(text):
        parts.append(TextPart(text[position:mark.start()]))
        parts.append(ImagePart(images[mark[1]]))
        position = mark.end()
    parts.append(TextPart(text[position:]))
    return [p for p in parts if not isinstance(p, TextPart) or p.text.strip()], template.version or ""


def feedback_parts(feedback: Mapping[str, Any], mode: FeedbackMode, pictures: Mapping[str, Image.Image] | None,
                   ) -> list[Part]:
    """The paper-protocol turn after an action: whether it could be folded (with foldbench's reason for a refusal
    when ``mode`` is ``detailed``), then the target, the folded sheet and the crease pattern."""
    accepted = bool(feedback.get("accepted"))
    lines = [f"Foldable: {'true' if accepted else 'false'}"]
    if mode == "detailed" and not accepted:
        lines.append(f"Why it was refused ({feedback.get('code')}): {feedback.get('message')}")
    parts: list[Part] = [TextPart("\n".join(lines))]
    if pictures is not None:
        for label, name in (("The target, folded:", "target"), ("The sheet now, folded:", "current_front"),
                            ("The crease pattern now:", "crease_pattern")):
            parts += [TextPart(label), ImagePart(data=png_bytes(pictures[name]))]
    parts.append(TextPart("Reply with one complete, valid JSON action."))
    return parts


def plain_state(state_text: str) -> str:
    """The JSON state with the previous action's feedback cut to whether it was kept (``feedback="feasible"``)."""
    state = json.loads(state_text)
    previous = state.get("previous_action")
    if isinstance(previous, dict):
        state["previous_action"] = {"accepted": bool(previous.get("accepted"))}
    return json.dumps(state, separators=(",", ":"))


def paper_pictures(target: AlignedFold, result: AlignedFold) -> tuple[Image.Image, Image.Image]:
    """The target and the result as SS sees them: each drawn alone (front), framed on its own bounding box, at
    :data:`PAPER_PICTURE_SIZE` pixels."""
    size = PAPER_PICTURE_SIZE
    return (folded_image(target, "front", size, fitted_window(target)),
            folded_image(result, "front", size, fitted_window(result)))
