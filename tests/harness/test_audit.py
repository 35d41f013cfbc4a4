"""The blind-baseline audit on small hand-made choice datasets whose shortcuts are known in advance."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from foldbench.harness.audit import (
    CHOICE_READERS,
    AuditError,
    ChoiceItem,
    audit_choice_items,
    audit_dataset,
    register_choice_reader,
    wilson_interval,
)

LETTERS = "ABCD"


def _write_dataset(root: Path, options: list[list[np.ndarray]], answers: list[int], records: bool = False) -> Path:
    """A dataset directory in the common layout: one PNG per option, a letter answer per item."""
    lines = []
    for n, (pictures, answer) in enumerate(zip(options, answers, strict=True)):
        paths = []
        for k, picture in enumerate(pictures):
            path = f"images/{n}/option_{LETTERS[k]}.png"
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            Image.fromarray(picture).save(root / path)
            paths.append(path)
        inputs: dict = {"images": {"composite": "", "question": [], "options": paths}}
        if records:
            inputs["options"] = [{"size": int(p.sum() % 7)} for p in pictures]
        lines.append(json.dumps({"id": f"q{n}", "inputs": inputs, "target": {"answer": LETTERS[answer]}}))
    (root / "items.jsonl").write_text("\n".join(lines) + "\n")
    return root


def _noise(rng: np.random.Generator) -> np.ndarray:
    return (rng.random((24, 24)) < 0.3).astype(np.uint8) * 255


def _by_name(report: object) -> dict:
    return {b.name: b for b in report.baselines}  # type: ignore[attr-defined]


def test_an_odd_one_out_answer_is_flagged_by_the_outlier_baselines(tmp_path: Path) -> None:
    """Three white pictures and one black: the answer is always the black one."""
    rng = np.random.default_rng(0)
    answers = [int(a) for a in rng.integers(4, size=40)]
    white, black = np.full((24, 24), 255, np.uint8), np.zeros((24, 24), np.uint8)
    options = [[black if k == a else white for k in range(4)] for a in answers]
    report = audit_dataset(_write_dataset(tmp_path, options, answers))
    results = _by_name(report)
    assert results["grey L1 outlier"].accuracy == 1.0 and results["grey L1 outlier"].flagged
    assert results["most ink"].accuracy == 1.0
    assert results["least ink"].accuracy == 0.0 and results["least ink"].flagged  # a rule that eliminates
    assert results["grey L1 medoid"].accuracy == 0.0
    assert "grey L1 outlier" in [b.name for b in report.flagged]


def test_options_that_cannot_be_told_apart_score_exactly_chance(tmp_path: Path) -> None:
    """Four identical pictures: every picture rule ties four ways and earns a quarter per item."""
    same = np.full((24, 24), 128, np.uint8)
    answers = [0, 1, 2, 3] * 5
    report = audit_dataset(_write_dataset(tmp_path, [[same] * 4 for _ in answers], answers))
    for result in report.baselines:
        if result.name != "most frequent letter":
            assert result.accuracy == pytest.approx(0.25), result.name
    assert report.letters == {"A": 5, "B": 5, "C": 5, "D": 5}
    assert not report.flagged


def test_independent_random_options_stay_in_the_band(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    answers = [int(a) for a in rng.integers(4, size=300)]
    options = [[_noise(rng) for _ in range(4)] for _ in answers]
    report = audit_dataset(_write_dataset(tmp_path, options, answers, records=True))
    assert {"record medoid", "largest record"} <= set(_by_name(report))
    assert not report.flagged, [(b.name, b.accuracy) for b in report.flagged]


def test_a_skewed_answer_letter_is_flagged() -> None:
    items = [ChoiceItem(f"q{n}", 0, (), ({"a": n}, {"a": n + 1}, {"a": n + 2}, {"a": n + 3})) for n in range(30)]
    result = _by_name(audit_choice_items(items))["most frequent letter"]
    assert result.accuracy == 1.0 and result.flagged


def test_record_medoid_finds_an_answer_built_as_the_centre_of_its_edits() -> None:
    """Each distractor changes one field of the answer: the answer differs least from the others."""
    items = []
    for n in range(40):
        answer = {"a": 1, "b": 2, "c": 3}
        edits = [dict(answer, **{key: 9}) for key in "abc"]
        slot = n % 4
        items.append(ChoiceItem(f"q{n}", slot, (), tuple(edits[:slot] + [answer] + edits[slot:])))
    results = _by_name(audit_choice_items(items))
    assert results["record medoid"].accuracy == 1.0 and results["record medoid"].flagged


@given(st.integers(0, 500), st.integers(1, 500))
def test_the_wilson_interval_holds_the_observed_proportion(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_the_wilson_interval_matches_a_hand_computed_value() -> None:
    # 10 of 50: p = 0.2, z = 1.96: centre (0.2 + 0.038416) / 1.076832 = 0.22141, half-width
    # 1.96 * sqrt(0.2 * 0.8 / 50 + 3.8416 / 10000) / 1.076832 = 0.10882
    low, high = wilson_interval(10, 50)
    assert low == pytest.approx(0.1124, abs=2e-4) and high == pytest.approx(0.3302, abs=2e-4)


def test_a_dataset_without_choices_is_refused(tmp_path: Path) -> None:
    (tmp_path / "items.jsonl").write_text(json.dumps({"id": "x", "inputs": {}, "target": {"holes": []}}) + "\n")
    with pytest.raises(AuditError, match="not a multiple-choice dataset"):
        audit_dataset(tmp_path)
    with pytest.raises(AuditError, match="no items.jsonl"):
        audit_dataset(tmp_path / "missing")


def test_a_family_can_plug_in_its_own_reader(tmp_path: Path) -> None:
    (tmp_path / "items.jsonl").write_text(
        "\n".join(json.dumps({"id": n, "choices": [1, 2, 3], "correct": n % 3}) for n in range(9)) + "\n"
    )

    def reader(records: list, root: Path) -> list[ChoiceItem] | None:
        if "choices" not in records[0]:
            return None
        return [ChoiceItem(str(r["id"]), r["correct"], (), tuple({"v": c} for c in r["choices"])) for r in records]

    register_choice_reader(reader)
    try:
        report = audit_dataset(tmp_path)
    finally:
        CHOICE_READERS.remove(reader)
    assert report.options == 3 and report.chance == pytest.approx(1 / 3)
    assert report.band == pytest.approx((1 / 3 - 0.1, 1 / 3 + 0.1))


def test_the_command_writes_the_report_and_fails_on_a_flag(tmp_path: Path) -> None:
    white, black = np.full((24, 24), 255, np.uint8), np.zeros((24, 24), np.uint8)
    answers = [n % 4 for n in range(20)]
    data = _write_dataset(tmp_path / "data", [[black if k == a else white for k in range(4)] for a in answers], answers)
    command = [sys.executable, "-m", "foldbench", "audit", str(data), "--out", str(tmp_path / "out")]
    flagged = subprocess.run(command, capture_output=True, text=True, check=False)
    assert flagged.returncode == 1, flagged.stderr
    assert "outside band" in (tmp_path / "out" / "audit.md").read_text()
    assert json.loads((tmp_path / "out" / "audit.json").read_text())["flagged"]
    relaxed = subprocess.run([*command, "--no-fail-on-flag"], capture_output=True, text=True, check=False)
    assert relaxed.returncode == 0
    missing = subprocess.run(
        [sys.executable, "-m", "foldbench", "audit", str(tmp_path / "nothing")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
