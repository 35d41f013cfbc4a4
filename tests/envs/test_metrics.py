"""QE, GS (exact and raster) and SS on hand-made shapes and folded forms."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from foldbench.envs import (
    geometric_similarity,
    query_efficiency,
    raster_geometric_similarity,
    semantic_similarity,
    silhouette_mask,
    silhouette_of,
    simple_fold_target,
)
from foldbench.origami.pictures import episode_window, folded_image
from foldbench.origami.sheet import blank_sheet

SQUARE = [(60, 60), (160, 60), (160, 160), (60, 160)]
TRIANGLE = [(40, 200), (220, 200), (60, 60)]
STRIP = [(20, 120), (236, 120), (236, 136), (20, 136)]


def picture(points, angle: float = 0.0, scale: float = 1.0, shift=(0.0, 0.0), mirror: bool = False) -> Image.Image:
    image = Image.new("RGB", (256, 256), "white")
    corners = np.array(points, float)
    centre = corners.mean(axis=0)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    moved = (corners - centre) @ rotation.T * scale
    if mirror:
        moved[:, 0] = -moved[:, 0]
    ImageDraw.Draw(image).polygon([tuple(p) for p in moved + centre + shift], fill="#f4d27a", outline="#333333")
    return image


# -- GS ------------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.floats(0.5, 9.5), st.floats(0.5, 9.5))
def test_gs_of_two_boxes_is_their_overlap(width: float, other: float) -> None:
    first, second = shapely.box(0, 0, width, 10), shapely.box(0, 0, other, 10)
    assert geometric_similarity(first, second) == pytest.approx(min(width, other) / max(width, other))
    assert geometric_similarity(first, second) == pytest.approx(geometric_similarity(second, first), abs=1e-12)


def test_gs_of_folded_forms_follows_the_alignment() -> None:
    blank = silhouette_of(blank_sheet().aligned)
    book = silhouette_of(simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))]).aligned)
    diagonal = silhouette_of(simple_fold_target("diagonal", [((0.0, 0.0), (1.0, 1.0))]).aligned)
    assert book.bounds == pytest.approx((0, 0, 5, 10))  # the half with the reference point stays
    assert geometric_similarity(blank, book) == pytest.approx(0.5)
    assert geometric_similarity(blank, diagonal) == pytest.approx(0.5)
    # lower-right triangle (50) and left half (50) share x < 5, y < x (12.5)
    assert geometric_similarity(book, diagonal) == pytest.approx(12.5 / 87.5)


# -- QE ------------------------------------------------------------------------------------------------------
def test_qe_counts_kept_creases_that_changed_the_form() -> None:
    vertical = np.array([[[5.0, 0.0], [5.0, 10.0]]])
    horizontal = np.array([[[0.0, 5.0], [10.0, 5.0]]])
    final = np.concatenate([vertical, horizontal])
    assert query_efficiency([vertical, horizontal], [True, True], final) == 1.0
    assert query_efficiency([vertical, None, horizontal, None], [True, False, True, False], final) == 0.5
    assert query_efficiency([vertical, horizontal], [True, False], final) == 0.5
    assert query_efficiency([vertical, horizontal], [True, True], vertical) == 0.5  # one crease was not kept
    pieces = np.array([[[5.0, 0.0], [5.0, 5.0]], [[5.0, 5.0], [5.0, 10.0]]])
    assert query_efficiency([vertical], [True], pieces) == 1.0  # split at a crossing, still there


# -- raster protocol -----------------------------------------------------------------------------------------
def test_silhouette_mask_fills_holes_and_keeps_the_largest_region() -> None:
    image = Image.new("RGB", (64, 64), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle([10, 10, 40, 40], fill="#7fa8d9")
    draw.rectangle([20, 20, 30, 30], fill="white")  # a hole
    draw.rectangle([50, 50, 55, 55], fill="#7fa8d9")  # a smaller island
    draw.point((2, 60), fill=(252, 252, 252))  # grey 252: background
    mask = silhouette_mask(image)
    assert mask.sum() == 31 * 31 and mask[25, 25] and not mask[52, 52]


def test_raster_gs_agrees_with_exact_gs_on_folded_forms() -> None:
    book = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])
    diagonal = simple_fold_target("diagonal", [((0.0, 0.0), (1.0, 1.0))])
    window = episode_window(book.aligned, diagonal.aligned)
    raster = raster_geometric_similarity(folded_image(book.aligned, "front", 512, window),
                                         folded_image(diagonal.aligned, "front", 512, window))
    exact = geometric_similarity(silhouette_of(book.aligned), silhouette_of(diagonal.aligned))
    assert raster == pytest.approx(exact, abs=0.02)
    same = folded_image(book.aligned, "front", 512, window)
    assert raster_geometric_similarity(same, same) == 1.0


# -- SS (shape descriptor) -----------------------------------------------------------------------------------
def test_ss_is_one_for_identical_pictures_and_zero_for_empty() -> None:
    assert semantic_similarity(picture(SQUARE), picture(SQUARE)) == pytest.approx(1.0)
    blank = Image.new("RGB", (256, 256), "white")
    assert semantic_similarity(blank, picture(SQUARE)) == 0.0


@pytest.mark.parametrize("moved", [
    dict(angle=0.7), dict(scale=0.6, shift=(20.0, -15.0)), dict(mirror=True), dict(angle=np.pi / 2, scale=1.3),
])
def test_ss_is_invariant_to_similarity_moves(moved) -> None:
    assert semantic_similarity(picture(TRIANGLE), picture(TRIANGLE, **moved)) > 0.97


def test_ss_separates_different_shapes() -> None:
    same = semantic_similarity(picture(SQUARE), picture(SQUARE, angle=0.4))
    assert semantic_similarity(picture(SQUARE), picture(TRIANGLE)) < same - 0.05
    assert semantic_similarity(picture(SQUARE), picture(STRIP)) < same - 0.2
    assert semantic_similarity(picture(TRIANGLE), picture(STRIP)) < same - 0.2
