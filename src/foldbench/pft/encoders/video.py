"""The video encoding of the paper folding test: a 3D animation of the sheet being folded, turned and punched.

The sheet's 32 triangles are drawn in 3D by a small numpy rasteriser with a depth buffer
(:mod:`foldbench.pft.encoders._raster`), seen by a fixed perspective camera slightly above the sheet's centre, on
a dark background. The paper's front is warm white and its back light blue, both lit by one light, so a flap in
motion and a flap turned over both read at a glance; thin darker lines mark every triangle's edges, and holes
are black marks through every layer. No text is drawn.

:func:`folding_frames` shows the flat sheet, then each action in turn (a fold turns its flap about the crease,
toward the camera for ``-F`` and away from it, behind the sheet, for ``-B``; a rotation turns the whole paper in
its plane), then the holes appearing. :func:`unfolding_frames` starts from the punched paper and undoes the
folds as the engine's unfolding defines them, rotations kept, ending on the flat sheet with every result hole.
:func:`key_frames` gives the still after each completed step (as the video-frame prompt uses), identical to the
video frame where that step ends.

Frames are the contract: the same solution, size and timing give identical frame arrays and identical PNG key
frames (no randomness; on another machine, a numpy built on a different BLAS could move a boundary pixel). MP4
files are encoded by the ffmpeg binary shipped with ``imageio-ffmpeg`` (libx264 ``veryfast``, CRF 20, yuv420p,
one thread, bit-exact flags); their bytes may differ between ffmpeg builds.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from foldbench.errors import InvalidHoleError, InvalidSequenceError, MissingDependencyError, UsageError
from foldbench.pft.actions import Action, Rotation
from foldbench.pft.encoders import _raster
from foldbench.pft.encoders._video_scene import (
    MATERIAL_VERTICES,
    SheetPoses,
    edge_shade,
    fold_motion,
    hole_coverage,
    rotation_motion,
    state_poses,
    turned_poses,
)
from foldbench.pft.encoders.image import InvalidImageSizeError, png_bytes
from foldbench.pft.holes import Hole
from foldbench.pft.rules import check_sequence
from foldbench.pft.simulate import Solution, solve

__all__ = [
    "BACKGROUND_COLOR",
    "BACK_COLOR",
    "DEFAULT_TIMING",
    "FRONT_COLOR",
    "InvalidVideoSettingsError",
    "VideoBatchReport",
    "VideoTiming",
    "folding_frames",
    "key_frames",
    "project_points",
    "render_item_video",
    "render_video_batch",
    "unfolding_frames",
    "write_mp4",
]

Frame = NDArray[np.uint8]
Color = tuple[int, int, int]

FRONT_COLOR: Color = (250, 244, 228)
BACK_COLOR: Color = (150, 192, 238)
BACKGROUND_COLOR: Color = (38, 40, 48)
#: How much the edge lines darken the paper (0 = invisible, 1 = black).
EDGE_INK = 0.45
#: Edge line width in pixels at 512×512 (scaled with the frame size, at least one pixel).
EDGE_WIDTH_PIXELS = 1.6

_MIN_SIZE = 64


class InvalidVideoSettingsError(UsageError, ValueError):
    """A frame rate or timing that cannot make a video (not positive, or not a number)."""


@dataclass(frozen=True, slots=True)
class VideoTiming:
    """How long each part of the animation lasts, in seconds (frame counts follow from the frame rate):
    each fold, each rotation, the holes fading in, the still after each action, the still at start and end."""

    fold_seconds: float = 0.75
    rotation_seconds: float = 0.75
    punch_seconds: float = 0.5
    hold_seconds: float = 0.25
    end_hold_seconds: float = 0.5

    def __post_init__(self) -> None:
        for name in ("fold_seconds", "rotation_seconds", "punch_seconds", "hold_seconds", "end_hold_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise InvalidVideoSettingsError(f"video timing: {name} must be a number >= 0, got {value!r}")

    def frames(self, seconds: float, fps: int, *, at_least: int = 0) -> int:
        """The number of frames ``seconds`` last at ``fps`` (rounded, never fewer than ``at_least``)."""
        return max(at_least, round(seconds * fps))


DEFAULT_TIMING = VideoTiming()


def _check_settings(size: int, fps: int | None = None) -> None:
    if isinstance(size, bool) or not isinstance(size, int) or size < _MIN_SIZE or size % 2:
        raise InvalidImageSizeError(
            f"video frame size must be an even integer of at least {_MIN_SIZE} pixels, got {size!r}"
        )
    if fps is not None and (isinstance(fps, bool) or not isinstance(fps, int) or fps < 1):
        raise InvalidVideoSettingsError(f"video frame rate must be a positive integer, got {fps!r}")


@dataclass
class _Scene:
    """One solution's render context: camera, rest poses, and the material textures (cached by hole opacity)."""

    solution: Solution
    size: int
    camera: _raster.Camera = field(init=False)
    states: list[SheetPoses] = field(init=False)
    texels_per_unit: int = field(init=False)
    _edges: NDArray[np.float32] = field(init=False)
    _holes: NDArray[np.float32] | None = field(init=False, default=None)
    _textures: dict[float, NDArray[np.uint8]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.camera = _raster.camera_for(self.size)
        self.states = state_poses(self.solution)
        pixels_per_unit = self.camera.focal / _raster.CAMERA_DISTANCE
        self.texels_per_unit = max(16, round(1.4 * pixels_per_unit))
        line_pixels = max(1.0, EDGE_WIDTH_PIXELS * self.size / 512)
        self._edges = edge_shade(self.texels_per_unit, line_pixels / pixels_per_unit, EDGE_INK)

    def texture(self, hole_opacity: float) -> NDArray[np.uint8]:
        """The material texture as shade levels 0..255, holes at ``hole_opacity`` (0 = not punched yet)."""
        if hole_opacity not in self._textures:
            shade = self._edges
            if hole_opacity > 0.0:
                if self._holes is None:
                    self._holes = hole_coverage(self.solution, self.texels_per_unit)
                shade = shade * (1.0 - np.float32(hole_opacity) * self._holes)
            self._textures[hole_opacity] = np.floor(shade * 255.0 + 0.5).astype(np.uint8)
        return self._textures[hole_opacity]

    def frame(self, poses: SheetPoses, hole_opacity: float = 0.0) -> Frame:
        colors, _ = _raster.shade_colors(
            poses.rotations, poses.translations, self.camera, FRONT_COLOR, BACK_COLOR
        )
        ids, depth, pixel_to_material = _raster.rasterize(
            poses.rotations, poses.translations, MATERIAL_VERTICES, self.camera
        )
        frame = _raster.compose_frame(
            ids,
            depth,
            pixel_to_material,
            _raster.color_table(colors),
            self.texture(hole_opacity),
            self.texels_per_unit,
            BACKGROUND_COLOR,
        )
        frame.flags.writeable = False
        return frame

    def stills(self) -> list[Frame]:
        """The flat sheet, the paper after each action, the punched paper."""
        return [self.frame(poses) for poses in self.states] + [self.frame(self.states[-1], 1.0)]


def _action_frames(
    scene: _Scene, index: int, count: int, *, reverse: bool = False, turn: int = 0, hole_opacity: float = 0.0
) -> Iterator[Frame]:
    """Frames of action ``index`` played forward (ending on the state after it) or backward (ending on the state
    before it), the whole paper turned ``turn`` degrees."""
    solution = scene.solution
    action = solution.actions[index]
    start, end = scene.states[index], scene.states[index + 1]
    for step in range(1, count + 1):
        progress = 1.0 - step / count if reverse else step / count
        if progress <= 0.0:
            poses = start
        elif isinstance(action, Rotation):
            poses = rotation_motion(start, end, action, progress)
        else:
            poses = fold_motion(start, end, solution.states[index], action, solution.flaps[index], progress)
        yield scene.frame(turned_poses(poses, turn), hole_opacity)


def folding_frames(
    solution: Solution, *, size: int = 512, fps: int = 24, timing: VideoTiming = DEFAULT_TIMING
) -> Iterator[Frame]:
    """The folding animation, frame by frame (``size × size × 3`` uint8, read-only arrays).

    The flat sheet, each action animated and then held, then the holes appearing on the folded paper.

    Raises:
        InvalidImageSizeError: when ``size`` is not an even integer of at least 64.
        InvalidVideoSettingsError: when ``fps`` is not a positive integer.
    """
    _check_settings(size, fps)
    return _folding_frames(_Scene(solution, size), fps, timing)


def _folding_frames(scene: _Scene, fps: int, timing: VideoTiming) -> Iterator[Frame]:
    start = timing.frames(timing.end_hold_seconds, fps, at_least=1)
    yield from itertools.repeat(scene.frame(scene.states[0]), start)
    for index, action in enumerate(scene.solution.actions):
        seconds = timing.rotation_seconds if isinstance(action, Rotation) else timing.fold_seconds
        for last in _action_frames(scene, index, timing.frames(seconds, fps, at_least=1)):
            yield last
        # The action's last frame is its rest state: hold it.
        yield from itertools.repeat(last, timing.frames(timing.hold_seconds, fps))
    punch = timing.frames(timing.punch_seconds, fps, at_least=1)
    for step in range(1, punch + 1):
        last = scene.frame(scene.states[-1], step / punch)
        yield last
    yield from itertools.repeat(last, timing.frames(timing.end_hold_seconds, fps))


def unfolding_frames(
    solution: Solution, *, size: int = 512, fps: int = 24, timing: VideoTiming = DEFAULT_TIMING
) -> Iterator[Frame]:
    """The unfolding animation: the punched paper, each of the engine's unfolding steps, the flat sheet with
    every result hole. Rotations are not undone: each fold is played backward on the paper as the later
    rotations left it, so the last frame shows the result holes where :attr:`Solution.result_holes` puts them.

    Raises:
        InvalidImageSizeError: when ``size`` is not an even integer of at least 64.
        InvalidVideoSettingsError: when ``fps`` is not a positive integer.
    """
    _check_settings(size, fps)
    return _unfolding_frames(_Scene(solution, size), fps, timing)


def _unfolding_frames(scene: _Scene, fps: int, timing: VideoTiming) -> Iterator[Frame]:
    solution = scene.solution
    end_hold = timing.frames(timing.end_hold_seconds, fps, at_least=1)
    last = scene.frame(scene.states[-1], 1.0)
    yield from itertools.repeat(last, end_hold)
    later_turn = 0
    for index in range(len(solution.actions) - 1, -1, -1):
        action = solution.actions[index]
        if isinstance(action, Rotation):
            later_turn += action.degrees
            continue
        count = timing.frames(timing.fold_seconds, fps, at_least=1)
        for last in _action_frames(scene, index, count, reverse=True, turn=later_turn, hole_opacity=1.0):
            yield last
        yield from itertools.repeat(last, timing.frames(timing.hold_seconds, fps))
    yield from itertools.repeat(last, end_hold)


def key_frames(solution: Solution, *, size: int = 512) -> list[Image.Image]:
    """The stills of the folding: the flat sheet, the paper after each action, and the punched paper.

    Each equals the video frame where that step ends (``len(actions) + 2`` RGB images).
    """
    _check_settings(size)
    return [Image.fromarray(frame, "RGB") for frame in _Scene(solution, size).stills()]


def project_points(
    points: Sequence[tuple[float, float, float]], *, size: int = 512
) -> list[tuple[float, float]]:
    """Where world points (sheet units: ``x`` right, ``y`` down, ``z`` toward the viewer) appear in a frame.

    >>> [abs(c - 256) < 16 for c in project_points([(2.0, 2.0, 0.0)], size=512)[0]]  # the sheet's centre
    [True, True]
    """
    _check_settings(size)
    pixels = _raster.camera_for(size).project(np.array(points, dtype=np.float64).reshape(-1, 3))
    return [(float(x), float(y)) for x, y in pixels]


_OUTPUT_PARAMETERS = [
    "-crf", "20", "-preset", "veryfast", "-threads", "1",
    "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1",
]  # fmt: skip


def write_mp4(frames: Iterable[Frame], path: str | Path, *, fps: int = 24) -> int:
    """Encode RGB frames (all the same even size) as an H.264 MP4 (yuv420p); returns the number of frames.

    Raises:
        MissingDependencyError: when ``imageio-ffmpeg`` (which ships the ffmpeg binary) is not installed.
        InvalidVideoSettingsError: for a bad frame rate, no frames, or frames of differing or odd sizes.
    """
    try:
        import imageio_ffmpeg  # type: ignore[import-untyped]
    except ImportError:
        raise MissingDependencyError("imageio-ffmpeg", "video", "the video encoder") from None
    if isinstance(fps, bool) or not isinstance(fps, int) or fps < 1:
        raise InvalidVideoSettingsError(f"video frame rate must be a positive integer, got {fps!r}")
    iterator = iter(frames)
    first = next(iterator, None)
    if first is None:
        raise InvalidVideoSettingsError(f"no frames to write to {path}")
    height, width = first.shape[:2]
    if first.ndim != 3 or first.shape[2] != 3 or height % 2 or width % 2:
        raise InvalidVideoSettingsError(f"frames must be H×W×3 with even sides, got {first.shape} for {path}")
    writer = imageio_ffmpeg.write_frames(
        str(path), (width, height), fps=fps, codec="libx264", pix_fmt_out="yuv420p", quality=None,
        macro_block_size=1, output_params=_OUTPUT_PARAMETERS,
    )  # fmt: skip
    writer.send(None)
    count = 0
    try:
        for frame in itertools.chain([first], iterator):
            if frame.shape != first.shape:
                raise InvalidVideoSettingsError(
                    f"frame {count} of {path} is {frame.shape}, the first frame was {first.shape}"
                )
            writer.send(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
            count += 1
    except BaseException:
        writer.close()
        Path(path).unlink(missing_ok=True)  # no half-written video is left behind
        raise
    writer.close()
    return count


def render_item_video(
    solution: Solution,
    directory: str | Path,
    *,
    size: int = 512,
    fps: int = 24,
    timing: VideoTiming = DEFAULT_TIMING,
    unfolding: bool = False,
) -> dict[str, str | list[str]]:
    """Write one item's ``folding.mp4`` and key frames ``key_00.png`` … (and ``unfolding.mp4`` if asked) into
    ``directory`` (created if needed); returns their paths relative to it: ``{"video", "key_frames"[,
    "unfolding_video"]}``."""
    _check_settings(size, fps)
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    scene = _Scene(solution, size)
    write_mp4(_folding_frames(scene, fps, timing), target / "folding.mp4", fps=fps)
    names = [f"key_{index:02d}.png" for index in range(len(solution.actions) + 2)]
    for name, frame in zip(names, scene.stills(), strict=True):
        (target / name).write_bytes(png_bytes(Image.fromarray(frame, "RGB")))
    paths: dict[str, str | list[str]] = {"video": "folding.mp4", "key_frames": names}
    if unfolding:
        write_mp4(_unfolding_frames(scene, fps, timing), target / "unfolding.mp4", fps=fps)
        paths["unfolding_video"] = "unfolding.mp4"
    return paths


@dataclass(frozen=True, slots=True)
class VideoBatchReport:
    """What a batch wrote (item id -> paths relative to the item's directory) and skipped (id -> reason)."""

    written: dict[str, dict[str, str | list[str]]]
    skipped: dict[str, str]


_ITEM_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def render_video_batch(
    items: Iterable[tuple[str, Sequence[Action], Sequence[Hole]]],
    directory: str | Path,
    *,
    size: int = 512,
    fps: int = 24,
    timing: VideoTiming = DEFAULT_TIMING,
    unfolding: bool = False,
    check_rules: bool = True,
) -> VideoBatchReport:
    """Render many items, each into ``directory/<item id>/``; an item whose id, sequence (the benchmark's
    rules when ``check_rules``, and the geometry) or holes are invalid is reported and skipped, the batch goes on.
    """
    _check_settings(size, fps)
    written: dict[str, dict[str, str | list[str]]] = {}
    skipped: dict[str, str] = {}
    for item_id, actions, holes in items:
        if not isinstance(item_id, str) or not _ITEM_ID.match(item_id) or item_id in written:
            skipped[str(item_id)] = f"item id {item_id!r} is not a unique file name (letters, digits, . _ -)"
            continue
        try:
            if check_rules:
                check_sequence(actions)
            solution = solve(actions, holes)
        except (InvalidSequenceError, InvalidHoleError) as error:
            skipped[item_id] = f"item {item_id}: {error}"
            continue
        written[item_id] = render_item_video(
            solution, Path(directory) / item_id, size=size, fps=fps, timing=timing, unfolding=unfolding
        )
    return VideoBatchReport(written, skipped)
