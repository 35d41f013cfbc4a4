"""Build the layer-order variables and constraints of a folded crease pattern from its overlap cells."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import PrecisionProblem
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.layers._cell_kernels import face_pairs_sharing_a_cell, transitivity_variables
from foldbench.crease.layers.cells import OverlapCells
from foldbench.crease.layers.constraints import (
    CONSTRAINT_NAMES,
    CONSTRAINT_SLOTS,
    TACO_TACO,
    TACO_TORTILLA,
    TORTILLA_TORTILLA,
    TRANSITIVITY,
)

__all__ = ["DENSE_LOOKUP_FACES", "LayerConstraints", "build_layer_constraints"]

DENSE_LOOKUP_FACES: int = 6000
"""Up to this many faces, transitivity is enumerated with two ``(F, F)`` int32 lookup tables (144 MB each at
the limit); above it, with binary searches."""


@dataclass(frozen=True)
class LayerConstraints:
    """Variables (overlapping face pairs) and the constraints over them, as arrays.

    Constraints are numbered: first the ``l`` local ones (taco-taco, taco-tortilla, tortilla-tortilla), then
    the ``t`` transitivity ones, which are stored apart in three columns because they are by far the most
    numerous (over a hundred million in the largest corpus patterns).

    Attributes:
        variables_faces: ``(k, 2)`` face pairs ``[f, g]``, ``f < g``, sorted.
        local_kinds: ``(l,)`` type of each local constraint (index into ``CONSTRAINT_NAMES``).
        local_faces: ``(l, 4)`` the faces of each local constraint in its type's order, padded with -1.
        local_variables: ``(l, 6)`` the variable of each slot (padded with -1).
        local_flipped: ``(l, 6)`` whether a slot's pair is its variable's pair reversed.
        transitivity: ``(t, 3)`` the variables of ``(f, g)``, ``(g, h)`` and ``(f, h)`` for a triple
            ``f < g < h``; the constraint compares ``(f, g)``, ``(g, h)`` and ``(h, f)``.
        transitivity_triples: the number of triples of faces sharing a cell (each has a transitivity
            constraint; only those not implied are stored).
    """

    variables_faces: np.ndarray
    local_kinds: np.ndarray
    local_faces: np.ndarray
    local_variables: np.ndarray
    local_flipped: np.ndarray
    transitivity: np.ndarray
    transitivity_triples: int = 0

    @property
    def constraint_count(self) -> int:
        """Number of stored constraints (local and transitivity)."""
        return len(self.local_kinds) + len(self.transitivity)

    @property
    def counts(self) -> dict[str, int]:
        """Number of constraints of each type, by name.

        ``transitivity`` counts every triple of faces sharing a cell (as the reference solver reports it);
        ``transitivity_kept`` the ones stored, without those the taco-tortilla constraints already imply.
        """
        counts = np.bincount(self.local_kinds, minlength=4) if len(self.local_kinds) else [0] * 4
        named = {name: int(counts[kind]) for kind, name in enumerate(CONSTRAINT_NAMES)}
        named["transitivity_kept"] = len(self.transitivity)
        named["transitivity"] = max(self.transitivity_triples, len(self.transitivity))
        return named

    def kind_of(self, constraint: int) -> int:
        """The type of a constraint (index into ``CONSTRAINT_NAMES``)."""
        return int(self.local_kinds[constraint]) if constraint < len(self.local_kinds) else TRANSITIVITY

    def variables_of(self, constraint: int) -> list[int]:
        """The variables a constraint compares."""
        if constraint < len(self.local_kinds):
            return [int(v) for v in self.local_variables[constraint] if v >= 0]
        return [int(v) for v in self.transitivity[constraint - len(self.local_kinds)]]

    def faces_of(self, constraint: int) -> list[int]:
        """The faces a constraint speaks about."""
        if constraint >= len(self.local_kinds):
            first_pair, _, last_pair = self.transitivity[constraint - len(self.local_kinds)]
            first, second = self.variables_faces[first_pair]
            third = self.variables_faces[last_pair, 1]
            return [int(first), int(second), int(third)]
        size = 3 if self.local_kinds[constraint] == TACO_TORTILLA else 4
        return [int(f) for f in self.local_faces[constraint, :size]]

    def kernel_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The constraints as the compiled solver takes them (see :mod:`foldbench.crease.layers._solver_kernels`)."""
        return (np.ascontiguousarray(self.local_kinds, dtype=np.int8),
                np.ascontiguousarray(self.local_variables, dtype=np.int32),
                np.ascontiguousarray(self.local_flipped, dtype=np.bool_),
                np.ascontiguousarray(self.transitivity, dtype=np.int32))


