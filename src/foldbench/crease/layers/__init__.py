"""Folded geometry and layer order: where faces land, overlap cells, layer-order variables and constraints, and
their solver."""
