"""Drawing one spatial-relationship question on a compiled fold: marks, options and the answer.

As in OrigamiSpace (section 4.3), the question is asked about the crease pattern alone: every mark is a point of
the paper drawn on the crease pattern, and the question asks what becomes of it after folding. The frame is
fixed by a mark F: the region holding F stays where it is, front side up, and the model is seen from above.
Three kinds, six question types (section 3 and appendix B.2):

* ``pose`` (*pose localization*): a point P and two candidate points 1 and 2 of the crease pattern; after folding
  P lies directly over or under one of them (the two land at the same place), and P's paper shows its front or
  its back side; four options, each mark with each side up (the flipped side is the distractor of the side).
  The other candidate is a point that lands where a distractor of appendix B.2 puts P: P's flat-pattern place,
  the symmetric counterpart of its folded place, or where a point of a neighbouring face lands.
* ``layers`` (layering, count): how many layers of paper lie where the point X lands; four consecutive counts,
  among them the flat-pattern value 1 and the answer's ±1 / ±2 neighbours.
* ``thickest`` (layering, comparison): four points 1-4 of the crease pattern; at which one's landing place is the
  model thickest (the distractors land on thinner regions, a layer or more fewer).
* ``stacking`` (layering, order): three points 1-3 of three faces that land at one place; their order from top to
  bottom, among four orders closed under reversal (the order seen from below is always among the distractors).
* ``distance`` (geometric change): points P and Q, their distance on the flat paper (the flat-pattern value)
  given; their distance after folding, among four values on an even grid, all shorter than the flat value;
* ``angle`` (geometric change): points P, Q and R, the angle QPR on the flat paper given; the angle QPR after
  folding, among four whole degrees on an even grid (folding may widen or narrow it).

**No blind shortcut.** Each builder first fixes the shape of the option set (consecutive counts, labels 1-4, two
reversal pairs of orders, an even grid of distances) and the answer's place in it (``slot``, balanced in blocks
of four items by :func:`~foldbench.tasks.choice.answer_slot`), and only then picks the marks that make that
option true: the answer is the middle, the largest or the smallest option equally often, and no rule that reads
the options alone (:mod:`foldbench.harness.audit`) does better than chance.

Every number comes from the compiler (:mod:`foldbench.tasks.origamispace.relationships`), and marks are taken
inside faces and land inside cells, away from creases and layer boundaries, so the answer is unique.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

import numpy as np

from foldbench.tasks.origamispace.relationships import FoldReference, sample_inside

__all__ = [
    "KINDS",
    "QUESTION_TYPES",
    "UNITS",
    "Mark",
    "Question",
    "build_question",
    "angle_between",
    "side_words",
]

KINDS: tuple[str, ...] = ("pose", "layering", "geometric")
QUESTION_TYPES: dict[str, tuple[str, ...]] = {
    "pose": ("pose",),
    "layering": ("layers", "thickest", "stacking"),
    "geometric": ("distance", "angle"),
}
"""The question types of each kind."""
UNITS: float = 10.0
"""Distances are written for a paper of side 10."""
MIN_STEP: float = 0.5
"""The least difference (paper side 10) between two distance options."""
MAX_STEP: float = 2.0
"""The largest grid step of distance options."""
MIN_ANGLE_STEP: float = 15.0
"""The least difference in degrees between two angle options."""
MAX_ANGLE_STEP: float = 30.0
"""The largest grid step of angle options, in degrees."""
MIN_FOLDED_ARM: float = 0.08
"""An angle is asked only when Q and R land at least this far (paper side 1) from P after folding."""
MIN_MARK_GAP: float = 0.15
"""Two marks of one picture are at least this far apart (a fraction of the picture's extent)."""
MAX_PREIMAGES: int = 4
"""At most this many points (one per covering face) are tried for each place of a thickest question."""
PAPER_CENTRE: np.ndarray = np.array([0.5, 0.5])
"""The centre of the paper (side 1) that the thickest question balances distances from."""
_REVERSAL_PAIRS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((1, 2, 3), (3, 2, 1)), ((1, 3, 2), (2, 3, 1)), ((2, 1, 3), (3, 1, 2)),
)


