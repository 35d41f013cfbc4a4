"""Scoring a generated crease pattern against a reference, after OrigamiSpace's code-generation evaluation.

The generated FOLD document is compiled first (:mod:`foldbench.crease.io.generated`). Its verdict is one of
OrigamiSpace's error classes (``CSE`` syntax, ``GIF`` geometrically impossible, ``PSI`` self-intersection,
``AFS`` ambiguous; ``PRECISION`` when the coordinates are too imprecise to decide) or None. A pattern that
compiles is compared with the reference in four dimensions, each in [0, 1], total = 0.25 × each:

* **topology** = 0.2 vertex count + 0.3 edges + 0.3 faces + 0.2 crease types, where vertex count is
  ``exp(-0.5 |Vg - Vr| / min)``, edges = 0.7 (1 - normalised Wasserstein distance of the degree distributions)
  + 0.3 ``exp(-|Cg - Cr|)`` over the connected components of the creases (the boundary left out: with it,
  every pattern the compiler reads is connected), faces = 0.3 count + 0.3 mean size + 0.4 size
  distribution, crease types = (0.4 mountain + 0.4 valley + 0.2 boundary proportion agreement) × the ratio of
  edge counts (0.2 when either pattern has no assignment at all);
* **geometry** = 0.4 point positions + 0.3 fold angles + 0.3 proportions: ``exp(-5 d_H)`` for the Hausdorff
  distance of the folded vertices (each set centred and scaled into the unit disc, then turned and possibly
  turned over to fit best: a flat model lying the other way up is the same model), the cosine similarity of the
  10-degree histograms of the signed fold angles read from the folded state, and of the sorted, normalised sides
  of the folded shape's bounding box (the generated shape turned as for the point positions);
* **constraints** = 0.3 taco-taco + 0.3 taco-tortilla + 0.2 transitivity + 0.2 local flat-foldability: each
  constraint set (faces identified by where they lie on the paper) scores 0.7 Jaccard + 0.3 count similarity
  (1 when both are empty, 0.3 when only one is); local flat-foldability is half Maekawa, half Kawasaki, each
  the share of interior vertices of either pattern that sit at the same place in both and meet the condition in
  the generated one (0.2 for a matched vertex that breaks it);
* **folded state** = 0.7 shape + 0.3 layer order: ``exp(-5 d_H)`` between points along the outlines of the
  two folded shapes (aligned as above), and the share of overlapping face pairs (faces matched on the paper) of
  either fold whose stacking relation is the same in both (above, below, or free across folded states).

These four make **the paper's total** (``paper_total``), with appendix D's fallbacks: a pattern that is read
but does not fold flat keeps its topology score and gets 0.2 for geometry, 0.2 for the constraints and 0.3 for
the folded state (the values the paper's evaluation returns when a pattern fails to compile). A syntax error
(nothing to read) scores 0 in every dimension. An ambiguous pattern (more folded states than the reference) is
scored in full but does not pass.

Several of the paper's sub-scores are close to 1 for any flat-folding pattern (fold angles, the bounding-box
proportions, face-size and degree distributions), and the fallbacks give a pattern that does not fold about
0.2-0.4 of the total, so the paper's total separates a random pattern poorly from a near miss. foldbench's
headline (``score``) ranks answers as a person would: 0.85 × the crease agreement (the overlap of the two crease
drawings: crease length at the same place with the same assignment, over the length of either, counted beyond
what the same drawing shares by chance elsewhere on the paper, :mod:`foldbench.crease.score.crease_match`) + 0.15 ×
the folded-shape similarity (``shape``), credited in full only where the crease agreement reaches 0.5 and in
proportion below, down to a fifth (pleated models all fold into similar strips, so a shape the creases do not
explain is chance). The agreement is computed on the crease patterns, so an answer that does not fold is still
compared on what it draws; its folded shape being unknown, the agreement stands in for the shape term.
Unparseable text scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from foldbench.crease.compiler import CompiledFold, compile_crease_pattern
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.io.generated import MAX_GENERATED_EDGES, GeneratedFold, compile_generated
from foldbench.crease.score._similarity_features import (
    FoldedFeatures,
    PatternFeatures,
    folded_features,
    pattern_features,
)
from foldbench.crease.score.crease_match import crease_agreement

__all__ = [
    "DIMENSION_WEIGHTS",
    "FAILED_COMPILE_SCORES",
    "HEADLINE_WEIGHTS",
    "HAUSDORFF_SENSITIVITY",
    "SUBSCORE_NAMES",
    "ReferenceFold",
    "SimilarityScore",
    "partial_similarity",
    "prepare_reference",
    "score_generated",
]

DIMENSION_WEIGHTS: dict[str, float] = {"topology": 0.25, "geometry": 0.25, "constraints": 0.25,
                                       "folded_state": 0.25}
"""OrigamiSpace's weights of the four dimensions."""
FAILED_COMPILE_SCORES: dict[str, float] = {"geometry": 0.2, "constraints": 0.2, "folded_state": 0.3}
"""Appendix D's scores of the dimensions that need a folded model when the generated pattern does not fold."""
HEADLINE_WEIGHTS: dict[str, float] = {"creases": 0.85, "shape": 0.15}
"""foldbench's headline: the weights of the crease agreement and the folded-shape similarity."""
SHAPE_CREDIT_CREASES: float = 0.5
"""The folded shape earns its full weight only from a crease agreement of this much up, in proportion below it
(down to :data:`SHAPE_CREDIT_FLOOR`): every pleated model folds into a similar strip, so a shape the creases do
not explain is mostly chance (``random`` on hard pleats kept 14-15 % of the headline from the shape term alone)."""
SHAPE_CREDIT_FLOOR: float = 0.2
"""The share of the shape term any folding answer keeps, so that a pattern that folds into something still
ranks above unparseable text (0)."""
HAUSDORFF_SENSITIVITY: float = 5.0
"""``k`` in ``exp(-k d_H)``."""
MATCH_TOLERANCE: float = 1e-4
"""Two faces (centroids) or vertices closer than this on the normalised paper are the same place."""
SUBSCORE_NAMES: tuple[str, ...] = (
    "vertex_count", "degree_distribution", "components", "face_count", "face_vertices", "face_size_distribution",
    "crease_types", "point_positions", "fold_angles", "proportions", "taco_taco", "taco_tortilla",
    "transitivity", "maekawa", "kawasaki", "shape", "layer_order",
)
"""Every sub-score a :class:`SimilarityScore` carries (0 where its dimension is blocked)."""
ROUNDING_SNAP: float = 1e-9
"""Sub-scores within this of 0 or 1 are floating-point noise of an exact match and are snapped to it."""


