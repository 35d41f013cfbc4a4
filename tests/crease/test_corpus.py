"""Agreement with the Flat-Folder reference on its own corpus (a fast subset; the full run is
``bench/compare_crease_corpus.py``). Skipped only when ``../shared`` is absent."""

from __future__ import annotations

import csv

import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.io.importers import read_crease_pattern
from tests.support.shared import FLAT_FOLDER as CORPUS
from tests.support.shared import needs_shared

pytestmark = needs_shared
MAX_FACES = 60
GRID_FILES = 80


def _rows(name: str) -> dict[str, dict[str, str]]:
    with (CORPUS / f"{name}_data.csv").open() as handle:
        return {row["number"]: row for row in csv.DictReader(handle)}


def _measured() -> dict[str, dict[str, str]]:
    files = sorted((CORPUS / "measured").glob("flatfolder_instagram_lim1_*.csv"))
    if not files:
        return {}
    with files[-1].open() as handle:
        return {row["file"]: row for row in csv.DictReader(handle)}


def test_grids_and_small_instagram_agree(capsys: pytest.CaptureFixture[str]) -> None:
    table, mismatches = [], []
    grids = _rows("grids")
    for path in sorted((CORPUS / "grids").glob("*.fold"))[:GRID_FILES]:
        row = grids[path.name[:3]]
        compiled = compile_crease_pattern(read_crease_pattern(path))
        got = (compiled.state_count, len(compiled.constraints.variables_faces))
        expected = (int(row["states"]), int(row["variables"]))
        table.append((path.name, expected, got))
        if got != expected:
            mismatches.append(path.name)
    instagram, measured = _rows("instagram"), _measured()
    for path in sorted((CORPUS / "instagram").glob("*.fold")):
        row = instagram.get(path.name[:3])
        current = measured.get(path.name)
        if row is None or current is None or int(current["faces"]) >= MAX_FACES:
            continue
        limit = None if row["limited"] == "no limit" else int(row["limited"])
        try:
            compiled = compile_crease_pattern(read_crease_pattern(path), limit=limit)
            got = (compiled.state_count, len(compiled.constraints.variables_faces))
        except CreasePatternError as error:
            got = (error.error_class, 0)
        # variables against today's reference run (the 2024 table predates some file edits)
        expected = (int(row["states"]), int(current["variables"]))
        table.append((path.name, expected, got))
        if got != expected:
            mismatches.append(path.name)
    with capsys.disabled():
        print(f"\n{'file':48} {'reference (states, vars)':>28} {'foldbench':>28}")
        for name, expected, got in table:
            print(f"{name[:48]:48} {str(expected):>28} {str(got):>28}")
    assert not mismatches, mismatches


def test_unsatisfiable_files_are_rejected_with_faces() -> None:
    for path in sorted((CORPUS / "unsatisfiable").glob("*.fold")):
        with pytest.raises(CreasePatternError) as caught:
            compile_crease_pattern(read_crease_pattern(path), limit=1)
        assert caught.value.error_class in ("PSI", "GIF"), path.name
        located = caught.value.where.get("faces") or caught.value.where.get("vertex") is not None
        assert located, path.name
