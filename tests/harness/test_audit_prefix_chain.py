"""The audit's prefix-chain rule: the option whose removal leaves the other records a chain of prefixes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.harness.audit import ChoiceItem, audit_choice_items

RULE = "prefix chain odd one out"


def _accuracy(items: list[ChoiceItem]) -> float | None:
    found = [b for b in audit_choice_items(items).baselines if b.name == RULE]
    return found[0].accuracy if found else None


def _placed(n: int, slot: int, others: list[list[str]], answer: list[str]) -> ChoiceItem:
    return ChoiceItem(f"q{n}", slot, (), tuple(others[:slot] + [answer] + others[slot:]))


def test_an_odd_sequence_that_breaks_the_chain_of_the_others_is_found_every_time() -> None:
    chain = [["a"], ["a", "b"], ["a", "b", "c"]]
    items = [_placed(n, n % 4, chain, ["x", "b"] if n % 2 else ["a", "y"]) for n in range(40)]
    assert _accuracy(items) == pytest.approx(1.0)
    assert RULE in {b.name for b in audit_choice_items(items).flagged}


def test_an_odd_sequence_branching_off_at_the_last_step_ties_with_the_true_last_step() -> None:
    # Either of the two longest records could be left out and the other three still chain: credit 1/2 each time.
    chain = [["a"], ["a", "b"], ["a", "b", "c"]]
    items = [_placed(n, n % 4, chain, ["a", "b", "z"]) for n in range(40)]
    assert _accuracy(items) == pytest.approx(0.5)


@given(st.lists(st.integers(0, 3), min_size=8, max_size=40))
def test_four_unrelated_sequences_leave_the_rule_at_exactly_chance(slots: list[int]) -> None:
    items = [
        ChoiceItem(f"q{n}", slot, (), tuple([f"s{k}", f"t{n}"] for k in range(4))) for n, slot in enumerate(slots)
    ]
    assert _accuracy(items) == pytest.approx(0.25)


def test_records_that_are_not_sequences_get_no_prefix_rule() -> None:
    items = [ChoiceItem(f"q{n}", n % 4, (), tuple({"v": k} for k in range(4))) for n in range(8)]
    assert _accuracy(items) is None