@dataclass(frozen=True)
class ReferenceFold:
    """A reference crease pattern with its features computed once."""

    pattern: CreasePattern
    compiled: CompiledFold
    pattern_features: PatternFeatures
    folded_features: FoldedFeatures
    _keys: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def constraint_keys(self, kind: str) -> np.ndarray:
        """The reference's constraints of one type as sorted integer keys (computed once)."""
        if kind not in self._keys:
            self._keys[kind] = _encode(self.folded_features.constraints[kind],
                                       _key_base(self.pattern_features.face_count))
        return self._keys[kind]


def prepare_reference(pattern: CreasePattern) -> ReferenceFold:
    """Compile a reference pattern and read its features (raises the compiler's error if it does not fold)."""
    compiled = compile_crease_pattern(pattern)
    return ReferenceFold(pattern, compiled, pattern_features(pattern), folded_features(compiled))


@dataclass(frozen=True)
class SimilarityScore:
    """The verdict and scores of one generated pattern.

    Attributes:
        error: None, or the error record ``{class, code, message, where}``.
        passed: compiled, and no more folded states than the reference.
        states: folded states of the generated pattern (None when it does not compile).
        dimensions: the four dimension scores.
        subscores: every sub-score (see :data:`SUBSCORE_NAMES`).
    """

    error: dict[str, Any] | None
    passed: bool
    states: int | None
    dimensions: dict[str, float]
    subscores: dict[str, float] = field(default_factory=dict)
    crease_precision: float = 0.0
    crease_recall: float = 0.0

    @property
    def compiled(self) -> bool:
        """Whether the pattern folded flat (it may still be ambiguous)."""
        return self.states is not None

    @property
    def total(self) -> float:
        """The paper's total: the weighted sum of the four dimensions (with appendix D's fallbacks)."""
        return float(sum(DIMENSION_WEIGHTS[name] * value for name, value in self.dimensions.items()))

    @property
    def creases(self) -> float:
        """The crease agreement: the overlap (Jaccard) of the two crease drawings, from the shares of each
        credited beyond chance (see :mod:`foldbench.crease.score.crease_match`)."""
        p, r = self.crease_precision, self.crease_recall
        return 0.0 if p <= 0 or r <= 0 else p * r / (p + r - p * r)

    @property
    def score(self) -> float:
        """foldbench's headline, in [0, 1]: 0.85 × the crease agreement + 0.15 × the folded-shape similarity,
        the shape credited in full from an agreement of :data:`SHAPE_CREDIT_CREASES` up and in proportion below
        (at least :data:`SHAPE_CREDIT_FLOOR` of it);
        a pattern that does not fold is judged on its creases alone (its folded shape unknown, the agreement
        stands for it)."""
        creases = self.creases
        if self.compiled:
            credit = max(SHAPE_CREDIT_FLOOR, min(1.0, creases / SHAPE_CREDIT_CREASES))
            shape = self.subscores.get("shape", 0.0) * credit
        else:
            shape = creases
        return _snapped(HEADLINE_WEIGHTS["creases"] * creases + HEADLINE_WEIGHTS["shape"] * shape)

    @property
    def error_class(self) -> str | None:
        """The error's class, or None."""
        return None if self.error is None else str(self.error["class"])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready record."""
        return {"error": self.error, "passed": self.passed, "states": self.states, "score": round(self.score, 6),
                "total": round(self.total, 6), "creases": round(self.creases, 6),
                "dimensions": {k: round(v, 6) for k, v in self.dimensions.items()},
                "subscores": {k: round(v, 6) for k, v in self.subscores.items()}}


def _ratio_score(a: float, b: float, rate: float = 1.0) -> float:
    return float(np.exp(-rate * abs(a - b) / max(1.0, min(a, b))))


def _wasserstein(a: np.ndarray, b: np.ndarray) -> float:
    """The 1-Wasserstein distance between the distributions of two non-negative integer samples."""
    size = int(max(a.max(), b.max())) + 1
    cdf_a = np.cumsum(np.bincount(a, minlength=size)) / len(a)
    cdf_b = np.cumsum(np.bincount(b, minlength=size)) / len(b)
    return float(np.abs(cdf_a - cdf_b).sum())


def _distribution_score(a: np.ndarray, b: np.ndarray) -> float:
    """1 - the Wasserstein distance of two integer distributions divided by the largest value seen."""
    if len(a) == 0 or len(b) == 0:
        return float(len(a) == len(b))
    spread = max(1.0, float(max(a.max(), b.max())))
    return float(max(0.0, 1.0 - _wasserstein(a, b) / spread))


def _crease_types(gen: PatternFeatures, ref: PatternFeatures) -> float:
    folded_letters = "MVF"
    if not any(gen.assignment_counts[c] for c in folded_letters) and gen.assignment_counts["U"] or \
            not any(ref.assignment_counts[c] for c in folded_letters) and ref.assignment_counts["U"]:
        return 0.2
    gen_total, ref_total = max(1, gen.edge_count), max(1, ref.edge_count)
    share = {c: 1 - abs(gen.assignment_counts[c] / gen_total - ref.assignment_counts[c] / ref_total) for c in "MVB"}
    return (0.4 * share["M"] + 0.4 * share["V"] + 0.2 * share["B"]) * min(gen_total, ref_total) / max(gen_total,
                                                                                                   ref_total)


def _topology(gen: PatternFeatures, ref: PatternFeatures) -> dict[str, float]:
    return {
        "vertex_count": _ratio_score(gen.vertex_count, ref.vertex_count, 0.5),
        "degree_distribution": _distribution_score(gen.degrees, ref.degrees),
        "components": float(np.exp(-abs(gen.components - ref.components))),
        "face_count": _ratio_score(gen.face_count, ref.face_count),
        "face_vertices": _ratio_score(float(gen.face_sizes.mean()), float(ref.face_sizes.mean())),
        "face_size_distribution": _distribution_score(gen.face_sizes, ref.face_sizes),
        "crease_types": _crease_types(gen, ref),
    }


def _normalised(points: np.ndarray) -> np.ndarray:
    centred = points - points.mean(axis=0)
    radius = float(np.hypot(*centred.T).max()) if len(centred) else 0.0
    return centred / radius if radius > 0 else centred


def _nearest(points: np.ndarray, others: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each point, the distance to the nearest of ``others`` and its index (in blocks, bounded memory)."""
    distances = np.empty(len(points))
    indices = np.empty(len(points), dtype=np.int64)
    block = max(1, 2_000_000 // max(1, len(others)))
    for start in range(0, len(points), block):
        chunk = points[start:start + block]
        squared = ((chunk[:, None, :] - others[None, :, :]) ** 2).sum(axis=2)
        indices[start:start + block] = squared.argmin(axis=1)
        distances[start:start + block] = np.sqrt(squared[np.arange(len(chunk)), indices[start:start + block]])
    return distances, indices


def _hausdorff(a: np.ndarray, b: np.ndarray) -> float:
    return float(max(_nearest(a, b)[0].max(), _nearest(b, a)[0].max()))


_SQUARE_SYMMETRIES = [np.array(m, float) for m in (
    [[1, 0], [0, 1]], [[0, -1], [1, 0]], [[-1, 0], [0, -1]], [[0, 1], [-1, 0]],
    [[1, 0], [0, -1]], [[-1, 0], [0, 1]], [[0, 1], [1, 0]], [[0, -1], [-1, 0]])]


def _candidate_turns(gen: FoldedFeatures, ref: FoldedFeatures, face_map: np.ndarray) -> list[np.ndarray]:
    """Linear maps that may carry the generated folded state onto the reference's: the square's symmetries and,
    for the largest faces found on both papers, the map that sends one's folded copy onto the other's."""
    turns = list(_SQUARE_SYMMETRIES)
    matched = np.flatnonzero(face_map >= 0)[:8]
    for gen_face in matched:
        turns.append(ref.face_transforms[face_map[gen_face], :, :2] @ gen.face_transforms[gen_face, :, :2].T)
    return turns


def _aligned_distance(gen_points: np.ndarray, ref_points: np.ndarray,
                      turns: list[np.ndarray]) -> tuple[float, list[np.ndarray]]:
    """The smallest Hausdorff distance of the normalised point sets over ``turns``, and the turns that fit best
    (best first)."""
    gen_n, ref_n = _normalised(gen_points), _normalised(ref_points)
    distances = [_hausdorff(gen_n @ turn.T, ref_n) for turn in turns]
    order = np.argsort(distances, kind="stable")
    return distances[int(order[0])], [turns[int(i)] for i in order[:SHAPE_TURNS]]


SHAPE_TURNS: int = 2
"""The outlines are compared under the turns that fit the folded vertices best, this many of them."""
SHAPE_DENSIFY: float = 0.02
"""Outlines are densified to this fraction of their size before their Hausdorff distance is taken."""


def _normalised_shape(shape: shapely.Geometry) -> shapely.Geometry:
    corners = shapely.get_coordinates(shapely.boundary(shape))
    centre = shapely.get_coordinates(shapely.centroid(shape))[0] if len(corners) else np.zeros(2)
    radius = float(np.hypot(*(corners - centre).T).max()) if len(corners) else 0.0
    return shapely.transform(shape, lambda points: (points - centre) / (radius or 1.0))


def _shape_distance(gen: shapely.Geometry, ref: shapely.Geometry, turns: list[np.ndarray]) -> float:
    """The Hausdorff distance between two folded outlines, each centred and scaled into the unit disc, after
    the best of ``turns``."""
    gen_n, ref_n = shapely.boundary(_normalised_shape(gen)), shapely.boundary(_normalised_shape(ref))
    return min(float(shapely.hausdorff_distance(shapely.transform(gen_n, lambda p, t=turn: p @ t.T), ref_n,
                                                densify=SHAPE_DENSIFY)) for turn in turns)


def _histogram_cosine(a: np.ndarray, b: np.ndarray) -> float:
    bins = np.arange(-185.0, 186.0, 10.0)  # 37 bins of 10 degrees centred on -180, -170, ..., 180
    ha = np.histogram(a, bins)[0].astype(float)
    hb = np.histogram(b, bins)[0].astype(float)
    if not ha.any() or not hb.any():
        return float(ha.any() == hb.any())
    return float(ha @ hb / (np.linalg.norm(ha) * np.linalg.norm(hb)))


def _proportions(points: np.ndarray) -> np.ndarray:
    """The sides of the axis-aligned bounding box, sorted, divided by the longest, padded with the flat height."""
    sides = sorted(np.ptp(points, axis=0).tolist(), reverse=True) if len(points) else [0.0, 0.0]
    if sides[0] <= 0:
        return np.array([1.0, 0.0, 0.0])
    return np.array([1.0, sides[1] / sides[0], 0.0])


def _geometry(gen: FoldedFeatures, ref: FoldedFeatures,
              turns: list[np.ndarray]) -> tuple[dict[str, float], list[np.ndarray]]:
    distance, best = _aligned_distance(gen.points, ref.points, turns)
    a, b = _proportions(gen.points @ best[0].T), _proportions(ref.points)
    return {
        "point_positions": float(np.exp(-HAUSDORFF_SENSITIVITY * distance)),
        "fold_angles": _histogram_cosine(gen.fold_angles, ref.fold_angles),
        "proportions": float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))),
    }, best


