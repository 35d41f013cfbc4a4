"""Built-in fold sequences of a square, made by the project (no external data).

A :class:`FoldSequence` starts from a blank square in the paper frame of the origami environment ((0, 0) bottom
left, (10, 10) top right) and adds creases one fold step at a time. The *state* after a step is the crease
pattern of every crease added so far, folded by the compiler (:func:`foldbench.crease.compile_crease_pattern`);
every state of every built-in sequence folds flat (the tests check it). A step is one fold in the origami sense:
a simple fold of all layers, a fold of the top flap only, or a move that needs several creases at once (a squash,
a rabbit ear, a pleat, a twist).

Families (see :func:`builtin_sequences`):

* ``simple``: valley and mountain folds of all layers, and valley folds of the top flap only, along lines on a
  grid of 1/8 of the side at multiples of 22.5° (``simple-grid-*``) or at free angles (``simple-free-*``), and
  longer sequences of 8 or 9 folds of both kinds (``simple-long-*``);
* ``base``: the traditional kite, fish, waterbomb, preliminary, bird and frog bases. A state is the union of
  the creases of its steps, so a step can only add creases; where a traditional move unfolds a crease again (the
  petal fold opens the outer halves of the preliminary base's middle creases, a squash opens its flap's middle
  line), the sequence takes the states the final pattern allows instead: the fish base folds a diagonal, then one
  rabbit ear, then the other; the bird base folds its diagonal, then collapses (of its 16 creases only the
  diagonal folds flat alone); the frog base folds its diagonal, then collapses its flaps in three steps;
* ``pleat`` and ``twist``: pleats of parallel creases and a square twist (one step: none of its 12 creases'
  proper subsets folds flat).

A sequence also exposes the environment's actions (:meth:`FoldSequence.actions`): one ``add_creases`` action per
step, with every crease segment the step adds, which replays the sequence in the environment.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, partial
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.pattern import CreasePattern, build_crease_pattern
from foldbench.crease.sheet_rules import MAX_CREASES_PER_ACTION, MIN_CREASE_LENGTH, SNAP_DISTANCE

__all__ = [
    "CATEGORIES",
    "PAPER_SIZE",
    "Crease",
    "FoldSequence",
    "FoldStep",
    "builtin_sequences",
    "pattern_from_creases",
    "random_simple_sequence",
    "sequence_by_name",
    "simple_fold_sequence",
    "square_border",
]

PAPER_SIZE: float = 10.0
"""Side of the square in the paper frame."""
CATEGORIES: tuple[str, ...] = ("simple", "base", "pleat", "twist")
"""The categories of the built-in sequences."""
_EPS = 1e-7
Assignment = Literal["M", "V"]


@dataclass(frozen=True)
class Crease:
    """One crease segment in the paper frame, mountain or valley."""

    p1: tuple[float, float]
    p2: tuple[float, float]
    assignment: Assignment

    def to_action(self) -> dict[str, Any]:
        """The crease as the environment's crease record ``{"p1", "p2", "assignment"}``."""
        return {"p1": [self.p1[0], self.p1[1]], "p2": [self.p2[0], self.p2[1]], "assignment": self.assignment}

    def covers(self, piece: Crease, tolerance: float = 1e-6) -> bool:
        """Whether ``piece`` lies on this crease (both ends within ``tolerance`` of it) with the same letter."""
        start, end = np.array(self.p1), np.array(self.p2)
        along = end - start
        for point in (piece.p1, piece.p2):
            offset = np.array(point) - start
            t = float(offset @ along / (along @ along))
            if not -1e-9 <= t <= 1 + 1e-9 or np.hypot(*(offset - t * along)) > tolerance:
                return False
        return piece.assignment == self.assignment

    @classmethod
    def from_action(cls, record: dict[str, Any]) -> Crease:
        """The crease of an environment crease record (the inverse of :meth:`to_action`)."""
        p1, p2 = record["p1"], record["p2"]
        return cls((float(p1[0]), float(p1[1])), (float(p2[0]), float(p2[1])), record["assignment"])


@dataclass(frozen=True)
class FoldStep:
    """One fold: what it does, in words, and the crease segments it adds."""

    description: str
    creases: tuple[Crease, ...]


