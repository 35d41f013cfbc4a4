"""A participant's version of an item's question: the same text and pictures a model gets, without the
instructions on how a model must format its reply, split into the material (pictures and the text around them)
and the question itself, which the page shows beside the answer controls.

A paragraph that asks for JSON, or shows a JSON example, only tells a model how to write its answer; a person
answers with the page's buttons instead, so such paragraphs are replaced by a sentence on how to answer on the page
(one per answer kind, below).
"""

from __future__ import annotations

from dataclasses import dataclass

from foldbench.human.forms import FormKind
from foldbench.messages import ImagePart, Part, Prompt, TextPart, VideoPart
from foldbench.tasks.reply_format import without_reply_format

__all__ = ["HOW_TO_ANSWER", "ParticipantQuestion", "participant_question", "study_title"]

#: How a person answers each kind of form (replaces the model's reply-format instructions).
HOW_TO_ANSWER: dict[FormKind, str] = {
    "holes": (
        "Answer on the sheet drawing: click each triangle where the unfolded sheet has a hole (click again to take "
        "it back) and choose the hole's shape, size and direction. Then add the unfolding steps in order with the "
        "fold buttons, and press Submit (or Enter)."
    ),
    "plan": (
        "Answer on the sheet drawing: click each triangle where you would punch the folded paper (click again to "
        "take it back) and choose the hole's shape, size and direction. Then add the folds in order with the fold "
        "buttons, and press Submit (or Enter)."
    ),
    "letters": "Click the option you choose, or press its letter (A–D) or number (1–4) and then Enter.",
    "choice": "Click the answer you choose, or press its number (or letter) and then Enter.",
}

@dataclass(frozen=True, slots=True)
class ParticipantQuestion:
    """What the page shows: ``material`` (pictures, videos and the text among them) and ``question`` (the text
    that asks, shown beside the answer controls, ending with how to answer on the page)."""

    material: tuple[Part, ...]
    question: str

    def files(self) -> frozenset[str]:
        """The dataset files (relative paths) the material shows: the only files the page may serve."""
        return frozenset(
            part.path for part in self.material if isinstance(part, ImagePart | VideoPart) and part.path is not None
        )


def participant_question(prompt: Prompt, kind: FormKind) -> ParticipantQuestion:
    """The participant's version of ``prompt`` for an answer form of ``kind``.

    The text after the last picture (or, with no pictures, the last paragraph) is the question.
    """
    parts: list[Part] = []
    for part in prompt.parts:
        if isinstance(part, TextPart):
            text = without_reply_format(part.text)
            if text:
                parts.append(TextPart(text))
        else:
            parts.append(part)
    last_picture = max((i for i, p in enumerate(parts) if not isinstance(p, TextPart)), default=None)
    if last_picture is not None:
        material = parts[: last_picture + 1]
        question = "\n\n".join(p.text for p in parts[last_picture + 1 :] if isinstance(p, TextPart))
    else:
        text = "\n\n".join(p.text for p in parts if isinstance(p, TextPart))
        before, _, last = text.rpartition("\n\n")
        material = [TextPart(before)] if before else []
        question = last
    question = f"{question}\n\n{HOW_TO_ANSWER[kind]}" if question else HOW_TO_ANSWER[kind]
    return ParticipantQuestion(tuple(material), question)


_FAMILY_TITLES = {
    "mentalblackboard": "Paper folding and hole punching",
    "pfp": "Paper folding puzzles",
    "origamibench": "Origami puzzles",
    "origamispace": "Origami puzzles",
}


def study_title(task_id: str) -> str:
    """A title people understand for a task's study page (not the task id)."""
    family, _, name = task_id.partition("/")
    kind = name.rsplit("-v", 1)[0].replace("-", " ")
    return f"{_FAMILY_TITLES.get(family, 'Folding puzzles')}: {kind}"
