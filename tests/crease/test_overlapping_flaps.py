"""Three panels, two flaps folded onto the middle one: the counts worked out by hand, where the side-by-side bench
found Flat-Folder refusing the pattern (docs/rabbit-ear-files.md, "Four small patterns where Flat-Folder differs").

A square with a crease at ``x = a`` and one at ``x = b`` (``a < b``): the left flap lands on ``[a, 2a]``, the right
flap on ``[2b - 1, b]``. With both valleys, both flaps lie on the same side of the middle panel. Stacked *middle,
left, right*, the right fold joins the middle to the top layer across the left flap, which ends at ``2a < b``:
always valid. Stacked *middle, right, left*, the left fold joins the middle to the top layer across the right
flap, which is valid unless the right flap reaches past the left fold (``2b - 1 < a``). A flap that ends exactly
on the fold line touches it without crossing (the limit of the valid stackings just inside). With a valley and
a mountain the flaps lie on opposite sides: nothing to choose, one state.
"""

from __future__ import annotations

import pytest

from foldbench.crease.compiler import compile_crease_pattern

from .builders import square_with


@pytest.mark.parametrize(("left", "right", "letters", "states"), [
    (0.25, 0.6, "VV", 1),     # the right flap reaches 0.2, past the left fold at 0.25: only middle, left, right
    (0.25, 0.62, "VV", 1),    # reaches 0.24: still past it
    (0.25, 0.625, "VV", 2),   # ends exactly on the left fold (bench_crease_small pattern 34)
    (0.25, 0.65, "VV", 2),    # ends at 0.3, inside the middle panel: either flap on top
    (0.3, 0.7, "VV", 2),      # the flaps overlap on [0.4, 0.6], neither reaches the other's fold
    (0.25, 0.625, "VM", 1),   # opposite sides
    (0.25, 0.75, "VV", 1),    # the flaps meet edge to edge at 0.5 and do not overlap
    (1 / 3, 2 / 3, "VM", 1),  # an accordion: the flaps cover the middle panel exactly, one above, one below
])
def test_two_flaps_folded_onto_the_middle_panel(left: float, right: float, letters: str, states: int) -> None:
    pattern = square_with([((left, 0.0), (left, 1.0), letters[0]), ((right, 0.0), (right, 1.0), letters[1])])
    assert pattern.face_count == 3
    assert compile_crease_pattern(pattern).state_count == states
