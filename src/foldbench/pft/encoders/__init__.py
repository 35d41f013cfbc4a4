"""Encoders of the paper folding test: the text grids, hole shapes and the 2D image encoding.

>>> from foldbench.pft.encoders import hole_outline
>>> len(hole_outline("text", "large", 0))
3
"""

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
