"""Reading a drawing (the corpus's raw ``.svg``/``.opx``/``.fold`` originals) and reading its cleaned FOLD give
the same answer. Skipped only when ``../shared`` is absent."""

from __future__ import annotations

import pytest

from foldbench.crease.summary import summarize
from tests.support.shared import FLAT_FOLDER as CORPUS
from tests.support.shared import needs_shared

pytestmark = needs_shared
LIMIT = 1000

DRAWINGS_AND_CLEANED = {
    "sailboat.svg": "001", "kabuto.fold": "002", "triangle_bird.svg": "003", "crane.svg": "004",
    "robot.svg": "008", "triangle_pleats_unassigned.svg": "009", "grid_unassigned.svg": "012",
    "iso_area_half.svg": "015", "quad_overlap.svg": "043", "angel.svg": "263", "pinwheel_colorchange1.svg": "058",
    "pinwheel_colorchange2.svg": "058", "jerboa.svg": "070", "chess4x4.svg": "084", "turkey2015.opx": "101",
    "pinwheel.opx": "102",
}


@pytest.mark.parametrize(("drawing", "number"), sorted(DRAWINGS_AND_CLEANED.items()))
def test_a_drawing_and_its_cleaned_fold_agree(drawing: str, number: str) -> None:
    cleaned = next((CORPUS / "instagram").glob(f"{number}_*.fold"))
    from_drawing = summarize(CORPUS / "original" / drawing, limit=LIMIT)
    from_fold = summarize(cleaned, limit=LIMIT)
    assert from_drawing["error"] is None and from_fold["error"] is None
    assert from_drawing["states"] == from_fold["states"]
