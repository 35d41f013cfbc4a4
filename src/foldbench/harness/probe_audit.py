"""Blind baselines for perception-probe datasets, one question type at a time.

A probe item offers its answers as text and names the right one; it has a question type (all three read through
:class:`~foldbench.tasks.choice_question.ChoiceQuestion`). Every question type is audited on its own, since a rule
that knows the type (the question's first words give it away) can use that type's answer distribution:

* **most frequent value**: always the answer value this question type has most often in the dataset, when offered
  (the value prior);
* **fixed option k**: always the k-th offered answer, for every k (the letter prior; with a fixed list of answers
  per type it is also every rule that ranks the answers by their text or value: largest, smallest, longest, medoid);
* and, when a type offers the same number (2 to 26) of answers in every item, every baseline of
  :func:`foldbench.harness.audit.audit_choice_items` on the answers as records (text and number medoids and
  outliers, largest and smallest value, most frequent letter).

Each is held to ``chance ± margin`` like the other audits.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.harness.audit import (
    DEFAULT_MARGIN,
    AuditError,
    AuditReport,
    BaselineResult,
    ChoiceItem,
    audit_choice_items,
    wilson_interval,
)
from foldbench.tasks.choice_question import ChoiceQuestion

__all__ = ["audit_probe_records", "audit_probes", "is_probe_dataset"]

_MAX_RECORD_OPTIONS = 26


def _records(directory: Path) -> list[dict[str, Any]]:
    path = Path(directory) / "items.jsonl"
    if not path.exists():
        raise AuditError(f"{directory} has no items.jsonl; is it a foldbench dataset?")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_probe_dataset(directory: Path) -> bool:
    """Whether a dataset directory holds perception probes (offered answers and a question type per item)."""
    path = Path(directory) / "items.jsonl"
    if not path.exists():
        return False
    with path.open(encoding="utf-8") as lines:
        first = next((line for line in lines if line.strip()), "")
    if not first:
        return False
    question = ChoiceQuestion.of_record(json.loads(first))
    return question is not None and question.is_probe and question.question_kind is not None


def _result(name: str, description: str, credit: np.ndarray, band: tuple[float, float]) -> BaselineResult:
    accuracy = float(credit.mean())
    low, high = wilson_interval(float(credit.sum()), len(credit))
    return BaselineResult(name, description, accuracy, low, high, len(credit), not band[0] <= accuracy <= band[1])


def _audit_kind(records: Sequence[tuple[str, ChoiceQuestion]], margin: float) -> AuditReport:
    choices = [list(question.choices) for _, question in records]
    answers = [question.answer for _, question in records]
    for (item_id, question) in records:
        if question.answer_index is None:
            raise AuditError(f"item {item_id}: the answer {question.answer!r} is not among the offered answers")
    counts = {len(c) for c in choices}
    options = max(counts)
    chance = float(np.mean([1.0 / len(c) for c in choices]))
    band = (max(0.0, chance - margin), min(1.0, chance + margin))
    frequency = Counter(answers)
    value_credit = []
    for offered, answer in zip(choices, answers, strict=True):
        best = max(frequency[c] for c in offered)
        picked = [c for c in offered if frequency[c] == best]
        value_credit.append(1.0 / len(picked) if answer in picked else 0.0)
    baselines = [
        _result(
            "most frequent value",
            "always the answer value this question type has most often, when offered",
            np.array(value_credit),
            band,
        )
    ]
    for k in range(options):
        credit = np.array([float(k < len(c) and c[k] == a) for c, a in zip(choices, answers, strict=True)])
        baselines.append(_result(f"fixed option {k + 1}", f"always the answer offered in place {k + 1}", credit, band))
    letters = {str(k + 1): sum(c.index(a) == k for c, a in zip(choices, answers, strict=True)) for k in range(options)}
    if len(counts) == 1 and 2 <= options <= _MAX_RECORD_OPTIONS:
        items = [
            ChoiceItem(item_id, c.index(a), (), tuple(c))
            for (item_id, _), c, a in zip(records, choices, answers, strict=True)
        ]
        general = audit_choice_items(items, margin=margin)
        baselines += [b for b in general.baselines if b.name != "most frequent letter"]
    return AuditReport(len(records), options, chance, band, tuple(baselines), letters)


def audit_probe_records(
    records: Sequence[Mapping[str, Any]], *, margin: float = DEFAULT_MARGIN
) -> dict[str, AuditReport]:
    """Audit probe items (parsed ``items.jsonl`` lines) question type by question type."""
    by_kind: dict[str, list[tuple[str, ChoiceQuestion]]] = defaultdict(list)
    for record in records:
        question = ChoiceQuestion.of_record(record)
        if question is None or not question.is_probe or question.question_kind is None:
            raise AuditError(f"item {record.get('id')} is not a perception probe (no question type or choices)")
        by_kind[question.question_kind].append((str(record.get("id")), question))
    if not by_kind:
        raise AuditError("no items to audit")
    return {kind: _audit_kind(rows, margin) for kind, rows in sorted(by_kind.items())}


def audit_probes(directory: Path, *, margin: float = DEFAULT_MARGIN) -> dict[str, AuditReport]:
    """Read a probe dataset directory and audit each question type (see the module docstring)."""
    return audit_probe_records(_records(Path(directory)), margin=margin)
