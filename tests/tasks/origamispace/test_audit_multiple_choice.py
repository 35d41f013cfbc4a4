"""Pattern prediction and multi-step ordering pass ``foldbench audit``: no rule that reads the options alone (the
names or orders as text, their numbers, their lengths, the letters) leaves the 15-35 % band; and the audit would
catch the shortcut the ordering options avoid (wrong orders that are each one edit of the answer make the answer
their centre)."""

from __future__ import annotations

import numpy as np
import pytest

from foldbench.harness.audit import ChoiceItem, audit_choice_items, audit_dataset
from foldbench.tasks.origamispace.ordering import order_text
from tests.support.datasets import ORDERING_AUDIT, PATTERN_PREDICTION_AUDIT

# (the session fixture of the audited dataset, its items, the baselines that run): the datasets are shared with the
# oracle and random runs of test_pattern_prediction.py and test_ordering.py
CASES = [
    ("pattern_prediction_audit_dataset", PATTERN_PREDICTION_AUDIT.n, 9),
    ("ordering_audit_dataset", ORDERING_AUDIT.n, 13),
]


@pytest.mark.parametrize(("dataset", "items", "baselines"), CASES)
def test_no_blind_baseline_beats_or_misses_chance(dataset: str, items: int, baselines: int,
                                                   request: pytest.FixtureRequest) -> None:  # fmt: skip
    report = audit_dataset(request.getfixturevalue(dataset))
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
