"""The blind-baseline audit on small hand-made choice datasets whose shortcuts are known in advance."""

from __future__ import annotations

import json
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
from tests.support.cli import run_in_process

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


def _square(centre: tuple[int, int], half: int) -> np.ndarray:
    """A 48 px white picture with a filled grey square."""
    picture = np.full((48, 48), 255, np.uint8)
    (x, y) = centre
    picture[y - half : y + half, x - half : x + half] = 150
    return picture


def test_an_option_that_breaks_a_chain_of_nested_outlines_is_found_by_containment(tmp_path: Path) -> None:
    """Three nested squares and one square that overlaps them without nesting: the answer is the one that breaks
    the chain, and only the containment rule must see it (the four squares have other sizes each time)."""
    rng = np.random.default_rng(1)
    answers = [int(a) for a in rng.integers(4, size=40)]
    options = []
    for answer in answers:
        big, middle, small = int(rng.integers(19, 23)), int(rng.integers(12, 16)), int(rng.integers(5, 9))
        chain = [_square((24, 24), big), _square((24, 24), middle), _square((24, 24), small)]
        odd = _square((24 + middle, 24 - middle), int(rng.integers(6, 10)))  # crosses the middle square's edge
        chain.insert(answer, odd)
        options.append(chain)
    results = _by_name(audit_dataset(_write_dataset(tmp_path, options, answers)))
    assert results["containment odd one out"].accuracy == 1.0 and results["containment odd one out"].flagged


def test_four_nested_options_leave_containment_at_chance(tmp_path: Path) -> None:
    """When the answer nests with the others (here, at a random place in a chain of four), removing any option
    leaves a chain of three: the rule ties four ways."""
    rng = np.random.default_rng(2)
    answers = [int(a) for a in rng.integers(4, size=24)]
    options = [[_square((24, 24), half) for half in (22, 16, 11, 6)] for _ in answers]
    results = _by_name(audit_dataset(_write_dataset(tmp_path, options, answers)))
    assert results["containment odd one out"].accuracy == pytest.approx(0.25)


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
    command = ["audit", str(data), "--out", str(tmp_path / "out")]
    flagged = run_in_process(*command)
    assert flagged.returncode == 1, flagged.stderr
    assert "outside band" in (tmp_path / "out" / "audit.md").read_text()
    assert json.loads((tmp_path / "out" / "audit.json").read_text())["flagged"]
    relaxed = run_in_process(*command, "--no-fail-on-flag")
    assert relaxed.returncode == 0
    missing = run_in_process("audit", str(tmp_path / "nothing"))
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def _write_text_dataset(root: Path, options: list[list[object]], answers: list[int]) -> Path:
    """A dataset whose options are records only (text or values), no pictures."""
    lines = [
        json.dumps({"id": f"q{n}", "inputs": {"options": row}, "target": {"answer": LETTERS[answer]}})
        for n, (row, answer) in enumerate(zip(options, answers, strict=True))
    ]
    (root / "items.jsonl").write_text("\n".join(lines) + "\n")
    return root


def test_answer_plus_or_minus_one_and_two_is_flagged_as_the_middle_value(tmp_path: Path) -> None:
    """Layer counts offered as the answer and answer ±1, ±2: the answer is the middle one, a shortcut."""
    rng = np.random.default_rng(3)
    options, answers = [], []
    for _ in range(60):
        truth = int(rng.integers(3, 9))
        offsets = [-2, -1, 0, 1] if rng.random() < 0.5 else [-1, 0, 1, 2]
        values = [truth + d for d in rng.permutation(offsets)]
        options.append([f"{v} layers" for v in values])
        answers.append(values.index(truth))
    results = _by_name(audit_dataset(_write_text_dataset(tmp_path, options, answers)))
    # the two middle values tie as medoid: half credit on every item, twice chance
    assert results["numeric medoid"].flagged and results["numeric medoid"].accuracy == pytest.approx(0.5)


def test_numbers_written_in_text_are_read_by_the_value_baselines(tmp_path: Path) -> None:
    """Options that are the answer and three smaller values: 'largest value' always finds it."""
    options = [[{"distance": 10.0 + n}, {"distance": 1.0}, {"distance": 2.0}, {"distance": 3.0}] for n in range(20)]
    rotated = [row[-k:] + row[:-k] if k else row for row, k in zip(options, (n % 4 for n in range(20)), strict=True)]
    answers = [n % 4 for n in range(20)]
    results = _by_name(audit_dataset(_write_text_dataset(tmp_path, rotated, answers)))
    assert results["largest value"].accuracy == 1.0 and results["largest value"].flagged
    assert results["most frequent letter"].accuracy == pytest.approx(0.25)


def test_the_longest_option_is_flagged_when_the_answer_is_always_written_longest(tmp_path: Path) -> None:
    answers = [n % 4 for n in range(40)]
    options = [["crane", "frog", "fish", "boat"] for _ in answers]
    for row, answer in zip(options, answers, strict=True):
        row[answer] = "traditional flapping bird"
    results = _by_name(audit_dataset(_write_text_dataset(tmp_path, options, answers)))
    assert results["longest text"].accuracy == 1.0 and results["longest text"].flagged
    assert not results["shortest text"].accuracy > 0.0