def _incidences(cells_faces: tuple[tuple[int, ...], ...], face_count: int) -> tuple[np.ndarray, ...]:
    """Cell-face incidences in compressed rows, both ways (cells' sorted faces, faces' sorted cells)."""
    if len(cells_faces) <= FEW_CELLS:
        return _incidences_in_lists(cells_faces, face_count)
    sizes = np.array([len(faces) for faces in cells_faces], dtype=np.int64)
    cell_offsets = np.zeros(len(cells_faces) + 1, dtype=np.int64)
    np.cumsum(sizes, out=cell_offsets[1:])
    cell_faces = np.fromiter(itertools.chain.from_iterable(cells_faces), dtype=np.int64, count=int(sizes.sum()))
    cell_of_entry = np.repeat(np.arange(len(cells_faces), dtype=np.int64), sizes)
    order = np.lexsort((cell_of_entry, cell_faces))
    face_cells = cell_of_entry[order]
    face_offsets = np.zeros(face_count + 1, dtype=np.int64)
    np.cumsum(np.bincount(cell_faces, minlength=face_count), out=face_offsets[1:])
    return cell_offsets, cell_faces, face_offsets, face_cells


FEW_CELLS: int = 256
"""Up to this many cells, :func:`_incidences` is built in plain Python lists (the same arrays)."""


def _incidences_in_lists(cells_faces: tuple[tuple[int, ...], ...], face_count: int) -> tuple[np.ndarray, ...]:
    """:func:`_incidences` walking the cells in order (each face's cells come out sorted)."""
    cell_offsets = [0]
    cell_faces: list[int] = []
    cells_of_face: list[list[int]] = [[] for _ in range(face_count)]
    for cell, faces in enumerate(cells_faces):
        cell_faces.extend(faces)
        cell_offsets.append(len(cell_faces))
        for face in faces:
            cells_of_face[face].append(cell)
    face_offsets = [0]
    face_cells: list[int] = []
    for cells in cells_of_face:
        face_cells.extend(cells)
        face_offsets.append(len(face_cells))
    return (np.array(cell_offsets, dtype=np.int64), np.array(cell_faces, dtype=np.int64),
            np.array(face_offsets, dtype=np.int64), np.array(face_cells, dtype=np.int64))


