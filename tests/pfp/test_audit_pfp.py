"""Every PFP task passes ``foldbench audit``: no blind baseline leaves the 15-35 % band on a few hundred items."""

from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.harness.audit import audit_dataset
from foldbench.tasks.dataset import write_dataset
from foldbench.tasks.pfp import TASKS

ITEMS = 240


@pytest.mark.parametrize("task_type", TASKS, ids=[t.name for t in TASKS])
def test_no_blind_baseline_beats_or_misses_chance(task_type: type, tmp_path: Path) -> None:
    write_dataset(task_type.id, tmp_path, n=ITEMS, seed=4242, modalities=("image",))
    report = audit_dataset(tmp_path)
    assert report.items == ITEMS and report.band == pytest.approx((0.15, 0.35))
    assert len(report.baselines) >= 15  # pictures and records were both read
    assert not report.flagged, [(b.name, round(b.accuracy, 3)) for b in report.flagged]
    assert set(report.letters.values()) == {ITEMS // 4}
