"""The code-generation score ladder: how foldbench's headline and the paper's total rank answers of known quality.

For each of N references (OrigamiSpace code-generation items: easy, medium and hard in turn; with
``--paper-models MAX_FACES`` the paper preset's OrigamiBench models of the Easy, Medium and Hard tiers in turn), it
scores a ladder of answers, from the reference itself down to unparseable text, and prints the mean per rung of
the headline
(``score``), the paper's total (appendix D, with its fallbacks on a failed compile), the four dimensions, the
crease agreement and the share that compiled:

* reference: the reference's FOLD document;
* jittered: every vertex moved by up to ``--jitter`` (half a pixel of the pictures by default; corners kept,
  other points on the paper's edge moved along it);
* flipped: the longest crease's mountain/valley assignment swapped;
* moved: the longest crease moved sideways by 0.022 of the side towards the middle (an end on the paper's edge
  slides along it, an inner end is joined to its old place by a short crease);
* removed: the longest crease left out;
* extra: one valley crease added between two points on the paper's edge;
* unrelated: the next reference's pattern (another model of the same difficulty);
* one fold: one valley fold across the square;
* bare square: the paper's four edges, no crease;
* random: foldbench's ``random`` baseline for the item;
* unparseable: a reply with no FOLD object.

    PYTHONPATH=src python bench/codegen_score_ladder.py --references 30 --seed 2024
    PYTHONPATH=src python bench/codegen_score_ladder.py --references 30 --seed 2024 --paper-models 400
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

import numpy as np
import shapely

from foldbench.crease import build_crease_pattern, pattern_from_fold, random_simple_folds
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.score.similarity import DIMENSION_WEIGHTS, prepare_reference, score_generated
from foldbench.tasks.origamispace.codegen import CodegenTask

BORDER = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
MOVE = 0.022
"""How far the moved crease moves (off the 1/64 grid of the pleated models, so it lands on no other crease)."""
RUNGS = ("reference", "jittered", "flipped", "moved", "removed", "extra", "unrelated", "one fold", "bare square",
         "random", "unparseable")


def _document(segments: np.ndarray, letters: str) -> dict[str, Any]:
    """The FOLD fields of some segments, planarised; when they cannot be built (e.g. a crease left hanging), the
    segments as they are, which the scorer then judges like any answer."""
    segments = np.asarray(segments, float)
    try:
        fields = build_crease_pattern(segments, letters).to_fold_fields()
    except CreasePatternError:
        points = segments.reshape(-1, 2)
        return {"vertices_coords": points.tolist(), "edges_vertices": [[2 * i, 2 * i + 1] for i in range(len(letters))],
                "edges_assignment": list(letters)}
    fields.pop("edges_foldAngle", None)
    return fields


def _segments(fold: dict[str, Any]) -> tuple[np.ndarray, str]:
    coords = np.asarray(fold["vertices_coords"], float)
    return coords[np.asarray(fold["edges_vertices"])], "".join(fold["edges_assignment"])


def _longest_crease(segments: np.ndarray, letters: str) -> int:
    lengths = np.hypot(*(segments[:, 1] - segments[:, 0]).T)
    lengths[[letter == "B" for letter in letters]] = -1
    return int(np.argmax(lengths))


def _jittered(fold: dict[str, Any], rng: np.random.Generator, size: float) -> dict[str, Any]:
    coords = np.asarray(fold["vertices_coords"], float).copy()
    for point in coords:
        on_side = (np.abs(point) < 1e-9) | (np.abs(point - 1) < 1e-9)
        if on_side.all():
            continue
        point[~on_side] += rng.uniform(-size, size, int((~on_side).sum()))
    return {**fold, "vertices_coords": coords.tolist()}


def _flipped(fold: dict[str, Any]) -> dict[str, Any]:
    segments, letters = _segments(fold)
    index = _longest_crease(segments, letters)
    swapped = list(letters)
    swapped[index] = "M" if letters[index] == "V" else "V"
    return {**fold, "edges_assignment": swapped}


def _on_edge(point: np.ndarray) -> bool:
    return bool(((np.abs(point) < 1e-9) | (np.abs(point - 1) < 1e-9)).any())


def _to_edge(origin: np.ndarray, direction: np.ndarray, near: float) -> np.ndarray:
    """Where the line ``origin + t direction`` meets the paper's edge, at the ``t`` nearest to ``near``."""
    crossings = []
    for axis in (0, 1):
        if abs(direction[axis]) > 1e-12:
            for side in (0.0, 1.0):
                t = (side - origin[axis]) / direction[axis]
                point = origin + t * direction
                if (point > -1e-9).all() and (point < 1 + 1e-9).all():
                    crossings.append(t)
    t = min(crossings, key=lambda value: abs(value - near))
    return np.clip(origin + t * direction, 0, 1)


def _runs_along(segments: np.ndarray, point: np.ndarray) -> bool:
    """Whether the point lies on one of the segments."""
    return bool((shapely.distance(shapely.linestrings(segments), shapely.Point(point)) < 1e-9).any())


