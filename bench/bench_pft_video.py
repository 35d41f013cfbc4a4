"""Throughput of the paper folding test's 3D video encoder: frames per second and seconds per item, one core.

Run: ``.venv/bin/python bench/bench_pft_video.py [--size 512] [--fps 24] [--runs 3] [--items 3]``.

The process (and the ffmpeg encoder it starts) is pinned to one CPU core, and figures are CPU seconds of this
process and its encoder children, so other work on a shared machine does not inflate them (wall-clock figures are
printed beside). Each figure is the median over the runs (fastest and slowest beside it):

* render: folding-animation frames drawn per second for six-action items of Table 8 group 9 (FRFRFR), counting
  every frame of the video and, separately, only the frames that are drawn (held stills are drawn once);
* item: seconds per six-action item for the whole job of :func:`render_item_video` (draw, H.264-encode the MP4,
  write the PNG key frames);
* projection: 900 six-action items (the worst case) and the paper's video set (100 items from each of the nine
  groups, timed on one item per group) on two cores, one item per core at a time.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse
import itertools
import statistics
import tempfile
import time
from pathlib import Path

from foldbench.pft.actions import Action, Rotation
from foldbench.pft.encoders.video import folding_frames, render_item_video
from foldbench.pft.enumeration import configurations
from foldbench.pft.holes import ROTATION_FREE_SHAPES, Hole, Shape, Size
from foldbench.pft.simulate import Solution, solve

_SHAPES = [shape for shape in Shape if shape not in ROTATION_FREE_SHAPES]


def item(actions: tuple[Action, ...], index: int) -> Solution:
    """A configuration with one to three holes on its folded paper, chosen deterministically from ``index``."""
    occupied = solve(actions, []).folded.occupied()
    count = 1 + index % min(3, len(occupied))
    positions = occupied[:: max(1, len(occupied) // count)][:count]
    holes = [
        Hole(_SHAPES[(index + k) % len(_SHAPES)], list(Size)[k % 2], 90 * ((index + k) % 4), position + 1)
        for k, position in enumerate(positions)
    ]
    return solve(actions, holes)


def six_action_items(count: int) -> list[Solution]:
    """``count`` group-9 configurations spread over the group (every 1,009th), with holes."""
    chosen = itertools.islice(configurations(9), 0, None, 1009)
    return [item(actions, index) for index, actions in enumerate(itertools.islice(chosen, count))]


def one_item_per_group() -> list[Solution]:
    """The 123rd configuration of each group (or its last, for small groups)."""
    solutions = []
    for group in range(1, 10):
        chosen = list(itertools.islice(configurations(group), 124))[-1]
        solutions.append(item(chosen, group))
    return solutions


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (the ffmpeg encoders)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def render_rate(solutions: list[Solution], size: int, fps: int) -> tuple[float, float, float, int]:
    """Frames per CPU second over all video frames and over drawn frames only, frames per wall-clock second,
    and the number of video frames."""
    frames = drawn = 0
    start, wall = cpu_seconds(), time.perf_counter()
    for solution in solutions:
        previous = None
        for frame in folding_frames(solution, size=size, fps=fps):
            frames += 1
            drawn += frame is not previous
            previous = frame
    seconds, wall = cpu_seconds() - start, time.perf_counter() - wall
    return frames / seconds, drawn / seconds, frames / wall, frames


def item_seconds(solutions: list[Solution], size: int, fps: int) -> tuple[list[float], list[float]]:
    """CPU and wall-clock seconds of :func:`render_item_video` (MP4 + key frames) for each solution."""
    cpu, wall = [], []
    with tempfile.TemporaryDirectory() as directory:
        for index, solution in enumerate(solutions):
            start, start_wall = cpu_seconds(), time.perf_counter()
            render_item_video(solution, Path(directory) / f"item{index}", size=size, fps=fps)
            cpu.append(cpu_seconds() - start)
            wall.append(time.perf_counter() - start_wall)
    return cpu, wall


def _summary(values: list[float], unit: str, digits: int = 1) -> str:
    return (
        f"{statistics.median(values):8.{digits}f} {unit} (min {min(values):.{digits}f}, max {max(values):.{digits}f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=512, help="frame width and height in pixels")
    parser.add_argument("--fps", type=int, default=24, help="video frame rate")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (at least 3)")
    parser.add_argument("--items", type=int, default=3, help="six-action items per run")
    arguments = parser.parse_args()
    runs = max(3, arguments.runs)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    size, fps = arguments.size, arguments.fps
    six = six_action_items(arguments.items)
    assert all(len(s.actions) == 6 and sum(isinstance(a, Rotation) for a in s.actions) == 3 for s in six)
    render_rate(six[:1], size, fps)  # warm the caches (camera, pixel grids)
    video_rates, drawn_rates, wall_rates = [], [], []
    frames = 0
    for _ in range(runs):
        video_rate, drawn_rate, wall_rate, frames = render_rate(six, size, fps)
        video_rates.append(video_rate)
        drawn_rates.append(drawn_rate)
        wall_rates.append(wall_rate)
    per_item, per_item_wall = [], []
    for _ in range(runs):
        cpu, wall = item_seconds(six, size, fps)
        per_item.append(statistics.mean(cpu))
        per_item_wall.append(statistics.mean(wall))
    groups, _ = item_seconds(one_item_per_group(), size, fps)
    six_item = statistics.median(per_item)
    print(
        f"pft 3D video at {size}x{size}, {fps} fps: {len(six)} six-action items (group 9), "
        f"{frames // len(six)} video frames each, {runs} runs, one core (CPU time; wall-clock beside)"
    )
    print(f"  render, all video frames:   {_summary(video_rates, 'frames/s')}")
    print(f"  render, drawn frames only:  {_summary(drawn_rates, 'frames/s')}")
    print(f"  render, wall-clock:         {_summary(wall_rates, 'frames/s')}")
    print(f"  six-action item, MP4 + PNG: {_summary(per_item, 's', 2)}")
    print(f"  the same, wall-clock:       {_summary(per_item_wall, 's', 2)}")
    print(f"  one item per group 1..9:    {' '.join(f'{s:.2f}' for s in groups)} s")
    print(f"  900 six-action items, 2 cores:        {900 * six_item / 2 / 60:6.1f} min")
    print(f"  paper's 900 (100 per group), 2 cores: {100 * sum(groups) / 2 / 60:6.1f} min")


if __name__ == "__main__":
    main()
