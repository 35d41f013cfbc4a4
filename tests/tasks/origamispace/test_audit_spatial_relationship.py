"""Each kind of spatial-relationship question passes ``foldbench audit``: no blind baseline leaves the 15-35 %
band on 300 items."""

from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.harness.audit import audit_dataset
from foldbench.tasks.dataset import write_dataset

ITEMS = 300


@pytest.mark.parametrize("kind", ["pose", "layering", "geometric"])
def test_no_blind_baseline_beats_or_misses_chance(kind: str, tmp_path: Path) -> None:
    write_dataset("origamispace/spatial-relationship-v3", tmp_path, n=ITEMS, seed=4242, modalities=("image",),
                  knobs={"kind": kind, "size": 128})
    report = audit_dataset(tmp_path)
    assert report.items == ITEMS and report.band == pytest.approx((0.15, 0.35))
    names = {b.name for b in report.baselines}
    assert {"text medoid", "numeric medoid", "largest value", "longest text"} <= names  # the options were read
    assert not report.flagged, [(b.name, round(b.accuracy, 3)) for b in report.flagged]
    assert set(report.letters.values()) == {ITEMS // 4}
