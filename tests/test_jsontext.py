"""The bounded JSON reader: its fast test for over-long digit runs agrees with a regular expression, and what it
refuses is exactly what the bounded decoder refuses."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.jsontext import MAX_INTEGER_DIGITS, has_long_digit_run, loads

_RUN = re.compile(rf"[0-9]{{{MAX_INTEGER_DIGITS + 1}}}")

_OTHER = st.text(alphabet=st.sampled_from(list("[],.-eE \"{}:abc") + ["é", "\u0661", "\u0967", "\ud800", "\U0001f600"]),
                 max_size=4)
_DIGITS = st.integers(min_value=0, max_value=MAX_INTEGER_DIGITS + 60).map(lambda n: "7" * n)
_TEXTS = st.lists(st.one_of(_OTHER, _DIGITS), max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_the_digit_run_test_agrees_with_the_regular_expression(text: str) -> None:
    assert has_long_digit_run(text) == bool(_RUN.search(text))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=MAX_INTEGER_DIGITS + 20), min_size=1, max_size=4),
       st.booleans())
def test_an_integer_is_refused_exactly_when_it_is_longer_than_the_limit(lengths: list[int], as_float: bool) -> None:
    numbers = ["9" * n + (".5" if as_float else "") for n in lengths]
    text = "[" + ", ".join(numbers) + "]"
    too_long = not as_float and max(lengths) > MAX_INTEGER_DIGITS
    if too_long:
        with pytest.raises(json.JSONDecodeError, match="digits"):
            loads(text)
    else:
        assert len(loads(text)) == len(lengths)
