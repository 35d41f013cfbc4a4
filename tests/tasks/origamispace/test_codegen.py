"""The OrigamiSpace code-generation tasks: items, reply reading, scoring and compiler feedback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.io.collection import paper_models, paper_models_folder
from foldbench.errors import InvalidKnobError
from foldbench.origami.fold_reply import parse_fold_reply
from foldbench.tasks import make
from foldbench.tasks.base import ParseFailure
from foldbench.text.replies import MAX_OBJECT_CHARS


@pytest.fixture(scope="module")
def task():
    return make("origamispace/codegen-v1")


@pytest.fixture(scope="module")
def items(task):
    return list(task.generate(4, 3, modalities=("image",), knobs={"folds": [3, 5]}))


def test_items_record_steps_and_difficulty(items) -> None:
    assert [item.metadata["fold_count"] for item in items] == [3, 5, 3, 5]
    assert {item.metadata["difficulty"] for item in items} == {"easy"}
    assert all(item.metadata["faces"] <= 200 for item in items)


def test_oracle_scores_one_and_random_less(task, items) -> None:
    rng = np.random.default_rng(0)
    headline = []
    for item in items:
        oracle = task.score(item, task.oracle(item)).values
        assert oracle["score"] == oracle["paper_total"] == 1.0 and oracle["pass_rate"] == 1.0
        assert oracle["error_cse"] == 0.0 and oracle["compiled_topology"] == 1.0
        random = task.score(item, task.random_answer(item, rng)).values
        assert 0.0 < random["score"] < 0.5 and 0.0 < random["paper_total"] < 1.0
        headline.append(random["score"])
    assert np.mean(headline) <= 0.15  # the random baseline sits far below a near miss on the headline


def test_assets_are_three_pictures(task, items) -> None:
    files = dict(task.assets(items[0]))
    assert set(files) == set(items[0].inputs["images"].values())
    assert len(files) == 3
    assert all(content.startswith(b"\x89PNG") for content in files.values())


def _unit_frame(segments: np.ndarray) -> np.ndarray:
    points = segments.reshape(-1, 2)
    low, high = points.min(axis=0), points.max(axis=0)
    return (segments - (low + high) / 2) / float((high - low).max())


def _share_of_creases_drawn(pattern, drawn: np.ndarray) -> float:
    """The share of the crease pattern's line length that lies on the drawn lines, both brought to one frame."""
    creases = shapely.union_all(shapely.linestrings(_unit_frame(pattern.vertices_coords[pattern.edges_vertices])))
    covered = shapely.buffer(shapely.union_all(shapely.linestrings(_unit_frame(drawn))), 1e-3)
    return float(shapely.length(shapely.intersection(creases, covered)) / shapely.length(creases))


@pytest.mark.parametrize("task_id", ["origamispace/codegen-v1", "origamispace/codegen-feedback-v1"])
def test_no_picture_or_prompt_shows_the_crease_pattern(task_id: str) -> None:
    from foldbench.crease import pattern_from_fold
    from foldbench.crease.render import ASSIGNMENT_COLOURS
    from foldbench.origami.flat_pattern import flat_pattern_lines
    from foldbench.tasks.origamispace.codegen import _reference_of, item_pictures

    task = make(task_id)
    for item in task.generate(6, 41, modalities=("image",), knobs={"difficulty": "mixed"}):
        pattern = pattern_from_fold(item.target["fold"], "reference")
        assert _share_of_creases_drawn(pattern, pattern.vertices_coords[pattern.edges_vertices]) == 1.0
        drawn = np.concatenate(list(flat_pattern_lines(_reference_of(item).compiled).values()))
        assert _share_of_creases_drawn(pattern, drawn) < 0.5
        pictures = item_pictures(item)
        prompt = task.render(item)
        assert [part.path for part in prompt.parts if hasattr(part, "path")] == list(pictures)
        mountain_valley = {tuple(int(ASSIGNMENT_COLOURS[letter][i:i + 2], 16) for i in (1, 3, 5)) for letter in "MV"}
        for image in pictures.values():
            colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
            assert not colours & mountain_valley
        text = prompt.parts[-1].text
        assert not re.search(r"\d\.\d", text)
        assert "crease pattern:" not in text and "in red" not in text


