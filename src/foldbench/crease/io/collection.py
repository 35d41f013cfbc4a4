"""Crease-pattern collections: a folder of ``.fold``, ``.cp``, ``.opx`` or ``.svg`` files, each with OrigamiBench's
complexity tier and, where one is known, a semantic category.

The tier follows OrigamiBench (appendix B): the number of vertices plus the number of edges, Easy up to 300,
Medium up to 800, Hard above. For a ``.fold`` file the counts are the file's own (its ``vertices_coords`` and
``edges_vertices``), as in the paper; for a drawing (``.cp``, ``.opx``, ``.svg``), which has no graph of its own,
they are the counts of the planarised crease pattern.

OrigamiBench's Table 3 (each model's name, category and tier) ships as package data keyed by the file names of
the Flat-Folder ``instagram`` corpus (:func:`table3`); :func:`tier_disagreements` lists where the table's tier
differs from the tier of the counts. On that corpus it differs for no file with the files' own counts, and for
three files (``013_mitanioripa_Medal``, ``223_luibobby_Discord``, ``253_luibobby_Reddit``) with the counts of the
corpus's ``instagram_data.csv``, which Flat-Folder measured on the graph it builds from each file (32 files
differ there).

A file that cannot be read is listed in :attr:`Collection.broken` with its typed error, never dropped silently.

The 366 models OrigamiBench evaluates on (the Flat-Folder ``instagram`` examples, MIT licence, copyright Jason S. Ku;
the licence ships beside them as ``data/origamibench_models_LICENSE.txt``) ship with foldbench as one LZMA zip of
their FOLD files; :func:`paper_models` unpacks it once into the cache (:func:`foldbench.cache.cache_root`) and
returns them as a collection with Table 3's names, categories and tiers.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from foldbench.cache import cache_root
from foldbench.crease.errors import CreasePatternError, CreasePatternSyntaxError
from foldbench.crease.io.fold_format import parse_fold_text
from foldbench.crease.io.importers import read_crease_pattern

__all__ = [
    "PATTERN_SUFFIXES",
    "TIER_LIMITS",
    "BrokenFile",
    "Collection",
    "CollectionEntry",
    "TierDisagreement",
    "complexity_tier",
    "load_collection",
    "paper_models",
    "paper_models_folder",
    "PAPER_MODEL_COUNT",
    "table3",
    "tier_disagreements",
]

Tier = Literal["Easy", "Medium", "Hard"]
TIER_LIMITS: tuple[int, int] = (300, 800)
"""Upper bounds (inclusive) of vertices + edges for the Easy and Medium tiers."""
PATTERN_SUFFIXES: tuple[str, ...] = (".fold", ".cp", ".opx", ".svg")
PAPER_MODEL_COUNT = 366
"""How many models OrigamiBench's Table 3 lists (and :func:`paper_models` ships)."""
_PAPER_MODELS_ZIP = "data/origamibench_models.zip"
_PAPER_MODEL_COUNTS = "data/origamibench_models_counts.json"


def complexity_tier(vertices: int, edges: int) -> Tier:
    """OrigamiBench's tier of a pattern with ``vertices`` vertices and ``edges`` edges.

    >>> complexity_tier(100, 200), complexity_tier(100, 201), complexity_tier(300, 500), complexity_tier(400, 401)
    ('Easy', 'Medium', 'Medium', 'Hard')
    """
    size = vertices + edges
    if size <= TIER_LIMITS[0]:
        return "Easy"
    return "Medium" if size <= TIER_LIMITS[1] else "Hard"


@dataclass(frozen=True)
class CollectionEntry:
    """One readable file of a collection."""

    path: Path
    vertices: int
    edges: int
    tier: Tier
    category: str | None = None
    """The semantic category, where one is known (e.g. from Table 3)."""
    name: str | None = None
    """The model's name in the table that gave its category."""
    table_tier: Tier | None = None
    """The tier that table gives (None when the file is not in it)."""

    @property
    def file(self) -> str:
        """The file name."""
        return self.path.name


@dataclass(frozen=True)
class BrokenFile:
    """A file of a collection that could not be read: its path and the compiler's error record."""

    path: Path
    error: dict[str, Any]


@dataclass(frozen=True)
class Collection:
    """The readable files of a folder (sorted by name) and the broken ones."""

    root: Path
    entries: tuple[CollectionEntry, ...]
    broken: tuple[BrokenFile, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.entries)

    def by_tier(self, tier: str) -> tuple[CollectionEntry, ...]:
        """The entries of one tier."""
        return tuple(e for e in self.entries if e.tier == tier)

    def by_category(self, category: str) -> tuple[CollectionEntry, ...]:
        """The entries of one semantic category."""
        return tuple(e for e in self.entries if e.category == category)


@dataclass(frozen=True)
class TierDisagreement:
    """A file whose tier in a table differs from the tier of its counts."""

    file: str
    table_tier: str
    counted_tier: str
    vertices_plus_edges: int


