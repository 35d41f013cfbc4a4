"""OrigamiBench one-step tasks: every item is verified by the compiler, options are drawn alike, and answers are
read strictly."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, ParseFailure, TextPart
from foldbench.tasks.origamibench.one_step import contains_creases, one_fold_after
from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

ASSOCIATIVE = "origamibench/one-step-associative-v4"
CAUSAL = "origamibench/one-step-causal-v3"
N = 24


@pytest.fixture(scope="module")
def items() -> dict[str, list]:
    return {task_id: list(make(task_id).generate(N, 11, modalities=("image",), knobs={"size": 64}))
            for task_id in (ASSOCIATIVE, CAUSAL)}


@pytest.mark.parametrize("task_id", [ASSOCIATIVE, CAUSAL])
def test_exactly_one_option_is_one_fold_after_the_reference(task_id: str, items) -> None:
    task = make(task_id)
    for item in items[task_id]:
        reference, options = task._states(item)
        assert reference[0].compiled(reference[1]).state_count >= 1
        for sequence, state in options:
            assert sequence.compiled(state).state_count >= 1
        consistent = task.consistent_options(item)
        assert consistent.count(True) == 1
        assert "ABCD"[consistent.index(True)] == item.target["answer"]
        assert task.score(item, task.oracle(item)).values["accuracy"] == 1.0


@pytest.mark.parametrize("task_id", [ASSOCIATIVE, CAUSAL])
def test_no_two_pictures_look_alike(task_id: str, items) -> None:
    task = make(task_id)
    for item in items[task_id]:
        reference, options = task._states(item)
        signatures = [state_signature(s, k) for s, k in [reference, *options]]
        for i in range(5):
            for j in range(i + 1, 5):
                assert not pictures_look_alike(signatures[i], signatures[j]), (item.id, i, j)


def test_associative_distractors_come_from_other_sequences(items) -> None:
    for item in items[ASSOCIATIVE]:
        reference = item.target["reference"]["sequence"]
        letters = "ABCD"
        for letter, option in zip(letters, item.target["options"], strict=True):
            if letter == item.target["answer"]:
                assert option == {"sequence": reference, "state": item.target["reference"]["state"] + 1}
            else:
                assert option["sequence"] != reference


def test_causal_distractors_are_earlier_or_two_folds_ahead(items) -> None:
    for item in items[CAUSAL]:
        reference = item.target["reference"]
        for letter, option in zip("ABCD", item.target["options"], strict=True):
            assert option["sequence"] == reference["sequence"]
            if letter != item.target["answer"]:
                assert option["state"] < reference["state"] or option["state"] >= reference["state"] + 2


@pytest.mark.parametrize("task_id", [ASSOCIATIVE, CAUSAL])
def test_answer_letters_are_balanced_in_blocks_of_four(task_id: str, items) -> None:
    for block in range(N // 4):
        letters = [item.target["answer"] for item in items[task_id][4 * block: 4 * block + 4]]
        assert sorted(letters) == ["A", "B", "C", "D"]


def test_causal_answer_is_first_last_or_middle_equally_often(items) -> None:
    for block in range(N // 4):
        earlier = [item.metadata["earlier_distractors"] for item in items[CAUSAL][4 * block: 4 * block + 4]]
        assert sorted(earlier) == [0, 1, 2, 3]


def test_random_answers_score_near_chance(items) -> None:
    task = make(CAUSAL)
    rng = np.random.default_rng(0)
    scores = [task.score(item, task.random_answer(item, rng)).values["accuracy"]
              for _ in range(50) for item in items[CAUSAL]]
    assert 0.2 < float(np.mean(scores)) < 0.3


def test_the_prompt_shows_options_then_reference(items) -> None:
    task = make(ASSOCIATIVE)
    item = items[ASSOCIATIVE][0]
    prompt = task.render(item, "image")
    images = [part.path for part in prompt.parts if isinstance(part, ImagePart)]
    assert images == [*item.inputs["images"]["options"], item.inputs["images"]["reference"]]
    assert isinstance(prompt.parts[-1], TextPart) and "[B]" in prompt.parts[-1].text
    assert prompt.template_version and "associative" in prompt.template_version
    written = dict(task.assets(item))
    assert set(images) <= set(written) and item.inputs["images"]["composite"] in written


@pytest.mark.parametrize(("reply", "letter"),
                         [("[C]", "C"), ("C", "C"), ('{"answer": "d"}', "D"), ("Answer: [A]", "A")])
def test_replies_in_the_requested_form_are_read(reply: str, letter: str, items) -> None:
    task = make(CAUSAL)
    answer = task.parse(items[CAUSAL][0], reply)
    assert not isinstance(answer, ParseFailure) and answer.answer == letter


@pytest.mark.parametrize("reply", ["[E]", "A or B", "Answer: B\nAnswer: C", "the second one"])
def test_other_replies_fail(reply: str, items) -> None:
    assert isinstance(make(CAUSAL).parse(items[CAUSAL][0], reply), ParseFailure)


@pytest.mark.parametrize(("knobs", "words"), [
    ({"categories": "origami"}, ["'categories'", "simple"]),
    ({"sequences": "no-such"}, ["'sequences'", "no-such"]),
    ({"size": 32}, ["'size'", "64..1024"]),
    ({"sequences": "kite-base"}, ["no causal item"]),
])
def test_bad_knobs_are_refused_in_one_line(knobs: dict, words: list[str]) -> None:
    with pytest.raises(InvalidKnobError) as error:
        next(iter(make(CAUSAL).generate(1, 0, modalities=("image",), knobs=knobs)))
    message = str(error.value)
    assert message.startswith(CAUSAL) and "\n" not in message
    for word in words:
        assert word in message, message


def test_a_category_knob_restricts_the_references() -> None:
    chosen = list(make(ASSOCIATIVE).generate(8, 3, modalities=("image",), knobs={"categories": "base,pleat",
                                                                                   "size": 64}))
    assert {item.metadata["category"] for item in chosen} <= {"base", "pleat"}


def test_crease_containment_tells_earlier_from_later() -> None:
    from foldbench.crease.sequences import sequence_by_name

    blintz = sequence_by_name("blintz")
    assert contains_creases(blintz.pattern(0), blintz.pattern(3))
    assert not contains_creases(blintz.pattern(3), blintz.pattern(2))
    assert one_fold_after(blintz.pattern(2), blintz, 3)
    assert not one_fold_after(blintz.pattern(1), blintz, 3)
    assert not one_fold_after(blintz.pattern(2), blintz, 2)


def test_same_seed_same_items() -> None:
    task = make(CAUSAL)
    first = list(task.generate(4, 5, modalities=("image",), knobs={"size": 64}))
    assert first == list(task.generate(4, 5, modalities=("image",), knobs={"size": 64}))
    assert Counter(i.id for i in first) == Counter(f"one-step-causal-{k:06d}" for k in range(4))


def test_every_long_sequence_contributes_causal_items() -> None:
    from foldbench.crease.sequences import builtin_sequences
    from foldbench.tasks.origamibench.one_step import CAUSAL_MIN_FOLDS, causal_option_sets

    long = [s for s in builtin_sequences() if len(s) >= CAUSAL_MIN_FOLDS]
    assert len(long) >= 8
    for sequence in long:
        sets = causal_option_sets(sequence)
        assert all(sets), sequence.name  # a valid option set for every place of the answer
        for choices in sets:
            for states in choices:
                assert len(states) == 4 and all(b - a >= 2 for a, b in zip(states, states[1:], strict=False))
                assert max(states) <= len(sequence)
    drawn = list(make(CAUSAL).generate(4 * len(long), 2, modalities=("image",), knobs={"size": 64}))
    counts = Counter(item.metadata["sequence"] for item in drawn)
    assert set(counts) == {s.name for s in long}
