"""Small gaps of the folded state that a folded tolerance would close, judged against the input's noise.

When the input is rounded, the folded tolerance has to be wide enough to merge points that should coincide
but land a little apart. The same tolerance may also close a small gap the design really has (a corner that
overlaps another face by a sliver), which changes the count. The two look alike by size; they differ by
*how they move when the input moves*: a gap the noise opened changes by about its own width when the input is
moved again by its precision, a genuine gap hardly changes.

:func:`genuine_gaps` finds, among the folded vertices, every vertex-vertex and vertex-edge gap narrower than a
tolerance (and wider than the policy's ``folded_distance``, which the policy
merges even in exact input), refolds the pattern :data:`GAP_TRIALS` times with every crease-pattern vertex
moved at random by up to the input's noise (:func:`noise_amplitude`), and returns the gaps wider than
:data:`GAP_NOISE_FACTOR` times the most they moved: those are features of the design that the tolerance must
not merge.

The movement is measured on a pattern whose folded vertices agree (the input itself, or its Kawasaki-regularised
neighbour, :mod:`foldbench.crease.graph.regularize`), moved by noise projected onto the patterns that still meet
Kawasaki exactly (:class:`GapJudge`): a design is folded from creases that meet Kawasaki, so how far its gaps
move when its vertices move *that* way is how sensitive the design is. Moved any other way, the folded
vertices no longer agree with themselves, and their disagreement (often a hundred times the movement) would
pass every gap for noise. The noise is never taken below the policy's ``least_noise``
(1e-6), exact input included: jittering a pattern that much is to change no answer, so a gap that such a
jitter can close is not one the input resolves. Whether it can is bounded, not sampled
(:meth:`GapJudge.worst_moves`): each crease-pattern coordinate is moved alone by the noise, the folded
state refolded, and the changes added up (as vectors for a gap between two vertices). A self-intersection
found at a level that keeps open a gap this bound can close (:func:`unresolved_open_gaps`) is no verdict
until the levels that close it have been tried (:mod:`foldbench.crease.precision.overlay`,
:mod:`foldbench.crease.compiler`).

Without a written precision the noise is only estimated: ``noise_margin`` times the measured precision,
which can be several times too large on a big pattern and up to three times too small on a tiny one (where
the folding amplifies it, the regularisation's own movement, :func:`noise_judge`). The measured precision
itself (at least ``LEAST_NOISE``) is :attr:`GapJudge.measured_amplitude`. A gap that the estimate can close
but the measured noise cannot is in doubt:

- a level may not close it where the folded vertices agree (:func:`gaps_beyond_measured_noise`): a thin
  strip's overhang of 2e-5, jittered by 1e-6, measures its noise at 2e-7 to 8e-7 and estimates it at up to
  3.2e-6, which could close it; the flush fold's count would be a wrong answer;
- a self-intersection resting on it is no verdict, and when a level that closes it is sound the answer is a
  precision error naming both (``E_PRECISION_GAPS``, :mod:`foldbench.crease.compiler`).

Where the folding amplifies the noise, a gap may also be neither clearly noise nor clearly design: wider
than :data:`GAP_DOUBT_FACTOR` but at most ``gap_noise_factor`` times its movement. Such a gap is returned
by :func:`genuine_gaps` too, marked ``certain=False``: the tolerance may not close it either
(:mod:`foldbench.crease.precision.overlay`), and when no other level is sound the answer is a precision error naming
it (or, in the compiler, the states of the Kawasaki-regularised pattern, whose folded vertices agree).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import PrecisionProblem, SelfIntersection
from foldbench.crease.graph.local_checks import vertices_creases
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.graph.planar import SMALL_INPUT
from foldbench.crease.graph.regularize import (
    Regularized,
    kawasaki_system,
    least_norm_steps,
    regularize_kawasaki,
)
from foldbench.crease.layers.folding import FoldedGeometry, FoldPlan, fold_faces, pattern_crossings
from foldbench.crease.precision.policy import DEFAULT_POLICY
from foldbench.jit import kernel

__all__ = [
    "GAP_NOISE_FACTOR", "GAP_TRIALS", "NOISE_MARGIN", "FoldedGap", "GapJudge", "genuine_gaps", "narrow_gaps",
    "noise_amplitude", "noise_judge", "unresolved_open_gaps", "GAP_DOUBT_FACTOR", "RESPONSE_CHUNK",
    "doubted_verdict", "gaps_beyond_measured_noise", "folded_features", "closable_by_measured_noise",
    "amplifies_noise", "shows_noise", "gap_noise_closes", "verdict_resting_on_noise",
]

RESPONSE_CHUNK: int = 256
"""How many one-coordinate moves are refolded at a time when bounding how far the gaps can move."""

GAP_TRIALS: int = DEFAULT_POLICY.gap_trials
"""The default policy's ``gap_trials``: how many times the pattern is refolded with its vertices moved by up
to the input precision."""

GAP_NOISE_FACTOR: float = DEFAULT_POLICY.gap_noise_factor
"""The default policy's ``gap_noise_factor``: a gap wider than this many times the most the trials moved it is
a feature of the design, not noise (under Kawasaki-consistent moves of 1e-6 the six slivers of the exact
clipped triangle twist, 2e-5 wide, reach 5.9 to 13.5 times in three seeds; the two gaps of an exact ORIPA
hexagon design, 1.1e-6 and 1.3e-7 wide, at most 0.9 times)."""


GAP_DOUBT_FACTOR: float = DEFAULT_POLICY.gap_doubt_factor
"""The default policy's ``gap_doubt_factor``: under an estimated noise amplitude (no written precision) in a
pattern whose folding amplifies the noise, a gap wider than this many times the most the trials moved it, but
not ``gap_noise_factor`` times, is doubtful: not closed, not trusted. Noise gaps of a rounded corpus file
(Komatsu's Butterfly Base) reach 2.9 times under the regularisation's amplitude, the clipped twist's slivers
jittered by 1e-6 about 3 to 6 times: neither is closed, and both are counted on the regularised pattern."""

NOISE_MARGIN: float = DEFAULT_POLICY.noise_margin
"""The default policy's ``noise_margin``: without a written precision, the noise amplitude is this many times
the measured input precision."""


def noise_amplitude(pattern: CreasePattern, measured_precision: float) -> float:
    """How far each input coordinate may be off. In a visibly noisy input (measured precision above 0): half
    the last written decimal when the coordinates are rounded
    (:func:`~foldbench.crease.precision.measure.written_precision`, a bound), otherwise four times the measured
    precision (an estimate from nearly parallel creases, which a pattern with few creases can make several
    times too small). Never less than the policy's ``least_noise`` (the jitter that is to
    change no answer), which is all an exact input gets (a design drawn on a grid of tenths is not rounded to
    tenths), nor than the noise a regularised pattern carries from its input.

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]],
    ...                    [[0.4, 0], [0.4, 1]]], float)
    >>> pattern = build_crease_pattern(square, "BBBBV")
    >>> pattern.written_precision, noise_amplitude(pattern, 0.0), noise_amplitude(pattern, 1e-6)
    (0.05, 1e-06, 0.05)
    """
    policy = pattern.policy
    least = max(policy.least_noise, pattern.carried_noise)
    if measured_precision <= 0:
        return least
    written = pattern.written_precision
    return max(written if written > 0 else policy.noise_margin * measured_precision, least)


@dataclass(frozen=True)
class FoldedGap:
    """A narrow gap of the folded state.

    Attributes:
        vertex: the crease-pattern vertex on one side.
        other: the vertex (``kind == "vertex"``) or the edge (``kind == "edge"``) on the other side.
        kind: ``"vertex"`` or ``"edge"``.
        width: the gap's width (paper size = 1).
        noise: the most the gap's width changed over the trials (:func:`genuine_gaps`), or the most the noise
            can change it (:func:`unresolved_open_gaps`, :func:`gaps_beyond_measured_noise`).
        certain: from :func:`genuine_gaps`, False for a doubtful gap (between ``GAP_DOUBT_FACTOR`` and
            ``gap_noise_factor`` times its noise): neither design nor noise can be told apart; from
            :func:`unresolved_open_gaps`, True when the measured noise can close it, not only the estimate's
            margin.
    """

    vertex: int
    other: int
    kind: str
    width: float
    noise: float = 0.0
    certain: bool = True

    def to_dict(self) -> dict[str, object]:
        """The gap as a JSON-ready record."""
        return {"vertex": self.vertex, self.kind: self.other, "width": self.width, "noise": self.noise,
                "certain": self.certain}

    def describe(self) -> str:
        """One line naming the gap, e.g. ``vertex 12 to edge 40, 2.1e-05 wide (noise moves it by 7.0e-06)``."""
        return (f"vertex {self.vertex} to {self.kind} {self.other}, {self.width:.1e} wide (the input's noise moves "
                f"it by up to {self.noise:.1e})")


def _signed_gaps(coords: np.ndarray, pattern: CreasePattern, pairs: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Widths of the gaps ``pairs`` at folded positions ``coords`` (``(..., n, 2)``): distances between
    vertices, signed distances of vertices from edge lines."""
    widths = np.zeros((*coords.shape[:-2], len(pairs)))
    vertex_rows = kinds == 0
    first, second = pairs[vertex_rows, 0], pairs[vertex_rows, 1]
    between = coords[..., first, :] - coords[..., second, :]
    widths[..., vertex_rows] = np.hypot(between[..., 0], between[..., 1])
    edge_rows = ~vertex_rows
    ends = pattern.edges_vertices[pairs[edge_rows, 1]]
    start = coords[..., ends[:, 0], :]
    direction = coords[..., ends[:, 1], :] - start
    offset = coords[..., pairs[edge_rows, 0], :] - start
    cross = offset[..., 0] * direction[..., 1] - offset[..., 1] * direction[..., 0]
    widths[..., edge_rows] = cross / np.hypot(direction[..., 0], direction[..., 1])
    return widths


