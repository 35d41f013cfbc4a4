"""The spatial-relationship task: every item's answer is the compiler's, its options are distinct, the answer
letters and ranks are balanced, its pictures carry the marks, its replies are read strictly, and bad knobs are
refused."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, Item, ParseFailure
from foldbench.tasks.choice import LETTERS
from foldbench.tasks.origamispace.relationship_pictures import to_pixels
from foldbench.tasks.origamispace.spatial_relationship import SpatialRelationshipTask, question_type_of

TASK_ID = "origamispace/spatial-relationship-v3"


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


def test_the_crease_pattern_carries_the_marks_where_the_points_are(task: SpatialRelationshipTask,
                                                                     items: list[Item]) -> None:
    item = next(i for i in items if i.inputs["question_type"] == "stacking")
    pattern, folded = task.pictures(item)
    assert folded is None
    reference = task.reference(item)
    size = int(item.inputs["size"])
    assert pattern.size == (size, size)
    grey = np.asarray(pattern.convert("L"))
    for mark in item.inputs["pattern_marks"]:
        x, y = to_pixels(np.array([[mark["x"], mark["y"]]]), reference.compiled.pattern.vertices_coords, size)[0]
        assert grey[round(y), round(x)] < 40  # the dot's black centre


def test_the_question_shows_the_crease_pattern_only_as_the_paper(task: SpatialRelationshipTask,
                                                                  items: list[Item]) -> None:
    for item in items:
        assert set(item.inputs["images"]) == {"pattern"} and "folded_marks" not in item.inputs
        assets = dict(task.assets(item))
        assert list(assets) == [item.inputs["images"]["pattern"]]
        images = [part for part in task.render(item).parts if isinstance(part, ImagePart)]
        assert [part.path for part in images] == [item.inputs["images"]["pattern"]]
        assert "second picture" not in task.render(item).parts[-1].text  # type: ignore[union-attr]


def test_the_folded_picture_is_a_knob(task: SpatialRelationshipTask) -> None:
    plain = list(task.generate(4, 11, knobs={"kind": "pose", "size": 192}))
    shown = list(task.generate(4, 11, knobs={"kind": "pose", "size": 192, "folded_picture": True}))
    for without, with_folded in zip(plain, shown, strict=True):
        assert without.inputs["pattern_marks"] == with_folded.inputs["pattern_marks"]  # the same question
        assert without.target == with_folded.target
        images = [part.path for part in task.render(with_folded).parts if isinstance(part, ImagePart)]
        assert images == [with_folded.inputs["images"]["pattern"], with_folded.inputs["images"]["folded"]]
        pattern, folded = task.pictures(with_folded)
        assert folded is not None and folded.size == pattern.size
        assert "second picture" in task.render(with_folded).parts[-1].text  # type: ignore[union-attr]


def test_points_asked_about_together_land_together(task: SpatialRelationshipTask, items: list[Item]) -> None:
    """Pose: P and exactly one of marks 1 and 2 land at one place; stacking: points 1-3 land at one place, on
    three different faces."""
    for item in items:
        reference = task.reference(item)
        marks = {m["label"]: np.array([m["x"], m["y"]]) for m in item.inputs["pattern_marks"]}
        landed = {label: reference.landing(point) for label, point in marks.items()}
        assert all(found is not None for found in landed.values())
        if item.inputs["question_type"] == "pose":
            together = [label for label in ("1", "2")
                        if np.hypot(*(landed[label][1] - landed["P"][1])) < 1e-4]
            assert together == [item.target["value"].split(",")[0].removeprefix("mark ")]
            assert landed["F"][0] == 0
        if item.inputs["question_type"] == "stacking":
            places = np.array([landed[label][1] for label in ("1", "2", "3")])
            assert np.ptp(places, axis=0).max() < 1e-4
            assert len({landed[label][0] for label in ("1", "2", "3")}) == 3


def test_every_reference_rests_on_no_hair(task: SpatialRelationshipTask, items: list[Item]) -> None:
    from foldbench.tasks.origamispace.stability import FEATURE_MARGIN, reference_stability

    for item in items[::3]:
        stability = reference_stability(task.reference(item).compiled)
        assert stability.stable, (item.id, stability.reasons)
        assert stability.closest is None or stability.closest > FEATURE_MARGIN


def test_a_reference_resting_on_a_hair_is_never_drawn(task: SpatialRelationshipTask) -> None:
    """simple-long-07 after 8 and 9 folds has folded features 2.4e-5 apart; its earlier states do not."""
    items = list(task.generate(12, 5, knobs={"kind": "layering", "sequences": "simple-long-07", "size": 192}))
    assert {item.inputs["reference"]["state"] for item in items} <= set(range(1, 8))


def test_assets_and_prompt(task: SpatialRelationshipTask, items: list[Item]) -> None:
    item = next(i for i in items if i.inputs["question_type"] == "distance")
    assets = dict(task.assets(item))
    assert set(assets) == {item.inputs["images"]["pattern"]}
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


def test_where_the_marks_sit_does_not_give_the_answer(items: list[Item]) -> None:
    """Pose: the mark nearer to P on the paper is the answer in exactly half the questions; thickest: the answer's
    rank by distance from the paper's centre is balanced (drawn freely, "the point nearest the centre" found the
    thickest place in 54 % of 28 questions, and "the mark nearer to P" in 64 % of 80)."""
    nearer: list[bool] = []
    ranks: Counter[int] = Counter()
    for item in items:
        points = {m["label"]: np.array([m["x"], m["y"]]) for m in item.inputs["pattern_marks"]}
        if item.inputs["question_type"] == "pose":
            landed = item.target["value"].split(",")[0].removeprefix("mark ")
            other = "2" if landed == "1" else "1"
            nearer.append(bool(np.hypot(*(points[landed] - points["P"])) < np.hypot(*(points[other] - points["P"]))))
        if item.inputs["question_type"] == "thickest":
            distances = {label: float(np.hypot(*(points[label] - 0.5))) for label in "1234"}
            answer = item.target["value"].removeprefix("point ")
            ranks[sorted(distances.values()).index(distances[answer])] += 1
    assert len(nearer) == 20 and sum(nearer) == 10
    assert sum(ranks.values()) == 8 and set(ranks.values()) == {2}


def test_task_objects_share_the_built_in_references_and_their_stability(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second task object (as every ``write_dataset`` makes) reuses the built-in states the first one judged,
    instead of judging their stability again, and makes the same items."""
    import foldbench.tasks.origamispace.relationships as module

    knobs = {"kind": "layering", "size": 128}
    first = list(SpatialRelationshipTask().generate(4, 23, knobs=knobs))

    def judged_again(compiled: object) -> None:
        raise AssertionError("a built-in state's stability was judged twice")

    monkeypatch.setattr(module, "reference_stability", judged_again)
    second = SpatialRelationshipTask()
    assert list(second.generate(4, 23, knobs=knobs)) == first
    assert second.reference(first[0]) is SpatialRelationshipTask().reference(first[0])


def test_the_folded_model_is_drawn_only_for_items_that_show_it(task: SpatialRelationshipTask, items: list[Item],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import foldbench.crease.render as render

    def not_shown(*args: object, **kwargs: object) -> None:
        raise AssertionError("the folded model was drawn for an item that does not show it")

    monkeypatch.setattr(render, "folded_state_png", not_shown)
    fresh = SpatialRelationshipTask()  # no picture kept yet
    pattern, folded = fresh.pictures(items[0])
    assert folded is None and pattern.size == (192, 192)
