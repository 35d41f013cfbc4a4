"""Where the synthesis task's targets come from: the ``source`` knob's ``builtin`` sequences, the paper's shipped
models (``paper``: those drawn on a square, read lazily) or a folder of crease-pattern files."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import overload

import numpy as np

from foldbench.crease.io.collection import CollectionEntry
from foldbench.errors import FoldbenchError, InvalidKnobError
from foldbench.origami.targets import Target

__all__ = ["paper_entries", "source_targets"]


def _square_paper(path: Path) -> bool:
    """Whether a FOLD file's boundary spans a square (read from the file's own fields, without building the
    pattern)."""
    from foldbench.crease.io.fold_format import parse_fold_text

    fold = parse_fold_text(path.read_text(encoding="utf-8"), path.name)
    coords = np.asarray(fold.get("vertices_coords") or [], float)
    ends = [v for edge, kind in zip(fold.get("edges_vertices") or [], fold.get("edges_assignment") or [],
                                    strict=False) if kind in ("B", "b") for v in edge]
    if coords.ndim != 2 or not ends:
        return False
    span = np.ptp(coords[ends, :2], axis=0)
    return bool(span.max() > 0 and abs(span[0] - span[1]) <= 1e-6 * span.max())


@cache
def paper_entries() -> tuple[CollectionEntry, ...]:
    """The paper's models that are folded from a square (Easy, then Medium, then Hard; by file name within a
    tier), read once per process."""
    from foldbench.crease.io.collection import paper_models

    order = {"Easy": 0, "Medium": 1, "Hard": 2}
    entries = [e for e in paper_models().entries if _square_paper(e.path)]
    return tuple(sorted(entries, key=lambda e: (order.get(e.table_tier or e.tier, 3), e.file)))


def source_targets(task_id: str, source: str) -> Sequence[Target] | None:
    """The targets of a ``builtin``, ``paper`` or folder ``source`` in order (None for ``random``); the paper's
    are read when an item needs them."""
    if source == "random":
        return None
    if source == "paper":
        return _PaperTargets(paper_entries())
    if source == "builtin":
        from foldbench.crease.sequences import builtin_sequences
        from foldbench.origami.targets import target_from_sequence

        return [target_from_sequence(sequence) for sequence in builtin_sequences()]
    from foldbench.crease.errors import CreasePatternError
    from foldbench.crease.io.collection import load_collection
    from foldbench.origami.targets import target_from_file

    if not Path(source).is_dir():
        raise InvalidKnobError(f"{task_id}: source {source!r} is not random, builtin or a folder")
    targets = []
    for entry in load_collection(source).entries:
        try:
            target = target_from_file(entry.path, entry.category)
        except (CreasePatternError, FoldbenchError):
            continue  # not a square, or does not fold flat: not a target
        targets.append(replace(target, tier=entry.table_tier or entry.tier))
    if not targets:
        raise InvalidKnobError(f"{task_id}: the folder {source} has no crease pattern of a square that folds flat")
    return targets


class _PaperTargets(Sequence[Target]):
    """The paper's models as targets, each read from its file when first asked for (not compiled: that happens
    when its pictures are drawn)."""

    def __init__(self, entries: tuple[CollectionEntry, ...]) -> None:
        self.entries = entries
        self._read: dict[int, Target] = {}

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> Target: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Target]: ...

    def __getitem__(self, index: int | slice) -> Target | Sequence[Target]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index not in self._read:
            from foldbench.origami.targets import target_from_file

            target = target_from_file(self.entries[index].path, check_folds=False)
            self._read[index] = replace(target, compile_timeout=None)  # shipped models: no wall-clock limit
        return self._read[index]