def test_reply_reading() -> None:
    document = {"vertices_coords": [[0, 0], [1, 0]], "edges_vertices": [[0, 1]], "edges_assignment": ["B"]}
    text = json.dumps(document)
    assert parse_fold_reply(f"My answer:\n```json\n{text}\n```\nDone.").edges_vertices == [[0, 1]]
    assert parse_fold_reply(f"Thinking... then {text}").vertices_coords == [[0, 0], [1, 0]]
    long_document = {**document, "vertices_coords": [[i / 3000, 0.123456789] for i in range(3000)]}
    long_text = json.dumps(long_document)
    assert len(long_text) > MAX_OBJECT_CHARS
    assert len(parse_fold_reply(long_text).vertices_coords) == 3000
    for bad in ("", "no pattern here", '{"answer": "A"}', "{" * 50):
        assert isinstance(parse_fold_reply(bad), ParseFailure)


def test_unreadable_reply_is_a_syntax_failure(task, items) -> None:
    values = task.score(items[0], task.parse(items[0], "I would fold it in half.")).values
    assert values["error_cse"] == 1.0 and values["parse_failure"] == 1.0 and values["score"] == 0.0
    assert values["paper_total"] == 0.0 and values["compiled"] == 0.0 and values["compiled_topology"] is None


def test_ill_typed_reply_names_the_field(task, items) -> None:
    reply = '{"vertices_coords": [[0, 0], [1, "one"]], "edges_vertices": [[0, 1]]}'
    result = task.evaluate(items[0], task.parse(items[0], reply))
    assert result.error_class == "CSE" and result.error["where"] == {"field": "vertices_coords", "index": 1}


def test_feedback_rounds() -> None:
    feedback_task = make("origamispace/codegen-feedback-v1")
    assert feedback_task.spec.max_turns == 10
    item = next(iter(feedback_task.generate(1, 0, modalities=("image",), knobs={})))
    unreadable = feedback_task.step(item, "hmm", 0)
    assert not unreadable.done and '"error": "CSE"' in unreadable.text
    broken = feedback_task.step(item, '{"vertices_coords": [[0, 0]], "edges_vertices": [[0, 3]]}', 1)
    assert not broken.done and "edges_vertices[0]" in broken.text
    random = feedback_task.random_answer(item, np.random.default_rng(1)).model_dump_json()
    partial = feedback_task.step(item, random, 2)
    first_line = json.loads(partial.text.splitlines()[0].removeprefix("round scores: "))
    assert first_line["round"] == 3 and 0 < first_line["score"] < 1 and 0 < first_line["paper_total"] < 1
    solved = feedback_task.step(item, feedback_task.oracle(item).model_dump_json(), 3)
    assert solved.done and '"score": 1.0' in solved.text


def test_items_from_a_folder_of_crease_patterns(task) -> None:
    item = next(iter(task.generate(1, 0, modalities=("image",), knobs={"folder": str(paper_models_folder()),
                                                                        "max_faces": 60})))
    assert item.metadata["fold_count"] is None and item.metadata["source"].endswith(".fold")
    assert task.score(item, task.oracle(item)).values["score"] == 1.0


def test_a_missing_folder_is_refused(task, tmp_path: Path) -> None:
    with pytest.raises(InvalidKnobError, match="folder"):
        next(iter(task.generate(1, 0, modalities=("image",), knobs={"folder": str(tmp_path / "nowhere")})))


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300) | st.builds(lambda prose, body: prose + json.dumps(body), st.text(max_size=40),
                                               st.dictionaries(st.sampled_from(["vertices_coords", "edges_vertices",
                                                                                "x"]),
                                                               st.integers() | st.text(max_size=3), max_size=3)))
def test_any_reply_is_read_or_refused_without_raising(text: str) -> None:
    answer = parse_fold_reply(text)
    assert isinstance(answer, ParseFailure) or answer.document().keys() <= {
        "vertices_coords", "edges_vertices", "edges_assignment", "faces_vertices", "edges_foldAngle"}


# ---- medium and hard instances ------------------------------------------------------------------------------


@pytest.mark.parametrize(("difficulty", "low", "high"), [("medium", 10, 19), ("hard", 20, 30)])
def test_medium_and_hard_items_have_their_folding_steps(task, difficulty: str, low: int, high: int) -> None:
    chosen = list(task.generate(3, 7, modalities=("image",), knobs={"difficulty": difficulty}))
    for item in chosen:
        assert low <= item.metadata["fold_count"] <= high
        assert item.metadata["difficulty"] == difficulty and item.metadata["source"] == "pleats"
        assert item.metadata["faces"] == 2 * item.metadata["fold_count"] <= 200
        assert task.score(item, task.oracle(item)).values["score"] == 1.0


def test_mixed_difficulty_keeps_the_easy_items(task) -> None:
    default = list(task.generate(6, 3, modalities=("image",), knobs={}))
    mixed = list(task.generate(6, 3, modalities=("image",), knobs={"difficulty": "mixed"}))
    assert [item.metadata["difficulty"] for item in mixed] == ["easy", "medium", "hard"] * 2
    assert mixed[0] == default[0] and mixed[3] == default[3]
    assert list(task.generate(2, 3, modalities=("image",), knobs={"difficulty": "easy"})) == default[:2]
    assert task.spec.breakdowns[0] == "difficulty"


