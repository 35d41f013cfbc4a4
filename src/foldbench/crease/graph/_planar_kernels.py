"""Compiled loops (numba) for planarising few segments: the same arithmetic, in the same order, as the array
code of :func:`foldbench.crease.graph.planar.planarize_segments`, without its fixed cost per array operation.

:func:`planarize_small` covers every input except crossings of lines that nearly meet at one point (the
groups of :func:`foldbench.crease.graph.planar._near_concurrent`): there it reports that it did nothing, and the
array code runs.
"""

from __future__ import annotations

import numpy as np

from foldbench.jit import kernel

__all__ = ["merge_small", "planarize_small"]


@kernel
def merge_small(points, cells, tolerance):  # type: ignore[no-untyped-def]
    """:func:`~foldbench.crease.graph.planar.merge_close_points` for few points: kept point indices and labels,
    in the same grid order as the dictionary code, so the same result."""
    count = points.shape[0]
    kept = np.empty(count, dtype=np.int64)
    kept_cells = np.empty((count, 2), dtype=np.int64)
    labels = np.empty(count, dtype=np.int64)
    kept_count = 0
    tolerance_squared = tolerance * tolerance
    for index in range(count):
        found = -1
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                cell_x, cell_y = cells[index, 0] + dx, cells[index, 1] + dy
                for candidate in range(kept_count):
                    if kept_cells[candidate, 0] != cell_x or kept_cells[candidate, 1] != cell_y:
                        continue
                    x = points[kept[candidate], 0] - points[index, 0]
                    y = points[kept[candidate], 1] - points[index, 1]
                    if x * x + y * y <= tolerance_squared:
                        found = candidate
                        break
                if found >= 0:
                    break
            if found >= 0:
                break
        if found < 0:
            found = kept_count
            kept[kept_count] = index
            kept_cells[kept_count, 0] = cells[index, 0]
            kept_cells[kept_count, 1] = cells[index, 1]
            kept_count += 1
        labels[index] = found
    return kept[:kept_count].copy(), labels


@kernel
def _merge(points, tolerance):  # type: ignore[no-untyped-def]
    cells = np.floor(points / tolerance).astype(np.int64)
    kept, labels = merge_small(points, cells, tolerance)
    merged = np.empty((len(kept), 2))
    for index in range(len(kept)):
        merged[index, 0] = points[kept[index], 0]
        merged[index, 1] = points[kept[index], 1]
    return merged, labels


@kernel
def _cross(ax, ay, bx, by):  # type: ignore[no-untyped-def]
    return ax * by - ay * bx


@kernel
def _lexsort(secondary, primary):  # type: ignore[no-untyped-def]
    """``np.lexsort((secondary, primary))``: by ``primary``, ties by ``secondary``, then by position."""
    by_secondary = np.argsort(secondary, kind="mergesort")
    return by_secondary[np.argsort(primary[by_secondary], kind="mergesort")]


