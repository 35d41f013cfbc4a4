"""The 2D image encoding: colours per position, holes where they belong, deterministic PNGs."""

from __future__ import annotations

import functools
import io
import itertools
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from foldbench.errors import FoldbenchError, InvalidHoleError
from foldbench.pft.actions import Action, parse_actions
from foldbench.pft.encoders.image import (
    png_bytes,
    reference_sheet,
    render_paper,
    render_result,
    render_steps,
    render_unfolding,
    sheet_layout,
)
from foldbench.pft.encoders.shapes import RADIUS_BY_SIZE
from foldbench.pft.enumeration import configurations
from foldbench.pft.grid import NUM_POSITIONS, triangle_vertices
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.paper import Paper
from foldbench.pft.simulate import solve

SIZE = 256

HAND_PICKED = [
    "H1-F",
    "V2-B",
    "D1-F",
    "D3-B R90",
    "H1-F V1-F",
    "H2-B R180 V2-F",
    "D2-F R270 H1-B",
    "H1-F V1-F H1-B V1-B",
]
@functools.cache
def _configurations() -> list[tuple[Action, ...]]:
    """Enumerated when first drawn from, not while the tests are collected."""
    return (
        [tuple(parse_actions(codes)) for codes in HAND_PICKED]
        + [config for group in (1, 2, 5, 6) for config in configurations(group)]
        + list(itertools.islice(configurations(9), 0, None, 997))
        + list(itertools.islice(configurations(4), 0, None, 499))
    )


configurations_strategy = st.deferred(lambda: st.sampled_from(_configurations()))