def build_layer_constraints(
    pattern: CreasePattern, cells: OverlapCells, *, with_transitivity: bool = True,
    check_local: Callable[[LayerConstraints], None] | None = None,
) -> LayerConstraints:
    """All variables and taco-taco, taco-tortilla, tortilla-tortilla and transitivity constraints (the last
    unless ``with_transitivity`` is False).

    ``check_local`` is called with the local constraints alone before transitivity is built (the largest
    part of the work), so that a contradiction they already contain is reported early.

    >>> empty = OverlapCells(np.zeros((0, 2)), np.zeros((0, 2), int), (), np.zeros((0, 2), int), (), ((0,),))
    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> build_layer_constraints(build_crease_pattern(square, "BBBB"), empty).counts["transitivity"]
    0
    """
    face_count = pattern.face_count
    incidences = _incidences(cells.cells_faces, face_count)
    pairs = face_pairs_sharing_a_cell(*incidences, face_count)  # type: ignore[call-arg]
    variable_keys = pairs[:, 0] * face_count + pairs[:, 1]
    key_set = set(variable_keys.tolist())

    def overlap(f: int, g: int) -> bool:
        return (f * face_count + g if f < g else g * face_count + f) in key_set

    edges_faces = pattern.edges_faces.tolist()
    two_sided = [left >= 0 and right >= 0 and left != right for left, right in edges_faces]
    found: list[tuple[int, tuple[int, ...]]] = []
    seen_edge_pairs: set[tuple[int, int]] = set()
    for sources in cells.segments_edges:
        usable = [e for e in sources if two_sided[e]]
        for first, second in itertools.combinations(usable, 2):
            key = (first, second) if first < second else (second, first)
            if key in seen_edge_pairs:
                continue
            seen_edge_pairs.add(key)
            found.extend(_edge_edge_constraint(edges_faces[key[0]], edges_faces[key[1]], overlap))
    seen_edge_face: set[tuple[int, int]] = set()
    for segment, (left, right) in enumerate(cells.segments_cells.tolist()):
        if left < 0 or right < 0:
            continue
        crossing = set(cells.cells_faces[left]).intersection(cells.cells_faces[right])
        if not crossing:
            continue
        for edge in cells.segments_edges[segment]:
            if not two_sided[edge]:
                continue
            a, b = edges_faces[edge]
            folded_edge = overlap(a, b)
            for face in crossing:
                if face in (a, b) or (edge, face) in seen_edge_face:
                    continue
                seen_edge_face.add((edge, face))
                if folded_edge:
                    found.append((TACO_TORTILLA, (a, b, face)))
                else:
                    found.append((TORTILLA_TORTILLA, (a, b, face, face)))
    kinds = np.array([kind for kind, _ in found], dtype=np.int8)
    faces_array = np.array([(*faces, -1, -1, -1, -1)[:4] for _, faces in found], dtype=np.int32).reshape(-1, 4)
    slot_variables, slot_flipped = _slot_variables(kinds, faces_array, variable_keys, face_count)
    if not with_transitivity or check_local is not None:
        local = LayerConstraints(pairs, kinds, faces_array, slot_variables, slot_flipped,
                                 np.zeros((0, 3), dtype=np.int32))
        if not with_transitivity:
            return local
        assert check_local is not None
        check_local(local)
    row_offsets = np.searchsorted(pairs[:, 0], np.arange(face_count + 1)).astype(np.int64)
    side_keys, side_labels = _same_side_groups(found, face_count)
    del found
    if face_count <= DENSE_LOOKUP_FACES:
        side_matrix = np.full((face_count, face_count), -1, dtype=np.int32)
        side_matrix.reshape(-1)[side_keys] = _dense_labels(side_labels)
        variable_matrix = np.full((face_count, face_count), -1, dtype=np.int32)
        variable_matrix[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs), dtype=np.int32)
    else:
        side_matrix = variable_matrix = np.zeros((0, 0), dtype=np.int32)
    transitivity, transitivity_triples = transitivity_variables(  # type: ignore[call-arg]
        pairs, row_offsets, *incidences, face_count, side_keys, side_labels, side_matrix, variable_matrix
    )
    return LayerConstraints(
        variables_faces=pairs,
        local_kinds=kinds,
        local_faces=faces_array,
        local_variables=slot_variables,
        local_flipped=slot_flipped,
        transitivity=transitivity,
        transitivity_triples=int(transitivity_triples),
    )


_SLOT_FIRST = np.array([[x for x, _ in slots] + [-1] * (6 - len(slots)) for slots in CONSTRAINT_SLOTS[:3]])
_SLOT_SECOND = np.array([[y for _, y in slots] + [-1] * (6 - len(slots)) for slots in CONSTRAINT_SLOTS[:3]])


def _slot_variables(
    kinds: np.ndarray, faces_array: np.ndarray, variable_keys: np.ndarray, face_count: int
) -> tuple[np.ndarray, np.ndarray]:
    """For each local constraint, the variable of each slot and whether the slot's pair is the variable's pair
    reversed (unused slots: -1 and False), all constraints at once.

    Raises:
        PrecisionProblem: a slot compares two faces that share no cell (named by the first such constraint type).
    """
    if len(kinds) <= FEW_LOCAL_CONSTRAINTS:
        return _slot_variables_in_lists(kinds, faces_array, variable_keys, face_count)
    first_positions, second_positions = _SLOT_FIRST[kinds], _SLOT_SECOND[kinds]
    used = first_positions >= 0
    rows = np.arange(len(kinds))[:, None]
    f = faces_array[rows, np.maximum(first_positions, 0)].astype(np.int64)
    g = faces_array[rows, np.maximum(second_positions, 0)].astype(np.int64)
    keys = np.minimum(f, g) * face_count + np.maximum(f, g)
    index = np.searchsorted(variable_keys, keys)
    if len(variable_keys):
        matched = variable_keys[np.minimum(index, len(variable_keys) - 1)] == keys
    else:
        matched = np.zeros(keys.shape, dtype=bool)
    missing = used & ~matched
    if missing.any():
        kind = int(kinds[missing.any(axis=1)].min())
        raise PrecisionProblem(
            "E_PRECISION_OVERLAP",
            f"a {CONSTRAINT_NAMES[kind]} constraint compares faces that share no cell: the folded edges "
            "and cells disagree, the coordinates are too imprecise",
            {"constraint_type": CONSTRAINT_NAMES[kind]},
        )
    return np.where(used, index, -1).astype(np.int32), used & (f > g)


