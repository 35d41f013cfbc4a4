"""Answers for a strip folded in thirds whose ends overhang, exact and jittered, per overhang width.

Usage:
    .venv/bin/python bench/letter_fold_jitter.py [--seeds 24] [--jitter 1e-6] [--overhangs 1.1e-6 1e-5 2e-5 5e-5 1e-4]

The strip is folded in thirds by two valleys, each end third longer than the middle one by the overhang (a
fraction of the paper's length). Folded, each end lies that far past the other end's crease,
inside the taco it makes: any overhang is a self-intersection, and an overhang that moving the input by 1e-6
can close is not one the input resolves (the flush fold's 2 states). For each overhang, prints the exact
pattern's answer and how often each answer comes out when every point is moved by up to ``--jitter`` of the
paper size (seeds 0 to ``--seeds`` - 1): a count, ``PSI`` or a precision error's code.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import build_crease_pattern


def letter_fold(overhang: float) -> tuple[np.ndarray, str]:
    """The strip's segments (paper length 1) and assignments; the same builder as the tests'."""
    extra = 3 * overhang / (1 - 2 * overhang) * (1 + 1e-3 * np.sqrt(2))
    left, right, height = -extra, 3 + extra, 0.5
    segments = np.array([[[left, 0], [right, 0]], [[right, 0], [right, height]], [[right, height], [left, height]],
                         [[left, height], [left, 0]], [[1, 0], [1, height]], [[2, 0], [2, height]]])
    return (segments - left) / (right - left), "BBBBVV"


def jitter(segments: np.ndarray, amount: float, seed: int) -> np.ndarray:
    """Every distinct point moved once by up to ``amount`` of the paper size in each coordinate."""
    points = segments.reshape(-1, 2)
    unique, inverse = np.unique(points, axis=0, return_inverse=True)
    moves = np.random.default_rng(seed).uniform(-amount, amount, size=unique.shape) * float(np.ptp(points, 0).max())
    return (points + moves[inverse.ravel()]).reshape(segments.shape)


def answer(segments: np.ndarray, letters: str) -> str:
    """The state count, ``PSI``, or the error's code."""
    try:
        return str(compile_crease_pattern(build_crease_pattern(segments, letters)).state_count)
    except CreasePatternError as error:
        return "PSI" if error.error_class == "PSI" else error.code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=24)
    parser.add_argument("--jitter", type=float, default=1e-6)
    parser.add_argument("--overhangs", type=float, nargs="+", default=[1.1e-6, 1e-5, 2e-5, 5e-5, 1e-4])
    arguments = parser.parse_args()
    for overhang in arguments.overhangs:
        segments, letters = letter_fold(overhang)
        counts = Counter(answer(jitter(segments, arguments.jitter, seed), letters) for seed in range(arguments.seeds))
        spread = ", ".join(f"{name}: {count}" for name, count in counts.most_common())
        print(f"overhang {overhang:.1e}: exact {answer(segments, letters)}; jittered by {arguments.jitter:.0e} "
              f"({arguments.seeds} seeds) {spread}")


if __name__ == "__main__":
    main()
