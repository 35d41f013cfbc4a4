"""The spatial-relationship task: every item's answer is the compiler's, its options are distinct, the answer
letters and ranks are balanced, its pictures carry the marks, its replies are read strictly, and bad knobs are
refused."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import Item, ParseFailure
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.origamispace.relationship_pictures import to_pixels
from foldbench.tasks.origamispace.spatial_relationship import SpatialRelationshipTask, question_type_of

TASK_ID = "origamispace/spatial-relationship-v2"


@pytest.fixture(scope="module")
def task() -> SpatialRelationshipTask:
    made = make(TASK_ID)
    assert isinstance(made, SpatialRelationshipTask)
    return made


@pytest.fixture(scope="module")
def items(task: SpatialRelationshipTask) -> list[Item]:
    return list(task.generate(60, 11, knobs={"kind": "mixed", "size": 192}))


def test_every_answer_is_the_compilers_and_the_options_are_distinct(task: SpatialRelationshipTask,
                                                                     items: list[Item]) -> None:
    for item in items:
        options = item.inputs["options"]
        assert len(options) == 4 and len(set(options)) == 4
        assert task.oracle(item).answer == item.target["answer"]
        assert options[LETTERS.index(item.target["answer"])] == item.target["value"]


def test_every_kind_and_type_appears_and_letters_are_balanced(items: list[Item]) -> None:
    types = Counter(item.inputs["question_type"] for item in items)
    assert set(types) == {"pose", "layers", "thickest", "stacking", "distance", "angle"}
    assert Counter(item.metadata["kind"] for item in items) == {"pose": 20, "layering": 20, "geometric": 20}
    assert set(Counter(item.target["answer"] for item in items).values()) == {15}
    for block in range(0, len(items), 4):
        assert sorted(item.target["answer"] for item in items[block:block + 4]) == list(LETTERS)


def test_numeric_answers_take_every_rank(items: list[Item]) -> None:
    for question_type in ("layers", "distance", "angle"):
        ranks: Counter[int] = Counter()
        for item in (i for i in items if i.inputs["question_type"] == question_type):
            values = [float(o.rstrip("°")) for o in item.inputs["options"]]
            assert values == sorted(values)
            ranks[values.index(float(item.target["value"].rstrip("°")))] += 1
        assert set(ranks) == {0, 1, 2, 3}, (question_type, ranks)


def test_distance_options_are_shorter_than_the_flat_distance(items: list[Item]) -> None:
    for item in (i for i in items if i.inputs["question_type"] == "distance"):
        flat = float(item.inputs["flat_distance"])
        assert all(float(o) < flat for o in item.inputs["options"])
        assert float(item.target["facts"]["flat"]) == pytest.approx(flat, abs=0.05)


def test_a_wrong_option_is_not_what_the_compiler_says(task: SpatialRelationshipTask, items: list[Item]) -> None:
    item = next(i for i in items if i.inputs["question_type"] == "layers")
    wrong = [o for o in item.inputs["options"] if o != item.target["value"]]
    changed = item.model_copy(update={"inputs": {**item.inputs, "options": [*wrong, str(10**6)]}})
    with pytest.raises(AssertionError):
        task.solve(changed)


def test_the_same_seed_gives_the_same_items(task: SpatialRelationshipTask, items: list[Item]) -> None:
    again = list(SpatialRelationshipTask().generate(8, 11, knobs={"kind": "mixed", "size": 192}))
    assert [i.model_dump() for i in again] == [i.model_dump() for i in items[:8]]
    shifted = list(task.generate(10, 11, knobs={"kind": "mixed", "size": 192}, start=6))
    assert shifted[0].model_dump() == items[6].model_dump()


def test_pictures_carry_the_marks_where_the_points_are(task: SpatialRelationshipTask, items: list[Item]) -> None:
    item = next(i for i in items if i.inputs["question_type"] == "stacking")
    pattern, folded = task.pictures(item)
    reference = task.reference(item)
    size = int(item.inputs["size"])
    assert pattern.size == folded.size == (size, size)
    for picture, marks, frame in ((pattern, item.inputs["pattern_marks"], reference.compiled.pattern.vertices_coords),
                                  (folded, item.inputs["folded_marks"], reference.folded_points)):
        grey = np.asarray(picture.convert("L"))
        for mark in marks:
            x, y = to_pixels(np.array([[mark["x"], mark["y"]]]), frame, size)[0]
            assert grey[round(y), round(x)] < 40  # the dot's black centre


def test_assets_and_prompt(task: SpatialRelationshipTask, items: list[Item]) -> None:
    item = next(i for i in items if i.inputs["question_type"] == "distance")
    assets = dict(task.assets(item))
    assert set(assets) == {item.inputs["images"]["pattern"], item.inputs["images"]["folded"]}
    assert all(data.startswith(b"\x89PNG") for data in assets.values())
    text = task.render(item).parts[-1].text  # type: ignore[union-attr]
    assert f"{item.inputs['flat_distance']} apart" in text
    for letter, option in zip(LETTERS, item.inputs["options"], strict=True):
        assert f"{letter}. {option}" in text
    assert "{%" not in text and "\n\n" not in text


@pytest.mark.parametrize(("reply", "letter"), [('{"answer": "C"}', "C"), ("B", "B"), ("Answer: (D)", "D")])
def test_replies_are_read_strictly(task: SpatialRelationshipTask, items: list[Item], reply: str, letter: str) -> None:
    answer = task.parse(items[0], reply)
    assert not isinstance(answer, ParseFailure) and answer.answer == letter


@pytest.mark.parametrize("reply", ["", "E", '{"answer": "3"}', "Answer: A. Answer: B", "mark 1, front side up"])
def test_other_replies_fail_and_score_zero(task: SpatialRelationshipTask, items: list[Item], reply: str) -> None:
    answer = task.parse(items[0], reply)
    assert isinstance(answer, ParseFailure)
    assert task.score(items[0], answer).values["accuracy"] == 0.0


def test_random_instances(task: SpatialRelationshipTask) -> None:
    made = list(task.generate(8, 5, knobs={"source": "random", "folds": "2,3", "kind": "layering"}))
    assert all(i.inputs["reference"]["source"] == "random" for i in made)
    fresh = SpatialRelationshipTask()  # solves from the stored pattern, compiled again
    assert [fresh.oracle(i).answer for i in made] == [i.target["answer"] for i in made]


@pytest.mark.parametrize(("knobs", "message"), [
    ({"kind": "colour"}, "kind"),
    ({"sequences": "no-such-sequence"}, "no-such-sequence"),
    ({"size": 16}, "size"),
    ({"source": "random", "folds": "0"}, "folds"),
])
def test_bad_knobs_are_refused(task: SpatialRelationshipTask, knobs: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidKnobError, match=message):
        list(task.generate(1, 0, knobs=knobs))


def test_question_types_come_in_blocks_of_four() -> None:
    assert {question_type_of("pose", i) for i in range(40)} == {"pose"}
    assert [question_type_of("geometric", i) for i in range(12)] == ["distance"] * 4 + ["angle"] * 4 + ["distance"] * 4
    assert [question_type_of("layering", 4 * b) for b in range(6)] == ["layers", "thickest", "stacking"] * 2
