"""A frame strip of the 3D unfolding animation, for reports where a video cannot play."""

from __future__ import annotations

from PIL import Image

from foldbench.pft.encoders.video import unfolding_frames
from foldbench.pft.simulate import Solution

__all__ = ["unfolding_strip"]


def unfolding_strip(solution: Solution, *, frames: int = 6, size: int = 160) -> Image.Image:
    """``frames`` evenly spaced frames of the unfolding animation (the first and the last included), side by side.

    >>> from foldbench.pft import Hole, parse_actions, solve
    >>> unfolding_strip(solve(parse_actions("H1-F"), [Hole("star", "small", 0, 26)]), frames=2, size=64).size
    (128, 64)
    """
    every = list(unfolding_frames(solution, size=size))
    count = max(1, min(frames, len(every)))
    picks = [every[round(i * (len(every) - 1) / max(1, count - 1))] for i in range(count)]
    strip = Image.new("RGB", (size * count, size))
    for index, frame in enumerate(picks):
        strip.paste(Image.fromarray(frame, "RGB"), (index * size, 0))
    return strip