def _refold(
    pattern: CreasePattern, coords: np.ndarray, structure: tuple[FoldPlan, np.ndarray] | None = None
) -> np.ndarray:
    """Folded vertex positions for a batch of crease-pattern coordinates ``(t, n, 2)``, each vertex from the
    first face that lists it (as :func:`~foldbench.crease.layers.folding.fold_faces` keeps it). ``structure`` is
    :func:`_fold_structure` of the pattern, when the caller has it.

    The reflections of every crease are computed at once and each breadth-first level of faces is composed in
    one batched operation, with the same arithmetic per trial and face as crossing the creases one by one."""
    plan, first_faces = structure or _fold_structure(pattern)
    trials = len(coords)
    matrices = np.zeros((trials, pattern.face_count, 2, 2))
    shifts = np.zeros((trials, pattern.face_count, 2))
    matrices[:, 0] = np.eye(2)
    ends = pattern.edges_vertices[plan.edges[plan.reflecting]]
    start, end = coords[:, ends[:, 0]], coords[:, ends[:, 1]]
    delta = end - start
    direction = delta / np.hypot(delta[..., 0], delta[..., 1])[..., None]
    reflections = 2 * direction[..., :, None] * direction[..., None, :] - np.eye(2)
    offsets = start - np.einsum("teij,tej->tei", reflections, start)
    for folds, index, flats in plan.levels:
        if len(folds):
            face, other = plan.faces[folds], plan.others[folds]
            parent = matrices[:, face]
            matrices[:, other] = parent @ reflections[:, index]
            shifts[:, other] = np.einsum("tfij,tfj->tfi", parent, offsets[:, index]) + shifts[:, face]
        if len(flats):
            matrices[:, plan.others[flats]] = matrices[:, plan.faces[flats]]
            shifts[:, plan.others[flats]] = shifts[:, plan.faces[flats]]
    return np.einsum("tvij,tvj->tvi", matrices[:, first_faces], coords) + shifts[:, first_faces]