@given(st.lists(st.permutations(["one", "two", "three", "four"]), min_size=4, max_size=4))
def test_options_drawn_from_one_pool_in_random_order_stay_at_chance_on_text_rules(rows: list[list[str]]) -> None:
    """With every item offering the same four names and every slot the answer once, no text rule can beat
    chance: each name is the answer exactly as often as any other."""
    items = [ChoiceItem(f"q{n}", n % 4, (), tuple(row)) for n, row in enumerate(rows)]
    # the answer follows the slot, not the text: rules on the text score what the slots give them
    report = audit_choice_items(items)
    names = {b.name for b in report.baselines}
    assert {"text medoid", "text outlier", "longest text", "shortest text"} <= names
    assert "numeric medoid" not in names


# ---- reference-aware rules ----------------------------------------------------------------------------------


def _with_references(root: Path, references: list[np.ndarray]) -> Path:
    """Give every item of a dataset written by :func:`_write_dataset` a reference picture."""
    from foldbench.tasks.choice import choice_images

    lines = [json.loads(line) for line in (root / "items.jsonl").read_text().splitlines()]
    for n, (line, picture) in enumerate(zip(lines, references, strict=True)):
        path = f"images/{n}/reference.png"
        Image.fromarray(picture).save(root / path)
        line["inputs"]["images"] = choice_images(line["inputs"]["images"]["options"], reference=path)
    (root / "items.jsonl").write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return root


def _blob(rng: np.random.Generator, size: int = 24) -> np.ndarray:
    """A white picture with one black rectangle of random place and size."""
    picture = np.full((size, size), 255, np.uint8)
    x, y = rng.integers(0, size - 6, size=2)
    w, h = rng.integers(3, 7, size=2)
    picture[y : y + h, x : x + w] = 0
    return picture


def _planted(tmp_path: Path, nearest: bool, items: int = 120) -> Path:
    """Items whose answer is the option most (or least) like the reference: the reference is the answer with a
    few pixels changed, the distractors independent blobs; the options alone say nothing."""
    rng = np.random.default_rng(11 if nearest else 12)
    answers = [n % 4 for n in range(items)]
    options, references = [], []
    for answer in answers:
        row = [_blob(rng) for _ in range(4)]
        reference = row[answer].copy() if nearest else np.full((24, 24), 255, np.uint8)
        if nearest:
            reference[rng.integers(24), rng.integers(24)] ^= 255
        else:  # the answer is the biggest blob, the reference blank: the farthest by ink
            row[answer] = np.full((24, 24), 255, np.uint8)
            row[answer][2:20, 2:20] = 0
        options.append(row)
        references.append(reference)
    return _with_references(_write_dataset(tmp_path, options, answers), references)


def test_an_answer_planted_closest_to_the_reference_is_flagged(tmp_path: Path) -> None:
    report = audit_dataset(_planted(tmp_path, nearest=True))
    by_name = _by_name(report)
    for rule in ("reference nearest by grey L1", "reference nearest by outline IoU", "reference nearest by ink area"):
        assert by_name[rule].flagged and by_name[rule].accuracy > 0.6, rule
    assert by_name["reference farthest by grey L1"].accuracy < 0.15
    # the options alone give nothing away: no option-only picture rule finds the answer
    option_rules = [b for b in report.baselines if not b.name.startswith("reference ")]
    assert all(b.accuracy < 0.5 for b in option_rules), [(b.name, b.accuracy) for b in option_rules]


def test_an_answer_planted_farthest_from_the_reference_is_flagged(tmp_path: Path) -> None:
    by_name = _by_name(audit_dataset(_planted(tmp_path, nearest=False)))
    assert by_name["reference farthest by ink area"].flagged
    assert by_name["reference farthest by ink area"].accuracy == pytest.approx(1.0)


def test_references_unrelated_to_the_options_leave_the_reference_rules_in_the_band(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    answers = [int(a) for a in rng.integers(4, size=400)]
    data = _write_dataset(tmp_path, [[_blob(rng) for _ in range(4)] for _ in answers], answers)
    report = audit_dataset(_with_references(data, [_blob(rng) for _ in answers]))
    rules = [b for b in report.baselines if b.name.startswith("reference ")]
    assert len(rules) == 6
    assert not [b for b in rules if b.flagged], [(b.name, b.accuracy) for b in rules]


def test_a_dataset_without_reference_pictures_has_no_reference_rules(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    answers = [n % 4 for n in range(8)]
    report = audit_dataset(_write_dataset(tmp_path, [[_blob(rng) for _ in range(4)] for _ in answers], answers))
    assert not [b for b in report.baselines if b.name.startswith("reference ")]


def test_a_task_meant_to_resemble_its_reference_is_reported_not_flagged(tmp_path: Path) -> None:
    """The same planted dataset, declared as a task whose answer is meant to look like the reference: the rules
    are still scored and shown, with the reason, but not flagged."""
    from foldbench.harness.audit import read_choice_items

    items = read_choice_items(_planted(tmp_path, nearest=True))
    report = audit_choice_items(items, reference_likeness="the answer is the reference plus one fold")
    nearest = _by_name(report)["reference nearest by grey L1"]
    assert nearest.accuracy > 0.6 and not nearest.flagged and nearest.expected
    markdown = report.to_markdown()
    assert "expected by design" in markdown and "the answer is the reference plus one fold" in markdown
    assert report.to_dict()["baselines"][[b.name for b in report.baselines].index(nearest.name)]["expected"]


def test_the_associative_one_step_task_declares_its_reference_likeness() -> None:
    from foldbench.harness.audit import reference_likeness_reason

    assert "one fold" in (reference_likeness_reason("origamibench/one-step-associative") or "")
    assert "one fold" in (reference_likeness_reason("origamibench/one-step-associative-v4") or "")  # earlier version
    assert reference_likeness_reason("origamibench/one-step-causal") is None
    assert reference_likeness_reason("no/such-task") is None and reference_likeness_reason(None) is None
