"""Pattern prediction and multi-step ordering pass ``foldbench audit``: no rule that reads the options alone (the
names or orders as text, their numbers, their lengths, the letters) leaves the 15-35 % band; and the audit would
catch the shortcut the ordering options avoid (wrong orders that are each one edit of the answer make the answer
their centre)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from foldbench.harness.audit import ChoiceItem, audit_choice_items, audit_dataset
from foldbench.tasks.dataset import write_dataset
from foldbench.tasks.origamispace.ordering import order_text

CASES = [
    ("origamispace/pattern-prediction-v2", 200, {"size": 64}, 9),
    ("origamispace/multi-step-ordering-v3", 120, {"size": 64}, 13),
]


@pytest.mark.parametrize(("task_id", "items", "knobs", "baselines"), CASES)
def test_no_blind_baseline_beats_or_misses_chance(task_id: str, items: int, knobs: dict, baselines: int,
                                                   tmp_path: Path) -> None:  # fmt: skip
    write_dataset(task_id, tmp_path, n=items, seed=20251, modalities=("image",), knobs=knobs)
    report = audit_dataset(tmp_path)
    assert report.items == items and report.band == pytest.approx((0.15, 0.35))
    assert len(report.baselines) == baselines  # the text rules (and, for orders, the numeric rules) ran
    assert not report.flagged, [(b.name, round(b.accuracy, 3)) for b in report.flagged]
    assert set(report.letters.values()) == {items // 4}


def test_one_edit_distractors_would_be_flagged() -> None:
    """Wrong orders made as single adjacent swaps of the true order leave it at the centre of the options."""
    rng = np.random.default_rng(1)
    naive = []
    for index in range(200):
        answer = [int(x) + 1 for x in rng.permutation(5)]
        distractors = []
        for position in rng.choice(4, size=3, replace=False):
            order = list(answer)
            order[position], order[position + 1] = order[position + 1], order[position]
            distractors.append(order)
        slot = index % 4
        options = [order_text(o) for o in distractors]
        options.insert(slot, order_text(answer))
        naive.append(ChoiceItem(f"naive-{index}", slot, (), tuple(options)))
    flagged = {b.name for b in audit_choice_items(naive).flagged}
    assert "numeric medoid" in flagged
