"""The rules of the crease-pattern compiler's precision policy, and its default values by their old names.

Crease patterns arrive as floating-point coordinates, so exact arithmetic is not available. Every threshold
is a field of :class:`~foldbench.crease.precision.policy.PrecisionPolicy`, which the stages read from the pattern they
work on; the constants below are the fields of :data:`~foldbench.crease.precision.policy.DEFAULT_POLICY` under the
names they had before the policy object (kept for callers; the stages do not read them). The rules:

1. **Normalise first.** Every input is translated and scaled so that the paper's bounding box has its longest
   side equal to 1. All distances below are therefore fractions of the paper size.
2. **Points closer than the distance tolerance are the same point.** When the crease pattern is planarised
   (and again when the folded edges are overlaid into cells), endpoints and intersection points closer than
   :data:`CREASE_DISTANCE_TOLERANCE` (or :data:`FOLDED_DISTANCE_TOLERANCE` in the folded state) are merged.
3. **A point within the distance tolerance of a segment lies on it.** The segment is split there; two
   segments that overlap along a common line are merged piece by piece. This holds for crossing points
   too, and two straight segments meet once: a segment whose end is put on another does not also cross it,
   and the crossings of segments that nearly meet at one point become one point, the point nearest to all
   of them (moved by noise at shallow angles, concurrent lines cross up to tolerance / sine apart, and
   would leave slivers the exact drawing does not have; :mod:`foldbench.crease.graph.planar`).
4. **Angles** (Kawasaki's alternating sums, collinearity) are compared with :data:`ANGLE_TOLERANCE` radians.
5. **Drawings that do not connect at the crease tolerance** (creases stopping just short of the boundary, as
   in hand-drawn SVG) are planarised again with the tolerance ten times wider, up to
   :data:`IMPORT_TOLERANCE_LIMIT`; the pattern then carries a note saying so.
6. **The folded tolerance is chosen per file and checked.** A vertex reached around different faces lands at
   slightly different folded points when the input coordinates are rounded; each vertex keeps the position
   from the first face that reaches it, and a mismatch above :data:`FOLDED_MISMATCH_LIMIT` is a
   :class:`~foldbench.crease.errors.PrecisionProblem`. The overlay of folded edges starts at
   ``max(FOLDED_DISTANCE_TOLERANCE, FOLDED_MISMATCH_FACTOR * worst mismatch)`` and moves down (then up) by
   factors of four until the arrangement is stable under refinement and its cells and constraints are
   consistent (:mod:`foldbench.crease.precision.overlay`); finer than :data:`FOLDED_TOLERANCE_FLOOR` it does not go.
   Then the levels halfway between; then, for noisy input whose folding does not amplify the noise, levels
   placed between the folded features themselves, stable against half the level where every feature
   between a quarter of it and the level is one the input's measured noise can close (a jittered strip's
   flush edges 6e-6 apart, its overhang 2e-5 wide: no window of a factor of four lies between).
7. **Input noise is measured and snapped.** Before planarising, :mod:`foldbench.crease.precision.measure` estimates how
   far the input's endpoints were moved (creases meant to be parallel that are not quite, then Kawasaki
   residuals): the *input precision*. Creases are merged and split at
   ``max(CREASE_DISTANCE_TOLERANCE, SNAP_FACTOR * input precision)`` (at most :data:`IMPORT_TOLERANCE_LIMIT`),
   and the folded tolerance may not go below ``FOLDED_MISMATCH_FACTOR`` times the *folded noise*: the worst
   folded-vertex mismatch, or how far the folded vertices move when the input is moved by its precision
   (measured by refolding), whichever is larger. When no level at or above that floor gives a sound overlay,
   the answer is :class:`~foldbench.crease.errors.PrecisionProblem` (``E_PRECISION_*``), never a count.
8. **One angle tolerance per vertex.** Kawasaki and big-little-big judge a vertex's sectors with the same
   tolerance: ``max(ANGLE_TOLERANCE, ANGLE_NOISE_FACTOR * that vertex's Kawasaki error)``. A vertex Kawasaki
   accepts as approximately flat is never rejected by big-little-big over a difference within that tolerance.
9. **No tolerance closes a gap of the design.** A folded tolerance raised for noisy input may not merge a
   folded vertex with another vertex or edge across a gap wider than ``FOLDED_DISTANCE_TOLERANCE`` that
   refolding with the input moved by its noise (projected onto the patterns that meet Kawasaki, never less
   than :data:`LEAST_NOISE`) hardly changes (:mod:`foldbench.crease.precision.folded_gaps`). Without a written
   precision the noise is only estimated, and where the folding amplifies it (folded vertices disagree by
   more than ``FOLDED_MISMATCH_FACTOR`` times the precision) it is the regularisation's movement, and a gap
   between ``GAP_DOUBT_FACTOR`` and ``GAP_NOISE_FACTOR`` times its movement is doubtful: not closed either (a
   precision error names it). When a level closed gaps of such an input whose folding amplified its
   Kawasaki residuals, the regularised pattern (rule 10) is counted too, and a different count is
   ``E_PRECISION_GAPS``. A self-intersection found at a level that keeps open a gap the noise can close (a
   first-order bound, each coordinate moved alone and the changes added up) is a verdict only when no level
   that closes the gap is sound, and, in noisy input (measured precision above 0, or a regularised
   pattern), only when the measured noise cannot close it either: otherwise the self-intersection may be a
   coincidence the noise broke, and the answer is ``E_PRECISION_TOLERANCE`` naming the gap. A gap that
   only the margin of an estimated noise can close, not the measured noise itself, is in doubt: where the
   folded vertices agree no level may close it, and a self-intersection resting on it against a sound level
   that closes it is ``E_PRECISION_GAPS``.
10. **Kawasaki's residuals may be removed, within the snap tolerance.** When no level gives a sound overlay
   because the folding amplified the input's Kawasaki residuals, the pattern is moved to the nearest one on
   which every vertex meets Kawasaki exactly (:mod:`foldbench.crease.graph.regularize`), provided no vertex moves
   farther than the snap tolerance; its states are counted, and the summary says so.
11. **Precision is reported, never guessed.** When a check fails by less than
   :data:`PRECISION_MARGIN` times its tolerance, the compiler raises
   :class:`foldbench.crease.errors.PrecisionProblem` instead of a geometric verdict. So does a Kawasaki error
   above :data:`KAWASAKI_IMPOSSIBLE` in a visibly noisy input (measured precision above 0) when moving every
   point by the input's precision (the measured one, or half the last decimal the coordinates are written to,
   :func:`foldbench.crease.precision.measure.written_precision`) could cause it (``E_PRECISION_KAWASAKI``): an
   export rounded to three decimals misses Kawasaki by degrees at its short creases.

The folded-state tolerance is larger than the crease-pattern one because folding composes reflections and
accumulates rounding error (about one unit of rounding per fold in a chain).
"""

