"""Scoring a generated crease pattern against a reference (OrigamiSpace's code-generation evaluation and stricter
measures)."""
