"""Multi-step ordering: the pictures are distinct compiled states of one sequence, the true order is the one the
crease patterns give, the four orders are a set closed under local edits (so the answer is not their centre),
and the harness scores the oracle at 100 % and random near chance."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.sequences import sequence_by_name
from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart
from foldbench.tasks.origamibench.one_step import contains_creases
from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature
from foldbench.tasks.origamispace.ordering import EDIT_KINDS, _compose, edit_group
from tests.support.choice_runs import oracle_and_random_accuracy

TASK_ID = "origamispace/multi-step-ordering-v3"


@pytest.fixture(scope="module")
def task():
    return make(TASK_ID)


@pytest.fixture(scope="module")
def items(task):
    """Items with every kind of wrong orders."""
    return list(task.generate(24, 13, knobs={"edits": list(EDIT_KINDS)}))


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(", ")]


def test_the_pictures_are_distinct_states_and_the_answer_is_their_folding_order(task, items) -> None:
    for item in items:
        sequence = sequence_by_name(item.target["sequence"])
        states = item.target["states"]  # state of picture 1, 2, ...
        assert len(set(states)) == len(states) == item.metadata["pictures"]
        assert all(1 <= s <= len(sequence) for s in states)
        signatures = [state_signature(sequence, s, item.inputs["fill"]) for s in states]  # as shown
        assert not any(pictures_look_alike(a, b) for a, b in itertools.combinations(signatures, 2))
        answer = _numbers(item.inputs["options"]["ABCD".index(item.target["answer"])])
        assert [states[number - 1] for number in answer] == sorted(states)
        # the crease patterns nest along the true order only
        patterns = [sequence.pattern(states[number - 1]) for number in answer]
        assert all(contains_creases(a, b) and not contains_creases(b, a) for a, b in itertools.pairwise(patterns))
        assert task.oracle(item).answer == item.target["answer"]


def test_each_wrong_order_keeps_local_order_and_no_order_is_the_centre(items) -> None:
    for item in items:
        orders = [_numbers(text) for text in item.inputs["options"]]
        assert len({tuple(o) for o in orders}) == 4
        answer = orders["ABCD".index(item.target["answer"])]
        neighbours = {frozenset(pair) for pair in itertools.pairwise(answer)}
        for order in orders:
            if order != answer:  # some pictures next to each other in the true order still are
                assert any(frozenset(pair) in neighbours for pair in itertools.pairwise(order))
        # every option has the same summed distance to the others: none is the medoid or the outlier
        totals = [sum(int(np.abs(np.subtract(o, p)).sum()) for p in orders) for o in orders]
        assert len(set(totals)) == 1, totals


def test_blocks_of_four_share_their_orders_and_each_is_true_once(items) -> None:
    for block in range(0, len(items), 4):
        group = items[block:block + 4]
        assert len({frozenset(item.inputs["options"]) for item in group}) == 1
        answers = {item.inputs["options"]["ABCD".index(item.target["answer"])] for item in group}
        assert answers == set(group[0].inputs["options"])
        assert sorted(item.target["answer"] for item in group) == ["A", "B", "C", "D"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(EDIT_KINDS), st.integers(4, 9), st.integers(0, 2**32 - 1))
def test_every_edit_set_is_a_group_of_four(kind: str, k: int, seed: int) -> None:
    group = edit_group(kind, k, np.random.default_rng(seed))
    if group is None:
        assert (kind, k) in {("swap-and-reversal", 4), ("two-reversals", 4), ("two-reversals", 5)}
        return
    assert group[0] == tuple(range(k)) and len(set(group)) == 4
    assert all(sorted(g) == list(range(k)) for g in group)
    assert {_compose(g, h) for g in group for h in group} == set(group)  # closed: each option is an edit of each


def test_the_folding_order_follows_the_pictures_not_the_stored_answer(task, items) -> None:
    item = items[0]
    states = list(item.target["states"])
    states[0], states[1] = states[1], states[0]  # pictures 1 and 2 trade states
    swapped = item.model_copy(update={"target": {**item.target, "states": states}})
    exchange = {1: 2, 2: 1}
    assert task.folding_order(swapped) == [exchange.get(n, n) for n in task.folding_order(item)]


def test_the_prompt_shows_the_numbered_pictures_and_every_order(task, items) -> None:
    prompt = task.render(items[0], "image")
    assert isinstance(prompt.parts[0], ImagePart)
    text = prompt.parts[-1].text
    assert f"{items[0].metadata['pictures']} numbered states" in text
    for letter, order in zip("ABCD", items[0].inputs["options"], strict=True):
        assert f"{letter}. {order}\n" in text


def test_every_kind_of_edits_can_be_chosen(task) -> None:
    for kind in EDIT_KINDS:
        items = list(task.generate(4, 2, knobs={"edits": kind, "states": 6, "size": 64}))
        assert {item.metadata["edits"] for item in items} == {kind}
        assert all(task.oracle(item).answer == item.target["answer"] for item in items)


@pytest.mark.parametrize(("knobs", "words"), [
    ({"states": "3"}, ["'states'", "4..9"]),
    ({"states": "9", "categories": "base"}, ["'states'", "no chosen sequence has 9"]),
    ({"sequences": "no-such-thing"}, ["'sequences'", "no-such-thing"]),
    ({"categories": "animals"}, ["'categories'", "animals"]),
    ({"edits": "two-reversals", "states": "4,6"}, ["'edits'", "fits 4 pictures"]),
])
def test_bad_knobs_are_refused_by_name(task, knobs: dict, words: list[str]) -> None:
    with pytest.raises(InvalidKnobError) as error:
        list(task.generate(1, 0, knobs=knobs))
    for word in words:
        assert word in str(error.value)


def test_oracle_and_random_through_the_harness(task, ordering_audit_dataset: Path, tmp_path: Path) -> None:
    results = oracle_and_random_accuracy(task, ordering_audit_dataset, tmp_path)  # 160 items
    assert results["oracle"] == 1.0
    assert 0.15 <= results["random"] <= 0.35


def _largest_first_accuracy(task, items) -> float:
    """How often 'the picture with the most paper comes first' picks the true order (options closest to that
    order by discordant pairs; ties split)."""
    credit = 0.0
    for item in items:
        ink = [int((np.asarray(p.convert("L")) < 245).sum()) for p in task._pictures(item)]
        rank = {n: r for r, n in enumerate(sorted(range(1, len(ink) + 1), key=lambda n: -ink[n - 1]))}
        discord = [sum(rank[a] > rank[b] for a, b in itertools.combinations(_numbers(text), 2))
                   for text in item.inputs["options"]]
        best = [i for i, d in enumerate(discord) if d == min(discord)]
        credit += ("ABCD".index(item.target["answer"]) in best) / len(best)
    return credit / len(items)


def test_filling_each_picture_hides_the_shrinking_outline(task) -> None:
    common = list(task.generate(40, 17, knobs={"fill": False, "size": 64}))
    filled = list(task.generate(40, 17, knobs={"size": 64}))
    assert _largest_first_accuracy(task, common) > 0.8  # at one scale, folding shrinks the outline
    assert _largest_first_accuracy(task, filled) < 0.6


def test_default_composition_is_the_papers_250_questions_averaging_7_5_steps(task) -> None:
    """Section 4.2: 250 questions, 7.5 steps per question on average."""
    from foldbench.tasks.origamispace.ordering import PAPER_QUESTIONS

    items = list(task.generate(PAPER_QUESTIONS, 2026))
    pictures = [len(item.inputs["images"]["states"]) for item in items]
    assert len(items) == 250
    assert round(sum(pictures) / len(pictures), 1) == 7.5
    assert set(pictures) == {7, 8}
    assert len({(item.target["sequence"], tuple(item.target["states"])) for item in items}) > 150
