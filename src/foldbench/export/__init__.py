"""Exports: datasets as Parquet with a dataset card (``datasets``/Hub), lmms-eval task folders, VLMEvalKit TSV
files, and run results as tables."""

from foldbench.export._output import ExportError

__all__ = ["ExportError"]
