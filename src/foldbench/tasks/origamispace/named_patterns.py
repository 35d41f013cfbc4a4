"""Named, categorised crease patterns for pattern prediction: the built-in fold sequences (their final states) or
a folder of crease-pattern files whose names and categories a table gives (OrigamiBench's Table 3 by default).

Each :class:`NamedPattern` carries the name shown to a model, its semantic category, a difficulty group (items
draw their options within one group, so that they are of comparable complexity) and a source record that says
where its crease pattern comes from; :func:`load_pattern` reads the pattern back from that record, and
:func:`pattern_digest` fingerprints a pattern so that an answer can be checked against the options.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.io.collection import load_collection
from foldbench.crease.io.importers import read_crease_pattern
from foldbench.crease.sequences import builtin_sequences, sequence_by_name
from foldbench.origami.instances import difficulty_of

__all__ = ["BUILTIN", "NamedPattern", "builtin_named_patterns", "display_name", "folder_named_patterns",
           "load_pattern", "pattern_digest", "source_pattern"]

BUILTIN = "builtin"
"""The collection name of the built-in fold sequences."""
_TABLE_PREFIX = re.compile(r"^\d+[._][^_]+_(.+)$")
"""A Table 3 name: a number, the designer, then the model's name (``004_traditional_Crane``)."""


@dataclass(frozen=True)
class NamedPattern:
    """One named crease pattern of a collection."""

    name: str
    """The name shown to a model."""
    category: str
    group: str
    """The difficulty group options are drawn within (OrigamiSpace's difficulty, or the collection's tier)."""
    source: dict[str, str]
    """Where the pattern comes from: ``{"collection": "builtin", "sequence": NAME}`` or ``{"collection": FOLDER,
    "file": FILE}``."""


def display_name(table_name: str) -> str:
    """The model's name of a Table 3 entry, without its number and designer.

    >>> display_name("004_traditional_Crane"), display_name("010.chan_Beaver"), display_name("kite-base")
    ('Crane', 'Beaver', 'kite base')
    """
    match = _TABLE_PREFIX.match(table_name)
    text = match.group(1) if match else table_name
    return " ".join(text.replace("_", " ").replace("-", " ").split())


@cache
def builtin_named_patterns() -> tuple[NamedPattern, ...]:
    """Every built-in fold sequence whose final state folds flat, named by its sequence name."""
    found = []
    for sequence in builtin_sequences():
        try:
            sequence.compiled(len(sequence))
        except CreasePatternError:
            continue
        found.append(NamedPattern(display_name(sequence.name), sequence.category, difficulty_of(len(sequence)),
                                  {"collection": BUILTIN, "sequence": sequence.name}))
    return tuple(found)


@cache
def folder_named_patterns(folder: str) -> tuple[NamedPattern, ...]:
    """The files of a folder that a table names and categorises (OrigamiBench's Table 3), grouped by tier; files
    the table does not know are left out."""
    collection = load_collection(folder)
    root = str(Path(folder).resolve())
    return tuple(NamedPattern(display_name(entry.name), entry.category, entry.tier,
                              {"collection": root, "file": entry.file})
                 for entry in collection.entries if entry.name and entry.category)


@cache
def load_pattern(collection: str, key: str) -> CreasePattern:
    """The crease pattern a source record points at (``key`` is the sequence name or the file name); a drawing
    whose edges cross is planarised."""
    if collection == BUILTIN:
        sequence = sequence_by_name(key)
        return sequence.pattern(len(sequence))
    path = Path(collection) / key
    try:
        return read_crease_pattern(path)
    except CreasePatternError:
        return read_crease_pattern(path, repair=True)


def source_pattern(source: dict[str, Any]) -> CreasePattern:
    """The crease pattern of a source record."""
    return load_pattern(source["collection"], source.get("sequence") or source["file"])


def pattern_digest(pattern: CreasePattern) -> str:
    """A fingerprint of a crease pattern: its edges with their assignments, in the unit frame, rounded to 1e-4 and
    sorted (two patterns with the same edges have the same digest)."""
    coords = np.round(np.asarray(pattern.vertices_coords, dtype=float), 4) + 0.0
    rows = []
    for (a, b), letter in zip(np.asarray(pattern.edges_vertices).tolist(), pattern.edges_assignment, strict=True):
        ends = sorted([tuple(coords[a]), tuple(coords[b])])
        rows.append(f"{letter}{ends[0][0]:.4f},{ends[0][1]:.4f},{ends[1][0]:.4f},{ends[1][1]:.4f}")
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()[:16]
