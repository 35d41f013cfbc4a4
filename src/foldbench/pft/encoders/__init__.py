"""Encoders of the paper folding test: the text grids, hole shapes and the 2D image encoding.

The names below are imported from their modules on first use, so the text encoding (all a text prompt needs)
loads no imaging library.

>>> from foldbench.pft.encoders import hole_outline
>>> len(hole_outline("text", "large", 0))
3
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.lazy_names import lazy_exports

if TYPE_CHECKING:
    from foldbench.pft.encoders.image import (
        InvalidImageSizeError,
        SheetLayout,
        png_bytes,
        reference_sheet,
        render_paper,
        render_result,
        render_steps,
        render_unfolding,
        sheet_layout,
    )
    from foldbench.pft.encoders.shapes import (
        RADIUS_BY_SIZE,
        hole_center,
        hole_outline,
        outline_of_hole,
        unit_outline,
    )
    from foldbench.pft.encoders.text import HOLE_LETTERS, encode_prompt_block, encode_steps, grid_text

_HOMES = {
    "InvalidImageSizeError": ".image",
    "SheetLayout": ".image",
    "png_bytes": ".image",
    "reference_sheet": ".image",
    "render_paper": ".image",
    "render_result": ".image",
    "render_steps": ".image",
    "render_unfolding": ".image",
    "sheet_layout": ".image",
    "RADIUS_BY_SIZE": ".shapes",
    "hole_center": ".shapes",
    "hole_outline": ".shapes",
    "outline_of_hole": ".shapes",
    "unit_outline": ".shapes",
    "HOLE_LETTERS": ".text",
    "encode_prompt_block": ".text",
    "encode_steps": ".text",
    "grid_text": ".text",
}

__all__ = [
    "HOLE_LETTERS",
    "encode_prompt_block",
    "encode_steps",
    "grid_text",
    "RADIUS_BY_SIZE",
    "InvalidImageSizeError",
    "SheetLayout",
    "hole_center",
    "hole_outline",
    "outline_of_hole",
    "png_bytes",
    "reference_sheet",
    "render_paper",
    "render_result",
    "render_steps",
    "render_unfolding",
    "sheet_layout",
    "unit_outline",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