def _match(gen_points: np.ndarray, ref_points: np.ndarray) -> np.ndarray:
    """For each generated point, the reference point at the same place (-1 where none)."""
    if len(gen_points) == 0 or len(ref_points) == 0:
        return np.full(len(gen_points), -1)
    distance, index = _nearest(gen_points, ref_points)
    return np.where(distance <= MATCH_TOLERANCE, index, -1)


def _face_map(gen: PatternFeatures, ref: PatternFeatures) -> np.ndarray:
    mapping = _match(gen.face_centroids, ref.face_centroids)
    found = mapping >= 0
    same_area = np.abs(gen.face_areas[found] - ref.face_areas[mapping[found]]) <= MATCH_TOLERANCE
    mapping[np.flatnonzero(found)[~same_area]] = -1
    return mapping


def _key_base(ref_face_count: int) -> int:
    """Face numbers in keys run below this: the reference's faces, then any generated face (a generated pattern
    has fewer faces than :data:`MAX_GENERATED_EDGES`)."""
    return ref_face_count + MAX_GENERATED_EDGES + 1


def _encode(rows: np.ndarray, base: int) -> np.ndarray:
    """Each row of face numbers as one integer, sorted, without repeats."""
    keys = np.zeros(len(rows), dtype=np.int64)
    for column in range(rows.shape[1]):
        keys = keys * base + rows[:, column]
    keys.sort()
    return keys[np.concatenate([[True], keys[1:] != keys[:-1]])] if len(keys) else keys


