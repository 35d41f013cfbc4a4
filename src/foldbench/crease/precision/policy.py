"""The precision policy of the crease-pattern compiler: every tolerance, in one frozen object.

Crease patterns arrive as floating-point coordinates, so the compiler decides "the same point", "the same
angle", "a gap of the design" and "too imprecise to decide" with thresholds. All of them are fields of
:class:`PrecisionPolicy`; the stages (planarising, the vertex checks, folding, the folded overlay, the gap
judge, the regularisation) read them from the policy the pattern carries (:attr:`CreasePattern.policy
<foldbench.crease.graph.pattern.CreasePattern.policy>`, set by :func:`~foldbench.crease.build_crease_pattern`
and the readers, :data:`DEFAULT_POLICY` unless another is given), and the folded geometry carries it on to the
overlay. Distances are fractions of the paper size (the input is scaled so that its bounding box's longest side
is 1), angles are radians. The rules these values serve are listed in :mod:`foldbench.crease.precision.tolerance`.

>>> DEFAULT_POLICY.crease_distance, DEFAULT_POLICY.folded_distance
(1e-07, 1e-06)
>>> wider = DEFAULT_POLICY.with_changes(crease_distance=1e-5)
>>> wider.crease_distance, wider.folded_distance, DEFAULT_POLICY.crease_distance
(1e-05, 1e-06, 1e-07)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

__all__ = ["DEFAULT_POLICY", "PrecisionPolicy"]


@dataclass(frozen=True)
class PrecisionPolicy:
    """Every tolerance and threshold the compiler's stages decide with (distances: paper size = 1; angles:
    radians). Build a variant with :meth:`with_changes`; the defaults are the values every figure of the
    documentation was measured with."""

    # --- the crease pattern (planarising, snapping) ---
    crease_distance: float = 1e-7
    """Crease-pattern points closer than this merge, and a point this close to a segment splits it: the snap
    distance of exact input. Ten times the rounding a chain of a few reflections leaves on coordinates near 1,
    far below any crease a design draws."""

    snap_factor: float = 8.0
    """A noisy input is snapped at this many times its measured precision (at least ``crease_distance``, at most
    ``import_limit``): points moved apart by the noise on both sides, a little over twice the precision apart,
    merge with a margin."""

    import_limit: float = 1e-4
    """The widest snap distance tried when a drawing does not close up at the finer one (retried ten times wider
    each time): a hundredth of a percent of the paper, still far below the shortest crease of real designs."""

    tiny_overlap_limit: float = 5e-5
    """A mountain and a valley crease of a drawing that overlap over less than this are merged with a note; a
    longer overlap is a structure error (the creases really overlap)."""

    area: float = 1e-12
    """A face with a smaller area (paper area = 1) is degenerate (``E_CP_DEGENERATE_FACE``): the square of a
    length of 1e-6, below which no face of a design lies."""

    flat_fold_angle: float = 1e-6
    """A FOLD ``edges_foldAngle`` within this many degrees of ±180 is a flat fold; a smaller angle is read as a
    partly folded crease (a hint of its direction, with a note). Exporters write 180 exactly or to a few
    decimals."""

    # --- the input's precision, measured from the input ---
    exact_angle: float = 1e-10
    """Directions or Kawasaki sums that differ by less than this differ by floating-point rounding only (a few
    hundred units of rounding of an angle near pi): no noise."""

    noise_angle_limit: float = 1e-5
    """Directions or Kawasaki sums that differ by more than this differ by design: creases a hundred-thousandth
    of a radian apart are drawn so, not moved by noise."""

    noise_feature_factor: float = 16.0
    """In noisy input, an edge (or the gap between a dangling crease end and another crease) shorter than this
    many input precisions is an artefact of the noise, and the precision grows to cover it."""

    noise_crossing_factor: float = 1000.0
    """In noisy input, an edge shorter than this many input precisions and set apart from every longer edge by
    ``noise_gap_ratio`` is an artefact too: creases crossing at a small angle move their crossing by much more
    than the noise."""

    noise_gap_ratio: float = 100.0
    """See ``noise_crossing_factor``: the factor of length separating such artefacts from the design's edges."""

    max_written_decimals: int = 6
    """Coordinates written with more decimals than this are taken as exact (full-length numbers); fewer, and half
    the last decimal is how far each coordinate may be off."""

    written_digit_match: float = 1e-9
    """A coordinate counts as written to ``k`` decimals when it is within this (relative to its size, at least 1)
    of a multiple of ``10**-k``: the rounding a decimal-to-binary conversion leaves, not a digit."""

    # --- angles at the vertices ---
    angle: float = 1e-6
    """Angles that differ by less than this are equal (Kawasaki's alternating sums, big-little-big sectors)."""

    angle_noise_factor: float = 10.0
    """At a vertex with Kawasaki error ``e``, sectors within ``angle_noise_factor * e`` of each other are equal
    (big-little-big): one angle tolerance per vertex, so a vertex Kawasaki accepts is not refused by
    big-little-big over a difference its own error explains."""

    kawasaki_impossible: float = 1e-2
    """A Kawasaki error above this is a verdict (``E_GEOM_KAWASAKI``) unless the input's precision explains it
    (``E_PRECISION_KAWASAKI``); below it, the vertex is approximately flat and the folded geometry decides."""

    precision_margin: float = 1e3
    """A check that fails by less than this many tolerances is a precision problem, not a geometric verdict
    (big-little-big leaves sectors closer than ``angle * precision_margin`` to the layer solver)."""

    # --- the folded state ---
    folded_distance: float = 1e-6
    """The starting folded tolerance, and the width below which folded gaps are always merged, even in exact
    input: folding composes reflections, about one unit of rounding per fold in a chain, so the folded state
    is coarser than the crease pattern (ten times ``crease_distance``)."""

    folded_floor: float = 1e-11
    """The finest folded tolerance tried: about a hundred thousand units of rounding of coordinates near 1."""

    folded_mismatch_factor: float = 8.0
    """The starting folded tolerance is at least this many times the worst disagreement of a vertex's folded
    positions, and the floor at least this many times the input precision; a folding whose vertices disagree
    by more than this many input precisions amplifies the noise."""

    folded_mismatch_limit: float = 1e-2
    """A folded-vertex disagreement above this cannot be absorbed (``E_PRECISION_FOLDED_VERTEX``), and no folded
    tolerance is coarser than this."""

    coarsest_edge_fraction: float = 8.0
    """The coarsest folded tolerance tried is the shortest folded edge divided by this: coarser levels would
    merge the ends of edges."""

    level_step: float = 4.0
    """Neighbouring folded tolerance levels differ by this factor, and a level's overlay must keep its numbers
    of points and segments at the level this factor finer (stable)."""

    noise_step: float = 2.0
    """A level placed between the folded features of a noisy input is compared with the level this factor
    finer, instead of ``level_step``."""

    noise_levels: int = 8
    """At most this many levels between the folded features are tried."""

    level_rounding: float = 1e-9
    """Relative slack when a level computed by repeated multiplication is compared with the floor or the
    coarsest level (rounding of the products, not a tolerance of the geometry)."""

    same_level: float = 1e-6
    """A level between the features within this relative distance of a level already tried is that level."""

    # --- the noise folded gaps are judged against ---
    least_noise: float = 1e-6
    """The least input noise folded gaps are judged against, exact input included: jittering a pattern by up to
    this much is to change no count and no verdict."""

    noise_margin: float = 4.0
    """Without a written precision, the noise amplitude is this many times the measured input precision (an
    estimate from nearly parallel creases, which few creases can make several times too small)."""

    gap_trials: int = 16
    """How many times the pattern is refolded with its vertices moved at random by the noise amplitude."""

    gap_noise_factor: float = 5.0
    """A folded gap wider than this many times the most the trials moved it is a feature of the design, which no
    folded tolerance may close (the slivers of a clipped triangle twist reach 5.9 to 13.5 times under moves of
    1e-6, the noise gaps of an exact hexagon design at most 0.9 times)."""

    gap_doubt_factor: float = 2.0
    """Under an estimated noise in a pattern whose folding amplifies it, a gap wider than this many times its
    movement but not ``gap_noise_factor`` times is doubtful: not closed, not trusted."""

    # --- the Kawasaki regularisation ---
    regularized_residual: float = 1e-12
    """A regularised vertex whose Kawasaki error is below this meets Kawasaki exactly."""

    regularized_mismatch: float = 1e-9
    """A regularised pattern is used only when its folded vertices agree to within this."""

    linear_solve_rounding: float = 1e-14
    """The regularisation's least-norm solves stop when the residual is this small relative to the targets
    (rounding of double precision, not a tolerance of the geometry)."""

    def with_changes(self, **changes: Any) -> PrecisionPolicy:
        """A copy with the named fields changed.

        Raises:
            ValueError: an unknown field, or a value that is not a positive number.
        """
        known = {item.name for item in fields(self)}
        for name, value in changes.items():
            if name not in known:
                raise ValueError(f"unknown precision policy field {name!r}")
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"precision policy field {name!r} must be a positive number, got {value!r}")
        return replace(self, **changes)


DEFAULT_POLICY: PrecisionPolicy = PrecisionPolicy()
"""The policy every stage uses unless a pattern is built with another."""
