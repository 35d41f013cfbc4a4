"""Pattern prediction: the shown crease pattern is the answer's own, the four names are of four categories, the
name sets are balanced in blocks, a collection without names makes no items, and the harness scores the oracle
at 100 % and random near chance."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from foldbench.crease.io.collection import paper_models_folder, table3
from foldbench.crease.sequences import sequence_by_name
from foldbench.errors import InvalidKnobError
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, ParseFailure
from foldbench.tasks.origamispace.named_patterns import builtin_named_patterns, display_name, pattern_digest
from tests.support.choice_runs import oracle_and_random_accuracy

TASK_ID = "origamispace/pattern-prediction-v2"


@pytest.fixture(scope="module")
def task():
    return make(TASK_ID)


@pytest.fixture(scope="module")
def items(task):
    return list(task.generate(16, 31))


def test_the_picture_is_the_answers_final_state_and_no_option_shares_it(task, items) -> None:
    categories = {p.name: p.category for p in builtin_named_patterns()}
    for item in items:
        answer = "ABCD".index(item.target["answer"])
        shown = item.target["shown"]
        assert item.target["options"][answer]["sequence"] == shown["sequence"]
        sequence = sequence_by_name(shown["sequence"])
        assert item.target["digest"] == pattern_digest(sequence.pattern(len(sequence)))
        assert sequence.compiled(len(sequence)).state_count >= 1  # the compiler folds the answer flat
        names = item.inputs["options"]
        assert len({n.casefold() for n in names}) == 4
        assert len({categories[n] for n in names}) == 4  # every distractor is of another category
        assert item.metadata["category"] == categories[names[answer]]
        assert task.matching_options(item).count(True) == 1
        assert task.oracle(item).answer == item.target["answer"]


def test_blocks_of_four_share_their_names_and_each_is_the_answer_once(items) -> None:
    for block in range(0, len(items), 4):
        group = items[block:block + 4]
        assert len({frozenset(item.inputs["options"]) for item in group}) == 1
        answers = [item.inputs["options"]["ABCD".index(item.target["answer"])] for item in group]
        assert sorted(answers) == sorted(group[0].inputs["options"])
        assert sorted(item.target["answer"] for item in group) == ["A", "B", "C", "D"]


def test_the_oracle_refuses_an_item_whose_picture_matches_no_option(task, items) -> None:
    broken = items[0].model_copy(update={"target": {**items[0].target, "digest": "0" * 16}})
    with pytest.raises(AssertionError, match="0 options"):
        task.oracle(broken)


def test_the_prompt_shows_the_pattern_and_names_every_option(task, items) -> None:
    prompt = task.render(items[0], "image")
    assert isinstance(prompt.parts[0], ImagePart)
    text = prompt.parts[-1].text
    for letter, name in zip("ABCD", items[0].inputs["options"], strict=True):
        assert f"{letter}. {name}\n" in text
    assert task.parse(items[0], '{"answer": "C"}').answer == "C"
    assert isinstance(task.parse(items[0], "C or D"), ParseFailure)


def test_table_names_are_shown_without_number_and_designer() -> None:
    assert display_name("223_luibobby_Discord") == "Discord"
    assert display_name("003_ku_Triangle_Bird") == "Triangle Bird"


@pytest.mark.parametrize("knobs", [{"preset": "paper"}, {"collection": str(paper_models_folder())}])
def test_a_table3_collection_gives_named_items_of_four_categories(task, knobs: dict) -> None:
    rows = {display_name(row["name"]): row for row in table3().values()}
    for item in task.generate(8, 3, knobs=knobs):
        names = item.inputs["options"]
        assert len(set(names)) == 4 and len({rows[n]["category"] for n in names}) == 4
        answer = item.target["options"]["ABCD".index(item.target["answer"])]
        assert item.target["shown"] == {"collection": answer["collection"], "file": answer["file"]}
        assert table3()[answer["file"]]["category"] == item.metadata["category"]
        assert task.oracle(item).answer == item.target["answer"]


def test_a_collection_without_names_says_so_and_makes_no_items(task, tmp_path: Path) -> None:
    folder = tmp_path / "unnamed"
    folder.mkdir()
    source = sequence_by_name("blintz").final_pattern.to_fold_fields()
    for index in range(5):
        (folder / f"model_{index}.fold").write_text(json.dumps(source), encoding="utf-8")
    with pytest.raises(InvalidKnobError) as error:
        list(task.generate(4, 0, knobs={"collection": str(folder)}))
    message = str(error.value)
    assert "\n" not in message and "no named, categorised" in message and "no items" in message
    with pytest.raises(InvalidKnobError, match="not a folder"):
        list(task.generate(4, 0, knobs={"collection": str(folder / "missing")}))
    shutil.rmtree(folder)


def test_oracle_and_random_through_the_harness(task, pattern_prediction_audit_dataset: Path, tmp_path: Path) -> None:
    results = oracle_and_random_accuracy(task, pattern_prediction_audit_dataset, tmp_path)  # 200 items
    assert results["oracle"] == 1.0
    assert 0.15 <= results["random"] <= 0.35


def test_the_paper_preset_takes_no_other_collection(task, tmp_path: Path) -> None:
    with pytest.raises(InvalidKnobError, match="paper preset"):
        list(task.generate(1, 0, knobs={"preset": "paper", "collection": str(tmp_path)}))