def square_border(size: float = PAPER_SIZE) -> np.ndarray:
    """The four boundary segments of the square ``[0, size]²``, shape ``(4, 2, 2)``."""
    corners = np.array([[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]])
    return np.array([[corners[i], corners[(i + 1) % 4]] for i in range(4)])


def pattern_from_creases(creases: Sequence[Crease], size: float = PAPER_SIZE) -> CreasePattern:
    """The crease pattern of the square with ``creases`` (planarised by :func:`build_crease_pattern`).

    >>> pattern_from_creases([Crease((0.0, 0.0), (10.0, 10.0), "V")]).edge_count
    5
    """
    segments = [square_border(size)] + [np.array([[c.p1, c.p2]], float) for c in creases]
    assignments = "BBBB" + "".join(c.assignment for c in creases)
    return build_crease_pattern(np.concatenate(segments), assignments, source="fold sequence")


@dataclass(frozen=True, eq=False)
class FoldSequence:
    """A named, categorised sequence of fold steps from the blank square.

    State ``k`` (0 = blank square, ``len(steps)`` = final) is the crease pattern of the creases of steps
    ``1..k``; :meth:`compiled` folds it.
    """

    name: str
    category: str
    steps: tuple[FoldStep, ...]
    description: str = ""

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def state_count(self) -> int:
        """Number of states, the blank square included."""
        return len(self.steps) + 1

    def creases_until(self, state: int) -> tuple[Crease, ...]:
        """Every crease added by steps ``1..state``."""
        if not 0 <= state <= len(self.steps):
            raise IndexError(f"{self.name} has states 0..{len(self.steps)}, not {state}")
        return tuple(c for step in self.steps[:state] for c in step.creases)

    def pattern(self, state: int) -> CreasePattern:
        """The crease pattern of state ``state``."""
        return _pattern_cached(self.creases_until(state))

    def compiled(self, state: int, limit: int = 8) -> CompiledFold:
        """State ``state`` folded by the compiler (at most ``limit`` layer orders searched per component)."""
        return _compiled_cached(self.creases_until(state), limit)

    @cached_property
    def final_pattern(self) -> CreasePattern:
        """The crease pattern after the last step."""
        return self.pattern(len(self.steps))

    def final_segments(self) -> list[Crease]:
        """The final pattern's mountain and valley edges as crease segments (split at every vertex), paper frame."""
        pattern = self.final_pattern
        coords = pattern.vertices_coords * pattern.scale + np.array(pattern.offset)
        return [Crease(tuple(coords[a]), tuple(coords[b]), letter)
                for (a, b), letter in zip(pattern.edges_vertices.tolist(), pattern.edges_assignment, strict=True)
                if letter in "MV"]

    def actions(self) -> list[dict[str, Any]]:
        """The environment actions that replay the sequence: one ``add_creases`` action per step."""
        return [{"action": "add_creases", "creases": [c.to_action() for c in step.creases]} for step in self.steps]


@cache
def _pattern_cached(creases: tuple[Crease, ...]) -> CreasePattern:
    return pattern_from_creases(creases)


@cache
def _compiled_cached(creases: tuple[Crease, ...], limit: int) -> CompiledFold:
    return compile_crease_pattern(_pattern_cached(creases), limit=limit)


# ---- a small folding simulator for simple folds ---------------------------------------------------------------


@dataclass(frozen=True)
class _Face:
    """A face of the folded square: its polygon on the paper, the map to its folded place, its layer."""

    polygon: np.ndarray
    matrix: np.ndarray
    shift: np.ndarray
    layer: int

    @cached_property
    def folded(self) -> np.ndarray:
        return self.polygon @ self.matrix.T + self.shift

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """The polygon's bounding box on the paper, widened by :data:`_BOX_MARGIN` on every side."""
        (x_low, y_low), (x_high, y_high) = self.polygon.min(axis=0).tolist(), self.polygon.max(axis=0).tolist()
        return x_low - _BOX_MARGIN, y_low - _BOX_MARGIN, x_high + _BOX_MARGIN, y_high + _BOX_MARGIN

    @property
    def flipped(self) -> bool:
        return bool(np.linalg.det(self.matrix) < 0)


FoldKind = Literal["valley", "mountain", "flap"]
"""``valley``/``mountain``: fold every layer on the left of the line toward or away from the viewer; ``flap``:
fold only the top flap on the left of the line toward the viewer (valley)."""


