"""A prompt's text without the paragraphs that only tell a model how to format its reply.

A paragraph that asks for JSON, or shows a JSON example, is addressed to a model that must write its answer as
text; a reader who answers some other way (a person on the study page, a model asked for an option letter alone
in a VLMEvalKit file) gets the prompt without it.
"""

from __future__ import annotations

import re

__all__ = ["is_reply_format", "without_reply_format"]

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def is_reply_format(paragraph: str) -> bool:
    """Whether a paragraph only tells a model how to format its reply (it names JSON or opens with JSON).

    >>> is_reply_format('Answer with JSON: {"answer": "A"}'), is_reply_format("Which hole is punched?")
    (True, False)
    """
    return "JSON" in paragraph or paragraph.lstrip().startswith(("{", '"'))


def without_reply_format(text: str) -> str:
    """``text`` without its paragraphs that only tell a model how to format its reply (JSON instructions); the
    paragraphs kept are joined by one blank line.

    >>> without_reply_format('Which hole?\\n\\nReply with JSON: {"answer": "A"}')
    'Which hole?'
    >>> without_reply_format("")
    ''
    """
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(text) if p.strip() and not is_reply_format(p)]
    return "\n\n".join(p.strip("\n") for p in paragraphs)
