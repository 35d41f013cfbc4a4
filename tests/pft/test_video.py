"""Tests of the 3D folding animation (video encoding) of the paper folding test."""

from __future__ import annotations

import functools
import itertools
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import MissingDependencyError
from foldbench.pft.actions import Action, parse_actions
from foldbench.pft.encoders import video
from foldbench.pft.encoders._video_scene import MATERIAL_VERTICES, material_hole_outlines, state_poses
from foldbench.pft.encoders.image import InvalidImageSizeError, png_bytes
from foldbench.pft.encoders.shapes import hole_center, hole_outline
from foldbench.pft.enumeration import configurations
from foldbench.pft.grid import NUM_POSITIONS, triangle_vertices
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.simulate import Solution, solve

SIZE = 128
#: Short animations keep the tests fast: 6 frames per action, 3 punch frames, no holds beyond the first frame.
FAST = video.VideoTiming(
    fold_seconds=0.25, rotation_seconds=0.25, punch_seconds=0.125, hold_seconds=0.0, end_hold_seconds=0.0
)
FPS = 24
ACTION_FRAMES = 6
PUNCH_FRAMES = 3
#: Smooth animations (24 frames per action) for checking where an animation ends.
SMOOTH = video.VideoTiming(
    fold_seconds=1.0, rotation_seconds=1.0, punch_seconds=0.125, hold_seconds=0.0, end_hold_seconds=0.0
)
SMOOTH_FRAMES = 24

# A spread of valid configurations from every group (every 53rd of each), rotations and -B folds included.
@functools.cache
def _sample() -> list[tuple]:
    """Enumerated when first drawn from, not while the tests are collected."""
    return [
        actions
        for group in range(1, 10)
        for actions in itertools.islice(configurations(group), 0, None, 53 if group > 2 else 5)
    ][::7]


SAMPLE = st.deferred(lambda: st.sampled_from(_sample()))


def _pixel(frame: np.ndarray, point: tuple[float, float]) -> np.ndarray:
    x, y = point
    return frame[int(y), int(x)].astype(int)


def _is_background(color: np.ndarray) -> bool:
    return bool(np.abs(color - np.array(video.BACKGROUND_COLOR)).max() < 12)


def _is_back(color: np.ndarray) -> bool:
    """The paper's back (light blue): blue well above red."""
    return bool(color[2] - color[0] > 40)


def _is_front(color: np.ndarray) -> bool:
    """The paper's front (warm white): bright, red at least as strong as blue."""
    return bool(color[0] >= color[2] and color.min() > 120)


def _is_hole(color: np.ndarray) -> bool:
    return bool(color.max() < 40)


def _centroid_pixels(size: int = SIZE) -> list[tuple[float, float]]:
    centroids = [hole_center(position + 1) for position in range(NUM_POSITIONS)]
    return video.project_points([(x, y, 0.0) for x, y in centroids], size=size)


def _back_pixel_count(frame: np.ndarray) -> int:
    signed = frame.astype(int)
    return int(np.count_nonzero(signed[:, :, 2] - signed[:, :, 0] > 40))


def _silhouette_change(frame: np.ndarray, other: np.ndarray) -> float:
    """The fraction of pixels that are paper in one frame and background in the other."""

    def paper(image: np.ndarray) -> np.ndarray:
        return np.abs(image.astype(int) - np.array(video.BACKGROUND_COLOR)).max(axis=2) >= 12

    return float(np.mean(paper(frame) != paper(other)))


