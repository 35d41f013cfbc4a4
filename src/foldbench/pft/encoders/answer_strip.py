"""A model's predicted unfolding as a strip of 2D frames, for reports.

The engine knows the folded paper. The strip starts from it and replays the model's unfolding steps one by one
for as long as each is the step that can physically be made next (the engine's own unfolding step); the first step
that cannot is named in the caption, and the strip ends with the holes the model predicts on the flat sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from foldbench.pft.encoders.image import render_paper, render_result
from foldbench.pft.holes import Hole
from foldbench.pft.simulate import Solution

__all__ = ["predicted_unfolding_strip"]


def predicted_unfolding_strip(
    solution: Solution, unfolding: Sequence[str], holes: Sequence[Hole], *, size: int = 160
) -> tuple[Image.Image, str]:
    """The strip of a model's unfolding and a caption saying how far it matches the engine's.

    >>> from foldbench.pft import parse_actions, solve
    >>> truth = solve(parse_actions("H1-F"), [Hole("star", "small", 0, 26)])
    >>> strip, caption = predicted_unfolding_strip(truth, ["V1-F"], [], size=64)
    >>> strip.size, caption
    ((128, 64), "model's unfolding: step 1 (V1-F) cannot be made here (the paper unfolds by H2-F)")
    """
    steps = solution.unfolding_steps()
    frames = [render_paper(steps[0].paper, steps[0].holes, size=size)]
    matched = 0
    caption = f"model's unfolding: all {len(unfolding)} step(s) possible"
    for index, code in enumerate(unfolding):
        if index >= len(solution.unfolding):
            caption = f"model's unfolding: step {index + 1} ({code}) is one more than the paper has folds"
            break
        expected = solution.unfolding[index].code
        if code != expected:
            caption = (
                f"model's unfolding: step {index + 1} ({code}) cannot be made here (the paper unfolds by {expected})"
            )
            break
        matched += 1
        frames.append(render_paper(steps[index + 1].paper, steps[index + 1].holes, size=size))
    if matched == len(unfolding) and matched < len(solution.unfolding):
        caption = f"model's unfolding: stops after {matched} of {len(solution.unfolding)} steps"
    frames.append(render_result(holes, size=size))
    strip = Image.new("RGB", (size * len(frames), size))
    for position, frame in enumerate(frames):
        strip.paste(frame.convert("RGB"), (position * size, 0))
    return strip, caption