def _set_score(gen_keys: np.ndarray, ref_keys: np.ndarray) -> float:
    if len(gen_keys) == 0 and len(ref_keys) == 0:
        return 1.0
    if len(gen_keys) == 0 or len(ref_keys) == 0:
        return 0.3
    positions = np.minimum(np.searchsorted(ref_keys, gen_keys), len(ref_keys) - 1)
    common = int(np.count_nonzero(ref_keys[positions] == gen_keys))
    jaccard = common / (len(gen_keys) + len(ref_keys) - common)
    return 0.7 * jaccard + 0.3 * _ratio_score(len(gen_keys), len(ref_keys))


def _renumbered(face_map: np.ndarray, ref_face_count: int) -> np.ndarray:
    """Generated face numbers in the reference's numbering; unmatched faces get numbers of their own."""
    return np.where(face_map >= 0, face_map, ref_face_count + np.arange(len(face_map)))


def _vertex_share(gen: PatternFeatures, ref: PatternFeatures, gen_ok: np.ndarray) -> float:
    total = len(ref.interior_coords) + len(gen.interior_coords)
    if total == 0:
        return 1.0
    matched = _match(gen.interior_coords, ref.interior_coords) >= 0
    credit = np.where(gen_ok[matched], 1.0, 0.2).sum()
    return float(credit / (total - matched.sum()))