def _solution_with_holes(actions: tuple[Action, ...] | list[Action], shapes: tuple[str, ...] = ("circle",)) -> Solution:
    occupied = solve(actions, []).folded.occupied()
    chosen = occupied[:: max(1, len(occupied) // len(shapes))][: len(shapes)]
    return solve(actions, [Hole(Shape(shape), Size.LARGE, 90, p + 1) for shape, p in zip(shapes, chosen, strict=True)])


def test_frames_are_rgb_uint8_of_the_chosen_size_and_count() -> None:
    solution = _solution_with_holes(parse_actions("H1-F R90 V2-B"))
    frames = list(video.folding_frames(solution, size=SIZE, fps=FPS, timing=FAST))
    assert len(frames) == 1 + 3 * ACTION_FRAMES + PUNCH_FRAMES
    assert all(frame.shape == (SIZE, SIZE, 3) and frame.dtype == np.uint8 for frame in frames)
    default = list(video.folding_frames(solve(parse_actions("H1-F"), []), size=SIZE))
    # Defaults at 24 fps: 12 start frames, 18 fold + 6 hold, 12 punch, 12 end frames.
    assert len(default) == 12 + 18 + 6 + 12 + 12


def test_rendering_is_deterministic() -> None:
    solution = _solution_with_holes(parse_actions("D2-B R180 H1-F R90"), ("star", "letter"))
    first = list(video.folding_frames(solution, size=SIZE, timing=FAST))
    second = list(video.folding_frames(solution, size=SIZE, timing=FAST))
    assert len(first) == len(second)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    keys_a = [png_bytes(image) for image in video.key_frames(solution, size=SIZE)]
    keys_b = [png_bytes(image) for image in video.key_frames(solution, size=SIZE)]
    assert keys_a == keys_b


def test_first_frame_shows_the_flat_sheet_front_up() -> None:
    solution = solve(parse_actions("V1-B"), [])
    first = next(iter(video.folding_frames(solution, size=SIZE, timing=FAST)))
    for point in _centroid_pixels():
        assert _is_front(_pixel(first, point))
    corners = [(1, 1), (SIZE - 2, 1), (1, SIZE - 2), (SIZE - 2, SIZE - 2)]
    assert all(_is_background(first[y, x].astype(int)) for x, y in corners)


@settings(max_examples=25, deadline=None)
@given(SAMPLE)
def test_key_frames_match_the_engine_silhouette_and_visible_side(actions: tuple[Action, ...]) -> None:
    solution = solve(actions, [])
    keys = video.key_frames(solution, size=SIZE)
    assert len(keys) == len(actions) + 2
    points = _centroid_pixels()
    for state, image in zip(solution.states, keys, strict=False):
        frame = np.asarray(image)
        for position, point in enumerate(points):
            color = _pixel(frame, point)
            stack = state.stacks[position]
            if not stack:
                assert _is_background(color), (position, color)
            elif state.facing_back(stack[-1]):
                assert _is_back(color), (position, color)
            else:
                assert _is_front(color), (position, color)


@settings(max_examples=25, deadline=None)
@given(SAMPLE)
def test_rest_poses_put_every_triangle_on_its_engine_position(actions: tuple[Action, ...]) -> None:
    solution = solve(actions, [])
    for state, poses in zip(solution.states, state_poses(solution), strict=True):
        where = state.positions()
        for triangle in range(NUM_POSITIONS):
            linear = poses.rotations[triangle, :2, :2]
            placed = MATERIAL_VERTICES[triangle] @ linear.T + poses.translations[triangle, :2]
            assert {tuple(v) for v in placed.round(9).tolist()} == {
                (float(x), float(y)) for x, y in triangle_vertices(where[triangle])
            }
            assert (np.linalg.det(linear) < 0) == state.facing_back(triangle)
            assert poses.rotations[triangle, 2, 2] == np.linalg.det(linear)  # a proper rotation in 3D


def test_a_front_fold_shows_the_back_of_its_flap_and_a_back_fold_hides_it() -> None:
    front = video.key_frames(solve(parse_actions("H1-F"), []), size=SIZE)
    back = video.key_frames(solve(parse_actions("H1-B"), []), size=SIZE)
    assert _back_pixel_count(np.asarray(front[0])) == 0
    assert _back_pixel_count(np.asarray(front[1])) > 0.15 * SIZE * SIZE
    assert _back_pixel_count(np.asarray(back[1])) < 0.002 * SIZE * SIZE  # at most a sliver of its edge


def test_mid_fold_frames_differ_between_toward_and_away() -> None:
    def fold_frames(code: str) -> list[np.ndarray]:
        frames = list(video.folding_frames(solve(parse_actions(code), []), size=SIZE, timing=FAST))
        return frames[1 : 1 + ACTION_FRAMES]

    toward, away = fold_frames("V2-F"), fold_frames("V2-B")
    for index in (1, 2, 3, 4):
        assert not np.array_equal(toward[index], away[index])
    # Past 90 degrees the -F flap lies in front of the sheet showing its back; the -B flap is behind the sheet,
    # all but a sliver hidden (the camera looks from slightly above and to the right).
    assert _back_pixel_count(toward[4]) > 0.05 * SIZE * SIZE
    assert _back_pixel_count(away[4]) < 0.05 * _back_pixel_count(toward[4])
    assert np.array_equal(toward[-1], np.asarray(video.key_frames(solve(parse_actions("V2-F"), []), size=SIZE)[1]))


@pytest.mark.parametrize("codes", ["D1-F R90", "H2-B R270", "V1-F R180"])
def test_rotation_animation_ends_on_the_rotated_state_without_a_jump(codes: str) -> None:
    solution = solve(parse_actions(codes), [])
    frames = list(video.folding_frames(solution, size=SIZE, timing=SMOOTH))
    rotation = frames[1 + SMOOTH_FRAMES : 1 + 2 * SMOOTH_FRAMES]
    static = np.asarray(video.key_frames(solution, size=SIZE)[2])
    assert np.array_equal(rotation[-1], static)
    assert not np.array_equal(rotation[SMOOTH_FRAMES // 2], static)
    # The turn ends where the engine puts the paper (counter-clockwise): no jump in the silhouette at the end.
    assert _silhouette_change(rotation[-2], static) < 0.02


@pytest.mark.parametrize("codes", ["H1-F", "D3-B", "V1-F H2-F D2-B"])
def test_fold_animation_ends_on_the_folded_state_without_a_jump(codes: str) -> None:
    solution = solve(parse_actions(codes), [])
    frames = list(video.folding_frames(solution, size=SIZE, timing=SMOOTH))
    keys = video.key_frames(solution, size=SIZE)
    for index in range(len(solution.actions)):
        last = frames[(index + 1) * SMOOTH_FRAMES]
        before_last = frames[(index + 1) * SMOOTH_FRAMES - 1]
        static = np.asarray(keys[index + 1])
        assert np.array_equal(last, static)
        assert _silhouette_change(before_last, static) < 0.02


def test_holes_appear_at_the_punched_locations_after_the_punch() -> None:
    solution = _solution_with_holes(parse_actions("D4-F H1-F"), ("circle", "star"))
    keys = video.key_frames(solution, size=SIZE)
    before, after = np.asarray(keys[-2]), np.asarray(keys[-1])
    points = _centroid_pixels()
    punched = {hole.location - 1 for hole in solution.initial_holes}
    for position, point in enumerate(points):
        assert not _is_hole(_pixel(before, point))
        assert _is_hole(_pixel(after, point)) == (position in punched), position
    frames = list(video.folding_frames(solution, size=SIZE, timing=FAST))
    assert np.array_equal(frames[-1], after)
    fading = frames[-PUNCH_FRAMES]  # the first punch frame: holes part-way in
    hole_point = points[solution.initial_holes[0].location - 1]
    assert 0 < _pixel(fading, hole_point).sum() < _pixel(before, hole_point).sum()


@pytest.mark.parametrize("codes", ["H1-F V2-F", "D1-B R90 H2-F", "D2-F R180 V1-B R90 H1-F R270"])
def test_unfolding_follows_the_engine_steps_to_the_result_holes(codes: str) -> None:
    solution = _solution_with_holes(parse_actions(codes), ("circle", "star", "square"))
    frames = list(video.unfolding_frames(solution, size=SIZE, fps=FPS, timing=FAST))
    steps = solution.unfolding_steps()
    assert len(frames) == 1 + (len(steps) - 1) * ACTION_FRAMES + 1
    assert np.array_equal(frames[0], np.asarray(video.key_frames(solution, size=SIZE)[-1]))
    points = _centroid_pixels()
    for index, step in enumerate(steps):
        frame = frames[index * ACTION_FRAMES]  # where unfolding step `index` ends (0: the punched paper)
        holes = {hole.location - 1 for hole in step.holes}
        for position, point in enumerate(points):
            color = _pixel(frame, point)
            stack = step.paper.stacks[position]
            if not stack:
                assert _is_background(color), (index, position)
            elif position in holes:
                assert _is_hole(color), (index, position)
            elif step.paper.facing_back(stack[-1]):
                assert _is_back(color), (index, position)
            else:
                assert _is_front(color), (index, position)
    assert {hole.location for hole in steps[-1].holes} == {hole.location for hole in solution.result_holes}
    assert np.array_equal(frames[-1], frames[-2])


@pytest.mark.parametrize("codes", ["V2-F", "D3-F R90 H1-B", "D1-B R270 V2-F R90 H2-B R180"])
def test_hole_marks_pulled_back_to_the_sheet_are_the_result_holes(codes: str) -> None:
    solution = _solution_with_holes(parse_actions(codes), ("triangle", "letter", "trapezoid"))
    turn = np.array(solution.folded.rotation)
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[int(turn)]
    matrix = np.array([[cos, sin], [-sin, cos]])
    drawn = {
        frozenset(tuple(p) for p in ((polygon - 2.0) @ matrix.T + 2.0).round(6).tolist())
        for outlines in material_hole_outlines(solution)
        for polygon in outlines
    }
    expected = {
        frozenset(tuple(p) for p in np.array(polygon).round(6).tolist())
        for hole in solution.result_holes
        for polygon in hole_outline(hole.shape, hole.size, hole.direction, hole_center(hole.location), 1.0)
    }
    assert drawn == expected


def test_write_mp4_writes_every_frame(tmp_path) -> None:  # type: ignore[no-untyped-def]
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    solution = _solution_with_holes(parse_actions("H2-F R90"))
    frames = list(video.folding_frames(solution, size=SIZE, fps=FPS, timing=FAST))
    path = tmp_path / "folding.mp4"
    assert video.write_mp4(frames, path, fps=FPS) == len(frames)
    assert path.stat().st_size > 1000
    count, seconds = imageio_ffmpeg.count_frames_and_secs(str(path))
    assert count == len(frames)
    assert seconds == pytest.approx(len(frames) / FPS, abs=1.5 / FPS)


def test_write_mp4_leaves_no_file_when_a_frame_is_bad(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("imageio_ffmpeg")
    frames = [np.zeros((SIZE, SIZE, 3), dtype=np.uint8), np.zeros((SIZE, SIZE + 2, 3), dtype=np.uint8)]
    with pytest.raises(video.InvalidVideoSettingsError, match="frame 1"):
        video.write_mp4(frames, tmp_path / "bad.mp4")
    assert not (tmp_path / "bad.mp4").exists()


def test_render_item_video_writes_the_video_and_key_frames(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("imageio_ffmpeg")
    solution = _solution_with_holes(parse_actions("V1-B H2-F"))
    paths = video.render_item_video(solution, tmp_path / "item", size=SIZE, timing=FAST, unfolding=True)
    keys = video.key_frames(solution, size=SIZE)
    assert paths["video"] == "folding.mp4" and paths["unfolding_video"] == "unfolding.mp4"
    assert len(paths["key_frames"]) == len(keys) == 4
    for name, image in zip(paths["key_frames"], keys, strict=True):
        assert (tmp_path / "item" / name).read_bytes() == png_bytes(image)
    assert (tmp_path / "item" / "folding.mp4").stat().st_size > 0
    assert (tmp_path / "item" / "unfolding.mp4").stat().st_size > 0


def test_batch_reports_and_skips_invalid_items(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("imageio_ffmpeg")
    items = [
        ("bad-rules", parse_actions("H1-F H2-F H1-F"), []),  # three horizontal folds
        ("bad-geometry", parse_actions("V1-F V1-F V1-F"), []),
        ("no-paper", parse_actions("H1-F"), [Hole(Shape.CIRCLE, Size.SMALL, 0, 1)]),  # top half folded away
        ("../escape", parse_actions("H1-F"), []),
        ("good", parse_actions("H1-F"), [Hole(Shape.CIRCLE, Size.SMALL, 0, 26)]),
    ]
    report = video.render_video_batch(items, tmp_path, size=SIZE, timing=FAST)
    assert set(report.written) == {"good"}
    assert set(report.skipped) == {"bad-rules", "bad-geometry", "no-paper", "../escape"}
    assert "location 1" in report.skipped["no-paper"]
    assert (tmp_path / "good" / "folding.mp4").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good"]


def test_missing_encoder_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    frames = [np.zeros((SIZE, SIZE, 3), dtype=np.uint8)]
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[video\]'"):
        video.write_mp4(frames, tmp_path / "x.mp4")
    assert not (tmp_path / "x.mp4").exists()


@pytest.mark.parametrize("size", [63, 65, 0, True, 128.0])
def test_bad_sizes_are_rejected(size: object) -> None:
    with pytest.raises(InvalidImageSizeError):
        video.key_frames(solve([], []), size=size)  # type: ignore[arg-type]


@pytest.mark.parametrize("fps", [0, -3, 2.5])
def test_bad_frame_rates_are_rejected(fps: object) -> None:
    with pytest.raises(video.InvalidVideoSettingsError):
        video.folding_frames(solve([], []), size=SIZE, fps=fps)  # type: ignore[arg-type]
    with pytest.raises(video.InvalidVideoSettingsError):
        video.VideoTiming(fold_seconds=-1.0)
