"""Choose the folded-state tolerance: the first level, in the order below, at which the overlay of folded edges
can be trusted.

A level is accepted when three things hold (rule 6 of :mod:`foldbench.crease.precision.tolerance`):

1. **Stable:** planarising the folded edges at a quarter of the tolerance gives the same numbers of points and
   segments, so no two features of the folded state lie between the two distances;
2. **Consistent:** walking across segments gives every cell one set of covering faces;
3. **Coherent:** every constraint found along the segments compares faces that share a cell.

4. **Consistent with the disagreement:** a level finer than the policy's ``folded_mismatch_factor`` times the worst
   folded-vertex mismatch is trusted only when the overlay built with every vertex at its other folded
   position (from the face that disagrees most) has the same points, segments, variables and local
   constraints. A level that separates points only the disagreement keeps apart fails this.
5. **Closes no genuine gap:** no folded vertex lies within the level of another vertex or of an edge (and
   farther than the policy's ``folded_distance``) by a gap that moving the input
   by its noise hardly changes (:mod:`foldbench.crease.precision.folded_gaps`): such a gap is a feature of the
   design (a sliver of overlap), and merging it would change the count. Where the noise is only estimated
   and the folded vertices agree, no gap is closed that the measured noise cannot close, only the
   estimate's margin (:func:`~foldbench.crease.precision.folded_gaps.gaps_beyond_measured_noise`).

A self-intersection found at a level is a verdict only when the level resolves every gap it keeps open: when
the input's noise can close one of them (:func:`~foldbench.crease.precision.folded_gaps.unresolved_open_gaps`), the
levels that close it are tried, and the verdict stands only when none is sound. When only the estimate's
margin can close every such gap, a sound level that closes them does not decide either: the overlay says so
(``in_doubt``) and the compiler answers with a precision error.

Levels are tried from the starting tolerance down by factors of four to the floor, the policy's
``folded_mismatch_factor`` times the input precision (:mod:`foldbench.crease.precision.measure`; at least its
``folded_floor``): finer levels would separate points that only the input's noise keeps apart. Then up by factors
of four to the coarsest sensible level (an eighth of the shortest folded edge, at most its
``folded_mismatch_limit``). When none passes, the same series is tried again from twice the starting level (a
window free of folded features may span a factor of four and still hold no level of the first series). When none of
those passes either, noisy input whose folding does not amplify its noise gets a third series, levels placed
between the folded features themselves (:func:`noise_explained_levels`): stability there compares a level with half
of it, where every feature between a quarter of the level and the level is noise the input shows. When no level
passes, the compiler reports a precision problem listing what each level failed; it never answers from an overlay
that failed a check. Nor does it answer, for noisy input, with a self-intersection found only at levels that keep
open a gap the measured noise can close, when no level closing it is sound: that is a precision problem naming the
gap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np

from foldbench.crease.errors import PrecisionProblem, SelfIntersection
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.graph.planar import PlanarGraph, planarize_segments
from foldbench.crease.layers.cells import OverlapCells, build_cells, overlay_folded_edges
from foldbench.crease.layers.folding import FoldedGeometry
from foldbench.crease.layers.layer_constraints import LayerConstraints, build_layer_constraints
from foldbench.crease.precision.folded_gaps import (
    FoldedGap,
    GapJudge,
    amplifies_noise,
    closable_by_measured_noise,
    doubted_verdict,
    folded_features,
    gap_noise_closes,
    gaps_beyond_measured_noise,
    genuine_gaps,
    noise_judge,
    shows_noise,
    unresolved_open_gaps,
    verdict_resting_on_noise,
)
from foldbench.crease.precision.policy import DEFAULT_POLICY

__all__ = [
    "FoldedOverlay", "build_overlay", "coarsest_level", "folded_tolerance_floor", "folded_tolerance_levels",
    "noise_explained_levels",
]

LEVEL_STEP: float = DEFAULT_POLICY.level_step
"""The default policy's ``level_step``: neighbouring tolerance levels differ by this factor; stability compares
a level with the next finer one."""

HALF_STEP: float = LEVEL_STEP**0.5
"""The default policy's second series of levels lies this factor above the first (halfway, on a logarithmic
scale)."""

NOISE_STEP: float = DEFAULT_POLICY.noise_step
"""The default policy's ``noise_step``: a level of the third series (:func:`noise_explained_levels`) is compared
for stability with the level this factor finer; the folded features between a quarter of it and that are all
noise the input shows."""

NOISE_LEVELS: int = DEFAULT_POLICY.noise_levels
"""The default policy's ``noise_levels``: at most this many levels of the third series are tried."""