FEW_LOCAL_CONSTRAINTS: int = 512
"""Up to this many local constraints, :func:`_slot_variables` looks the slots up one by one in plain Python."""


def _slot_variables_in_lists(
    kinds: np.ndarray, faces_array: np.ndarray, variable_keys: np.ndarray, face_count: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_slot_variables` one constraint at a time (the variables' keys are sorted and distinct, so a key's
    index is its position)."""
    index_of = {key: index for index, key in enumerate(variable_keys.tolist())}
    variables: list[list[int]] = []
    flipped: list[list[bool]] = []
    missing_kind: int | None = None
    for kind, faces in zip(kinds.tolist(), faces_array.tolist(), strict=True):
        row, flips = [-1] * 6, [False] * 6
        for slot, (first, second) in enumerate(CONSTRAINT_SLOTS[kind]):
            f, g = faces[first], faces[second]
            variable = index_of.get(f * face_count + g if f < g else g * face_count + f)
            if variable is None:
                missing_kind = kind if missing_kind is None else min(missing_kind, kind)
                continue
            row[slot], flips[slot] = variable, f > g
        variables.append(row)
        flipped.append(flips)
    if missing_kind is not None:
        raise PrecisionProblem(
            "E_PRECISION_OVERLAP",
            f"a {CONSTRAINT_NAMES[missing_kind]} constraint compares faces that share no cell: the folded edges "
            "and cells disagree, the coordinates are too imprecise",
            {"constraint_type": CONSTRAINT_NAMES[missing_kind]},
        )
    return (np.array(variables, dtype=np.int32).reshape(-1, 6), np.array(flipped, dtype=bool).reshape(-1, 6))


FEW_SIDE_LABELS: int = 4096
"""Up to this many same-side keys, :func:`_dense_labels` numbers the groups in plain Python."""


def _dense_labels(labels: np.ndarray) -> np.ndarray | list[int]:
    """Each label's rank among the distinct labels (``np.unique(labels, return_inverse=True)[1]``; in plain Python
    for a few labels, where the array call's fixed cost dominates)."""
    if len(labels) > FEW_SIDE_LABELS:
        return np.unique(labels, return_inverse=True)[1]
    values = labels.tolist()
    rank = {label: index for index, label in enumerate(sorted(set(values)))}
    return [rank[label] for label in values]


def _same_side_groups(found: list[tuple[int, tuple[int, ...]]], face_count: int) -> tuple[np.ndarray, np.ndarray]:
    """For each tortilla face ``c``, groups of faces that taco-tortilla constraints keep on one side of ``c``.

    Returns sorted keys ``c * face_count + face`` and a group label per key (labels are unique overall).
    """
    parent: dict[int, int] = {}

    def root(key: int) -> int:
        parent.setdefault(key, key)
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for kind, faces in found:
        if kind != TACO_TORTILLA:
            continue
        a, b, c = faces
        first, second = root(c * face_count + a), root(c * face_count + b)
        if first != second:
            parent[second] = first
    keys = np.array(sorted(parent), dtype=np.int64)
    labels = np.array([root(int(key)) for key in keys], dtype=np.int64)
    return keys, labels


def _edge_edge_constraint(
    first_faces: list[int], second_faces: list[int], overlap: object
) -> list[tuple[int, tuple[int, ...]]]:
    """The constraint between two two-sided edges lying on a common folded segment (maybe none)."""
    assert callable(overlap)
    a, b = first_faces
    c, d = second_faces
    if len({a, b, c, d}) < 4:
        return []
    first_folded = overlap(a, b)
    a_with_c, a_with_d = overlap(a, c), overlap(a, d)
    if first_folded:
        if a_with_c and a_with_d:
            return [(TACO_TACO, (a, b, c, d))]
        if a_with_c:
            return [(TACO_TORTILLA, (a, b, c))]
        if a_with_d:
            return [(TACO_TORTILLA, (a, b, d))]
        return []
    if a_with_c and a_with_d:
        return [(TACO_TORTILLA, (c, d, a))]
    if a_with_c:
        return [(TORTILLA_TORTILLA, (a, b, c, d))]
    if a_with_d:
        return [(TORTILLA_TORTILLA, (a, b, d, c))]
    return [(TACO_TORTILLA, (c, d, b))]
