"""A prompt without its reply-format paragraphs (what the study page and the VLMEvalKit export show)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from foldbench.tasks.reply_format import is_reply_format, without_reply_format

_words = st.text(alphabet=st.sampled_from("abc xyz?.,:"), min_size=1, max_size=30).filter(str.strip)
_paragraphs = st.one_of(  # (paragraph, whether it only tells a model how to reply)
    _words.map(lambda text: (text, False)),
    _words.map(lambda text: (f"Answer in JSON. {text}", True)),
    _words.map(lambda text: ('{"answer": "' + text + '"}', True)),
)


@given(st.lists(_paragraphs, min_size=1, max_size=6))
def test_only_the_reply_format_paragraphs_are_dropped(paragraphs: list[tuple[str, bool]]) -> None:
    kept = without_reply_format("\n\n".join(text for text, _ in paragraphs))
    assert kept == "\n\n".join(text for text, reply_format in paragraphs if not reply_format)
    assert all(is_reply_format(text) == reply_format for text, reply_format in paragraphs)
    assert without_reply_format(kept) == kept


def test_a_paragraph_break_may_hold_spaces() -> None:
    assert without_reply_format('How many holes?\n  \nReply as JSON: {"holes": 2}\n') == "How many holes?"
