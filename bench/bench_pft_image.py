"""Throughput of the paper folding test's 2D image encoder: step pictures per second, drawn and PNG-encoded.

Run: ``.venv/bin/python bench/bench_pft_image.py [--size 512] [--runs 7]``. Each run draws and encodes every step
picture (flat sheet, one per action, punched paper) of the same fixed set of configurations on one core; the
figure printed is the median over the runs, with the fastest and slowest run beside it.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from foldbench.pft.encoders.image import png_bytes, render_steps
from foldbench.pft.enumeration import configurations
from foldbench.pft.holes import Hole, Shape, Size
from foldbench.pft.simulate import Solution, solve

_SHAPES = list(Shape)


def fixed_solutions(per_group: int) -> list[Solution]:
    """A deterministic mix of configurations from every group, each with one to three holes."""
    solutions = []
    for group in range(1, 10):
        for index, actions in enumerate(itertools.islice(configurations(group), 0, None, 37)):
            if index == per_group:
                break
            occupied = solve(actions, []).folded.occupied()
            count = 1 + index % min(3, len(occupied))
            holes = [
                Hole(
                    _SHAPES[(index + k) % len(_SHAPES)],
                    list(Size)[k % 2],
                    90 * ((index + k) % 4),
                    position + 1,
                )
                for k, position in enumerate(occupied[:: max(1, len(occupied) // count)][:count])
            ]
            solutions.append(solve(actions, holes))
    return solutions


def one_run(solutions: list[Solution], size: int) -> tuple[int, float, float, int]:
    """Draw and encode every step picture once: (pictures, seconds drawing, seconds encoding, PNG bytes)."""
    pictures = 0
    drawing = encoding = 0.0
    total_bytes = 0
    for solution in solutions:
        start = time.perf_counter()
        images = render_steps(solution, size=size)
        middle = time.perf_counter()
        encoded = [png_bytes(image) for image in images]
        end = time.perf_counter()
        drawing += middle - start
        encoding += end - middle
        pictures += len(images)
        total_bytes += sum(len(data) for data in encoded)
    return pictures, drawing, encoding, total_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=512, help="picture width and height in pixels")
    parser.add_argument("--runs", type=int, default=7, help="timed runs (at least 5)")
    parser.add_argument("--per-group", type=int, default=12, help="configurations per group")
    arguments = parser.parse_args()
    runs = max(5, arguments.runs)
    solutions = fixed_solutions(arguments.per_group)
    one_run(solutions[:5], arguments.size)  # warm the caches of the empty sheets
    rates, draw_rates, encode_rates = [], [], []
    pictures = total_bytes = 0
    for _ in range(runs):
        pictures, drawing, encoding, total_bytes = one_run(solutions, arguments.size)
        rates.append(pictures / (drawing + encoding))
        draw_rates.append(pictures / drawing)
        encode_rates.append(pictures / encoding)
    print(
        f"pft 2D step pictures at {arguments.size}x{arguments.size}: {len(solutions)} configurations, "
        f"{pictures} pictures per run, {runs} runs, one core"
    )
    print(
        f"  draw + PNG encode: {statistics.median(rates):8.0f} pictures/s "
        f"(min {min(rates):.0f}, max {max(rates):.0f})"
    )
    print(f"  draw only:         {statistics.median(draw_rates):8.0f} pictures/s")
    print(f"  PNG encode only:   {statistics.median(encode_rates):8.0f} pictures/s")
    print(f"  mean PNG size:     {total_bytes / pictures:8.0f} bytes")


if __name__ == "__main__":
    main()