def _constraints(gen: tuple[PatternFeatures, FoldedFeatures], reference: ReferenceFold,
                 face_map: np.ndarray) -> dict[str, float]:
    ref = (reference.pattern_features, reference.folded_features)
    numbers = _renumbered(face_map, ref[0].face_count)
    base = _key_base(ref[0].face_count)
    scores = {}
    for name, key in (("taco-taco", "taco_taco"), ("taco-tortilla", "taco_tortilla"),
                      ("transitivity", "transitivity")):
        gen_rows = gen[1].constraints[name]
        mapped = numbers[gen_rows] if len(gen_rows) else gen_rows
        if name == "taco-taco" and len(mapped):
            pairs = np.sort(mapped.reshape(-1, 2, 2), axis=2)
            order = np.lexsort((pairs[:, :, 1], pairs[:, :, 0]), axis=1)
            mapped = np.take_along_axis(pairs, order[:, :, None], axis=1).reshape(-1, 4)
        elif name == "taco-tortilla" and len(mapped):
            mapped = np.column_stack([np.sort(mapped[:, :2], axis=1), mapped[:, 2]])
        elif len(mapped):
            mapped = np.sort(mapped, axis=1)
        scores[key] = _set_score(_encode(mapped, base), reference.constraint_keys(name))
    scores["maekawa"] = _vertex_share(gen[0], ref[0], gen[0].maekawa_ok)
    scores["kawasaki"] = _vertex_share(gen[0], ref[0], gen[0].kawasaki_ok)
    return scores