def _fold_structure(pattern: CreasePattern) -> tuple[FoldPlan, np.ndarray]:
    """What refolding the pattern needs besides coordinates: the batched crossing plan, and for each vertex the
    first face that lists it."""
    first_faces = np.zeros(pattern.vertex_count, dtype=np.int64)
    for face, vertices in reversed(list(enumerate(pattern.faces_vertices))):
        first_faces[list(vertices)] = face
    return pattern_crossings(pattern)[1], first_faces


def _spatial_gaps(
    pattern: CreasePattern, coords: np.ndarray, low: float, high: float, *, near_ends: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`narrow_gaps` (``near_ends=False``) or :func:`folded_features` (``near_ends=True``) through spatial
    indexes: ``(pairs, kinds, widths)``."""
    import shapely  # only large inputs need its spatial index

    ends = pattern.edges_vertices
    start, end = coords[ends[:, 0]], coords[ends[:, 1]]
    points = shapely.points(coords)
    first, second = shapely.STRtree(points).query(points, predicate="dwithin", distance=high)
    keep = first < second
    first, second = first[keep], second[keep]
    lines = shapely.linestrings(np.stack([start, end], axis=1))
    vertex, edge = shapely.STRtree(lines).query(points, predicate="dwithin", distance=high)
    distance = np.hypot(*(coords[first] - coords[second]).T)
    close = (distance > low) & (distance <= high)
    direction = end[edge] - start[edge]
    length_squared = np.einsum("ij,ij->i", direction, direction)
    offset = coords[vertex] - start[edge]
    with np.errstate(divide="ignore", invalid="ignore"):
        parameter = np.einsum("ij,ij->i", offset, direction) / length_squared
        across = np.abs(offset[:, 0] * direction[:, 1] - offset[:, 1] * direction[:, 0]) / np.sqrt(length_squared)
    on_edge = ((parameter > 0) & (parameter < 1) & (across > low) & (across <= high)
               & (ends[edge, 0] != vertex) & (ends[edge, 1] != vertex))
    if not near_ends:
        on_edge &= np.minimum(np.hypot(*offset.T), np.hypot(*(coords[vertex] - end[edge]).T)) > high
    pairs = np.concatenate([np.stack([first[close], second[close]], axis=1),
                            np.stack([vertex[on_edge], edge[on_edge]], axis=1)]).astype(np.int64).reshape(-1, 2)
    kinds = np.concatenate([np.zeros(int(close.sum()), np.int8), np.ones(int(on_edge.sum()), np.int8)])
    return pairs, kinds, np.concatenate([distance[close], across[on_edge]])


def narrow_gaps(pattern: CreasePattern, coords: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertex-vertex and vertex-edge gaps of the folded vertices ``coords`` with ``low < width <= high``.

    Returns ``(pairs, kinds)``: rows ``[vertex, other vertex]`` (kind 0) or ``[vertex, edge]`` (kind 1, the
    vertex within ``high`` of the edge's interior and farther than ``high`` from both its ends).
    """
    ends = pattern.edges_vertices
    if len(coords) <= SMALL_INPUT and len(ends) <= SMALL_INPUT:
        # few points: every pair is looked at in compiled loops (less fixed cost than the spatial index)
        pairs, kinds = _narrow_gaps_small(np.ascontiguousarray(coords, dtype=np.float64),
                                          np.ascontiguousarray(ends, dtype=np.int64), float(low), float(high))
        return pairs.reshape(-1, 2), kinds
    pairs, kinds, _ = _spatial_gaps(pattern, coords, low, high, near_ends=False)
    return pairs, kinds


class GapJudge:
    """Measures how far folded gaps move when the input moves by its noise, along patterns that meet Kawasaki.

    The folded positions come from a Kawasaki-consistent geometry: the input itself when its folded vertices
    agree, else its regularised neighbour (within the snap tolerance). Each of ``GAP_TRIALS`` trials moves every
    vertex by up to ``amplitude`` in each coordinate (a fixed random sequence from ``seed``) and then by the
    least further movement that restores Kawasaki at every interior vertex (to first order), so the trials'
    folded vertices agree too. When no consistent geometry is at hand, the input's own folded positions and
    unprojected moves are used (the disagreement then counts as movement). The trials are computed once, when
    first needed.
    """

    def __init__(self, pattern: CreasePattern, folded: FoldedGeometry, amplitude: float, seed: int = 0, *,
                 measured: float | None = None) -> None:
        self.pattern, self.folded, self.seed = pattern, folded, seed
        self._amplitude = amplitude
        self._measured = amplitude if measured is None else min(amplitude, measured)
        self._refined_from: float | None = None  # the measured precision, when the amplitude awaits refinement
        self._base: np.ndarray | None = None
        self._trials: np.ndarray | None = None
        self._start: np.ndarray | None = None  # the crease-pattern coordinates the trials move from
        self._reference: np.ndarray | None = None  # the folded positions of _start, refolded (made once)
        self._projected = False  # whether the trials' moves are projected onto patterns that meet Kawasaki
        self._regularized: tuple[Regularized, float] | None = None
        self._structure: tuple[FoldPlan, np.ndarray] | None = None

    def _refold(self, coords: np.ndarray) -> np.ndarray:
        """:func:`_refold` of the judge's pattern (its crossing plan made once)."""
        if self._structure is None:
            self._structure = _fold_structure(self.pattern)
        return _refold(self.pattern, coords, self._structure)

    @property
    def amplitude(self) -> float:
        """How far each input coordinate may be off (paper size = 1), refined on first use when
        :func:`noise_judge` asked for it."""
        if self._refined_from is not None:
            measured, self._refined_from = self._refined_from, None
            regularized, mismatch = self.regularized()
            policy = self.pattern.policy
            if regularized.residual < policy.regularized_residual and mismatch <= policy.regularized_mismatch:
                self._amplitude = max(min(self._amplitude, max(measured, regularized.moved)), policy.least_noise)
        return self._amplitude

    @property
    def measured_amplitude(self) -> float:
        """The noise the input shows without a margin (at most :attr:`amplitude`): where the amplitude is only
        an estimate (``noise_margin`` times the measured precision), the measured precision itself, at least
        the policy's ``least_noise``; otherwise the amplitude."""
        return min(self._measured, self.amplitude)

    def regularized(self) -> tuple[Regularized, float]:
        """The pattern's Kawasaki regularisation and the worst disagreement of its folded vertices (infinite
        when it failed or moved a vertex beyond the snap tolerance; computed once, the compiler uses the same)."""
        if self._regularized is None:
            regularized = regularize_kawasaki(self.pattern)
            mismatch = math.inf
            if (regularized.residual < self.pattern.policy.regularized_residual
                    and regularized.moved <= self.pattern.snap_tolerance):
                mismatch = fold_faces(regularized.pattern).worst_mismatch
            self._regularized = regularized, mismatch
        return self._regularized

    def _consistent_coords(self) -> np.ndarray | None:
        """Crease-pattern coordinates whose folded vertices agree, near the input's (None: none found): the
        input's own when they disagree by less than the noise the gaps are judged against."""
        pattern, policy = self.pattern, self.pattern.policy
        if self.folded.worst_mismatch <= max(policy.regularized_mismatch, self.amplitude):
            return pattern.vertices_coords
        regularized, mismatch = self.regularized()
        if (regularized.residual >= policy.regularized_residual or regularized.moved > pattern.snap_tolerance
                or mismatch > policy.regularized_mismatch):
            return None
        return regularized.pattern.vertices_coords

    def _prepare(self) -> tuple[np.ndarray, np.ndarray]:
        if self._base is not None and self._trials is not None:
            return self._base, self._trials
        pattern = self.pattern
        consistent = self._consistent_coords() if self.amplitude > 0 else None
        start = pattern.vertices_coords if consistent is None else consistent
        generator = np.random.default_rng(self.seed)
        moves = generator.uniform(-self.amplitude, self.amplitude, (pattern.policy.gap_trials, *start.shape))
        correction = None if consistent is None else _kawasaki_correction(pattern, consistent, moves)
        if consistent is not None and correction is not None:
            moves = moves + correction
            own = consistent is pattern.vertices_coords
            self._base = self.folded.vertices_coords_folded if own else self._refold(consistent[None])[0]
            if not own:  # the trials start from the consistent coordinates: their refold is the reference
                self._reference = self._base
        else:
            start = pattern.vertices_coords
            self._base = self.folded.vertices_coords_folded
        self._start, self._projected = start, consistent is not None and correction is not None
        self._trials = self._refold(start + moves)
        return self._base, self._trials

    def _one_coordinate_refolds(self, projected: bool = True) -> Iterator[np.ndarray]:
        """Folded vertex positions ``(k, n, 2)`` with one crease-pattern coordinate moved by the full amplitude
        (``projected`` onto the patterns that meet Kawasaki, as the trials' moves are, where they are), from
        the trials' starting coordinates: all ``2 n`` coordinates, :data:`RESPONSE_CHUNK` at a time (bounded
        memory)."""
        pattern, start, amplitude = self.pattern, self._start, self.amplitude
        assert start is not None
        count = 2 * len(start)
        for first in range(0, count, RESPONSE_CHUNK):
            coordinates = np.arange(first, min(first + RESPONSE_CHUNK, count))
            moves = np.zeros((len(coordinates), *start.shape))
            moves[np.arange(len(coordinates)), coordinates // 2, coordinates % 2] = amplitude
            if projected and self._projected:
                correction = _kawasaki_correction(pattern, start, moves)
                if correction is not None:
                    moves = moves + correction
            yield self._refold(start + moves)

    def worst_moves(
        self, pairs: np.ndarray, kinds: np.ndarray, *, projected: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """The gaps' widths (signed for vertex-edge gaps) and the most each can change, to first order, when
        every crease-pattern coordinate moves by up to the amplitude: the sum over coordinates of the change
        that moving that coordinate alone by the amplitude makes. Unlike :meth:`measure` (the most over
        random trials, which can fall well short of it) this is the bound itself, and reproducible. With
        ``projected=False`` the moves are not projected onto the patterns that meet Kawasaki: the bound then
        holds for any noise, such as the input's own, which breaks Kawasaki too."""
        base, _ = self._prepare()
        widths = _signed_gaps(base, self.pattern, pairs, kinds)
        worst = np.zeros(len(pairs))
        if self.amplitude <= 0 or not len(pairs):
            return widths, worst
        assert self._start is not None
        if self._reference is None:
            self._reference = self._refold(self._start[None])[0]
        reference = self._reference
        vertex_rows = kinds == 0
        first, second = pairs[vertex_rows, 0], pairs[vertex_rows, 1]
        edge_pairs, edge_kinds = pairs[~vertex_rows], kinds[~vertex_rows]
        unmoved = _signed_gaps(reference, self.pattern, edge_pairs, edge_kinds)
        for moved in self._one_coordinate_refolds(projected):
            # a vertex-vertex gap closes only when the vector between the two vertices vanishes: its moves add
            # up as vectors (the distance alone changes by second order across the gap)
            between = (moved[:, first] - moved[:, second]) - (reference[first] - reference[second])[None]
            worst[vertex_rows] += np.hypot(between[..., 0], between[..., 1]).sum(axis=0)
            changed = _signed_gaps(moved, self.pattern, edge_pairs, edge_kinds) - unmoved[None]
            worst[~vertex_rows] += np.abs(changed).sum(axis=0)
        return widths, worst

    def reach(self) -> float:
        """The farthest any folded vertex moved over the trials (0 without noise): no gap moves by more than
        twice this."""
        if self.amplitude <= 0 or not self.pattern.vertex_count:
            return 0.0
        base, trials = self._prepare()
        return float(np.hypot(*(trials - base[None]).transpose(2, 0, 1)).max())

    def measure(self, pairs: np.ndarray, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The gaps' widths (signed for vertex-edge gaps) and the most each moved over the trials."""
        if self.amplitude <= 0:
            widths = _signed_gaps(self.folded.vertices_coords_folded, self.pattern, pairs, kinds)
            return widths, np.zeros(len(pairs))
        base, trials = self._prepare()
        widths = _signed_gaps(base, self.pattern, pairs, kinds)
        return widths, np.abs(_signed_gaps(trials, self.pattern, pairs, kinds) - widths).max(axis=0)


def shows_noise(pattern: CreasePattern, folded: FoldedGeometry) -> bool:
    """Whether the input's noise is evidence, not a hypothesis: a measured precision above 0, or a regularised
    pattern carrying its input's noise (an exact input is only ever jittered in thought, by
    the policy's ``least_noise``)."""
    return (folded.input_precision or 0.0) > 0 or pattern.carried_noise > 0


def amplifies_noise(folded: FoldedGeometry) -> bool:
    """Whether the input is noisy and its folded vertices disagree by more than the policy's
    ``folded_mismatch_factor`` times its precision (the folding amplifies the noise; the compiler may count the
    Kawasaki-regularised pattern instead)."""
    precision = folded.input_precision or 0.0
    return precision > 0 and folded.worst_mismatch > folded.policy.folded_mismatch_factor * precision


def noise_judge(pattern: CreasePattern, folded: FoldedGeometry, measured_precision: float) -> GapJudge:
    """The :class:`GapJudge` of a pattern, at the noise amplitude of :func:`noise_amplitude`, refined where that
    is only an estimate and the folding amplifies it (no written precision; folded vertices disagree by more
    than the policy's ``folded_mismatch_factor`` times the measured precision): there four times the measured
    precision can be eight times the real noise (a clipped twist jittered by 1e-6 measures 2.3e-6), and a sliver of the
    design would pass for noise. The least movement that makes every vertex meet Kawasaki
    (:mod:`foldbench.crease.graph.regularize`) is measured noise too: when it succeeds within the snap tolerance, the
    amplitude is that movement, kept between the measured precision and four times it (at least
    the policy's ``least_noise``)."""
    policy = pattern.policy
    amplitude = noise_amplitude(pattern, measured_precision)
    estimated = pattern.written_precision == 0 and measured_precision > 0
    measured = max(measured_precision, policy.least_noise, pattern.carried_noise) if estimated else None
    judge = GapJudge(pattern, folded, amplitude, measured=measured)
    if (estimated and folded.worst_mismatch > policy.folded_mismatch_factor * measured_precision
            and amplitude > policy.least_noise):
        judge._refined_from = measured_precision  # refined when first needed
    return judge


def _kawasaki_correction(pattern: CreasePattern, coords: np.ndarray, moves: np.ndarray) -> np.ndarray | None:
    """For each move ``(t, n, 2)`` of a pattern that meets Kawasaki at ``coords``, the least further movement
    that cancels the move's first-order change of every Kawasaki sum (so move plus correction is the move's
    projection onto the patterns that still meet Kawasaki). None when the projection fails numerically (a
    correction larger than the move itself cannot be a projection)."""
    creases, on_boundary = vertices_creases(pattern)
    vertices = [v for v in range(pattern.vertex_count) if not on_boundary[v] and len(creases[v]) >= 2]
    if not vertices:
        return np.zeros_like(moves)
    _, rows, columns, values = kawasaki_system(pattern, coords, vertices, creases)
    flat = moves.reshape(len(moves), -1).T  # (2n, t)
    change = np.zeros((len(vertices), len(moves)))
    np.add.at(change, rows, values[:, None] * flat[columns])
    steps = least_norm_steps(-change, rows, columns, values, flat.shape[0], pattern.policy)
    if not np.all(np.isfinite(steps)) or np.any(np.linalg.norm(steps, axis=0) > 1.01 * np.linalg.norm(flat, axis=0)):
        return None
    return steps.T.reshape(moves.shape)


@kernel
def _narrow_gaps_small(coords, ends, low, high):  # type: ignore[no-untyped-def]
    """:func:`narrow_gaps` for few points: every vertex pair and every vertex-edge pair, the same tests."""
    count, edge_count = coords.shape[0], ends.shape[0]
    found = []
    for first in range(count):
        for second in range(first + 1, count):
            distance = np.hypot(coords[first, 0] - coords[second, 0], coords[first, 1] - coords[second, 1])
            if low < distance <= high:
                found.append((first, second, 0))
    for vertex in range(count):
        for edge in range(edge_count):
            a, b = ends[edge, 0], ends[edge, 1]
            if a == vertex or b == vertex:
                continue
            dx, dy = coords[b, 0] - coords[a, 0], coords[b, 1] - coords[a, 1]
            length_squared = dx * dx + dy * dy
            if length_squared <= 0:
                continue
            ox, oy = coords[vertex, 0] - coords[a, 0], coords[vertex, 1] - coords[a, 1]
            parameter = (ox * dx + oy * dy) / length_squared
            across = abs(ox * dy - oy * dx) / np.sqrt(length_squared)
            to_end = np.hypot(coords[vertex, 0] - coords[b, 0], coords[vertex, 1] - coords[b, 1])
            to_ends = min(np.hypot(ox, oy), to_end)
            if 0 < parameter < 1 and low < across <= high and to_ends > high:
                found.append((vertex, edge, 1))
    pairs = np.empty((len(found), 2), dtype=np.int64)
    kinds = np.empty(len(found), dtype=np.int8)
    for index, (first, second, kind) in enumerate(found):
        pairs[index, 0], pairs[index, 1], kinds[index] = first, second, kind
    return pairs, kinds


def _gap_list(
    pairs: np.ndarray, kinds: np.ndarray, widths: np.ndarray, noise: np.ndarray, rows: np.ndarray,
    certain: np.ndarray,
) -> list[FoldedGap]:
    """:class:`FoldedGap` records for the ``rows`` of :func:`narrow_gaps`' output, in that order."""
    return [FoldedGap(int(pairs[i, 0]), int(pairs[i, 1]), "vertex" if kinds[i] == 0 else "edge",
                      float(abs(widths[i])), float(noise[i]), bool(certain[i])) for i in rows]


def doubted_verdict(
    verdict: SelfIntersection, unresolved: list[FoldedGap]
) -> tuple[SelfIntersection, FoldedGap] | None:
    """A self-intersection set aside for the ``unresolved`` gaps (:func:`unresolved_open_gaps`) and the widest
    of them, when only the margin of an estimated noise can close every one (none ``certain``): a count at a
    level that closes them cannot be told from the verdict. None when the measured noise can close one."""
    if any(gap.certain for gap in unresolved):
        return None
    return verdict, max(unresolved, key=lambda gap: gap.width)


def gap_noise_closes(
    pattern: CreasePattern, folded: FoldedGeometry, unresolved: list[FoldedGap]
) -> FoldedGap | None:
    """For noisy input (:func:`shows_noise`), the first of the ``unresolved`` gaps (:func:`unresolved_open_gaps`)
    that the measured noise can close (``certain``): a self-intersection set aside for it may be a coincidence
    the noise broke. None for exact input, whose noise is only a hypothesis, or when only the margin of an
    estimated noise can close them."""
    if not shows_noise(pattern, folded):
        return None
    return next((gap for gap in unresolved if gap.certain), None)


def verdict_resting_on_noise(verdict: SelfIntersection, gap: FoldedGap, problem: PrecisionProblem) -> PrecisionProblem:
    """The answer for a noisy input's self-intersection ``verdict`` that was found only with ``gap`` (see
    :func:`gap_noise_closes`) kept open, when no level that closes the gap is sound (``problem``): that
    precision problem, naming the gap and the self-intersection. ``problem`` itself when it names one already."""
    if "unresolved_gap" in problem.where:
        return problem
    return PrecisionProblem(
        problem.code,
        f"{problem.message}; a self-intersection was found only at levels that keep open a gap the input's "
        f"measured noise can close ({gap.describe()}), and no level that closes it is sound",
        {**problem.where, "unresolved_gap": gap.to_dict(), "self_intersection": verdict.message},
    )


def genuine_gaps(
    pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, precision: float | None, seed: int = 0, *,
    doubt_factor: float | None = None, judge: GapJudge | None = None,
) -> list[FoldedGap]:
    """The gaps narrower than ``tolerance`` that moving the input by ``precision`` cannot explain.

    ``precision`` is the noise amplitude (:func:`noise_amplitude`; None with a ``judge``, which has its own). A
    gap counts when it is wider than the policy's ``folded_distance`` and wider than ``gap_noise_factor`` times the
    most its width changed over the trials of a :class:`GapJudge` (given, or made from ``precision`` and
    ``seed``: the answer is reproducible). With ``doubt_factor`` (for an estimated amplitude,
    :data:`GAP_DOUBT_FACTOR`), a gap wider than that many times its movement is returned too, with
    ``certain=False``. Returns the gaps widest first relative to their noise, so certain ones first (empty
    when none is in range).
    """
    coords, policy = folded.vertices_coords_folded, pattern.policy
    if tolerance <= policy.folded_distance or not len(coords):
        return []
    pairs, kinds = narrow_gaps(pattern, coords, policy.folded_distance, tolerance)
    if not len(pairs):
        return []
    widths, noise = (judge or GapJudge(pattern, folded, precision or 0.0, seed)).measure(pairs, kinds)
    ratio = np.abs(widths) / np.maximum(noise, np.finfo(float).tiny)
    kept = np.flatnonzero(ratio > min(policy.gap_noise_factor, doubt_factor or policy.gap_noise_factor))
    kept = kept[np.argsort(-ratio[kept])]
    return _gap_list(pairs, kinds, widths, noise, kept, ratio > policy.gap_noise_factor)


def gaps_beyond_measured_noise(
    pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, judge: GapJudge
) -> list[FoldedGap]:
    """The gaps a level of ``tolerance`` closes (wider than the policy's ``folded_distance``) that the noise the
    input shows without a margin (:attr:`GapJudge.measured_amplitude`) cannot close, to first order
    (:meth:`GapJudge.worst_moves`, moves not projected onto Kawasaki: the input's noise breaks it too, and a
    gap it opened can be several times wider than projected moves reach), plus the folded vertices' worst
    disagreement: only the margin of an estimated noise could. Empty when the amplitude is not an estimate.
    Widest relative to that noise first, every one ``certain=False``."""
    coords, least = folded.vertices_coords_folded, pattern.policy.folded_distance
    measured = judge.measured_amplitude
    if not 0 < measured < judge.amplitude or not len(coords) or tolerance <= least:
        return []
    pairs, kinds = narrow_gaps(pattern, coords, least, tolerance)
    if not len(pairs):
        return []
    widths, worst = _measured_reach(folded, judge, pairs, kinds)
    ratio = np.abs(widths) / np.maximum(worst, np.finfo(float).tiny)
    beyond = np.flatnonzero(ratio > 1.0)
    beyond = beyond[np.argsort(-ratio[beyond])]
    return _gap_list(pairs, kinds, widths, worst, beyond, np.zeros(len(pairs), dtype=bool))


def _measured_reach(
    folded: FoldedGeometry, judge: GapJudge, pairs: np.ndarray, kinds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The gaps' widths (signed for vertex-edge gaps) and how far the measured noise can change them: the
    first-order bound of :meth:`GapJudge.worst_moves` (moves not projected onto Kawasaki) at the measured
    amplitude, plus the folded vertices' worst disagreement."""
    widths, worst = judge.worst_moves(pairs, kinds, projected=False)
    # first order: the moves scale with the amplitude; the folded positions themselves are uncertain by the
    # folded vertices' disagreement (jittered simple folds whose vertices disagree by 3e-6 to 6e-6 have noise
    # gaps 1.07 times the bound alone)
    return widths, worst * (judge.measured_amplitude / judge.amplitude) + folded.worst_mismatch


def folded_features(
    pattern: CreasePattern, coords: np.ndarray, low: float, high: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every distance between two folded vertices, and from a folded vertex across an edge whose interior it
    faces, with ``low < width <= high``: ``(pairs, kinds, widths)``, rows ``[vertex, other vertex]`` (kind 0)
    or ``[vertex, edge]`` (kind 1). Unlike :func:`narrow_gaps`, a vertex near an edge's end is listed against
    the edge too: these are the distances at which planarising the folded edges changes."""
    if not len(coords) or not len(pattern.edges_vertices):
        return np.zeros((0, 2), np.int64), np.zeros(0, np.int8), np.zeros(0)
    return _spatial_gaps(pattern, coords, low, high, near_ends=True)


def closable_by_measured_noise(
    folded: FoldedGeometry, judge: GapJudge, pairs: np.ndarray, kinds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The widths of the gaps ``pairs`` (:func:`folded_features`) and whether the noise the input shows without
    a margin can close each, to first order (:func:`gaps_beyond_measured_noise`' bound): such a gap is a
    coincidence of the design that the noise broke."""
    if not len(pairs):
        return np.zeros(0), np.zeros(0, dtype=bool)
    widths, reach = _measured_reach(folded, judge, pairs, kinds)
    return np.abs(widths), np.abs(widths) <= reach


def unresolved_open_gaps(
    pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, judge: GapJudge
) -> list[FoldedGap]:
    """The gaps a level of ``tolerance`` may keep open that the input's noise cannot resolve: wider than half
    the level (points are merged one by one, so a gap just under the level may stay open) and than
    the policy's ``folded_distance``, and closable by the noise: moving every input coordinate by up to the
    judge's amplitude can change them, to first order, by their whole width (:meth:`GapJudge.worst_moves`).

    A gap is ``certain`` when the noise the input shows without a margin (:attr:`GapJudge.measured_amplitude`)
    can close it already; otherwise only the margin an estimated noise carries can, and whether the input
    resolves it is in doubt. Least stable first (empty: every gap the level keeps open is resolved)."""
    coords = folded.vertices_coords_folded
    if judge.amplitude <= 0 or not len(coords):
        return []
    low = max(tolerance / 2, pattern.policy.folded_distance)
    # only gaps up to eight times the trials' farthest vertex move are bounded (refolding every coordinate on
    # its own costs a refold per coordinate, too much to spend on every self-intersection of a big pattern):
    # twice the window within which moving by half its width over the trials could put a gap
    high = 4 * pattern.policy.gap_doubt_factor * judge.reach() + folded.worst_mismatch
    if high <= low:
        return []
    pairs, kinds = narrow_gaps(pattern, coords, low, high)
    if not len(pairs):
        return []
    widths, worst = judge.worst_moves(pairs, kinds)
    ratio = np.abs(widths) / np.maximum(worst, np.finfo(float).tiny)
    loose = np.flatnonzero(ratio <= 1.0)
    loose = loose[np.argsort(ratio[loose])]
    measured_share = judge.measured_amplitude / judge.amplitude  # worst moves scale with the amplitude
    return _gap_list(pairs, kinds, widths, worst, loose, ratio <= measured_share)
