from __future__ import annotations

import numpy as np

from foldbench.crease import render
from foldbench.crease.compiler import compile_crease_pattern

from .builders import square_with


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_crease_pattern_colours() -> None:
    pattern = square_with([((0.5, 0), (0.5, 1), "M"), ((0, 0.5), (0.5, 0.5), "V")])
    svg = render.crease_pattern_svg(pattern, 128)
    assert render.ASSIGNMENT_COLOURS["M"] in svg and render.ASSIGNMENT_COLOURS["V"] in svg
    image = np.asarray(render.crease_pattern_png(pattern, 128))
    assert image.shape == (128, 128, 3)
    assert (image == _rgb(render.ASSIGNMENT_COLOURS["M"])).all(axis=2).any()


def test_folded_half_shows_the_back_from_the_front_after_a_valley() -> None:
    compiled = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "V")]))
    front = np.asarray(render.folded_state_png(compiled, side="front", size=64))
    back = np.asarray(render.folded_state_png(compiled, side="back", size=64))
    # valley: the moving half comes up and shows its back on top; from below one sees the half that stayed,
    # from its back side
    front_back_pixels = (front == _rgb(render.BACK_COLOUR)).all(axis=2).sum()
    back_back_pixels = (back == _rgb(render.BACK_COLOUR)).all(axis=2).sum()
    assert front_back_pixels > 0.3 * 64 * 64 * 0.5
    assert back_back_pixels > 0.3 * 64 * 64 * 0.5
    assert (front == _rgb(render.FRONT_COLOUR)).all(axis=2).sum() == 0
    mountain = compile_crease_pattern(square_with([((0.5, 0), (0.5, 1), "M")]))
    seen = np.asarray(render.folded_state_png(mountain, side="front", size=64))
    assert (seen == _rgb(render.FRONT_COLOUR)).all(axis=2).sum() > 0.3 * 64 * 64 * 0.5
    assert "<polygon" in render.folded_state_svg(compiled, size=64)
