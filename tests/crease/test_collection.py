"""Crease-pattern collections: tiers, categories from OrigamiBench's Table 3, broken files listed."""

from __future__ import annotations

import csv
import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldbench.crease.io.collection import (
    Collection,
    complexity_tier,
    load_collection,
    table3,
    tier_disagreements,
)
from foldbench.crease.sequences import sequence_by_name
from tests.support.shared import FLAT_FOLDER as CORPUS
from tests.support.shared import SHARED, needs_shared

INSTAGRAM = CORPUS / "instagram"
needs_corpus = needs_shared

# Table 4 of the paper (counts per category and tier), transcribed on its own to cross-check Table 3.
TABLE4 = {
    "animals-aquatic": (2, 6, 11), "animals-bird": (7, 5, 2), "animals-insects": (2, 4, 34),
    "animals-mammals": (18, 21, 4), "animals-reptiles": (0, 1, 5), "animals-others": (6, 8, 18),
    "clothing": (0, 1, 0), "decorations": (2, 2, 2), "geometry": (17, 7, 23), "gestures": (1, 1, 0),
    "item": (5, 6, 4), "plants": (1, 5, 0), "roles": (6, 28, 29), "toys": (10, 2, 2), "vehicles": (1, 0, 1),
    "words": (1, 1, 0), "others": (23, 15, 16),
}


@given(vertices=st.integers(0, 5000), edges=st.integers(0, 5000))
def test_tier_follows_the_sum_of_vertices_and_edges(vertices: int, edges: int) -> None:
    tier = complexity_tier(vertices, edges)
    total = vertices + edges
    assert tier == ("Easy" if total <= 300 else "Medium" if total <= 800 else "Hard")
    assert complexity_tier(edges, vertices) == tier


def test_table3_agrees_with_table4_of_the_paper() -> None:
    rows = table3()
    assert len(rows) == 366
    counts = Counter((row["category"], row["tier"]) for row in rows.values())
    for category, (easy, medium, hard) in TABLE4.items():
        assert (counts[(category, "Easy")], counts[(category, "Medium")], counts[(category, "Hard")]) == (
            easy, medium, hard), category
    assert sum(counts.values()) == 366


def test_the_table_ships_as_package_data() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert "**/*.json" in pyproject["tool"]["setuptools"]["package-data"]["foldbench"]
    assert all(name.endswith(".fold") for name in table3())


@needs_corpus
def test_every_table_row_names_a_corpus_file() -> None:
    files = {p.name for p in INSTAGRAM.glob("*.fold")}
    assert set(table3()) == files
    differing = sorted(name for name, row in table3().items() if row.get("name_differs"))
    assert len(differing) == 4, differing


@pytest.fixture(scope="module")
def unpacked_models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Collection, Path, Path]:
    """The packaged models as ``paper_models()`` gives them with an empty cache folder (unpacked once for the
    module), the folder that a second look finds, and that cache folder."""
    from foldbench.crease.io import collection as module

    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOLDBENCH_CACHE_DIR", str(cache))
        module.paper_models.cache_clear()
        try:
            models = module.paper_models()
            again = module.paper_models_folder()
        finally:
            module.paper_models.cache_clear()
    return models, again, cache


@needs_corpus
def test_the_instagram_corpus_loads_with_categories_and_no_tier_disagreement(
    unpacked_models: tuple[Collection, Path, Path],
) -> None:
    # the packaged models are the corpus's files, byte for byte (test_paper_models_ship_with_the_package)
    collection, _, _ = unpacked_models
    assert len(collection) == 366 and not collection.broken
    assert all(entry.category is not None for entry in collection.entries)
    assert tier_disagreements(collection) == []
    # Flat-Folder's own table counts the graph it builds: 32 files differ, and three of them change tier
    with (CORPUS / "instagram_data.csv").open(encoding="utf-8") as handle:
        listed = {row["number"]: (int(row["vertices"]), int(row["edges"])) for row in csv.DictReader(handle)}
    measured = {entry.file: listed[entry.file[:3]] for entry in collection.entries}
    assert sum(measured[e.file] != (e.vertices, e.edges) for e in collection.entries) == 32
    moved = tier_disagreements(collection, measured)
    assert [(d.file[:3], d.table_tier, d.counted_tier) for d in moved] == [
        ("013", "Easy", "Medium"), ("223", "Easy", "Medium"), ("253", "Medium", "Hard")]
    assert Counter(e.tier for e in collection.entries) == {"Easy": 102, "Medium": 113, "Hard": 151}


def test_a_tier_disagreement_is_reported(tmp_path: Path) -> None:
    pattern = sequence_by_name("blintz").final_pattern
    (tmp_path / "blintz.fold").write_text(json.dumps(pattern.to_fold_fields()))
    table = {"blintz.fold": {"name": "Blintz", "category": "geometry", "tier": "Hard"}}
    collection = load_collection(tmp_path, table=table)
    [disagreement] = tier_disagreements(collection)
    assert (disagreement.table_tier, disagreement.counted_tier) == ("Hard", "Easy")
    assert disagreement.vertices_plus_edges == pattern.vertex_count + pattern.edge_count


def test_broken_files_are_listed_and_others_read(tmp_path: Path) -> None:
    pattern = sequence_by_name("cupboard").final_pattern
    (tmp_path / "good.fold").write_text(json.dumps(pattern.to_fold_fields()))
    (tmp_path / "bad.fold").write_text("{ not json")
    (tmp_path / "empty.cp").write_text("")
    (tmp_path / "square.cp").write_text("1 0 0 1 0\n1 1 0 1 1\n1 1 1 0 1\n1 0 1 0 0\n2 0 0 1 1\n")
    (tmp_path / "notes.txt").write_text("not a pattern")
    collection = load_collection(tmp_path, table={})
    assert [e.file for e in collection.entries] == ["good.fold", "square.cp"]
    assert {b.path.name: b.error["class"] for b in collection.broken} == {"bad.fold": "CSE", "empty.cp": "CSE"}
    square = collection.entries[1]
    assert (square.vertices, square.edges, square.tier, square.category) == (4, 5, "Easy", None)
    assert collection.by_tier("Easy") == collection.entries


def test_a_missing_folder_is_a_typed_error(tmp_path: Path) -> None:
    from foldbench.crease.errors import CreasePatternSyntaxError

    with pytest.raises(CreasePatternSyntaxError):
        load_collection(tmp_path / "absent")


def test_paper_models_ship_with_the_package(unpacked_models: tuple[Collection, Path, Path]) -> None:
    """The 366 models unpack from the package data (no corpus next to the repository needed) into the cache, carry
    Table 3's categories, and are the corpus's bytes where the corpus is present."""
    from foldbench.crease.io import collection as module

    models, again, cache = unpacked_models
    assert len(models) == module.PAPER_MODEL_COUNT == len(table3())
    assert not models.broken
    assert all(entry.category for entry in models.entries)
    assert {entry.file for entry in models.entries} == set(table3())
    assert str(models.root).startswith(str(cache))
    assert again == models.root  # unpacked once, found again
    if SHARED.is_dir():
        for entry in models.entries:
            assert entry.path.read_bytes() == (INSTAGRAM / entry.file).read_bytes()


def test_the_shipped_counts_are_the_files_own(unpacked_models: tuple[Collection, Path, Path]) -> None:
    """``paper_models`` takes each model's counts from the package data instead of reading 43 MB of FOLD files;
    reading the unpacked files as any folder is read gives the same collection, entry for entry."""
    models, _, _ = unpacked_models
    assert load_collection(models.root) == models