def _signed(points: np.ndarray, point: np.ndarray, direction: np.ndarray) -> np.ndarray:
    offset = points - point
    values = direction[0] * offset[:, 1] - direction[1] * offset[:, 0]
    values[np.abs(values) < _EPS] = 0.0
    return values


def _clip(polygon: np.ndarray, values: np.ndarray, positive: bool) -> np.ndarray:
    sign = 1.0 if positive else -1.0
    kept = []
    for i in range(len(polygon)):
        a, b = polygon[i], polygon[(i + 1) % len(polygon)]
        va, vb = sign * values[i], sign * values[(i + 1) % len(polygon)]
        if va >= 0:
            kept.append(a)
        if (va > 0 > vb) or (va < 0 < vb):
            kept.append(a + (b - a) * (va / (va - vb)))
    return np.array(kept).reshape(-1, 2)


def _area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    x_next, y_next = np.concatenate((x[1:], x[:1])), np.concatenate((y[1:], y[:1]))  # np.roll's values, cheaper
    return 0.5 * float(np.dot(x, y_next) - np.dot(y, x_next))


_BOX_MARGIN = 1e-5
"""How far a face's bounding box is widened: more than the 1e-6 by which :func:`_shared_edge` lets a shared piece
of edge stray from either face's edge, so two faces whose widened boxes are apart share none."""


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _shared_edge(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two paper polygons share a piece of edge of positive length.

    An edge of ``b`` counts when both its ends lie within 1e-6 of the line of an edge of ``a`` and the two
    overlap along it by more than 1e-6. The collinearity test, run for every pair of edges, is done on Python
    floats (the same products and differences as on numpy's scalars, so the same values); the overlap, reached
    by few pairs, keeps numpy's dot products.
    """
    a_points, b_points = a.tolist(), b.tolist()
    b_edges = list(zip(b_points, b_points[1:] + b_points[:1], strict=True))
    for i, (px, py) in enumerate(a_points):
        qx, qy = a_points[(i + 1) % len(a_points)]
        dx, dy = qx - px, qy - py
        length = float(np.hypot(dx, dy))
        if length < _EPS:
            continue
        ux, uy = dx / length, dy / length
        for (rx, ry), (sx, sy) in b_edges:
            if abs(ux * (ry - py) - uy * (rx - px)) > 1e-6 or abs(ux * (sy - py) - uy * (sx - px)) > 1e-6:
                continue
            p, u = a[i], np.array([ux, uy])
            r, s = np.array([rx, ry]), np.array([sx, sy])
            lo = max(0.0, min(np.dot(r - p, u), np.dot(s - p, u)))
            hi = min(length, max(np.dot(r - p, u), np.dot(s - p, u)))
            if hi - lo > 1e-6:
                return True
    return False


class _Sheet:
    """The square folded by simple folds, face by face (a witness of flat-foldability for its creases)."""

    def __init__(self, size: float = PAPER_SIZE) -> None:
        square = np.array([[0.0, 0.0], [size, 0.0], [size, size], [0.0, size]])
        self.faces: list[_Face] = [_Face(square, np.eye(2), np.zeros(2), 0)]

    def fold(self, point: Sequence[float], direction: Sequence[float], kind: FoldKind) -> _FoldResult | None:
        """The faces and creases after folding the left side of the line, or None when the fold is not a
        simple fold here (it moves nothing, runs along an earlier crease, or would tear the paper)."""
        p = np.asarray(point, float)
        d = np.asarray(direction, float)
        d = d / np.hypot(*d)
        reflect = 2 * np.outer(d, d) - np.eye(2)
        reflect_shift = p - reflect @ p
        sides = [_signed(f.folded, p, d) for f in self.faces]  # each face's corners against the line, once
        positive = [f for f, values in zip(self.faces, sides, strict=True) if (values > 0).any()]
        if not positive:
            return None
        if kind == "flap":  # the top flap first, then thicker ones; never every layer
            thresholds = [layer - 0.5 for layer in sorted({f.layer for f in positive}, reverse=True)[:-1]]
        else:
            thresholds = [-math.inf]
        for threshold in thresholds:
            result = self._try(p, d, reflect, reflect_shift, kind, threshold, sides)
            if result is not None:
                return result
        return None

    def _try(self, p: np.ndarray, d: np.ndarray, reflect: np.ndarray, reflect_shift: np.ndarray, kind: FoldKind,
             threshold: float, sides: list[np.ndarray]) -> _FoldResult | None:
        moving: list[tuple[int, _Face]] = []
        staying: list[tuple[int, _Face]] = []
        creases: list[Crease] = []
        for index, face in enumerate(self.faces):
            values = sides[index]
            if face.layer < threshold or (values <= 0).all():
                staying.append((index, face))
                continue
            if (values >= 0).all():
                moving.append((index, face))
                continue
            stay_part, move_part = _clip(face.polygon, values, False), _clip(face.polygon, values, True)
            if abs(_area(stay_part)) < 1e-9 or abs(_area(move_part)) < 1e-9:
                return None
            staying.append((index, _Face(stay_part, face.matrix, face.shift, face.layer)))
            moving.append((index, _Face(move_part, face.matrix, face.shift, face.layer)))
            folded_part = move_part @ face.matrix.T + face.shift
            on_line = [q for q, v in zip(move_part, _signed(folded_part, p, d), strict=True) if v == 0.0]
            if len(on_line) < 2:
                return None
            ends = np.array(on_line)
            along = (ends @ face.matrix.T) @ d
            a, b = ends[int(np.argmin(along))], ends[int(np.argmax(along))]
            up = kind in ("valley", "flap")
            letter: Assignment = ("M" if face.flipped else "V") if up else ("V" if face.flipped else "M")
            creases.append(Crease(_rounded(a), _rounded(b), letter))
        if not creases or not moving:
            return None
        # Pieces of different faces are joined by earlier creases: one that moves and one that stays would
        # fold along an earlier crease or tear the paper.
        for i, mover in moving:
            for j, stayer in staying:
                if i != j and _boxes_meet(mover.box, stayer.box) and _shared_edge(mover.polygon, stayer.polygon):
                    return None
        top = max(f.layer for f in self.faces)
        bottom = min(f.layer for f in self.faces)
        high = max(f.layer for _, f in moving)
        low = min(f.layer for _, f in moving)
        folded_faces = []
        for _, face in moving:
            layer = top + 1 + (high - face.layer) if kind != "mountain" else bottom - 1 - (face.layer - low)
            folded_faces.append(_Face(face.polygon, reflect @ face.matrix, reflect @ face.shift + reflect_shift,
                                      layer))
        return _FoldResult([f for _, f in staying] + folded_faces, tuple(creases))


@dataclass(frozen=True)
class _FoldResult:
    faces: list[_Face]
    creases: tuple[Crease, ...]


def _rounded(point: np.ndarray) -> tuple[float, float]:
    return (round(float(point[0]), 12) + 0.0, round(float(point[1]), 12) + 0.0)


FoldLine = tuple[tuple[float, float], tuple[float, float], FoldKind]
"""A fold: a point of the line, its direction (the left side moves), and the kind of fold."""


def _describe(kind: FoldKind, point: Sequence[float], direction: Sequence[float]) -> str:
    what = {"valley": "valley fold of all layers", "mountain": "mountain fold of all layers",
            "flap": "valley fold of the top flap"}[kind]
    angle = math.degrees(math.atan2(direction[1], direction[0])) % 180
    return f"{what} along the line through ({point[0]:g}, {point[1]:g}) at {angle:g}°"


def simple_fold_sequence(name: str, folds: Sequence[FoldLine], category: str = "simple",
                         description: str = "") -> FoldSequence:
    """The sequence of the given simple folds of the square (each must be a simple fold where it is made).

    >>> sequence = simple_fold_sequence("half", [((5.0, 0.0), (0.0, 1.0), "valley")])
    >>> [c.assignment for c in sequence.steps[0].creases]
    ['V']
    """
    sheet = _Sheet()
    steps = []
    for point, direction, kind in folds:
        result = sheet.fold(point, direction, kind)
        if result is None:
            raise ValueError(f"{name}: {_describe(kind, point, direction)} is not a simple fold of the current state")
        sheet.faces = result.faces
        steps.append(FoldStep(_describe(kind, point, direction), result.creases))
    return FoldSequence(name, category, tuple(steps), description)


_GRID_DIRECTIONS = tuple((math.cos(math.radians(22.5 * k)), math.sin(math.radians(22.5 * k))) for k in range(16))


def _folds_cleanly(creases: tuple[Crease, ...]) -> bool:
    try:
        return _compiled_cached(creases, 2).state_count > 0
    except CreasePatternError:
        return False


def _clear_of_snapping(creases: tuple[Crease, ...], new: tuple[Crease, ...]) -> bool:
    """Whether the environment takes the fold adding ``new`` to ``creases`` as it is: at most its number of
    creases per action, and no two vertices of the planarised pattern (nor a vertex and an edge it does not end
    on) within twice its snapping distance, so snapping moves nothing and no piece is shorter than its minimum."""
    if len(new) > MAX_CREASES_PER_ACTION:
        return False
    clearance = max(2 * SNAP_DISTANCE, MIN_CREASE_LENGTH)
    pattern = _pattern_cached(creases)
    coords = pattern.vertices_coords * pattern.scale + np.asarray(pattern.offset, float)
    gaps = np.hypot(*(coords[:, None, :] - coords[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, math.inf)
    if gaps.min() <= clearance:
        return False
    for a, b in pattern.edges_vertices.tolist():
        start, direction = coords[a], coords[b] - coords[a]
        t = np.clip((coords - start) @ direction / float(direction @ direction), 0.0, 1.0)
        distances = np.hypot(*(start + t[:, None] * direction - coords).T)
        distances[[a, b]] = math.inf
        if distances.min() <= clearance:
            return False
    return True


def random_simple_sequence(rng: np.random.Generator, folds: int, *, grid: bool = True, name: str = "random",
                           flaps: bool = True, max_tries: int = 300) -> FoldSequence:
    """A sequence of ``folds`` random simple folds, each checked by the compiler and kept clear of the
    environment's snapping tolerances (so replaying :meth:`FoldSequence.actions` there moves nothing).

    Grid folds run through points of the 1/8 grid at multiples of 22.5°; free folds through any point of the
    middle of the square at any angle. About one fold in four folds the top flap only (when ``flaps``).
    """
    sheet = _Sheet()
    steps: list[FoldStep] = []
    creases: tuple[Crease, ...] = ()
    for _ in range(folds):
        for _attempt in range(max_tries):
            if grid:
                point = (float(rng.integers(1, 8)) * PAPER_SIZE / 8, float(rng.integers(1, 8)) * PAPER_SIZE / 8)
                direction = _GRID_DIRECTIONS[int(rng.integers(16))]
            else:
                point = tuple(float(v) for v in np.round(rng.uniform(2.0, 8.0, 2), 3))
                angle = float(rng.uniform(0, 2 * math.pi))
                direction = (math.cos(angle), math.sin(angle))
            kind: FoldKind = "flap" if flaps and rng.random() < 0.25 else ("valley" if rng.random() < 0.7
                                                                            else "mountain")
            result = sheet.fold(point, direction, kind)
            if (result is None or not _clear_of_snapping(creases + result.creases, result.creases)
                    or not _folds_cleanly(creases + result.creases)):
                continue
            sheet.faces = result.faces
            creases = creases + result.creases
            steps.append(FoldStep(_describe(kind, point, direction), result.creases))
            break
        else:
            break
    return FoldSequence(name, "simple", tuple(steps), "random simple folds")


# ---- traditional bases, pleats and twists -------------------------------------------------------------------

_T = PAPER_SIZE * math.tan(math.radians(22.5))
"""Where a crease from a corner bisecting its angle meets the far side (10 tan 22.5°)."""
_R = PAPER_SIZE * (1 - math.sqrt(0.5))
"""Inradius of the half square cut along a diagonal: its incentres are ``(10 - r, r)`` and ``(r, 10 - r)``."""


def _c(x1: float, y1: float, x2: float, y2: float, letter: Assignment) -> Crease:
    return Crease((x1, y1), (x2, y2), letter)


def _steps(*steps: tuple[str, Sequence[Crease]]) -> tuple[FoldStep, ...]:
    return tuple(FoldStep(text, tuple(creases)) for text, creases in steps)


def _bases() -> list[FoldSequence]:
    c, t, r = (5.0, 5.0), _T, _R
    p1, p2 = (PAPER_SIZE - r, r), (r, PAPER_SIZE - r)
    kite = FoldSequence("kite-base", "base", _steps(
        ("fold the bottom edge onto the diagonal", [_c(0, 0, 10, t, "V")]),
        ("fold the left edge onto the diagonal", [_c(0, 0, t, 10, "V")]),
    ), "kite base: two edges folded onto a diagonal")
    fish = FoldSequence("fish-base", "base", _steps(
        ("mountain fold in half along the diagonal", [_c(0, 10, 10, 0, "M")]),
        ("rabbit ear the lower right corner along the kite folds from the ends of the other diagonal",
         [_c(0, 0, *p1, "M"), _c(10, 10, *p1, "V")]),
        ("rabbit ear the upper left corner the same way", [_c(0, 0, *p2, "M"), _c(10, 10, *p2, "V")]),
    ), "fish base: kite folds from two opposite corners, the side corners folded as rabbit ears")
    waterbomb = FoldSequence("waterbomb-base", "base", _steps(
        ("mountain fold in half along the horizontal middle line", [_c(0, 5, 10, 5, "M")]),
        ("collapse along the diagonals into a triangle",
         [_c(*c, 0, 0, "V"), _c(*c, 10, 0, "V"), _c(*c, 0, 10, "V"), _c(*c, 10, 10, "V")]),
    ), "waterbomb base: diagonals and one middle line collapsed into a triangle")
    preliminary = FoldSequence("preliminary-base", "base", _steps(
        ("fold in half along the vertical middle line", [_c(5, 0, 5, 10, "V")]),
        ("fold in half again along the horizontal middle line", [_c(*c, 0, 5, "V"), _c(*c, 10, 5, "M")]),
        ("squash the flaps along a diagonal into a square", [_c(*c, 0, 10, "M"), _c(*c, 10, 0, "V")]),
    ), "preliminary (square) base: both middle lines and one diagonal collapsed into a square")
    return [kite, fish, waterbomb, preliminary, _bird_base(), _frog_base()]


def _bird_base() -> FoldSequence:
    """The bird base, 22.5° geometry: a diagonal, the middle lines from the centre to the points ``u = 5 tan
    22.5°`` from the centre's sides, kite creases from every corner to those points, and the two petal folds.

    A petal fold opens the outer halves of the preliminary base's middle creases flat, so the preliminary base is
    no sub-pattern of the bird base; of the bird base's 16 creases only the diagonal alone folds flat on its own
    (``tests/crease/test_sequences.py`` tries every subset), hence two steps.
    """
    u = PAPER_SIZE / 2 * math.tan(math.radians(22.5))
    left, bottom, right, top = (u, 5.0), (5.0, u), (10 - u, 5.0), (5.0, 10 - u)
    petals = [_c(5, 5, *point, "M") for point in (left, bottom, right, top)]
    kites = [_c(0, 0, *left, "M"), _c(0, 0, *bottom, "M"), _c(10, 0, *bottom, "M"), _c(10, 0, *right, "M"),
             _c(10, 10, *right, "M"), _c(10, 10, *top, "M"), _c(0, 10, *top, "M"), _c(0, 10, *left, "M")]
    return FoldSequence("bird-base", "base", _steps(
        ("valley fold in half along the diagonal", [_c(0, 10, 10, 0, "V")]),
        ("petal fold the front and the back flap together (the kite folds, the middle lines from the centre, "
         "and the two petal hinges)", [*petals, *kites, _c(*left, *bottom, "V"), _c(*right, *top, "V")]),
    ), "bird base: a preliminary base with its front and back flaps petal folded")


def _frog_flap(side: int) -> list[Crease]:
    """The creases of the frog base's flap at one edge (``side`` 0 bottom, 1 right, 2 top, 3 left).

    The flap at the bottom edge has two vertices ``(a, b)`` and ``(10 - a, b)`` with ``a = 10 / (2 √2)`` and
    ``b = 5 - a``: each is where the line from a bottom corner at 22.5° to the edge meets the line at 45° from the
    edge's midpoint, and lies on the line from the centre at 22.5° to the vertical middle line. Each has four
    creases: to its corner, to the edge's midpoint and to the centre (mountains), and straight down to the edge
    (a valley). The other flaps are this one turned by quarter turns about the centre.
    """
    a = PAPER_SIZE / (2 * math.sqrt(2))
    b = PAPER_SIZE / 2 - a
    bottom = [_c(0, 0, a, b, "M"), _c(5, 0, a, b, "M"), _c(a, b, 5, 5, "M"), _c(a, b, a, 0, "V"),
              _c(10, 0, 10 - a, b, "M"), _c(5, 0, 10 - a, b, "M"), _c(10 - a, b, 5, 5, "M"),
              _c(10 - a, b, 10 - a, 0, "V")]

    def turn(point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        for _ in range(side):
            x, y = PAPER_SIZE - y, x
        return x, y

    return [Crease(turn(c.p1), turn(c.p2), c.assignment) for c in bottom]


def _frog_base() -> FoldSequence:
    """The frog base, 22.5° geometry: a preliminary base with all four flaps squash folded and petal folded.

    Its pattern is one diagonal and both middle lines (valleys) and, for each edge, the flap of
    :func:`_frog_flap`; it folds into a long diamond. As with the bird base, the traditional route through the
    preliminary base unfolds creases again (a squash opens the middle line of its flap), so the steps are the
    states the final pattern allows: a search over its flaps and middle-line halves finds no sub-pattern chain
    longer than these four steps (``bench/base_sub_states.py``). The second diagonal, creased along the way in
    the traditional folding, lies flat in the finished base and is left out.
    """
    return FoldSequence("frog-base", "base", _steps(
        ("valley fold in half along the diagonal", [_c(10, 0, 0, 10, "V")]),
        ("collapse the flap at the bottom edge (the four creases at each of its two kite vertices, and the middle "
         "lines from the centre to the bottom and right edges)",
         [*_frog_flap(0), _c(5, 5, 5, 0, "V"), _c(5, 5, 10, 5, "V")]),
        ("collapse the flap at the top edge the same way, with the middle lines from the centre to the top and "
         "left edges", [*_frog_flap(2), _c(5, 5, 5, 10, "V"), _c(5, 5, 0, 5, "V")]),
        ("collapse the flaps at the left and right edges the same way", [*_frog_flap(1), *_frog_flap(3)]),
    ), "frog base: a preliminary base with its four flaps squash folded and petal folded")


def _pleats_and_twists() -> list[FoldSequence]:
    def pleat(y_valley: float, y_mountain: float) -> tuple[str, list[Crease]]:
        return (f"pleat between y = {y_mountain:g} and y = {y_valley:g}",
                [_c(0, y_valley, 10, y_valley, "V"), _c(0, y_mountain, 10, y_mountain, "M")])

    horizontal = FoldSequence("pleat-horizontal", "pleat", _steps(pleat(7.5, 6.25), pleat(5, 3.75), pleat(2.5, 1.25)),
                              "three horizontal pleats, one after the other")
    diagonal = FoldSequence("pleat-diagonal", "pleat", _steps(
        ("pleat along two lines at 45°", [_c(0, 5, 5, 10, "V"), _c(0, 2.5, 7.5, 10, "M")]),
        ("pleat along two more lines at 45°", [_c(2.5, 0, 10, 7.5, "V"), _c(5, 0, 10, 5, "M")]),
    ), "two pleats at 45°")
    q = 2.5
    twist = FoldSequence("square-twist", "twist", _steps(
        ("twist a central square, its four pleats folding at once",
         [_c(5, 5 - q, 5 + q, 5, "V"), _c(5 + q, 5, 5, 5 + q, "V"), _c(5, 5 + q, 5 - q, 5, "V"),
          _c(5 - q, 5, 5, 5 - q, "V"),
          _c(5, 5 - q, 5, 0, "V"), _c(5, 5 - q, 10, 5 - q, "M"), _c(5 + q, 5, 10, 5, "V"), _c(5 + q, 5, 5 + q, 10, "M"),
          _c(5, 5 + q, 5, 10, "V"), _c(5, 5 + q, 0, 5 + q, "M"), _c(5 - q, 5, 0, 5, "V"), _c(5 - q, 5, 5 - q, 0, "M")]),
    ), "square twist: a square turned a quarter turn by four pleats")
    return [horizontal, diagonal, twist]


_NAMED_SIMPLE: tuple[tuple[str, str, tuple[FoldLine, ...]], ...] = (
    ("book-quarter-corner", "book fold, fold in half again, fold the top corner down", (
        ((5, 0), (0, 1), "valley"), ((0, 5), (1, 0), "valley"), ((10, 2.5), (-1, -1), "flap"))),
    ("diagonal-flap-behind", "fold along a diagonal, fold the top corner down, fold the tip behind", (
        ((0, 0), (-1, -1), "valley"), ((0, 5), (1, 1), "flap"), ((5, 5), (1, -1), "mountain"))),
    ("cupboard", "fold two opposite edges to the middle line, then fold in half behind", (
        ((2.5, 0), (0, 1), "valley"), ((7.5, 0), (0, -1), "valley"), ((0, 5), (1, 0), "mountain"))),
    ("blintz", "fold the four corners to the centre", (
        ((5, 0), (-1, 1), "valley"), ((10, 5), (-1, -1), "valley"), ((5, 10), (1, -1), "valley"),
        ((0, 5), (1, 1), "valley"))),
    ("half-corner-behind", "fold in half, fold a corner of the top layer, fold a strip behind", (
        ((0, 5), (-1, 0), "valley"), ((0, 7.5), (1, 1), "flap"), ((6.25, 0), (0, 1), "mountain"))),
)


_LONG_ATTEMPTS: tuple[int, ...] = (1, 8, 6, 7, 8, 25, 17, 23)
"""The seed of each long sequence (``[0x10A6, index, attempt]``): the first attempt whose states a picture tells
apart well enough for the causal one-step task to draw four of them, no two consecutive, for every place of the
answer (``tests/tasks/origamibench/test_one_step.py`` checks it; many random folds late in a long sequence move
too little paper to show at the scale of the unfolded square)."""


@cache
def _builders() -> dict[str, Callable[[], FoldSequence]]:
    """Each built-in sequence's name and how to build it alone, in the order of :func:`builtin_sequences`. Every
    sequence has its own seed, so building one does not need the others (the long random ones take seconds)."""
    builders: dict[str, Callable[[], FoldSequence]] = {}
    for name, text, folds in _NAMED_SIMPLE:
        builders[name] = partial(simple_fold_sequence, name, folds, description=text)
    for index in range(12):
        name = f"simple-grid-{index:02d}"
        builders[name] = partial(_random_sequence, (0x5EC, index), 4 + index % 3, True, name)
    for index in range(8):
        name = f"simple-free-{index:02d}"
        builders[name] = partial(_random_sequence, (0xF8EE, index), 4 + index % 2, False, name)
    for index, attempt in enumerate(_LONG_ATTEMPTS):
        name = f"simple-long-{index:02d}"
        builders[name] = partial(_random_sequence, (0x10A6, index, attempt), 8 + index % 2, index % 2 == 0, name)
    for name in _hand_made_sequences():  # cheap to build: their creases are written out
        builders[name] = partial(_hand_made, name)
    return builders


def _random_sequence(seed: tuple[int, ...], folds: int, grid: bool, name: str) -> FoldSequence:
    return random_simple_sequence(np.random.default_rng(list(seed)), folds, grid=grid, name=name)


@cache
def _hand_made_sequences() -> dict[str, FoldSequence]:
    """The traditional bases, the pleats and the twist by name, in the order :func:`_bases` and
    :func:`_pleats_and_twists` make them."""
    return {sequence.name: sequence for sequence in _bases() + _pleats_and_twists()}


def _hand_made(name: str) -> FoldSequence:
    return _hand_made_sequences()[name]


def builtin_sequences() -> tuple[FoldSequence, ...]:
    """Every built-in sequence: named simple folds, seeded random simple folds (on the grid and free), the
    traditional bases, pleats and twists. Each is built once per process (the random ones are checked by the
    compiler)."""
    return tuple(sequence_by_name(name) for name in _builders())


@cache
def builtin_sequences_by_name() -> Mapping[str, FoldSequence]:
    """Every built-in sequence under its name, in the order of :func:`builtin_sequences` (read-only)."""
    return MappingProxyType({sequence.name: sequence for sequence in builtin_sequences()})


@cache
def sequence_by_name(name: str) -> FoldSequence:
    """The built-in sequence called ``name``, built alone (the others are not built for it)."""
    builder = _builders().get(name)
    if builder is None:
        raise KeyError(f"no built-in fold sequence {name!r}")
    return builder()
