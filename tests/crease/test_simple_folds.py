"""Patterns made by folding a square along random lines always fold flat: at least one state each."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.io.fold_format import read_fold
from foldbench.crease.simple_folds import random_simple_folds, simple_fold_pattern


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("grid", [None, 8])
def test_random_simple_folds_fold_flat(seed: int, grid: int | None) -> None:
    folds = random_simple_folds(np.random.default_rng(seed), 1 + seed % 5, grid=grid)
    compiled = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    assert compiled.state_count >= 1
    assert compiled.pattern.face_count >= 1 + len(folds.fold_lines) - (seed % 5 == 0)


def test_fold_through_an_existing_vertex_makes_straight_degree_two_vertices(tmp_path: Path) -> None:
    folds = simple_fold_pattern([((0.5, 0.0), (0.0, 1.0)), ((0.0, 0.5), (1.0, 0.0))])
    compiled = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    assert compiled.state_count == 1
    # write it with every edge as [larger, smaller] and each crease split by an extra degree-2 vertex
    fields = compiled.pattern.to_fold_fields()
    coords = fields["vertices_coords"]
    edges, letters = [], []
    for (a, b), letter in zip(fields["edges_vertices"], fields["edges_assignment"], strict=False):
        if letter in "MV":
            middle = len(coords)
            coords.append([(coords[a][0] + coords[b][0]) / 2, (coords[a][1] + coords[b][1]) / 2])
            edges += [[max(a, middle), min(a, middle)], [max(b, middle), min(b, middle)]]
            letters += [letter, letter]
        else:
            edges.append([max(a, b), min(a, b)])
            letters.append(letter)
    path = tmp_path / "split.fold"
    path.write_text(json.dumps({"vertices_coords": coords, "edges_vertices": edges, "edges_assignment": letters}))
    again = compile_crease_pattern(read_fold(path))
    assert again.state_count == compiled.state_count
    assert again.pattern.face_count == compiled.pattern.face_count


def test_free_angle_folds_with_many_layers() -> None:
    folds = random_simple_folds(np.random.default_rng(123), 6)
    compiled = compile_crease_pattern(build_crease_pattern(folds.segments, folds.assignments))
    assert compiled.state_count >= 1