@dataclass(frozen=True)
class FoldedOverlay:
    """Cells and constraints built at an accepted folded tolerance.

    Attributes:
        cells: overlap cells.
        constraints: variables and constraints.
        tolerance: the folded tolerance used (paper size = 1).
        rejected: the levels tried before it, each ``(tolerance, reason)``.
        in_doubt: a self-intersection found at a finer level, and the widest gap it rested on, when the input's
            noise closes none of its gaps without the margin of an estimate (every one ``certain=False``): the
            count at this level cannot be told from that verdict (None otherwise).
    """

    cells: OverlapCells
    constraints: LayerConstraints
    tolerance: float
    rejected: tuple[tuple[float, str], ...]
    in_doubt: tuple[SelfIntersection, FoldedGap] | None = None


def folded_tolerance_floor(folded: FoldedGeometry) -> float:
    """The finest folded tolerance tried: the policy's ``folded_mismatch_factor`` times the input precision, at
    least its ``folded_floor``."""
    policy = folded.policy
    return max(policy.folded_floor, policy.folded_mismatch_factor * (folded.input_precision or 0.0))


def coarsest_level(pattern: CreasePattern, folded: FoldedGeometry) -> float:
    """The coarsest folded tolerance worth trying: the shortest folded edge over the policy's
    ``coarsest_edge_fraction`` (an eighth), at most its ``folded_mismatch_limit``."""
    policy = folded.policy
    segments = folded.vertices_coords_folded[pattern.edges_vertices]
    lengths = np.hypot(*(segments[:, 1] - segments[:, 0]).T)
    positive = lengths[lengths > 0]
    limit = policy.folded_mismatch_limit
    return min(limit, float(positive.min()) / policy.coarsest_edge_fraction if len(positive) else limit)


def folded_tolerance_levels(pattern: CreasePattern, folded: FoldedGeometry) -> Iterator[float]:
    """Tolerances to try, in order: the starting level, finer levels down to the floor, then coarser levels;
    then the same again from twice the starting level (levels halfway between, on a logarithmic scale).

    The starting level is ``max(folded_distance, folded_mismatch_factor * worst mismatch)`` (the policy's), at
    most the coarsest level and at least the floor (see :func:`folded_tolerance_floor`). The halfway levels are
    reached only when no level of the first series is accepted: a window free of folded features that spans
    a factor of ``level_step`` but holds no level of the first series (noise spreads a jittered strip's
    flush edges up to 1e-5 apart, and its design gap is 1e-4 wide) holds one of them.

    >>> from foldbench.crease.graph.pattern import build_crease_pattern
    >>> from foldbench.crease.layers.folding import fold_faces
    >>> square = np.array([[[0, 0], [1, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]], [[0, 1], [0, 0]]], float)
    >>> pattern = build_crease_pattern(square, "BBBB")
    >>> levels = list(folded_tolerance_levels(pattern, fold_faces(pattern)))
    >>> levels[:3], levels[-1] <= 1e-2, 2e-06 in levels
    ([1e-06, 2.5e-07, 6.25e-08], True, True)
    """
    return _tolerance_levels(folded, folded_tolerance_floor(folded), coarsest_level(pattern, folded))


