"""Perception probes carry no prior: every question type passes the blind-baseline audit on its own (most frequent
value, every fixed place among the offered answers, the text and number rules), questions are worded for the
modality shown, and the balanced plan itself keeps its promises on arbitrary candidates."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import FoldbenchError
from foldbench.harness.probe_audit import audit_probe_records, audit_probes
from foldbench.tasks import make
from foldbench.tasks.probes import Candidate, balanced_plan, balanced_plan_over_sources


def _records(items) -> list[dict]:
    return [json.loads(item.model_dump_json()) for item in items]


@settings(max_examples=60, deadline=None)
@given(
    supply=st.dictionaries(
        st.sampled_from(["a", "b", "c", "d"]),
        st.dictionaries(st.sampled_from(["0", "1", "2", "3", "4"]), st.integers(1, 12), min_size=1, max_size=5),
        min_size=1,
        max_size=4,
    ),
    n=st.integers(1, 40),
    seed=st.integers(0, 1000),
)
def test_the_plan_balances_answers_within_each_type(supply, n, seed) -> None:
    candidates = [
        Candidate(number, kind, value, ("0", "1", "2", "3", "4"), (kind, value, number))
        for kind, values in supply.items()
        for value, count in values.items()
        for number in range(count)
    ]
    try:
        plan, offered = balanced_plan(candidates, n, np.random.default_rng(seed))
    except FoldbenchError as error:
        assert "balanced probes" in str(error)
        return
    assert len(plan) == n and len({c.question for c in plan}) == n  # no question twice
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for candidate in plan:
        by_kind[candidate.kind][candidate.answer] += 1
    for kind, counts in by_kind.items():
        assert len(offered[kind]) >= 2  # a type with one value is never asked
        assert set(counts) <= set(offered[kind]) and list(offered[kind]) == sorted(offered[kind])
        asked = [counts[value] for value in offered[kind]]  # every offered answer, asked or not
        assert max(asked) - min(asked) <= 1


def _alternating_sources(asked: list[int]):
    """Sources whose one question has the answer "even" or "odd" by the source's index; records each request."""

    def candidates_from(count: int) -> list[Candidate]:
        asked.append(count)
        return [Candidate(k, "parity", ("even", "odd")[k % 2], ("even", "odd"), k) for k in range(count)]

    return candidates_from


def test_the_plan_over_sources_doubles_them_until_the_answers_can_vary() -> None:
    asked: list[int] = []
    plan, offered = balanced_plan_over_sources(3, 6, _alternating_sources(asked), (5, 0x9E0C))
    assert asked == [1, 2, 4]  # one source has one answer; two allow only two balanced questions; four do
    assert sorted(c.answer for c in plan) in (["even", "even", "odd"], ["even", "odd", "odd"])
    assert offered == {"parity": ("even", "odd")}
    again, _ = balanced_plan_over_sources(3, 6, _alternating_sources([]), (5, 0x9E0C))
    assert [c.source for c in again] == [c.source for c in plan]  # one seed, one plan


def test_the_plan_over_sources_gives_up_past_four_n_plus_eight_sources() -> None:
    asked: list[int] = []

    def one_answer(count: int) -> list[Candidate]:
        asked.append(count)
        return [Candidate(k, "colour", "red", ("red", "blue"), k) for k in range(count)]

    with pytest.raises(FoldbenchError, match="balanced probes"):
        balanced_plan_over_sources(1, 1, one_answer, (0,))
    assert asked == [1, 2, 4, 8, 16]


def test_the_audit_flags_a_type_that_always_has_the_same_answer() -> None:
    records = [
        {"id": str(i), "inputs": {"choices": ["2×2", "4×4", "8×8"]}, "target": {"answer": "4×4"},
         "metadata": {"question": "grid_size"}}
        for i in range(60)
    ] + [
        {"id": f"h{i}", "inputs": {"choices": ["1", "2"]}, "target": {"answer": str(1 + i % 2)},
         "metadata": {"question": "hole_count"}}
        for i in range(60)
    ]  # fmt: skip
    reports = audit_probe_records(records)
    flagged = {b.name for b in reports["grid_size"].flagged}
    assert {"most frequent value", "fixed option 2", "fixed option 1"} <= flagged
    assert not reports["hole_count"].flagged


@pytest.mark.parametrize("source", ["prediction", "backward-prediction"])
def test_every_mentalblackboard_question_type_passes_the_audit_on_its_own(source: str) -> None:
    items = list(make("mentalblackboard/perception").generate(240, 4, modalities=("text",), knobs={"source": source}))
    reports = audit_probe_records(_records(items))
    assert {kind: [b.name for b in r.flagged] for kind, r in reports.items() if r.flagged} == {}
    assert "grid_size" not in reports and len(reports) >= 8
    for item in items:
        assert item.target["answer"] in item.inputs["choices"]


def test_pfp_question_types_pass_the_audit_on_its_own() -> None:
    items = list(make("pfp/single-step-perception").generate(150, 4))
    reports = audit_probe_records(_records(items))
    assert {kind: [b.name for b in r.flagged] for kind, r in reports.items() if r.flagged} == {}
    assert {"fold_count", "cutout_count", "option_holes"} <= set(reports)


def test_questions_are_worded_for_the_modality_shown() -> None:
    task = make("mentalblackboard/perception")
    items = list(task.generate(60, 2, modalities=("text", "image")))
    worded = 0
    for item in items:
        text_prompt = task.render(item, "text").parts[-1].text
        image_question = task.render(item, "image").parts[-1].text.split("Question: ", 1)[1].split("\n", 1)[0]
        assert "grid" not in image_question, image_question
        if "picture" in image_question:
            worded += 1
            assert "hole punching grid" in text_prompt
        assert item.metadata["question"] != "hole_direction"  # text grids do not show directions
    assert worded > 0


def test_the_audit_command_reads_a_probe_dataset(tmp_path: Path, capsys) -> None:
    from foldbench.cli.app import main
    from foldbench.tasks.dataset import write_dataset

    data = tmp_path / "probes"
    write_dataset("mentalblackboard/perception", data, n=120, seed=5, modalities=("text",))
    with pytest.raises(SystemExit) as exit_code:
        main(["audit", str(data)])
    assert exit_code.value.code == 0
    out = capsys.readouterr().out
    assert "question type hole_count" in out and "most frequent value" in out
    assert set(json.loads((data / "audit.json").read_text())) == set(audit_probes(data))