from __future__ import annotations

from foldbench.crease.precision.policy import DEFAULT_POLICY

__all__ = [
    "ANGLE_NOISE_FACTOR",
    "ANGLE_TOLERANCE",
    "EXACT_ANGLE",
    "NOISE_ANGLE_LIMIT",
    "NOISE_CROSSING_FACTOR",
    "NOISE_FEATURE_FACTOR",
    "NOISE_GAP_RATIO",
    "SNAP_FACTOR",
    "TINY_OVERLAP_LIMIT",
    "AREA_TOLERANCE",
    "CREASE_DISTANCE_TOLERANCE",
    "FOLDED_DISTANCE_TOLERANCE",
    "FOLDED_MISMATCH_FACTOR",
    "FOLDED_MISMATCH_LIMIT",
    "FOLDED_TOLERANCE_FLOOR",
    "IMPORT_TOLERANCE_LIMIT",
    "KAWASAKI_IMPOSSIBLE",
    "LEAST_NOISE",
    "PRECISION_MARGIN",
]

CREASE_DISTANCE_TOLERANCE: float = DEFAULT_POLICY.crease_distance
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.crease_distance`."""

FOLDED_DISTANCE_TOLERANCE: float = DEFAULT_POLICY.folded_distance
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.folded_distance`."""

FOLDED_TOLERANCE_FLOOR: float = DEFAULT_POLICY.folded_floor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.folded_floor`."""

ANGLE_TOLERANCE: float = DEFAULT_POLICY.angle
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.angle`."""

AREA_TOLERANCE: float = DEFAULT_POLICY.area
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.area`."""

PRECISION_MARGIN: float = DEFAULT_POLICY.precision_margin
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.precision_margin`."""

FOLDED_MISMATCH_FACTOR: float = DEFAULT_POLICY.folded_mismatch_factor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.folded_mismatch_factor`."""

FOLDED_MISMATCH_LIMIT: float = DEFAULT_POLICY.folded_mismatch_limit
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.folded_mismatch_limit`."""

KAWASAKI_IMPOSSIBLE: float = DEFAULT_POLICY.kawasaki_impossible
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.kawasaki_impossible`."""

EXACT_ANGLE: float = DEFAULT_POLICY.exact_angle
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.exact_angle`."""

NOISE_ANGLE_LIMIT: float = DEFAULT_POLICY.noise_angle_limit
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.noise_angle_limit`."""

SNAP_FACTOR: float = DEFAULT_POLICY.snap_factor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.snap_factor`."""

ANGLE_NOISE_FACTOR: float = DEFAULT_POLICY.angle_noise_factor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.angle_noise_factor`."""

NOISE_FEATURE_FACTOR: float = DEFAULT_POLICY.noise_feature_factor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.noise_feature_factor`."""

NOISE_CROSSING_FACTOR: float = DEFAULT_POLICY.noise_crossing_factor
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.noise_crossing_factor`."""

NOISE_GAP_RATIO: float = DEFAULT_POLICY.noise_gap_ratio
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.noise_gap_ratio`."""

TINY_OVERLAP_LIMIT: float = DEFAULT_POLICY.tiny_overlap_limit
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.tiny_overlap_limit`."""

LEAST_NOISE: float = DEFAULT_POLICY.least_noise
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.least_noise`."""

IMPORT_TOLERANCE_LIMIT: float = DEFAULT_POLICY.import_limit
"""The default policy's :attr:`~foldbench.crease.precision.policy.PrecisionPolicy.import_limit`."""