def _tolerance_levels(folded: FoldedGeometry, floor: float, coarsest: float) -> Iterator[float]:
    """:func:`folded_tolerance_levels` between a ``floor`` and a ``coarsest`` level already computed."""
    policy = folded.policy
    step, slack = policy.level_step, policy.level_rounding
    start = max(min(max(policy.folded_distance, policy.folded_mismatch_factor * folded.worst_mismatch), coarsest),
                floor)
    for first in (start, start * step**0.5):
        level = first
        while level >= floor * (1 - slack):
            if first == start or level <= coarsest * (1 + slack):  # the start itself even when above (floor)
                yield level
            level /= step
        level = first * step
        while level <= coarsest:
            yield level
            level *= step


def noise_explained_levels(
    pattern: CreasePattern, folded: FoldedGeometry, judge: GapJudge, tried: list[float]
) -> Iterator[float]:
    """The third series of levels, tried where the first two fail, for noisy input
    (:func:`~foldbench.crease.precision.folded_gaps.shows_noise`) whose folding does not amplify the noise
    (:func:`~foldbench.crease.precision.folded_gaps.amplifies_noise`; the compiler counts the regularised pattern
    there). One level in each window wider than a factor ``noise_step`` between neighbouring folded
    features (:func:`folded_features`), at its logarithmic middle above that factor, when every feature from
    a quarter of the level up to it is one the input's measured noise can close
    (:func:`closable_by_measured_noise`). Such a level merges the coincidences the noise broke (a jittered
    strip's flush edges, up to 6e-6 apart) and keeps open, by a factor ``noise_step``, the first feature the
    noise cannot close (its overhang of 2e-5), where no window of a factor ``level_step`` exists. Ascending,
    at most ``noise_levels``, none already ``tried``, between the floor and the coarsest level."""
    if not shows_noise(pattern, folded) or amplifies_noise(folded):
        return
    policy = folded.policy
    floor, coarsest = folded_tolerance_floor(folded), coarsest_level(pattern, folded)
    pairs, kinds, widths = folded_features(pattern, folded.vertices_coords_folded, policy.folded_distance, coarsest)
    order = np.argsort(widths)
    pairs, kinds, widths = pairs[order], kinds[order], widths[order]
    bounds = np.concatenate([[policy.folded_distance], widths, [policy.noise_step * policy.level_step * coarsest]])
    below, above = bounds[:-1], bounds[1:]
    levels = np.minimum(np.maximum(np.sqrt(policy.noise_step * below * above), floor), coarsest)
    fits = (policy.noise_step * below < levels) & (levels < above)
    levels = [float(level) for level in levels[fits]
              if not any(abs(level / old - 1) < policy.same_level for old in tried)]
    if not levels:
        return
    # the features each level relies on the noise for: those from a quarter of it up to it
    starts = np.searchsorted(widths, np.array(levels) / policy.level_step, side="left")
    stops = np.searchsorted(widths, levels, side="left")
    needed = np.unique(np.concatenate([np.arange(a, b, dtype=np.int64) for a, b in zip(starts, stops, strict=True)]))
    closable = np.ones(len(widths), dtype=bool)
    closable[needed] = closable_by_measured_noise(folded, judge, pairs[needed], kinds[needed])[1]
    yielded = 0
    for level, start, stop in zip(levels, starts, stops, strict=True):
        if closable[start:stop].all():
            yield level
            yielded += 1
            if yielded == policy.noise_levels:
                return


def _fingerprint(pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, graph: PlanarGraph) -> tuple:
    """Counts that must not change when the folded positions move within their own imprecision."""
    cells = build_cells(pattern, folded, tolerance, graph)
    constraints = build_layer_constraints(pattern, cells, with_transitivity=False)
    counts = constraints.counts
    return (len(graph.vertices_coords), len(graph.edges_vertices), len(constraints.variables_faces),
            counts["taco-taco"], counts["taco-tortilla"], counts["tortilla-tortilla"])


