"""Text below every layer: text that came from outside (a model's reply, a participant's answer, a file) made safe
to store and print (:func:`valid_text`), model replies read strictly (:mod:`foldbench.text.replies`) and prompt
templates loaded (:mod:`foldbench.text.prompts`)."""

from __future__ import annotations

import re

__all__ = ["valid_text"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """``text`` with every lone UTF-16 surrogate replaced by U+FFFD, so that it encodes as UTF-8.

    A JSON string ``"\\ud800"`` decodes to such a character; SQLite, files and terminals refuse to encode it.

    >>> valid_text("a\\ud800b") == "a\\ufffdb"
    True
    >>> valid_text("")
    ''
    """
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)
