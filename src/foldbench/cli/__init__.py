"""The ``foldbench`` command line."""

from foldbench.cli.app import app, main

__all__ = ["app", "main"]