def _robust(pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, graph: PlanarGraph) -> bool:
    """Whether the overlay's counts stay the same with every vertex at its other folded position (the face
    that disagrees most), when the level is finer than the policy's ``folded_mismatch_factor`` times the
    disagreement."""
    coords = folded.vertices_coords_other
    if coords is None or tolerance >= folded.policy.folded_mismatch_factor * folded.worst_mismatch:
        return True
    try:
        reference = _fingerprint(pattern, folded, tolerance, graph)
        moved = replace(folded, vertices_coords_folded=coords)
        moved_graph = planarize_segments(coords[pattern.edges_vertices], tolerance)
        return _fingerprint(pattern, moved, tolerance, moved_graph) == reference
    except PrecisionProblem:
        return False


def build_overlay(
    pattern: CreasePattern, folded: FoldedGeometry, check_local: Callable[[LayerConstraints], None] | None = None,
    *, judge: GapJudge | None = None, above: float = 0.0,
) -> FoldedOverlay:
    """Cells and constraints at the first folded tolerance level that passes every check.

    ``check_local`` is handed to :func:`~foldbench.crease.layers.layer_constraints.build_layer_constraints` (an early
    contradiction check on the local constraints, before transitivity is built). A self-intersection it finds
    at a level that keeps open gaps the input cannot resolve (:func:`unresolved_open_gaps`) is not final: the
    levels closing those gaps are tried, and it stands only when none of them is sound. ``judge`` measures the
    gaps (made from the pattern's noise when not given); levels not above ``above`` are skipped.

    Raises:
        PrecisionProblem: no level is stable, consistent and coherent (``where`` lists each level's failure).
        SelfIntersection: the local constraints contradict each other at a level that resolves every gap.
    """
    floor = folded_tolerance_floor(folded)
    coarsest = coarsest_level(pattern, folded)
    graphs: dict[float, PlanarGraph] = {}

    def overlay_at(tolerance: float) -> PlanarGraph:
        if tolerance not in graphs:
            if len(graphs) > 2:
                graphs.pop(next(iter(graphs)))
            graphs[tolerance] = overlay_folded_edges(pattern, folded, tolerance)
        return graphs[tolerance]

    precision = folded.input_precision or 0.0
    judge = judge or noise_judge(pattern, folded, precision)
    # only an estimated noise is doubted, and only where the folding amplifies it (folded vertices disagree by
    # more than FOLDED_MISMATCH_FACTOR times the precision): there the estimate says little about how far the
    # folded points move; where they agree, a tiny pattern's estimate may be 7 times too small and its noise
    # gaps reach 3 times their movement (a single fold jittered by 1e-6)
    amplified = amplifies_noise(folded)
    doubt_factor = pattern.policy.gap_doubt_factor if pattern.written_precision == 0 and amplified else None
    doubtful: FoldedGap | None = None
    loose_above: FoldedGap | None = None  # a gap the input cannot resolve, kept open where a verdict was found
    unsettled: SelfIntersection | None = None  # found at a level that keeps such gaps open
    noise_closes: FoldedGap | None = None  # a gap kept open there that a noisy input's measured noise closes
    in_doubt: tuple[SelfIntersection, FoldedGap] | None = None  # one whose gaps only an estimate's margin closes
    rejected: list[tuple[float, str]] = []
    series: list[float] = []  # the first two series' levels, complete by the time the third series starts

    def first_series() -> Iterator[float]:  # generated as tried: a sound first level ends the search at once
        for tolerance in _tolerance_levels(folded, floor, coarsest):
            series.append(tolerance)
            yield tolerance

    steps = folded.policy.level_step, folded.policy.noise_step
    levels = chain(((tolerance, steps[0]) for tolerance in first_series()),
                   ((tolerance, steps[1]) for tolerance in noise_explained_levels(pattern, folded, judge, series)))
    for tolerance, step in levels:
        if tolerance <= above:
            continue
        if loose_above is not None and tolerance < loose_above.width:
            rejected.append((tolerance, f"keeps open a gap the input cannot resolve ({loose_above.describe()})"))
            continue
        graph = overlay_at(tolerance)
        finer = overlay_at(tolerance / step)
        if (len(graph.vertices_coords), len(graph.edges_vertices)) != (
            len(finer.vertices_coords),
            len(finer.edges_vertices),
        ):
            rejected.append((tolerance, "unstable"))
            continue
        if not _robust(pattern, folded, tolerance, graph):
            rejected.append((tolerance, "changes with the folded-vertex disagreement"))
            continue
        closed = genuine_gaps(pattern, folded, tolerance, None, doubt_factor=doubt_factor, judge=judge)
        if closed:
            if closed[0].certain:
                rejected.append((tolerance, f"closes {len(closed)} gap(s) of the design, the first "
                                            f"{closed[0].describe()}"))
            else:
                doubtful = doubtful or closed[0]
                rejected.append((tolerance, f"closes {len(closed)} gap(s) that may be the design's (the noise, "
                                            f"estimated at {judge.amplitude:.1e}, moves them by more than a fifth of "
                                            f"their width), the first {closed[0].describe()}"))
            continue
        beyond = [] if amplified else gaps_beyond_measured_noise(pattern, folded, tolerance, judge)
        if beyond:
            doubtful = doubtful or beyond[0]
            rejected.append((tolerance, f"closes {len(beyond)} gap(s) that the input's measured noise "
                                        f"({judge.measured_amplitude:.1e}) cannot close, only its estimate "
                                        f"({judge.amplitude:.1e}) can, the first {beyond[0].describe()}"))
            continue
        try:
            cells = build_cells(pattern, folded, tolerance, graph)
            constraints = build_layer_constraints(pattern, cells, check_local=check_local)
        except PrecisionProblem as problem:
            rejected.append((tolerance, problem.code))
            continue
        except SelfIntersection as verdict:
            unresolved = unresolved_open_gaps(pattern, folded, tolerance, judge)
            if not unresolved:
                raise
            loose_above = max(unresolved, key=lambda gap: gap.width)
            unsettled = unsettled or verdict
            noise_closes = noise_closes or gap_noise_closes(pattern, folded, unresolved)
            in_doubt = in_doubt or doubted_verdict(verdict, unresolved)
            rejected.append((tolerance, f"self-intersection resting on {len(unresolved)} open gap(s) that the "
                                        f"input's noise ({judge.amplitude:.1e}) cannot resolve, the widest "
                                        f"{loose_above.describe()}"))
            continue
        return FoldedOverlay(cells, constraints, tolerance, tuple(rejected), in_doubt)
    if unsettled is not None and noise_closes is None:
        raise unsettled  # no level that closes the unresolved gaps is sound: the verdict found stands
    where: dict[str, object] = {"tried": [{"tolerance": tolerance, "reason": reason} for tolerance, reason in rejected]}
    because = ""
    if unsettled is None and doubtful is not None:
        where["doubtful_gap"] = doubtful.to_dict()
        because = (f"; a folded gap is too close to the noise to tell design from noise ({doubtful.describe()}, "
                   f"noise estimated at {judge.amplitude:.1e})")
    refusal = PrecisionProblem(
        "E_PRECISION_TOLERANCE",
        f"no folded tolerance between {floor:.1e} and {coarsest:.1e} gives a stable, "
        f"consistent overlay of the folded edges; the coordinates are too imprecise to decide{because}",
        where,
    )
    if unsettled is not None and noise_closes is not None:
        # the verdict's level kept open a coincidence that the noise the input shows can have broken: the
        # self-intersection may be the noise's, and no level that closes the gap is sound
        raise verdict_resting_on_noise(unsettled, noise_closes, refusal)
    raise refusal

