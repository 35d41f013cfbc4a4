"""The limits of creasing the square that the fold sequences and the origami sheet share (paper frame 0..10).

The origami sheet (:mod:`foldbench.origami.geometry`, :mod:`foldbench.origami.actions`) enforces them on every
action; the built-in sequences (:mod:`foldbench.crease.sequences`) check that their steps stay clear of them, so
that a sequence replays in the environment unchanged.
"""

from __future__ import annotations

__all__ = ["MAX_CREASES_PER_ACTION", "MIN_CREASE_LENGTH", "SNAP_DISTANCE"]

SNAP_DISTANCE: float = 0.05
"""Snapping distance in the paper frame (0.5 % of the side): endpoints this close to a vertex or a segment move
onto it. Coarse enough for coordinates a model writes with two decimals, fine enough for a 1/64 grid."""
MIN_CREASE_LENGTH: float = 2 * SNAP_DISTANCE
"""Shorter creases (after snapping) are refused as degenerate."""
MAX_CREASES_PER_ACTION: int = 32
"""An ``add_creases`` action with more creases is refused (a fold step of a simple fold rarely needs ten)."""