@cache
def table3() -> Mapping[str, Mapping[str, Any]]:
    """OrigamiBench's Table 3 keyed by corpus file name: ``{name, category, tier}`` (plus ``name_differs: true``
    for the four rows whose name is spelt differently from the file's)."""
    text = resources.files("foldbench.crease").joinpath("data/origamibench_table3.json").read_text(encoding="utf-8")
    return json.loads(text)["models"]


def _counts(path: Path) -> tuple[int, int]:
    if path.suffix.lower() == ".fold":
        document = parse_fold_text(path.read_text(encoding="utf-8", errors="replace"), path.name)
        vertices, edges = document.get("vertices_coords"), document.get("edges_vertices")
        for field_name, value in (("vertices_coords", vertices), ("edges_vertices", edges)):
            if not isinstance(value, list):
                raise CreasePatternSyntaxError("E_CP_MISSING_FIELD", f"{path.name}: {field_name} missing or not a list",
                                               {"source": path.name, "field": field_name})
        return len(vertices), len(edges)  # type: ignore[arg-type]
    pattern = read_crease_pattern(path)
    return pattern.vertex_count, pattern.edge_count


def load_collection(folder: str | Path, *, table: Mapping[str, Mapping[str, Any]] | None = None,
                    recursive: bool = False) -> Collection:
    """Every crease-pattern file of ``folder`` as a collection entry, with its tier and, when ``table`` (file
    name -> ``{category, tier, name}``; default :func:`table3`) knows the file, its category.

    Raises:
        CreasePatternSyntaxError: ``folder`` is not a folder.
    """
    root = Path(folder)
    if not root.is_dir():
        raise CreasePatternSyntaxError("E_CP_NO_FOLDER", f"{root} is not a folder", {"source": str(root)})
    known = table3() if table is None else table
    files = sorted(p for p in (root.rglob("*") if recursive else root.iterdir())
                   if p.is_file() and p.suffix.lower() in PATTERN_SUFFIXES)
    entries, broken = [], []
    for path in files:
        try:
            vertices, edges = _counts(path)
        except CreasePatternError as error:
            broken.append(BrokenFile(path, error.to_dict()))
            continue
        row = known.get(path.name, {})
        entries.append(CollectionEntry(path, vertices, edges, complexity_tier(vertices, edges), row.get("category"),
                                       row.get("name"), row.get("tier")))
    return Collection(root, tuple(entries), tuple(broken))


def tier_disagreements(collection: Collection, counts: Mapping[str, tuple[int, int]] | None = None
                       ) -> list[TierDisagreement]:
    """The entries whose table tier differs from the tier of their counts (entries not in a table are skipped).

    ``counts`` (file name -> (vertices, edges)) replaces the entries' own counts where it has the file, e.g. to
    compare with counts measured after planarising.
    """
    found = []
    for entry in collection.entries:
        if entry.table_tier is None:
            continue
        vertices, edges = (counts or {}).get(entry.file, (entry.vertices, entry.edges))
        tier = complexity_tier(vertices, edges)
        if tier != entry.table_tier:
            found.append(TierDisagreement(entry.file, entry.table_tier, tier, vertices + edges))
    return found


def paper_models_folder() -> Path:
    """The folder of OrigamiBench's 366 FOLD files, unpacked from the package data into the cache on first use.

    The folder's name carries a digest of the shipped archive, so a new foldbench version unpacks its own copy; the
    files appear only when complete (unpacked beside it, then renamed).
    """
    archive = resources.files("foldbench.crease").joinpath(_PAPER_MODELS_ZIP).read_bytes()
    folder = cache_root() / "origamibench-models" / hashlib.sha256(archive).hexdigest()[:16]
    if folder.is_dir():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=folder.parent))
    with zipfile.ZipFile(io.BytesIO(archive)) as bundle:
        for name in bundle.namelist():
            if "/" in name or "\\" in name or name.startswith("."):
                raise CreasePatternSyntaxError("E_CP_BAD_PACKAGE_DATA", f"unexpected member {name!r} in the archive",
                                               {"source": _PAPER_MODELS_ZIP})
            (stage / name).write_bytes(bundle.read(name))
    try:
        os.replace(stage, folder)
    except OSError:  # another process unpacked it first
        shutil.rmtree(stage, ignore_errors=True)
    return folder


@cache
def paper_models() -> Collection:
    """OrigamiBench's 366 models (Table 3's names, categories and tiers), from the package data.

    The same collection as ``load_collection(paper_models_folder())``, without reading the 43 MB of FOLD files for
    their counts: those ship beside the archive (``data/origamibench_models_counts.json``, file name ->
    ``[vertices, edges]``; a test checks them against the files).
    """
    folder = paper_models_folder()
    text = resources.files("foldbench.crease").joinpath(_PAPER_MODEL_COUNTS).read_text(encoding="utf-8")
    known = table3()
    entries = []
    for name, (vertices, edges) in sorted(json.loads(text).items()):
        row = known.get(name, {})
        entries.append(CollectionEntry(folder / name, vertices, edges, complexity_tier(vertices, edges),
                                       row.get("category"), row.get("name"), row.get("tier")))
    return Collection(folder, tuple(entries))