def _layer_order(gen: FoldedFeatures, ref: FoldedFeatures, face_map: np.ndarray, ref_face_count: int) -> float:
    if len(gen.layer_pairs) == 0 and len(ref.layer_pairs) == 0:
        return 1.0
    numbers = _renumbered(face_map, ref_face_count)
    base = _key_base(ref_face_count)
    pairs = numbers[gen.layer_pairs] if len(gen.layer_pairs) else gen.layer_pairs.reshape(-1, 2)
    swapped = pairs[:, 0] > pairs[:, 1]
    # "f lies on g's front side" read the other way round: for faces facing the same way, g then lies on f's
    # back side; for faces facing opposite ways, on f's front side.
    same_way = gen.faces_flipped[gen.layer_pairs[:, 0]] == gen.faces_flipped[gen.layer_pairs[:, 1]] \
        if len(pairs) else np.zeros(0, bool)
    relations = np.where(swapped & same_way, -gen.layer_relations, gen.layer_relations)
    gen_keys = np.sort(pairs, axis=1) @ np.array([base, 1], dtype=np.int64)
    ref_keys = ref.layer_pairs.reshape(-1, 2) @ np.array([base, 1], dtype=np.int64)  # sorted pairs, sorted
    if len(ref_keys) == 0:
        return 0.0
    position = np.minimum(np.searchsorted(ref_keys, gen_keys), len(ref_keys) - 1)
    shared = ref_keys[position] == gen_keys
    agree = int(np.count_nonzero(shared & (ref.layer_relations[position] == relations)))
    union = len(ref_keys) + len(gen_keys) - int(np.count_nonzero(shared))
    return agree / union


def _snapped(value: float) -> float:
    value = min(1.0, max(0.0, float(value)))
    return 1.0 if value > 1.0 - ROUNDING_SNAP else 0.0 if value < ROUNDING_SNAP else value


def _dimensions(subscores: dict[str, float]) -> dict[str, float]:
    s = {name: _snapped(value) for name, value in subscores.items()}
    subscores.update(s)
    edges = 0.7 * s["degree_distribution"] + 0.3 * s["components"]
    faces = 0.3 * s["face_count"] + 0.3 * s["face_vertices"] + 0.4 * s["face_size_distribution"]
    return {
        "topology": 0.2 * s["vertex_count"] + 0.3 * edges + 0.3 * faces + 0.2 * s["crease_types"],
        "geometry": 0.4 * s["point_positions"] + 0.3 * s["fold_angles"] + 0.3 * s["proportions"],
        "constraints": 0.3 * s["taco_taco"] + 0.3 * s["taco_tortilla"] + 0.2 * s["transitivity"]
        + 0.2 * (0.5 * s["maekawa"] + 0.5 * s["kawasaki"]),
        "folded_state": 0.7 * s["shape"] + 0.3 * s["layer_order"],
    }


