"""OrigamiBench one-step tasks: every item is verified by the compiler, options are drawn alike, and answers are
read strictly."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, ParseFailure, TextPart
from foldbench.tasks.dataset import read_items
from foldbench.tasks.origamibench.one_step import contains_creases, one_fold_after
from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

ASSOCIATIVE = "origamibench/one-step-associative-v5"
CAUSAL = "origamibench/one-step-causal-v4"
N = 24


@pytest.fixture(scope="module")
def items(one_step_audit_datasets: dict[str, Path]) -> dict[str, list]:
    """The first ``N`` items of each task's audited dataset (``ONE_STEP_AUDITS`` of tests/support/datasets.py),
    read rather than generated again."""
    return {task_id: read_items(one_step_audit_datasets[task_id])[:N] for task_id in (ASSOCIATIVE, CAUSAL)}


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
        # as drawn: the causal pictures fill their views (task.fill), the associative ones share one scale
        signatures = [state_signature(s, k, task.fill) for s, k in [reference, *options]]
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


def test_no_causal_picture_is_the_blank_square(items) -> None:
    """The blank square as reference made a quarter of the old causal items trivial; no option is blank either."""
    for item in items[CAUSAL]:
        assert item.target["reference"]["state"] >= 1
        assert all(option["state"] >= 1 for option in item.target["options"])


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


@pytest.mark.parametrize(("task_id", "form"), [(ASSOCIATIVE, "[B]"), (CAUSAL, "B")])
def test_each_prompt_asks_for_the_papers_answer_form(task_id: str, form: str, items) -> None:
    """OrigamiBench asks for ``[X]`` in the associative task and a bare letter in the causal one."""
    text = make(task_id).render(items[task_id][0], "image").parts[-1].text
    assert f"for example {form}," in text
    other = "[B]" if form == "B" else "for example B,"
    assert other not in text


@pytest.mark.parametrize("task_id", [ASSOCIATIVE, CAUSAL])
@pytest.mark.parametrize(("reply", "letter"), [
    ("[C]", "C"), ("C", "C"), ("[c]\n", "C"), (" D ", "D"), ("(A)", "A"), ("[ B ]", "B"),
    ('{"answer": "d"}', "D"), ("Answer: [A]", "A"), ("The answer is B.", "B"),
])
def test_both_answer_forms_are_read_by_both_tasks(task_id: str, reply: str, letter: str, items) -> None:
    answer = make(task_id).parse(items[task_id][0], reply)
    assert not isinstance(answer, ParseFailure) and answer.answer == letter


@pytest.mark.parametrize("task_id", [ASSOCIATIVE, CAUSAL])
@pytest.mark.parametrize("reply", ["[E]", "A or B", "Answer: B\nAnswer: C", "the second one", "[AB]", "", "[]"])
def test_other_replies_fail(task_id: str, reply: str, items) -> None:
    answer = make(task_id).parse(items[task_id][0], reply)
    assert isinstance(answer, ParseFailure)
    assert make(task_id).score(items[task_id][0], answer).values["accuracy"] == 0.0


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


def test_containment_is_remembered_per_pattern_object_not_per_value() -> None:
    """Each pair of pattern objects is worked out once; a pattern built again (an equal but other object) is
    worked out on its own, and every answer is the one the segments give."""
    from dataclasses import replace

    from foldbench.crease.sequences import sequence_by_name
    from foldbench.tasks.origamibench import one_step

    blintz = sequence_by_name("blintz")
    patterns = [blintz.pattern(k) for k in range(len(blintz) + 1)]
    rebuilt = replace(patterns[-1])
    for inner in [*patterns, rebuilt]:
        for outer in [*patterns, rebuilt]:
            inner_segments, outer_segments = one_step._crease_segments(inner), one_step._crease_segments(outer)
            direct = all(one_step._covered(inner_segments[m], outer_segments[m]) for m in "MV")
            assert contains_creases(inner, outer) == contains_creases(inner, outer) == direct
    assert contains_creases(patterns[0], patterns[-1]) and not contains_creases(patterns[-1], patterns[0])
    (kept_inner, kept_outer), contained = one_step._containment_of[(id(patterns[0]), id(patterns[-1]))]
    assert kept_inner is patterns[0] and kept_outer is patterns[-1] and contained
    assert (id(rebuilt), id(patterns[-1])) in one_step._containment_of  # the rebuilt object has entries of its own


def test_same_seed_same_items() -> None:
    task = make(CAUSAL)
    first = list(task.generate(4, 5, modalities=("image",), knobs={"size": 64}))
    assert first == list(task.generate(4, 5, modalities=("image",), knobs={"size": 64}))
    assert Counter(i.id for i in first) == Counter(f"one-step-causal-{k:06d}" for k in range(4))


def _picture_measures(sequence, state: int) -> tuple[np.ndarray, np.ndarray]:
    """Grey levels (48 px) and ink mask (64 px) of a causal picture, computed here from the picture itself."""
    from PIL import Image

    from foldbench.tasks.origamibench.pictures import state_picture

    grey = state_picture(sequence, state, 128, True).convert("L")
    small = np.asarray(grey.resize((48, 48), Image.Resampling.BOX), dtype=float).ravel()
    mask = np.asarray(grey.resize((64, 64), Image.Resampling.NEAREST)).ravel() < 245
    return small, mask


def test_causal_sets_offer_the_answer_at_every_distance_from_the_reference() -> None:
    """The pool the causal items are drawn from puts the answer nearest, farthest and in between from the
    reference picture, by each measure the audit uses; checked on pictures measured here."""
    from foldbench.crease.sequences import builtin_sequences
    from foldbench.tasks.origamibench.one_step import causal_sets

    pool = [c for s in builtin_sequences() for c in causal_sets(s)]
    assert len(pool) >= 500
    places: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
    sample = pool[:: max(1, len(pool) // 40)]
    sample += [next(c for c in pool if c.places[m] == place) for m in range(3) for place in (2, 3)]
    for chosen in sample:
        answer = chosen.reference + 1
        assert chosen.reference >= 1 and answer in chosen.states and chosen.reference not in chosen.states
        assert min(chosen.states) >= 1 and len(set(chosen.states)) == 4
        grey, mask = _picture_measures(chosen.sequence, chosen.reference)
        measured = []
        for state in chosen.states:
            option_grey, option_mask = _picture_measures(chosen.sequence, state)
            union = (option_mask | mask).sum()
            measured.append((abs(int(option_mask.sum()) - int(mask.sum())), np.abs(option_grey - grey).sum(),
                             1 - (option_mask & mask).sum() / union))
        table = np.array(measured)
        at = chosen.states.index(answer)
        for m in range(3):
            place = int((table[:, m] < table[at, m]).sum())
            assert place == chosen.places[m]
            places[m].add(place)
    for m in range(3):
        assert places[m] == {0, 1, 2, 3}, (m, places[m])


def test_causal_items_reach_many_sequences() -> None:
    drawn = list(make(CAUSAL).generate(40, 2, modalities=("image",), knobs={"size": 64}))
    counts = Counter(item.metadata["sequence"] for item in drawn)
    assert len(counts) >= 6 and max(counts.values()) <= 20


def test_a_state_picture_is_encoded_once_and_as_its_picture_is() -> None:
    from foldbench.crease.sequences import builtin_sequences
    from foldbench.tasks.origamibench.pictures import png_bytes, state_picture, state_png

    sequence = builtin_sequences()[0]
    for fill in (False, True):
        encoded = state_png(sequence, 1, 64, fill)
        assert encoded == png_bytes(state_picture(sequence, 1, 64, fill))
        assert state_png(sequence, 1, 64, fill) is encoded


def test_a_state_is_read_from_the_compiler_once_for_both_views_at_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures of a state (front and back, any size, filling or not) share one reading of its compiled fold;
    an equal sequence built separately draws the same pictures."""
    from foldbench.crease.sequences import FoldSequence, simple_fold_sequence
    from foldbench.tasks.origamibench.pictures import state_picture

    folds = [((5.0, 0.0), (0.0, 1.0), "valley"), ((0.0, 5.0), (1.0, 0.0), "mountain")]
    sequence, twin = (simple_fold_sequence(name, folds) for name in ("views-once", "views-twin"))
    reads: Counter[tuple[int, int]] = Counter()
    compiled = FoldSequence.compiled

    def counted(self: FoldSequence, state: int, limit: int = 8):
        reads[id(self), state] += 1
        return compiled(self, state, limit)

    monkeypatch.setattr(FoldSequence, "compiled", counted)
    drawn = {(state, size, fill): state_picture(sequence, state, size, fill)
             for state in range(len(sequence) + 1) for size in (64, 96) for fill in (False, True)}
    assert reads == {(id(sequence), state): 1 for state in range(len(sequence) + 1)}
    for (state, size, fill), picture in drawn.items():
        assert picture.tobytes() == state_picture(twin, state, size, fill).tobytes()


def test_remembered_likeness_of_two_states_is_their_signatures_likeness() -> None:
    from foldbench.crease.sequences import sequence_by_name
    from foldbench.tasks.origamibench.pictures import states_look_alike

    blintz, waterbomb = sequence_by_name("blintz"), sequence_by_name("waterbomb-base")
    states = [(blintz, k) for k in range(len(blintz) + 1)] + [(waterbomb, k) for k in range(len(waterbomb) + 1)]
    answers = set()
    for first in states:
        for second in states:
            direct = pictures_look_alike(state_signature(*first), state_signature(*second))
            assert states_look_alike(*first, *second) == direct == states_look_alike(*second, *first)
            answers.add(direct)
    assert answers == {True, False}  # the pairs include a state with itself
