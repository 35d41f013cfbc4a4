"""Compiled loops (numba) that list overlapping face pairs and triples from the cell-face incidences.

Incidences come in compressed rows: ``cell_offsets (cells + 1,)`` / ``cell_faces`` (sorted faces of each cell)
and ``face_offsets (faces + 1,)`` / ``face_cells`` (sorted cells of each face). A stamp array marks faces
already emitted for the current face (or pair), so every pair and triple comes out once, in sorted order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "dense_transitivity_variables",
    "face_pairs_sharing_a_cell",
    "face_triples_sharing_a_cell",
    "transitivity_variables",
]


@njit(cache=True)
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


@njit(cache=True)
def face_pairs_sharing_a_cell(cell_offsets, cell_faces, face_offsets, face_cells, face_count):  # type: ignore[no-untyped-def]
    """Sorted ``(k, 2)`` pairs ``f < g`` of faces that share at least one cell."""
    dummy = np.zeros((0, 2), dtype=np.int64)
    total = _pairs_pass(cell_offsets, cell_faces, face_offsets, face_cells, face_count, dummy, False)
    output = np.empty((total, 2), dtype=np.int64)
    _pairs_pass(cell_offsets, cell_faces, face_offsets, face_cells, face_count, output, True)
    return output


@njit(cache=True)
def _triples_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, output, write):  # type: ignore[no-untyped-def]
    stamp = np.full(face_count, -1, dtype=np.int64)
    count = 0
    for pair in range(pairs.shape[0]):
        first, second = pairs[pair, 0], pairs[pair, 1]
        i, i_end = face_offsets[first], face_offsets[first + 1]
        j, j_end = face_offsets[second], face_offsets[second + 1]
        start = count
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
                        if write:
                            output[count, 0] = first
                            output[count, 1] = second
                            output[count, 2] = third
                        count += 1
                i += 1
                j += 1
        if write and count - start > 1:
            output[start:count, 2] = np.sort(output[start:count, 2])
    return count


@njit(cache=True)
def face_triples_sharing_a_cell(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count):  # type: ignore[no-untyped-def]
    """Sorted ``(t, 3)`` triples ``f < g < h`` of faces that share at least one cell (``pairs`` sorted)."""
    dummy = np.zeros((0, 3), dtype=np.int32)
    total = _triples_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, dummy, False)
    output = np.empty((total, 3), dtype=np.int32)
    _triples_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, output, True)
    return output


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _transitivity_pass(  # type: ignore[no-untyped-def]
    pairs, row_offsets, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_keys, side_labels,
    output, write,
):
    stamp = np.full(face_count, -1, dtype=np.int64)
    first_side = np.full(face_count, -1, dtype=np.int64)  # labels of faces relative to the current first face
    current_first = -1
    count = 0
    for pair in range(pairs.shape[0]):
        first, second = pairs[pair, 0], pairs[pair, 1]
        if first != current_first:
            current_first = first
            first_side[:] = -1
            low = np.searchsorted(side_keys, first * face_count)
            high = np.searchsorted(side_keys, (first + 1) * face_count)
            for index in range(low, high):
                first_side[side_keys[index] - first * face_count] = side_labels[index]
        second_of_first = first_side[second]
        first_of_second = _side_label(side_keys, side_labels, second * face_count + first)
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
                        # skip triples where one face has the other two forced to its same side
                        if second_of_first >= 0 and first_side[third] == second_of_first:
                            continue
                        if first_of_second >= 0 and _side_label(
                                side_keys, side_labels, second * face_count + third) == first_of_second:
                            continue
                        of_third = _side_label(side_keys, side_labels, third * face_count + first)
                        if of_third >= 0 and _side_label(
                                side_keys, side_labels, third * face_count + second) == of_third:
                            continue
                        if write:
                            output[count, 0] = pair
                            output[count, 1] = _variable_of(pairs, row_offsets, second, third)
                            output[count, 2] = _variable_of(pairs, row_offsets, first, third)
                        count += 1
                i += 1
                j += 1
    return count


@njit(cache=True)
def transitivity_variables(  # type: ignore[no-untyped-def]
    pairs, row_offsets, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_keys, side_labels,
):
    """For every triple ``f < g < h`` of faces sharing a cell, the variables of ``(f, g)``, ``(g, h)``, ``(f, h)``,
    except triples where some face has the other two forced to the same side of it.

    ``pairs`` are the sorted variables and ``row_offsets`` where each face's row of pairs starts. ``side_keys``
    (sorted ``face * face_count + other``) and ``side_labels`` give, for each face, groups of other faces that
    taco-tortilla constraints keep on one side of it: a cycle needs each face between the other two, so such a
    triple's transitivity constraint is implied.
    """
    dummy = np.zeros((0, 3), dtype=np.int32)
    total = _transitivity_pass(pairs, row_offsets, cell_offsets, cell_faces, face_offsets, face_cells, face_count,
                               side_keys, side_labels, dummy, False)
    output = np.empty((total, 3), dtype=np.int32)
    _transitivity_pass(pairs, row_offsets, cell_offsets, cell_faces, face_offsets, face_cells, face_count,
                       side_keys, side_labels, output, True)
    return output


@njit(cache=True)
def _dense_transitivity_pass(  # type: ignore[no-untyped-def]
    pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_matrix, variable_matrix, output,
    write,
):
    stamp = np.full(face_count, -1, dtype=np.int64)
    count = 0
    for pair in range(pairs.shape[0]):
        first, second = pairs[pair, 0], pairs[pair, 1]
        second_of_first = side_matrix[first, second]
        first_of_second = side_matrix[second, first]
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
                        if second_of_first >= 0 and side_matrix[first, third] == second_of_first:
                            continue
                        if first_of_second >= 0 and side_matrix[second, third] == first_of_second:
                            continue
                        of_third = side_matrix[third, first]
                        if of_third >= 0 and side_matrix[third, second] == of_third:
                            continue
                        if write:
                            output[count, 0] = pair
                            output[count, 1] = variable_matrix[second, third]
                            output[count, 2] = variable_matrix[first, third]
                        count += 1
                i += 1
                j += 1
    return count


@njit(cache=True)
def dense_transitivity_variables(  # type: ignore[no-untyped-def]
    pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_matrix, variable_matrix,
):
    """:func:`transitivity_variables` with ``(F, F)`` lookup tables instead of binary searches (small F).

    ``side_matrix[c, x]`` is the same-side group of face ``x`` relative to ``c`` (-1 if none);
    ``variable_matrix[f, g]`` is the variable of the pair ``f < g``.
    """
    dummy = np.zeros((0, 3), dtype=np.int32)
    total = _dense_transitivity_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count,
                                     side_matrix, variable_matrix, dummy, False)
    output = np.empty((total, 3), dtype=np.int32)
    _dense_transitivity_pass(pairs, cell_offsets, cell_faces, face_offsets, face_cells, face_count, side_matrix,
                             variable_matrix, output, True)
    return output