def rgb(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"), dtype=np.int16)


def centroid(position: int) -> tuple[float, float]:
    vertices = triangle_vertices(position)
    return sum(v[0] for v in vertices) / 3, sum(v[1] for v in vertices) / 3


def pixel_of(size: int, x: float, y: float) -> tuple[int, int]:
    """Row and column of the pixel under the sheet point ``(x, y)``."""
    px, py = sheet_layout(size).to_pixel(x, y)
    return int(py), int(px)


def sample_points(position: int) -> list[tuple[float, float]]:
    """The centroid and points halfway from it to each corner: all well inside the triangle."""
    cx, cy = centroid(position)
    return [(cx, cy)] + [((cx + vx) / 2, (cy + vy) / 2) for vx, vy in triangle_vertices(position)]


def is_white(color: np.ndarray) -> bool:
    return bool(np.all(color >= 240))


def is_black(color: np.ndarray) -> bool:
    return bool(np.all(color <= 15))


def green_mask(pixels: np.ndarray) -> np.ndarray:
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (g >= 120) & (r <= 80) & (b <= 80)


def assert_green_only_at(pixels: np.ndarray, size: int, holes: list[Hole]) -> None:
    """Each hole's centre is green, green surrounds it, and every green pixel is near some hole."""
    layout = sheet_layout(size)
    green = green_mask(pixels)
    rows, columns = np.nonzero(green)
    centres = []
    for hole in holes:
        cx, cy = centroid(hole.location - 1)
        px, py = layout.to_pixel(cx, cy)
        centres.append((px, py, RADIUS_BY_SIZE[hole.size] * layout.cell))
        assert green[int(py), int(px)], f"no green at the centre of {hole}"
    # every green pixel's centre against every hole at once (pixels along the first axis, holes along the second)
    px, py, reach = (np.array([centre[k] for centre in centres], float).reshape(1, -1) for k in range(3))
    distances = np.hypot(columns.reshape(-1, 1) + 0.5 - px, rows.reshape(-1, 1) + 0.5 - py)
    near = (distances <= reach + 1.5).any(axis=1)
    far = np.flatnonzero(~near)
    assert not far.size, f"green pixel at row {rows[far[0]]}, column {columns[far[0]]} is not near any hole of {holes}"


def test_the_flat_sheet_is_white_inside_and_framed() -> None:
    layout = sheet_layout(SIZE)
    pixels = rgb(render_paper(Paper.flat(), size=SIZE))
    assert pixels.shape == (SIZE, SIZE, 3)
    assert 0 < layout.margin < SIZE // 10 and layout.margin + 4 * layout.cell <= SIZE
    for position in range(NUM_POSITIONS):
        for point in sample_points(position):
            assert is_white(pixels[pixel_of(SIZE, *point)])
    corner = pixels[0, 0]
    assert not is_white(corner) and not is_black(corner) and not green_mask(pixels[:1, :1])[0, 0]
    # a gray edge runs along every cell border: the midpoint of the top edge of cell (1, 1)
    edge = pixels[pixel_of(SIZE, 1.5, 1.0)]
    assert not is_white(edge) and not is_black(edge)


@settings(max_examples=60, deadline=None)
@given(configurations_strategy)
def test_each_position_is_white_with_paper_and_black_without(actions: tuple[Action, ...]) -> None:
    solution = solve(actions, [])
    images = render_steps(solution, size=SIZE)
    assert len(images) == len(actions) + 2
    for state, image in zip(list(solution.states) + [solution.folded], images, strict=True):
        pixels = rgb(image)
        assert not green_mask(pixels).any()
        for position in range(NUM_POSITIONS):
            for point in sample_points(position):
                color = pixels[pixel_of(SIZE, *point)]
                if state.stacks[position]:
                    assert is_white(color), (actions, position, point)
                else:
                    assert is_black(color), (actions, position, point)


@settings(max_examples=60, deadline=None)
@given(configurations_strategy, st.data())
def test_holes_are_green_at_their_centroids_and_nowhere_else(actions: tuple[Action, ...], data: st.DataObject) -> None:
    occupied = solve(actions, []).folded.occupied()
    count = data.draw(st.integers(1, min(3, len(occupied))))
    positions = data.draw(st.lists(st.sampled_from(occupied), min_size=count, max_size=count, unique=True))
    holes = [
        Hole(
            data.draw(st.sampled_from(list(Shape))),
            data.draw(st.sampled_from(list(Size))),
            data.draw(st.sampled_from([0, 90, 180, 270])),
            position + 1,
        )
        for position in positions
    ]
    solution = solve(actions, holes)
    steps = render_steps(solution, size=SIZE)
    for image in steps[:-1]:
        assert not green_mask(rgb(image)).any()
    assert_green_only_at(rgb(steps[-1]), SIZE, holes)

    unfolding = render_unfolding(solution, size=SIZE)
    unfolding_steps = solution.unfolding_steps()
    assert len(unfolding) == len(unfolding_steps)
    for step, image in zip(unfolding_steps, unfolding, strict=True):
        assert_green_only_at(rgb(image), SIZE, list(step.holes))
    result = rgb(render_result(solution.result_holes, size=SIZE))
    assert_green_only_at(result, SIZE, list(solution.result_holes))
    assert np.array_equal(rgb(unfolding[-1]), result)  # the last unfolding step is the unfolded sheet


def test_large_holes_cover_about_three_times_the_pixels_of_small_ones() -> None:
    for shape in Shape:
        small = green_mask(rgb(render_result([Hole(shape, Size.SMALL, 0, 10)], size=512))).sum()
        large = green_mask(rgb(render_result([Hole(shape, Size.LARGE, 0, 10)], size=512))).sum()
        assert 2.3 <= large / small <= 4.0, (
            shape,
            small,
            large,
        )  # (1.75)² ≈ 3.06; edge pixels fatten thin parts


@pytest.mark.parametrize(("direction", "pointing"), [(0, "up"), (90, "left"), (180, "down"), (270, "right")])
def test_a_triangle_hole_points_counter_clockwise_from_up(direction: int, pointing: str) -> None:
    green = green_mask(rgb(render_result([Hole(Shape.TRIANGLE, Size.LARGE, direction, 14)], size=512)))
    rows, columns = np.nonzero(green)
    px, py = sheet_layout(512).to_pixel(*centroid(13))
    reach = {
        "up": py - rows.min(),
        "down": rows.max() + 1 - py,
        "left": px - columns.min(),
        "right": columns.max() + 1 - px,
    }
    assert max(reach, key=lambda side: reach[side]) == pointing, reach


def test_different_directions_give_different_pixels() -> None:
    pictures = {
        d: png_bytes(render_result([Hole(Shape.TRIANGLE, Size.SMALL, d, 7)], size=SIZE)) for d in (0, 90, 180, 270)
    }
    assert len(set(pictures.values())) == 4
    ellipses = {d: rgb(render_result([Hole(Shape.ELLIPSE, Size.LARGE, d, 7)], size=SIZE)).tobytes() for d in (0, 90)}
    assert ellipses[0] != ellipses[90]


def png_chunk_types(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    types, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        chunk_type = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(chunk_type + body)
        types.append(chunk_type)
        offset += 12 + length
    return types


def test_same_input_gives_the_same_png_bytes() -> None:
    actions = parse_actions("D1-F R90 H2-B")
    holes = [Hole(Shape.STAR, Size.LARGE, 90, solve(actions, []).folded.occupied()[0] + 1)]
    first = [png_bytes(image) for image in render_steps(solve(actions, holes), size=SIZE)]
    second = [png_bytes(image) for image in render_steps(solve(parse_actions("D1-F R90 H2-B"), list(holes)), size=SIZE)]
    assert first == second
    for data, image in zip(first, render_steps(solve(actions, holes), size=SIZE), strict=True):
        assert set(png_chunk_types(data)) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS"}
        decoded = Image.open(io.BytesIO(data))
        assert np.array_equal(rgb(decoded), rgb(image))  # lossless


def test_reference_sheet_is_deterministic_and_distinct_per_location() -> None:
    first = reference_sheet(size=512)
    first.putpixel((0, 0), (255, 0, 0))  # a returned picture is the caller's to change
    second = reference_sheet(size=512)
    assert png_bytes(second) == png_bytes(reference_sheet(size=512))
    assert second.getpixel((0, 0)) != (255, 0, 0)

    pixels = rgb(second)
    layout = sheet_layout(512)
    half = int(0.15 * layout.cell)
    crops = []
    for position in range(NUM_POSITIONS):
        row, column = pixel_of(512, *centroid(position))
        crop = pixels[row - half : row + half, column - half : column + half]
        dark = np.all(crop <= 100, axis=-1).sum()
        assert dark >= 20, f"no number written at location {position + 1}"
        crops.append(crop.tobytes())
    assert len(set(crops)) == NUM_POSITIONS
    # away from the numbers the sheet is the plain flat sheet
    flat = rgb(render_paper(Paper.flat(), size=512))
    assert np.array_equal(pixels[:, :10], flat[:, :10])


def test_a_hole_without_paper_under_it_is_refused() -> None:
    folded = solve(parse_actions("H1-F"), []).folded
    with pytest.raises(InvalidHoleError, match="location 1"):
        render_paper(folded, [Hole(Shape.CIRCLE, Size.SMALL, 0, 1)])


@pytest.mark.parametrize("size", [0, 63, -512, 256.0, "512", True])
def test_a_bad_picture_size_is_a_typed_error(size: object) -> None:
    render_paper(Paper.flat(), size=256)  # a valid size cached first must not let 256.0 through
    with pytest.raises(FoldbenchError, match="picture size"):
        render_paper(Paper.flat(), size=size)  # type: ignore[arg-type]
    with pytest.raises(FoldbenchError, match="picture size"):
        reference_sheet(size=size)  # type: ignore[arg-type]
