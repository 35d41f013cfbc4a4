"""How VLMEvalKit scores a multiple-choice reply without a judge model, re-stated from its documented behaviour
(``vlmeval/utils/matching_util.py``, ``can_infer``) for tests: which option letter it reads in a reply, if any.

1. The reply is split into words after ``. ( ) [ ] , : ; ! * # { }`` are turned into spaces. When exactly one of
   the option letters is a word, and it is among the last five words, that letter is the answer.
2. Else a phrase "answer is X" / "correct answer is X" (X one of A-D, possibly in bold) names the answer.
3. Else, when the reply is at most twice as long as all option texts together, the one option whose text
   (lower case) occurs in the reply (lower case) is the answer.
4. Else nothing is read (the item counts as wrong without a judge).

The prompt VLMEvalKit sends for a custom multiple-choice row is ``Question: <question>``, then ``Options:`` and a
line ``<letter>. <text>`` per option, then "Please select the correct answer from the options above."
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["read_letter", "vlmevalkit_prompt"]

_SEPARATORS = ".()[],:;!*#{}"
_ANSWER_IS = re.compile(r"(?i)(?:correct\s+)?answer\s+is\s+\**([ABCD])\**")


def vlmevalkit_prompt(question: str, options: Mapping[str, str]) -> str:
    """The text VLMEvalKit's image multiple-choice datasets send with a row's pictures."""
    lines = [f"Question: {question}", "Options:", *(f"{letter}. {text}" for letter, text in options.items())]
    return "\n".join(lines) + "\nPlease select the correct answer from the options above. \n"


def read_letter(reply: str, options: Mapping[str, str]) -> str | None:
    """The option letter VLMEvalKit's exact rules read in ``reply``, or None."""
    spaced = reply
    for mark in _SEPARATORS:
        spaced = spaced.replace(mark, " ")
    words = spaced.split()
    present = [letter for letter in options if letter in words]
    if len(present) == 1 and words.index(present[0]) > len(words) - 5:
        return present[0]
    named = _ANSWER_IS.search(reply)
    if named and named.group(1).upper() in options:
        return named.group(1).upper()
    lowered = reply.lower()
    if len(lowered) > 2 * sum(len(text) for text in options.values()):
        return None
    containing = [letter for letter, text in options.items() if text.lower() in lowered]
    return containing[0] if len(containing) == 1 else None