def _moved(fold: dict[str, Any]) -> dict[str, Any]:
    """The longest crease moved sideways by :data:`MOVE` towards the middle of the paper: an end on the paper's
    edge slides to where the moved line meets the edge, an inner end is joined to its old place by a short
    crease."""
    segments, letters = _segments(fold)
    index = _longest_crease(segments, letters)
    start, end = segments[index]
    direction = end - start
    normal = np.array([-direction[1], direction[0]]) / np.hypot(*direction)
    if normal @ (0.5 - (start + end) / 2) < 0:  # towards the middle of the paper, so it stays on the paper
        normal = -normal
    moved = [start + MOVE * normal, end + MOVE * normal]
    pieces = []
    for position, (old, near) in enumerate(((start, 0.0), (end, 1.0))):
        if _on_edge(old):
            moved[position] = _to_edge(start + MOVE * normal, direction, near)
        elif not _runs_along(segments, (old + moved[position]) / 2):  # else the moved end already meets it
            pieces.append([old, moved[position]])
    pieces.append(moved)
    kept = [i for i in range(len(letters)) if i != index]
    return _document(np.concatenate([segments[kept], np.array(pieces)]),
                     "".join(letters[i] for i in kept) + len(pieces) * letters[index])


def _removed(fold: dict[str, Any]) -> dict[str, Any]:
    segments, letters = _segments(fold)
    index = _longest_crease(segments, letters)
    keep = [i for i in range(len(letters)) if i != index]
    return _document(segments[keep], "".join(letters[i] for i in keep))


def _edge_point(rng: np.random.Generator, side: int) -> np.ndarray:
    a, b = BORDER[side]
    return a + rng.uniform(0.2, 0.8) * (b - a)


def _extra(fold: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    segments, letters = _segments(fold)
    first, second = rng.choice(4, size=2, replace=False)
    added = np.array([[_edge_point(rng, int(first)), _edge_point(rng, int(second))]])
    return _document(np.concatenate([segments, added]), letters + "V")


def _one_fold(rng: np.random.Generator) -> dict[str, Any]:
    simple = random_simple_folds(rng, 1)
    return _document(simple.segments, "".join(simple.assignments))


def ladder(references: int, seed: int, jitter: float, knobs: dict[str, Any]) -> tuple[dict[str, list[Any]], list[str]]:
    """The scores of every rung over the references (rung -> list of SimilarityScore), and each reference's
    difficulty."""
    task = CodegenTask()
    items = list(task.generate(references, seed, modalities=("image",), knobs=knobs))
    rng = np.random.default_rng(seed)
    results: dict[str, list[Any]] = defaultdict(list)
    for position, item in enumerate(items):
        fold = item.target["fold"]
        reference = prepare_reference(pattern_from_fold(fold, "reference"))
        same_kind = [other for other in items if other.metadata["difficulty"] == item.metadata["difficulty"]]
        unrelated = same_kind[(same_kind.index(item) + 1) % len(same_kind)].target["fold"]
        answers: dict[str, Any] = {
            "reference": fold, "jittered": _jittered(fold, rng, jitter), "flipped": _flipped(fold),
            "moved": _moved(fold), "removed": _removed(fold), "extra": _extra(fold, rng), "unrelated": unrelated,
            "one fold": _one_fold(rng), "bare square": _document(BORDER, "BBBB"),
            "random": task.random_answer(item, rng).document(), "unparseable": None,
        }
        for rung in RUNGS:
            results[rung].append(score_generated(answers[rung], reference))
        print(f"  reference {position + 1}/{len(items)} ({item.metadata['difficulty']}) scored", flush=True)
    return results, [item.metadata["difficulty"] for item in items]


def print_table(results: dict[str, list[Any]]) -> None:
    """One row per rung: means of the headline, the paper's total, the dimensions, creases and compiled share."""
    columns = ("score", "paper total", *DIMENSION_WEIGHTS, "creases", "compiled")
    print("| rung | " + " | ".join(columns) + " |")
    print("|" + "---|" * (len(columns) + 1))
    for rung in RUNGS:
        scores = results[rung]
        values = [np.mean([s.score for s in scores]), np.mean([s.total for s in scores]),
                  *(np.mean([s.dimensions[name] for s in scores]) for name in DIMENSION_WEIGHTS),
                  np.mean([s.creases for s in scores]), np.mean([s.compiled for s in scores])]
        print(f"| {rung} | " + " | ".join(f"{100 * value:.1f}" for value in values) + " |")


def print_by_difficulty(results: dict[str, list[Any]], difficulties: list[str], rungs: tuple[str, ...]) -> None:
    """The mean headline and paper's total of some rungs per difficulty."""
    for rung in rungs:
        parts = []
        for level in ("easy", "medium", "hard"):
            chosen = [s for s, d in zip(results[rung], difficulties, strict=True) if d == level]
            if chosen:
                parts.append(f"{level} {100 * np.mean([s.score for s in chosen]):.1f} "
                             f"(paper {100 * np.mean([s.total for s in chosen]):.1f})")
        print(f"{rung} by difficulty, headline (paper's total): " + ", ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--references", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jitter", type=float, default=0.001)
    parser.add_argument("--paper-models", type=int, metavar="MAX_FACES", default=None,
                        help="use the paper preset's references (OrigamiBench's models up to MAX_FACES faces)")
    args = parser.parse_args()
    knobs = {"difficulty": "mixed"} if args.paper_models is None else {"preset": "paper",
                                                                        "max_faces": args.paper_models}
    results, difficulties = ladder(args.references, args.seed, args.jitter, knobs)
    print_table(results)
    print_by_difficulty(results, difficulties, ("flipped", "moved", "removed", "extra", "unrelated", "random"))


if __name__ == "__main__":
    main()
