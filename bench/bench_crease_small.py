"""Latency of foldbench.crease on small crease patterns (at most 20 faces), in process, after warm-up.

Usage:
    .venv/bin/python bench/bench_crease_small.py [--patterns 200] [--repeats 5] [--seed 0]
        [--save TIMES.json] [--against TIMES.json]

Every pattern is compiled once before the timing, so every sample is taken in the state a long-running process
(an environment compiling after each action) settles in: the compiled loops loaded (:mod:`foldbench.jit`).

The patterns: random simple folds (1 to 5 folds, grid-aligned and free-angle), the eleven cube nets and
small maps (up to 2x5), each exact and with every vertex moved by up to 1e-6 of the paper size. One sample is
the median over ``--repeats`` runs of reading the segments into a crease pattern and compiling it (every state
counted), in wall time and in this process's CPU time (the CPU figure does not grow when other jobs share the
cores). Prints the median, 90th percentile and worst of the samples, with the number of patterns and faces,
and how often a jittered pattern gives its exact twin's answer (or a precision error, or another answer).
``--stages`` prints instead where the CPU time goes: each stage's own time (its inner stages taken out),
median and share of the total over the exact and over the jittered half, reading (building the crease pattern
from the segments) included.
``--save`` writes each pattern's CPU sample (seconds, every pattern in order) to a JSON file; ``--against`` reads
such a file (another version's run, same patterns) and prints the median and quartiles of the per-pattern CPU
ratio this run / that one, over all patterns and over the exact and the jittered half: a paired comparison that
a shared machine's load moves far less than the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from foldbench.crease.compiler import compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.simple_folds import random_simple_folds

MAX_FACES = 20
CUBE_NETS = (
    *(tuple([(x, 1) for x in range(4)] + [(top, 2), (bottom, 0)])
      for top, bottom in ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2))),
    *(((0, 0), (1, 0), (1, 1), (2, 1), (3, 1), (top, 2)) for top in (1, 2, 3)),
    ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)),
    ((0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)),
)


def _polyomino(cells: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, list[str]]:
    cell_set = set(cells)
    segments, letters = [], []
    for c, r in sorted(cell_set):
        for (dc, dr), side in (((1, 0), ((c + 1, r), (c + 1, r + 1))), ((0, 1), ((c, r + 1), (c + 1, r + 1))),
                               ((-1, 0), ((c, r), (c, r + 1))), ((0, -1), ((c, r), (c + 1, r)))):
            inside = (c + dc, r + dr) in cell_set
            if not inside:
                segments.append(side)
                letters.append("B")
            elif (dc, dr) in ((1, 0), (0, 1)):
                segments.append(side)
                letters.append("U")
    return np.array(segments, dtype=float), letters


def _jitter(segments: np.ndarray, amount: float, rng: np.random.Generator) -> np.ndarray:
    points = segments.reshape(-1, 2)
    size = float(np.ptp(points, axis=0).max())
    unique, inverse = np.unique(points, axis=0, return_inverse=True)
    moves = rng.uniform(-amount, amount, size=unique.shape) * size
    return (points + moves[inverse.ravel()]).reshape(segments.shape)


def small_patterns(count: int, seed: int = 0) -> list[tuple[np.ndarray, list[str]]]:
    """``count`` small patterns (segments, assignments), half exact, half jittered."""
    rng = np.random.default_rng(seed)
    exact: list[tuple[np.ndarray, list[str]]] = [_polyomino(net) for net in CUBE_NETS]
    exact += [_polyomino(tuple((x, y) for x in range(columns) for y in range(rows)))
              for rows, columns in ((1, 2), (1, 4), (1, 6), (2, 2), (2, 3), (2, 4), (2, 5))]
    index = 0
    while len(exact) < (count + 1) // 2:
        folds = random_simple_folds(rng, 1 + index % 5, grid=None if index % 2 else 8)
        exact.append((folds.segments, list(folds.assignments)))
        index += 1
    noisy = [(_jitter(segments, 1e-6, rng), letters) for segments, letters in exact]
    return (exact + noisy)[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--patterns", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0, help="seed of the random simple folds and of the jitter")
    parser.add_argument("--stages", action="store_true", help="print each stage's share of the CPU time instead")
    parser.add_argument("--save", help="write each pattern's CPU sample to this JSON file")
    parser.add_argument("--against", help="a file written by --save: print the per-pattern CPU ratios against it")
    arguments = parser.parse_args()
    patterns = small_patterns(arguments.patterns, arguments.seed)
    for segments, letters in patterns:  # warm-up: past the kernels' Python budget, numba loaded, every loop ready
        try:
            compile_crease_pattern(build_crease_pattern(segments, letters))
        except CreasePatternError:
            pass
    if arguments.stages:
        _print_stages(patterns, arguments.repeats)
        return
    samples, cpu_samples, faces, errors, answers, every_cpu = [], [], [], 0, [], []
    for segments, letters in patterns:
        runs, cpu_runs = [], []
        for _ in range(arguments.repeats):
            start, cpu_start = time.perf_counter(), time.process_time()
            try:
                compiled = compile_crease_pattern(build_crease_pattern(segments, letters))
                face_count, answer = compiled.pattern.face_count, str(compiled.state_count)
            except CreasePatternError as error:
                errors += 1
                face_count, answer = 0, error.code
            runs.append(time.perf_counter() - start)
            cpu_runs.append(time.process_time() - cpu_start)
        answers.append(answer)
        every_cpu.append(statistics.median(cpu_runs))
        if face_count > MAX_FACES:
            continue
        samples.append(statistics.median(runs))
        cpu_samples.append(statistics.median(cpu_runs))
        faces.append(face_count)
    print(f"{len(samples)} patterns of 1 to {max(faces)} faces (median {statistics.median(faces):.0f}; "
          f"{errors // arguments.repeats} with an error)")
    for name, values in (("wall", samples), ("cpu", cpu_samples)):
        ordered = sorted(values)
        print(f"latency ms ({name}): median {statistics.median(ordered) * 1e3:.2f}, "
              f"p90 {ordered[int(0.9 * (len(ordered) - 1))] * 1e3:.2f}, worst {ordered[-1] * 1e3:.2f}")
    half = (len(patterns) + 1) // 2
    pairs = list(zip(answers[:half], answers[half:], strict=False))
    refused = sum(noisy != exact and noisy.startswith("E_PRECISION") for exact, noisy in pairs)
    different = sum(noisy != exact and not noisy.startswith("E_PRECISION") for exact, noisy in pairs)
    print(f"jittered against exact (all {len(pairs)} pairs): {len(pairs) - refused - different} the same answer, "
          f"{refused} precision errors, {different} a different count or verdict")
    if arguments.save:
        with open(arguments.save, "w", encoding="utf-8") as handle:
            json.dump(every_cpu, handle)
    if arguments.against:
        _print_ratios(every_cpu, arguments.against, half)


STAGES: tuple[tuple[str, str, str], ...] = (
    ("foldbench.crease.compiler", "check_vertices", "vertex checks"),
    ("foldbench.crease.compiler", "fold_faces", "folding"),
    ("foldbench.crease.compiler", "build_overlay", "overlay: the rest"),
    ("foldbench.crease.precision.overlay", "overlay_folded_edges", "overlay: planarising folded edges"),
    ("foldbench.crease.precision.overlay", "genuine_gaps", "gap judging: genuine gaps"),
    ("foldbench.crease.precision.overlay", "gaps_beyond_measured_noise", "gap judging: beyond measured noise"),
    ("foldbench.crease.compiler", "unresolved_open_gaps", "gap judging: unresolved open gaps"),
    ("foldbench.crease.compiler", "_cross_check_closed_gaps", "gap judging: cross-check (its compile apart)"),
    ("foldbench.crease.precision.overlay", "build_cells", "overlay: cells"),
    ("foldbench.crease.precision.overlay", "build_layer_constraints", "overlay: layer constraints"),
    ("foldbench.crease.layers.solver:LayerSolver", "solve", "counting"),
)
"""The stages ``--stages`` times: where a function is looked up (``module`` or ``module:Class``), its name, the
label."""


@contextmanager
def _stage_clocks(totals: dict[str, float]) -> Iterator[None]:
    """While open, every stage of :data:`STAGES` adds its own CPU time (inner stages taken out) to ``totals``."""
    import importlib

    inner: list[float] = [0.0]  # the inner stages' time of each open stage, innermost last

    def clocked(function: Callable[..., Any], label: str) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            inner.append(0.0)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                totals[label] = totals.get(label, 0.0) + spent - inner.pop()
                inner[-1] += spent
        return run

    saved = []
    for where, name, label in STAGES:
        module_name, _, class_name = where.partition(":")
        owner = importlib.import_module(module_name)
        if class_name:
            owner = getattr(owner, class_name)
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, clocked(getattr(owner, name), label))
    try:
        yield
    finally:
        for owner, name, function in saved:
            setattr(owner, name, function)


def _print_stages(patterns: list[tuple[np.ndarray, list[str]]], repeats: int) -> None:
    """Median per pattern and share of the CPU time of each stage, over the exact and the jittered half."""
    half = (len(patterns) + 1) // 2
    for name, part in (("exact", patterns[:half]), ("jittered", patterns[half:])):
        per_stage: dict[str, list[float]] = {}
        totals_all: list[float] = []
        for segments, letters in part:
            runs: list[dict[str, float]] = []
            for _ in range(repeats):
                totals: dict[str, float] = {}
                start = time.process_time()
                try:
                    pattern = build_crease_pattern(segments, letters)
                    totals["reading"] = time.process_time() - start
                    with _stage_clocks(totals):
                        compile_crease_pattern(pattern)
                except CreasePatternError:
                    pass
                totals["all"] = time.process_time() - start
                runs.append(totals)
            run = sorted(runs, key=lambda totals: totals["all"])[len(runs) // 2]  # the median run, whole
            for label, seconds in run.items():
                per_stage.setdefault(label, []).append(seconds)
            totals_all.append(run["all"])
        whole = sum(totals_all)
        named = sum(sum(values) for label, values in per_stage.items() if label != "all")
        print(f"{name} ({len(part)} patterns): median {statistics.median(totals_all) * 1e3:.2f} ms CPU per pattern")
        for label, values in sorted(per_stage.items(), key=lambda item: -sum(item[1])):
            if label != "all":
                print(f"  {label:48s} {sum(values) / whole:6.1%}  median {statistics.median(values) * 1e3:.3f} ms")
        print(f"  {'the rest (compiler itself, small steps)':48s} {(whole - named) / whole:6.1%}")


def _print_ratios(times: list[float], path: str, half: int) -> None:
    """Per-pattern CPU ratios of ``times`` against the samples saved in ``path`` (the same patterns)."""
    with open(path, encoding="utf-8") as handle:
        other = json.load(handle)
    if len(other) != len(times):
        raise SystemExit(f"{path} holds {len(other)} patterns, this run {len(times)}: not the same patterns")
    ratios = [ours / theirs for ours, theirs in zip(times, other, strict=True) if theirs > 0]
    for name, part in (("all", ratios), ("exact", ratios[:half]), ("jittered", ratios[half:])):
        ordered = sorted(part)
        quartile = [ordered[int(f * (len(ordered) - 1))] for f in (0.25, 0.5, 0.75)]
        print(f"cpu ratio against {path} ({name}, {len(ordered)} patterns): median {quartile[1]:.3f} "
              f"(quartiles {quartile[0]:.3f}-{quartile[2]:.3f})")


if __name__ == "__main__":
    main()
