"""Reading and writing crease patterns: FOLD, ORIPA .cp/.opx and SVG files, collections, model-written FOLD."""