@kernel(options={"error_model": "numpy"})
def planarize_small(points, tolerance):  # type: ignore[no-untyped-def]
    """Planarise the segments whose endpoints are ``points`` (``(2k, 2)``, contiguous).

    Returns ``(done, vertices, edges_vertices, source_offsets, sources)``: the edges' sorted source segments
    are ``sources[source_offsets[e]:source_offsets[e + 1]]``. ``done`` is False (and the rest empty) when
    crossings of nearly concurrent lines need merging into one.
    """
    vertices, labels = _merge(points, tolerance)
    segment_count = points.shape[0] // 2
    alive_count = 0
    for segment in range(segment_count):
        if labels[2 * segment] != labels[2 * segment + 1]:
            alive_count += 1
    alive = np.empty(alive_count, dtype=np.int64)
    alive_count = 0
    for segment in range(segment_count):
        if labels[2 * segment] != labels[2 * segment + 1]:
            alive[alive_count] = segment
            alive_count += 1
    n = alive_count
    sx, sy, ex, ey = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    dx, dy, length = np.empty(n), np.empty(n), np.empty(n)
    for i in range(n):
        start, end = labels[2 * alive[i]], labels[2 * alive[i] + 1]
        sx[i], sy[i] = vertices[start, 0], vertices[start, 1]
        ex[i], ey[i] = vertices[end, 0], vertices[end, 1]
        dx[i], dy[i] = ex[i] - sx[i], ey[i] - sy[i]
        length[i] = np.hypot(dx[i], dy[i])
    # candidate pairs, row by row as np.nonzero(np.triu(meet, 1)) lists them
    pair_count = 0
    first = np.empty(n * (n - 1) // 2, dtype=np.int64)
    second = np.empty(n * (n - 1) // 2, dtype=np.int64)
    if n > 1:
        low_x, low_y = np.minimum(sx, ex) - tolerance, np.minimum(sy, ey) - tolerance
        high_x, high_y = np.maximum(sx, ex) + tolerance, np.maximum(sy, ey) + tolerance
        for i in range(n):
            for j in range(i + 1, n):
                if (low_x[i] <= high_x[j] and low_x[j] <= high_x[i]
                        and low_y[i] <= high_y[j] and low_y[j] <= high_y[i]):
                    first[pair_count] = i
                    second[pair_count] = j
                    pair_count += 1
    capacity = 2 * n + 6 * pair_count
    split_segment = np.empty(capacity, dtype=np.int64)
    split_parameter = np.empty(capacity)
    split_vertex = np.empty(capacity, dtype=np.int64)
    count = 0
    for i in range(n):
        split_segment[count], split_parameter[count], split_vertex[count] = alive[i], 0.0, labels[2 * alive[i]]
        count += 1
    for i in range(n):
        split_segment[count], split_parameter[count], split_vertex[count] = alive[i], 1.0, labels[2 * alive[i] + 1]
        count += 1
    # endpoints of one segment lying on the interior of the other
    touching = np.zeros(pair_count, dtype=np.bool_)
    for flipped in range(2):
        for end_index in range(2):
            for pair in range(pair_count):
                host = first[pair] if flipped == 0 else second[pair]
                guest = second[pair] if flipped == 0 else first[pair]
                px = sx[guest] if end_index == 0 else ex[guest]
                py = sy[guest] if end_index == 0 else ey[guest]
                ox, oy = px - sx[host], py - sy[host]
                distance = np.abs(_cross(dx[host], dy[host], ox, oy)) / length[host]
                parameter = (ox * dx[host] + oy * dy[host]) / (length[host] * length[host])
                margin = tolerance / length[host]
                if distance <= tolerance and parameter > margin and parameter < 1 - margin:
                    touching[pair] = True
                    split_segment[count] = alive[host]
                    split_parameter[count] = parameter
                    split_vertex[count] = labels[2 * alive[guest] + end_index]
                    count += 1
    # proper crossings
    crossing_first = np.empty(pair_count, dtype=np.int64)
    crossing_second = np.empty(pair_count, dtype=np.int64)
    crossing_on_first = np.empty(pair_count)
    crossing_on_second = np.empty(pair_count)
    crossing_sine = np.empty(pair_count)
    new_points = np.empty((pair_count, 2))
    crossings = 0
    for pair in range(pair_count):
        if touching[pair]:
            continue
        f, s = first[pair], second[pair]
        denominator = _cross(dx[f], dy[f], dx[s], dy[s])
        ox, oy = sx[s] - sx[f], sy[s] - sy[f]
        parameter_first = _cross(ox, oy, dx[s], dy[s]) / denominator
        parameter_second = _cross(ox, oy, dx[f], dy[f]) / denominator
        sine = np.abs(denominator) / (length[f] * length[s])
        second_off_first = max(np.abs(_cross(dx[f], dy[f], sx[s] - sx[f], sy[s] - sy[f])),
                               np.abs(_cross(dx[f], dy[f], ex[s] - sx[f], ey[s] - sy[f]))) / length[f]
        first_off_second = max(np.abs(_cross(dx[s], dy[s], sx[f] - sx[s], sy[f] - sy[s])),
                               np.abs(_cross(dx[s], dy[s], ex[f] - sx[s], ey[f] - sy[s]))) / length[s]
        if second_off_first <= tolerance or first_off_second <= tolerance or not sine > 1e-12:
            continue
        margin_first, margin_second = tolerance / length[f], tolerance / length[s]
        if (parameter_first > margin_first and parameter_first < 1 - margin_first
                and parameter_second > margin_second and parameter_second < 1 - margin_second):
            crossing_first[crossings], crossing_second[crossings] = f, s
            crossing_on_first[crossings], crossing_on_second[crossings] = parameter_first, parameter_second
            crossing_sine[crossings] = sine
            new_points[crossings, 0] = sx[f] + parameter_first * dx[f]
            new_points[crossings, 1] = sy[f] + parameter_first * dy[f]
            crossings += 1
    if crossings >= 2:
        # nearly concurrent lines: any link between neighbouring crossings longer than a quarter of the
        # tolerance is left to the array code
        along_segment = np.concatenate((crossing_first[:crossings], crossing_second[:crossings]))
        position = np.concatenate((crossing_on_first[:crossings] * length[crossing_first[:crossings]],
                                   crossing_on_second[:crossings] * length[crossing_second[:crossings]]))
        order = _lexsort(position, along_segment)
        for index in range(2 * crossings - 1):
            before, after = order[index], order[index + 1]
            if along_segment[before] != along_segment[after]:
                continue
            gap = position[after] - position[before]
            sine = min(crossing_sine[before % crossings], crossing_sine[after % crossings])
            if sine * gap <= tolerance and gap > tolerance / 4:
                empty = np.zeros(0, dtype=np.int64)
                return False, np.zeros((0, 2)), np.zeros((0, 2), dtype=np.int64), empty, empty
    if crossings:
        all_points = np.empty((len(vertices) + crossings, 2))
        all_points[: len(vertices)] = vertices
        all_points[len(vertices):] = new_points[:crossings]
        old_count = len(vertices)
        vertices, relabel = _merge(all_points, tolerance)
        for index in range(count):
            split_vertex[index] = relabel[split_vertex[index]]
        for side in range(2):
            for crossing in range(crossings):
                split_segment[count] = alive[crossing_first[crossing] if side == 0 else crossing_second[crossing]]
                split_parameter[count] = crossing_on_first[crossing] if side == 0 else crossing_on_second[crossing]
                split_vertex[count] = relabel[old_count + crossing]
                count += 1
    order = _lexsort(split_parameter[:count], split_segment[:count])
    vertex_count = len(vertices)
    keys = np.empty(max(count - 1, 0), dtype=np.int64)
    key_sources = np.empty(max(count - 1, 0), dtype=np.int64)
    edge_count = 0
    for index in range(count - 1):
        before, after = order[index], order[index + 1]
        if split_segment[before] != split_segment[after] or split_vertex[before] == split_vertex[after]:
            continue
        low = min(split_vertex[before], split_vertex[after])
        high = max(split_vertex[before], split_vertex[after])
        keys[edge_count] = low * (vertex_count + 1) + high
        key_sources[edge_count] = split_segment[before]
        edge_count += 1
    keys, key_sources = keys[:edge_count], key_sources[:edge_count]
    by_key = _lexsort(key_sources, keys)
    unique = 0
    for index in range(edge_count):
        if index == 0 or keys[by_key[index]] != keys[by_key[index - 1]]:
            unique += 1
    edges_vertices = np.empty((unique, 2), dtype=np.int64)
    source_offsets = np.zeros(unique + 1, dtype=np.int64)
    sources = np.empty(edge_count, dtype=np.int64)
    edge = -1
    written = 0
    for index in range(edge_count):
        key, source = keys[by_key[index]], key_sources[by_key[index]]
        if index == 0 or key != keys[by_key[index - 1]]:
            edge += 1
            edges_vertices[edge, 0] = key // (vertex_count + 1)
            edges_vertices[edge, 1] = key % (vertex_count + 1)
            source_offsets[edge] = written
        elif sources[written - 1] == source:
            continue
        sources[written] = source
        written += 1
    source_offsets[unique] = written
    return True, vertices, edges_vertices, source_offsets, sources[:written]
