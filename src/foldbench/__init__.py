"""foldbench: paper-folding and origami spatial-reasoning benchmarks for vision-language models."""

__version__ = "0.1.0"

__all__ = ["__version__"]
