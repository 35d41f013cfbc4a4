"""Compiled loops (numba) that list overlapping face pairs and triples from the cell-face incidences.

Incidences come in compressed rows: ``cell_offsets (cells + 1,)`` / ``cell_faces`` (sorted faces of each cell)
and ``face_offsets (faces + 1,)`` / ``face_cells`` (sorted cells of each face). A stamp array marks faces
already emitted for the current face (or pair), so every pair and triple comes out once, in sorted order.
"""

from __future__ import annotations

import numpy as np

from foldbench.jit import compiled_overload, kernel

__all__ = [
    "face_pairs_sharing_a_cell",
    "transitivity_variables",
]


@kernel
def _pairs_pass(cell_offsets, cell_faces, face_offsets, face_cells, face_count, output, write):  # type: ignore[no-untyped-def]
    stamp = np.full(face_count, -1, dtype=np.int64)
    count = 0
    for first in range(face_count):
        start = count
        for position in range(face_offsets[first], face_offsets[first + 1]):
            cell = face_cells[position]
            for index in range(cell_offsets[cell], cell_offsets[cell + 1]):
                second = cell_faces[index]
                if second > first and stamp[second] != first:
                    stamp[second] = first
                    if write:
                        output[count, 0] = first
                        output[count, 1] = second
                    count += 1
        if write and count - start > 1:
            output[start:count, 1] = np.sort(output[start:count, 1])
    return count


@kernel
def face_pairs_sharing_a_cell(cell_offsets, cell_faces, face_offsets, face_cells, face_count):  # type: ignore[no-untyped-def]
    """Sorted ``(k, 2)`` pairs ``f < g`` of faces that share at least one cell."""
    dummy = np.zeros((0, 2), dtype=np.int64)
    total = _pairs_pass(cell_offsets, cell_faces, face_offsets, face_cells, face_count, dummy, False)
    output = np.empty((total, 2), dtype=np.int64)
    _pairs_pass(cell_offsets, cell_faces, face_offsets, face_cells, face_count, output, True)
    return output


@kernel
def _variable_of(pairs, row_offsets, first, second):  # type: ignore[no-untyped-def]
    """Index of the pair ``(first, second)`` in the sorted ``pairs`` (binary search in ``first``'s row)."""
    low, high = row_offsets[first], row_offsets[first + 1]
    while low < high:
        middle = (low + high) // 2
        if pairs[middle, 1] < second:
            low = middle + 1
        else:
            high = middle
    return low


@kernel
def _side_label(side_keys, side_labels, key):  # type: ignore[no-untyped-def]
    low, high = 0, side_keys.shape[0]
    while low < high:
        middle = (low + high) // 2
        if side_keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    if low < side_keys.shape[0] and side_keys[low] == key:
        return side_labels[low]
    return -1


def _side_of(lookup, face, other):  # type: ignore[no-untyped-def]
    """Same-side group of ``other`` relative to ``face`` (-1 if none); compiled per kind of ``lookup``."""
    if len(lookup) == 2:
        return lookup[0][face, other]
    return _side_label(lookup[0], lookup[1], face * lookup[4] + other)


def _variable_between(lookup, first, second):  # type: ignore[no-untyped-def]
    """Variable of the pair ``first < second``; compiled per kind of ``lookup``."""
    if len(lookup) == 2:
        return lookup[1][first, second]
    return _variable_of(lookup[2], lookup[3], first, second)


# ``lookup`` is ``(side_matrix, variable_matrix)`` (tables) or ``(side_keys, side_labels, pairs, row_offsets,
# face_count)`` (binary searches); the walk below is compiled once for each, with no test in its loops (the
# plain functions above do the same for small inputs, run as Python).
@compiled_overload(_side_of)
def _side_of_compiled(lookup, face, other):  # type: ignore[no-untyped-def]
    if len(lookup.types) == 2:
        return lambda lookup, face, other: lookup[0][face, other]
    return lambda lookup, face, other: _side_label(lookup[0], lookup[1], face * lookup[4] + other)


@compiled_overload(_variable_between)
def _variable_between_compiled(lookup, first, second):  # type: ignore[no-untyped-def]
    if len(lookup.types) == 2:
        return lambda lookup, first, second: lookup[1][first, second]
    return lambda lookup, first, second: _variable_of(lookup[2], lookup[3], first, second)


@kernel
def _transitivity_pass(  # type: ignore[no-untyped-def]
    pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, lookup, output, write,
):
    stamp = np.full(face_count, -1, dtype=np.int64)
    count = 0
    triples = 0
    for pair in range(pairs.shape[0]):
        first, second = pairs[pair, 0], pairs[pair, 1]
        second_of_first = _side_of(lookup, first, second)
        first_of_second = _side_of(lookup, second, first)
        i, i_end = face_offsets[first], face_offsets[first + 1]
        j, j_end = face_offsets[second], face_offsets[second + 1]
        while i < i_end and j < j_end:
            cell_i, cell_j = face_cells[i], face_cells[j]
            if cell_i < cell_j:
                i += 1
            elif cell_j < cell_i:
                j += 1
            else:
                for index in range(cell_offsets[cell_i], cell_offsets[cell_i + 1]):
                    third = cell_faces[index]
                    if third > second and stamp[third] != pair:
                        stamp[third] = pair
                        triples += 1
                        # skip triples where one face has the other two forced to its same side
                        if second_of_first >= 0 and _side_of(lookup, first, third) == second_of_first:
                            continue
                        if first_of_second >= 0 and _side_of(lookup, second, third) == first_of_second:
                            continue
                        of_third = _side_of(lookup, third, first)
                        if of_third >= 0 and _side_of(lookup, third, second) == of_third:
                            continue
                        if write:
                            output[count, 0] = pair
                            output[count, 1] = _variable_between(lookup, second, third)
                            output[count, 2] = _variable_between(lookup, first, third)
                        count += 1
                i += 1
                j += 1
    return count, triples


@kernel
def _transitivity(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, lookup):  # type: ignore[no-untyped-def]
    dummy = np.zeros((0, 3), dtype=np.int32)
    total, triples = _transitivity_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count,
                                        lookup, dummy, False)
    output = np.empty((total, 3), dtype=np.int32)
    _transitivity_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, lookup, output, True)
    return output, triples


def transitivity_variables(  # type: ignore[no-untyped-def]
    pairs, row_offsets, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_keys, side_labels,
    side_matrix, variable_matrix,
):
    """For every triple ``f < g < h`` of faces sharing a cell, the variables of ``(f, g)``, ``(g, h)``, ``(f, h)``,
    except triples where some face has the other two forced to the same side of it; and the number of all
    such triples (kept or not).

    ``pairs`` are the sorted variables and ``row_offsets`` where each face's row of pairs starts. ``side_keys``
    (sorted ``face * face_count + other``) and ``side_labels`` give, for each face, groups of other faces that
    taco-tortilla constraints keep on one side of it: a cycle needs each face between the other two, so such a
    triple's transitivity constraint is implied.

    With ``(F, F)`` tables (``side_matrix[c, x]``: the group of ``x`` relative to ``c`` or -1;
    ``variable_matrix[f, g]``: the variable of ``f < g``) lookups are direct; with empty ``(0, 0)`` tables they
    are binary searches (large F).
    """
    incidences = (cell_offsets, cell_faces, face_offsets, face_cells, face_count)
    if side_matrix.shape[0] > 0:
        return _transitivity(pairs, *incidences, (side_matrix, variable_matrix))
    return _transitivity(pairs, *incidences, (side_keys, side_labels, pairs, row_offsets, face_count))