def score_generated(document: Any, reference: ReferenceFold) -> SimilarityScore:
    """Compile a generated FOLD document (any JSON value) and score it against the reference; never raises for
    bad input (see the module docstring for the scores)."""
    generated = compile_generated(document)
    subscores = dict.fromkeys(SUBSCORE_NAMES, 0.0)
    if generated.pattern is None:
        return SimilarityScore(generated.error, False, None, _dimensions(subscores), subscores)
    gen_pattern = pattern_features(generated.pattern)
    ref_pattern = reference.pattern_features
    subscores.update(_topology(gen_pattern, ref_pattern))
    agreement = crease_agreement(generated.pattern, reference.pattern)
    creases = {"crease_precision": agreement.precision, "crease_recall": agreement.recall}
    if generated.compiled is None:
        dimensions = {**FAILED_COMPILE_SCORES, "topology": _dimensions(subscores)["topology"]}
        return SimilarityScore(generated.error, False, None, {name: dimensions[name] for name in DIMENSION_WEIGHTS},
                               subscores, **creases)
    gen_folded = folded_features(generated.compiled)
    ref_folded = reference.folded_features
    face_map = _face_map(gen_pattern, ref_pattern)
    turns = _candidate_turns(gen_folded, ref_folded, face_map)
    geometry, best_turns = _geometry(gen_folded, ref_folded, turns)
    subscores.update(geometry)
    subscores.update(_constraints((gen_pattern, gen_folded), reference, face_map))
    subscores["shape"] = float(np.exp(-HAUSDORFF_SENSITIVITY * _shape_distance(gen_folded.outline,
                                                                                ref_folded.outline, best_turns)))
    subscores["layer_order"] = _layer_order(gen_folded, ref_folded, face_map, ref_pattern.face_count)
    error = None
    if gen_folded.states > ref_folded.states:
        error = {"class": "AFS", "code": "E_AMBIGUOUS_STATE",
                 "message": f"{gen_folded.states} flat-folded states where the reference has {ref_folded.states}",
                 "where": {"states": gen_folded.states, "reference_states": ref_folded.states}}
    return SimilarityScore(error, error is None, gen_folded.states, _dimensions(subscores), subscores, **creases)


def partial_similarity(generated: GeneratedFold, reference: ReferenceFold) -> float | None:
    """A quick similarity of a compiled generated pattern to the reference, in [0, 1] (None when it does not
    fold flat): 0.25 × each of the topology dimension, the point positions, local flat-foldability (½ Maekawa +
    ½ Kawasaki) and the folded shape, as in :func:`score_generated`. It leaves out what costs most beyond
    compiling (the constraint sets and the layer orders) and reads one folded state, so it is meant for rewards
    between steps; an identical pattern scores 1.
    """
    if generated.pattern is None or generated.compiled is None:
        return None
    gen_pattern = pattern_features(generated.pattern)
    ref_pattern, ref_folded = reference.pattern_features, reference.folded_features
    gen_folded = folded_features(generated.compiled)
    topology = _dimensions({**dict.fromkeys(SUBSCORE_NAMES, 0.0), **_topology(gen_pattern, ref_pattern)})["topology"]
    turns = _candidate_turns(gen_folded, ref_folded, _face_map(gen_pattern, ref_pattern))
    distance, best_turns = _aligned_distance(gen_folded.points, ref_folded.points, turns)
    local = 0.5 * _vertex_share(gen_pattern, ref_pattern, gen_pattern.maekawa_ok) + \
        0.5 * _vertex_share(gen_pattern, ref_pattern, gen_pattern.kawasaki_ok)
    shape = np.exp(-HAUSDORFF_SENSITIVITY * _shape_distance(gen_folded.outline, ref_folded.outline, best_turns))
    parts = (topology, np.exp(-HAUSDORFF_SENSITIVITY * distance), local, shape)
    return _snapped(0.25 * sum(float(part) for part in parts))
