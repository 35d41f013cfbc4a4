"""The audit's colour histogram counts a picture of few colours colour by colour: the counts must be exactly the
pixel-by-pixel ones, for drawings and photographs alike."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from foldbench.harness.audit import FEW_COLOURS, HISTOGRAM_LEVELS, _colour_counts

BINS = HISTOGRAM_LEVELS**3


def _pixel_by_pixel(rgb: Image.Image) -> np.ndarray:
    counts = np.zeros(BINS, dtype=np.float32)
    for r, g, b in np.asarray(rgb).reshape(-1, 3).tolist():
        level = [channel * HISTOGRAM_LEVELS // 256 for channel in (r, g, b)]
        counts[(level[0] * HISTOGRAM_LEVELS + level[1]) * HISTOGRAM_LEVELS + level[2]] += 1
    return counts


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 2 * FEW_COLOURS), st.integers(0, 2**32 - 1))
def test_colour_counts_are_the_pixel_by_pixel_counts(width: int, height: int, colours: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    palette = rng.integers(0, 256, size=(colours, 3), dtype=np.uint8)
    pixels = palette[rng.integers(0, colours, size=(height, width))]
    picture = Image.fromarray(pixels, "RGB")
    counts = _colour_counts(picture, BINS)
    assert counts.dtype == np.float32
    assert np.array_equal(counts, _pixel_by_pixel(picture))


def test_a_picture_of_many_colours_is_counted_too() -> None:
    values = np.random.default_rng(7).integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
    picture = Image.fromarray(values, "RGB")
    assert len(picture.getcolors(64 * 64) or ()) > FEW_COLOURS  # the pixel path, not the colour path
    assert np.array_equal(_colour_counts(picture, BINS), _pixel_by_pixel(picture))
    assert _colour_counts(picture, BINS).sum() == 64 * 64