def test_random_answer_of_a_hard_item_is_a_pleated_pattern_that_scores_below_one(task) -> None:
    item = next(iter(task.generate(1, 5, modalities=("image",), knobs={"difficulty": "hard"})))
    values = task.score(item, task.random_answer(item, np.random.default_rng(1))).values
    assert values["pass_rate"] == 1.0 and 0.0 < values["score"] < 1.0


@pytest.mark.parametrize(("knobs", "word"), [
    ({"difficulty": "medium", "folder": str(paper_models_folder())}, "'difficulty'"),
    ({"preset": "paper", "folds": [3]}, "'folds'"),
    ({"preset": "paper", "difficulty": "hard"}, "'difficulty'"),
    ({"preset": "book"}, "preset"),
    ({"difficulty": "hard", "max_faces": 40}, "'max_faces'"),
    ({"difficulty": "impossible"}, "difficulty"),
])
def test_difficulty_knob_errors(task, knobs: dict, word: str) -> None:
    with pytest.raises(InvalidKnobError, match=word):
        next(iter(task.generate(1, 0, modalities=("image",), knobs=knobs)))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), folds=st.integers(2, 32))
def test_pleated_models_fold_flat_in_one_state(seed: int, folds: int) -> None:
    from foldbench.crease.graph.local_checks import check_vertices
    from foldbench.origami.instances import pleat_instance

    instance = pleat_instance(np.random.default_rng(seed), folds, 200)
    assert instance.fold_count == folds and instance.pattern.face_count == 2 * folds
    assert instance.compiled.state_count == 1
    report = check_vertices(instance.pattern)
    assert report.checked_vertices == folds - 1  # each pleat crosses the fold across at one flat vertex


def test_table2_layout_averages_the_dimensions_over_compiled_answers(task, items) -> None:
    from foldbench.harness import aggregate
    from foldbench.harness.store import ScoreRow
    from foldbench.tasks.origamispace.codegen import TABLE2

    item = items[0]
    fold = item.target["fold"]
    crease = next(i for i, letter in enumerate(fold["edges_assignment"]) if letter != "B")
    broken = {**fold, "edges_assignment": ["V" if i == crease and letter == "M" else "M" if i == crease else letter
                                           for i, letter in enumerate(fold["edges_assignment"])]}
    answers = [task.oracle(item), task.parse(item, json.dumps(broken)), task.parse(item, "no idea")]
    scored = [task.score(item, answer).values for answer in answers]
    assert scored[1]["compiled"] == 0.0 and scored[1]["error_gif"] + scored[1]["error_precision"] == 1.0
    rows = [ScoreRow(f"i{n}", values, {}, [], {}, None, None, "", 0.0, 1, None, None, False)
            for n, values in enumerate(scored)]
    summary = aggregate(rows, task.spec)
    assert summary.value("compiled") == pytest.approx(1 / 3)
    assert summary.value("error_cse") == pytest.approx(1 / 3)
    # over compiled answers only: the oracle's 1.0, not pulled down by the two failures
    assert summary.value("compiled_topology") == summary.value("compiled_paper_total") == 1.0
    assert summary.value("topology") < 1.0 and summary.value("paper_total") < summary.value("compiled_paper_total")
    table = [metric.label for metric in task.spec.metrics if metric.group == TABLE2]
    assert table == ["compile pass rate", "CSE rate", "GIF rate", "PSI rate", "AFS rate", "PRECISION rate",
                     "topology", "geometry", "constraints", "folded state", "total"]


def test_the_paper_preset_draws_named_models_over_the_three_tiers(task) -> None:
    items = list(task.generate(3, 0, modalities=("image",), knobs={"preset": "paper", "max_faces": 300}))
    entries = {entry.file: entry for entry in paper_models().entries}
    assert [item.metadata["difficulty"] for item in items] == ["easy", "medium", "hard"]
    for item in items:
        entry = entries[item.metadata["source"]]
        assert entry.tier.lower() == item.metadata["difficulty"] and entry.category == item.metadata["category"]
        assert item.inputs["model_name"] in entry.name and "_" not in item.inputs["model_name"]
        assert item.metadata["faces"] <= 300
        assert task.score(item, task.oracle(item)).values["score"] == 1.0
    assert len({item.metadata["source"] for item in items}) == 3
    again = list(task.generate(3, 0, modalities=("image",), knobs={"preset": "paper", "max_faces": 300}, start=2))
    assert again == items[2:]
