"""Names a package re-exports from its modules, imported on first use: :func:`lazy_exports`, kept here for task
families (``foldbench.tasks.lazy.lazy_exports``); it lives in :mod:`foldbench.lazy_names`, which the engines use
too."""

from foldbench.lazy_names import lazy_exports

__all__ = ["lazy_exports"]