@dataclass(frozen=True)
class Mark:
    """A labelled point of the paper drawn on the crease pattern (paper coordinates)."""

    label: str
    x: float
    y: float

    @property
    def point(self) -> np.ndarray:
        """The point as an array."""
        return np.array([self.x, self.y])

    def to_record(self) -> dict[str, Any]:
        """JSON form."""
        return {"label": self.label, "x": round(self.x, 6), "y": round(self.y, 6)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Mark:
        """The mark of :meth:`to_record`."""
        return cls(str(record["label"]), float(record["x"]), float(record["y"]))


@dataclass(frozen=True)
class Question:
    """One question: its type, the marks on the crease pattern, the options (text) and the answer's index."""

    question_type: str
    options: tuple[str, ...]
    answer: int
    pattern_marks: tuple[Mark, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict)
    """What the compiler says (the true value and the distractors' origins), for the record."""

    @property
    def kind(self) -> str:
        """The kind the question type belongs to."""
        return next(kind for kind, types in QUESTION_TYPES.items() if self.question_type in types)


def side_words(front: bool) -> str:
    """How an option names the side facing the viewer."""
    return "front side up" if front else "back side up"


def _span(reference: FoldReference) -> float:
    points = reference.folded_points
    return float((points.max(axis=0) - points.min(axis=0)).max()) or 1.0


def _far_apart(points: list[np.ndarray], gap: float) -> bool:
    return all(np.hypot(*(a - b)) >= gap for a, b in combinations(points, 2))


def _markable_faces(reference: FoldReference) -> list[int]:
    return [f for f, inner in enumerate(reference.faces_inner) if not inner.is_empty]


def _markable_cells(reference: FoldReference) -> list[int]:
    return [c for c, inner in enumerate(reference.cells_inner)
            if not inner.is_empty and reference.cells_layers[c] > 0]


def _choice(rng: np.random.Generator, values: list[Any]) -> Any:
    return values[int(rng.integers(len(values)))]


# ---- marks that land where they should ------------------------------------------------------------------------


def _fixed_mark(reference: FoldReference, rng: np.random.Generator) -> Mark | None:
    """The mark F on the face that stays in place (face 0: its isometry is the identity, its front side up)."""
    point = sample_inside(reference.faces_inner[0], rng)
    return None if point is None or reference.face_at(point) != 0 else Mark("F", *point)


def _point_landing_at(reference: FoldReference, landing: np.ndarray, face: int) -> np.ndarray | None:
    """The point of ``face`` that lands at ``landing``, when it lies inside the face (away from its creases)."""
    point = reference.unfold_point(landing, face)
    return point if reference.face_at(point) == face else None


def _landing_in(reference: FoldReference, cell: int, rng: np.random.Generator) -> np.ndarray | None:
    landing = sample_inside(reference.cells_inner[cell], rng)
    return landing if landing is not None and reference.cell_at(landing) == cell else None


def _covering(reference: FoldReference, cell: int, exclude: tuple[int, ...] = ()) -> list[int]:
    return [int(f) for f in reference.compiled.cells.cells_faces[cell]
            if int(f) not in exclude and not reference.faces_inner[int(f)].is_empty]


def _apart_on_paper(points: list[np.ndarray]) -> bool:
    return _far_apart(points, MIN_MARK_GAP)


# ---- pose localization ----------------------------------------------------------------------------------------


def _pose_distractors(reference: FoldReference, rng: np.random.Generator, face: int, point: np.ndarray,
                      target: np.ndarray) -> list[tuple[str, np.ndarray]]:
    """Candidate wrong places (appendix B.2): the flat-pattern place, the symmetric counterparts of the answer
    in the folded shape, and where a point of a neighbouring face lands."""
    low, high = reference.folded_points.min(axis=0), reference.folded_points.max(axis=0)
    centre = (low + high) / 2
    candidates = [("flat-pattern place", point.copy()),
                  ("mirror across the vertical axis", np.array([2 * centre[0] - target[0], target[1]])),
                  ("mirror across the horizontal axis", np.array([target[0], 2 * centre[1] - target[1]])),
                  ("mirror through the centre", 2 * centre - target)]
    pattern = reference.compiled.pattern
    neighbours = sorted({int(g) for edge in pattern.faces_edges[face] for g in pattern.edges_faces[edge]
                         if g >= 0 and g != face})
    for other in neighbours:
        nearby = sample_inside(reference.faces_inner[other], rng)
        if nearby is not None:
            candidates.append(("a point of a neighbouring face", reference.fold_point(nearby, other)))
    order = rng.permutation(len(candidates))
    return [candidates[i] for i in order]


def _pose_distractor_mark(reference: FoldReference, rng: np.random.Generator, face: int, point: np.ndarray,
                          target: np.ndarray) -> tuple[str, np.ndarray] | None:
    """A point of the paper (not of P's face) that lands at one of the distractor places, at least
    :data:`MIN_MARK_GAP` of the folded model's extent from where P lands."""
    gap = MIN_MARK_GAP * _span(reference)
    for origin, place in _pose_distractors(reference, rng, face, point, target):
        if np.hypot(*(place - target)) < gap:
            continue
        cell = reference.cell_at(place)
        if cell is None:
            continue
        faces = _covering(reference, cell, exclude=(face,))
        if not faces:
            continue
        mark = _point_landing_at(reference, place, _choice(rng, faces))
        if mark is not None:
            return origin, mark
    return None


def pose_question(reference: FoldReference, rng: np.random.Generator, slot: int,
                  balance: int = 0) -> Question | None:
    """Over or under which of points 1 and 2 does P land, and which side of P's paper faces up? Options: (mark 1
    | mark 2) x (front | back side up), in that order, so the answer's slot fixes its mark label (``slot // 2``)
    and its side (``slot % 2``). The mark P lands on is the one nearer to P on the paper exactly when ``balance``
    is even (the caller balances it), so "the nearer mark" is right in half the questions, not more."""
    front = slot % 2 == 0
    faces = [f for f in _markable_faces(reference) if reference.shows_front(f) == front]
    fixed = _fixed_mark(reference, rng)
    if not faces or fixed is None:
        return None
    face = _choice(rng, faces)
    point = sample_inside(reference.faces_inner[face], rng)
    if point is None or reference.face_at(point) != face:
        return None
    target = reference.fold_point(point, face)
    cell = reference.cell_at(target)
    partners = [] if cell is None else _covering(reference, cell, exclude=(face,))
    if not partners:
        return None
    answer_mark = _point_landing_at(reference, target, _choice(rng, partners))
    distractor = _pose_distractor_mark(reference, rng, face, point, target)
    if answer_mark is None or distractor is None:
        return None
    origin, other_mark = distractor
    if not _apart_on_paper([point, answer_mark, other_mark, fixed.point]):
        return None
    answer_nearer = np.hypot(*(answer_mark - point)) < np.hypot(*(other_mark - point))
    if answer_nearer != (balance % 2 == 0):
        return None
    answer_label, other_label = ("1", "2") if slot < 2 else ("2", "1")
    options = tuple(f"mark {label}, {side_words(side)}" for label in ("1", "2") for side in (True, False))
    marks = sorted((Mark(answer_label, *answer_mark), Mark(other_label, *other_mark)), key=lambda m: m.label)
    return Question("pose", options, slot, pattern_marks=(Mark("P", *point), *marks, fixed),
                    facts={"face": face, "front_up": front, "distractor": origin})


# ---- layering ------------------------------------------------------------------------------------------------


def layers_question(reference: FoldReference, rng: np.random.Generator, slot: int) -> Question | None:
    """How many layers where X lands? Four consecutive counts with the answer at rank ``slot`` (so the answer's
    ±1 and ±2 neighbours and, when the window starts at 1, the flat-pattern value are the distractors)."""
    cells = [c for c in _markable_cells(reference) if reference.cells_layers[c] >= slot + 1]
    if not cells:
        return None
    cell = _choice(rng, cells)
    landing = _landing_in(reference, cell, rng)
    faces = _covering(reference, cell)
    if landing is None or not faces:
        return None
    point = _point_landing_at(reference, landing, _choice(rng, faces))
    if point is None:
        return None
    layers = int(reference.cells_layers[cell])
    options = tuple(str(layers - slot + j) for j in range(4))
    return Question("layers", options, slot, pattern_marks=(Mark("X", *point),),
                    facts={"layers": layers, "cell": cell})


def thickest_question(reference: FoldReference, rng: np.random.Generator, slot: int,
                      balance: int = 0) -> Question | None:
    """At which of the points 1-4 is the folded model thickest (most layers where the point lands)? The answer
    is point ``slot + 1``; the other three land on thinner regions (a layer or more fewer), their levels drawn at
    random. The answer's rank by distance from the paper's centre is ``balance`` (0: nearest; the caller balances
    it)."""
    cells = _markable_cells(reference)
    levels = sorted({int(reference.cells_layers[c]) for c in cells})
    if len(levels) < 2:
        return None
    top = _choice(rng, levels[1:])
    thinner = [c for c in cells if reference.cells_layers[c] < top]
    if len(thinner) < 3:
        return None
    lower_levels = sorted({int(reference.cells_layers[c]) for c in thinner})
    chosen = [_choice(rng, [c for c in cells if reference.cells_layers[c] == top])]
    for _ in range(3):
        level = _choice(rng, lower_levels)
        pool = [c for c in thinner if reference.cells_layers[c] == level and c not in chosen]
        pool = pool or [c for c in thinner if c not in chosen]
        chosen.append(_choice(rng, pool))
    found = _balanced_points(reference, rng, chosen, balance % 4)
    if found is None:
        return None
    others = [label for label in ("1", "2", "3", "4") if label != str(slot + 1)]
    labels = [str(slot + 1)] + [others[i] for i in rng.permutation(3)]
    marks = sorted((Mark(label, *p) for label, p in zip(labels, found, strict=True)), key=lambda m: m.label)
    return Question("thickest", tuple(f"point {k}" for k in range(1, 5)), slot, pattern_marks=tuple(marks),
                    facts={"layers": {label: int(reference.cells_layers[c]) for label, c in
                                      zip(labels, chosen, strict=True)}})


def _balanced_points(reference: FoldReference, rng: np.random.Generator, cells: list[int], rank: int
                     ) -> list[np.ndarray] | None:
    """One point landing in each of ``cells`` (the first is the answer's), far apart on the paper, the answer's
    at ``rank`` by distance from the paper's centre: a thick place tends to lie under the middle of the paper,
    and "the point nearest the centre" found it in 54 % of questions when the points were drawn freely."""
    choices: list[list[np.ndarray]] = []
    for cell in cells:
        landing = _landing_in(reference, cell, rng)
        faces = _covering(reference, cell)
        if landing is None or not faces:
            return None
        points = [p for f in rng.permutation(faces)[:MAX_PREIMAGES]
                  if (p := _point_landing_at(reference, landing, int(f))) is not None]
        if not points:
            return None
        choices.append(points)
    fitting = []
    for combination in product(*choices):
        found = list(combination)
        distances = [float(np.hypot(*(p - PAPER_CENTRE))) for p in found]
        if sorted(distances).index(distances[0]) == rank and _apart_on_paper(found):
            fitting.append(found)
    return fitting[int(rng.integers(len(fitting)))] if fitting else None


def _option_orders(rng: np.random.Generator) -> list[tuple[int, int, int]]:
    pairs = [_REVERSAL_PAIRS[i] for i in sorted(rng.choice(3, size=2, replace=False))]
    return sorted(order for pair in pairs for order in pair)


def stacking_question(reference: FoldReference, rng: np.random.Generator, slot: int) -> Question | None:
    """Points 1-3 of three faces land at one place: their order from top to bottom. Four orders made of two
    reversal pairs (so the order seen from below is always offered); the labels are given to the points so that
    the true order is option ``slot``."""
    cells = [c for c in _markable_cells(reference) if reference.cells_layers[c] >= 3]
    fixed = _fixed_mark(reference, rng)
    if not cells or fixed is None:
        return None
    cell = _choice(rng, cells)
    candidates = _covering(reference, cell)
    if len(candidates) < 3:
        return None
    faces = [int(f) for f in rng.choice(candidates, size=3, replace=False)]
    order = reference.stacking(cell, faces)
    landing = _landing_in(reference, cell, rng)
    if order is None or landing is None:
        return None
    points = [_point_landing_at(reference, landing, f) for f in order]
    found = [p for p in points if p is not None]
    if len(found) != 3 or not _apart_on_paper([*found, fixed.point]):
        return None
    orders = _option_orders(rng)
    truth = orders[slot]
    marks = sorted((Mark(str(label), *p) for label, p in zip(truth, found, strict=True)), key=lambda m: m.label)
    return Question("stacking", tuple(", ".join(map(str, o)) for o in orders), slot,
                    pattern_marks=(*marks, fixed), facts={"cell": cell, "faces_top_to_bottom": order})


# ---- geometric change ----------------------------------------------------------------------------------------


def distance_question(reference: FoldReference, rng: np.random.Generator, slot: int) -> Question | None:
    """P and Q (in different faces) are ``d`` apart on the flat paper (the flat-pattern value, given in the
    question): how far apart after folding? Options are an even grid of step at least :data:`MIN_STEP` with the
    answer at rank ``slot``, every option below ``d`` (folding never lengthens the straight distance between two
    points of a flat sheet, and it shortens it whenever a crease lies between them, so an option at ``d`` would
    always be wrong and an option above it could be struck out without looking at the pictures)."""
    faces = _markable_faces(reference)
    if len(faces) < 2:
        return None
    face, other = (int(f) for f in rng.choice(faces, size=2, replace=False))
    point = sample_inside(reference.faces_inner[face], rng)
    partner = sample_inside(reference.faces_inner[other], rng)
    if point is None or partner is None or reference.face_at(point) != face or reference.face_at(partner) != other:
        return None
    flat = float(np.hypot(*(point - partner))) * UNITS
    folded = float(np.hypot(*(reference.fold_point(point, face) - reference.fold_point(partner, other)))) * UNITS
    step = float(rng.uniform(MIN_STEP, MAX_STEP))
    values = [folded + (j - slot) * step for j in range(4)]
    if values[0] < MIN_STEP / 2 or values[3] > flat - MIN_STEP / 2:
        return None
    options = tuple(f"{v:.1f}" for v in values)
    if len(set(options)) < 4:
        return None
    return Question("distance", options, slot, pattern_marks=(Mark("P", *point), Mark("Q", *partner)),
                    facts={"flat": round(flat, 4), "folded": round(folded, 4), "faces": [face, other],
                           "step": round(step, 4)})


def angle_between(first: np.ndarray, second: np.ndarray) -> float:
    """The angle in degrees (0-180) between two vectors.

    >>> angle_between(np.array([1.0, 0.0]), np.array([0.0, 2.0]))
    90.0
    """
    cosine = float(first @ second) / float(np.hypot(*first) * np.hypot(*second))
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def angle_question(reference: FoldReference, rng: np.random.Generator, slot: int) -> Question | None:
    """P, Q and R (in three different faces) make the angle QPR on the flat paper (the flat-pattern value, given
    in the question): what is the angle QPR after folding? Options are whole degrees on an even grid of step
    :data:`MIN_ANGLE_STEP`-:data:`MAX_ANGLE_STEP` within 0-180, the answer at rank ``slot``. Folding may widen or
    narrow an angle, so the options lie on both sides of the flat value as the grid falls."""
    faces = _markable_faces(reference)
    if len(faces) < 3:
        return None
    chosen = [int(f) for f in rng.choice(faces, size=3, replace=False)]
    points = [sample_inside(reference.faces_inner[f], rng) for f in chosen]
    if any(p is None for p in points):
        return None
    found = [p for p in points if p is not None]
    if [reference.face_at(p) for p in found] != chosen or not _far_apart(found, MIN_MARK_GAP):
        return None
    folded = [reference.fold_point(p, f) for p, f in zip(found, chosen, strict=True)]
    if min(np.hypot(*(folded[1] - folded[0])), np.hypot(*(folded[2] - folded[0]))) < MIN_FOLDED_ARM:
        return None
    flat = angle_between(found[1] - found[0], found[2] - found[0])
    after = angle_between(folded[1] - folded[0], folded[2] - folded[0])
    step = float(rng.uniform(MIN_ANGLE_STEP, MAX_ANGLE_STEP))
    values = [after + (j - slot) * step for j in range(4)]
    if values[0] < 0 or values[3] > 180:
        return None
    options = tuple(f"{round(v)}°" for v in values)
    if len(set(options)) < 4:
        return None
    return Question("angle", options, slot, pattern_marks=(Mark("P", *found[0]), Mark("Q", *found[1]),
                                                            Mark("R", *found[2])),
                    facts={"flat": round(flat, 3), "folded": round(after, 3), "faces": chosen,
                           "step": round(step, 3)})


BUILDERS = {"pose": pose_question, "layers": layers_question, "thickest": thickest_question,
            "stacking": stacking_question, "distance": distance_question, "angle": angle_question}


def build_question(question_type: str, reference: FoldReference, rng: np.random.Generator,
                   slot: int, balance: int = 0) -> Question | None:
    """A question of ``question_type`` on ``reference`` with the answer at option ``slot``, or None when this
    reference (or this draw) gives none. ``balance`` (0-3, balanced over items by the caller) fixes where the
    answer's marks sit relative to the others, for the types whose marks could give it away (pose, thickest)."""
    if question_type in ("pose", "thickest"):
        return BUILDERS[question_type](reference, rng, slot, balance)  # type: ignore[call-arg]
    return BUILDERS[question_type](reference, rng, slot)
