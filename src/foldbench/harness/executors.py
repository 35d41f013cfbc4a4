"""Where a run's model calls are made. The harness is handed an :class:`Executor` and asks it for the model of
each run; it never chooses one by name.

:class:`LocalExecutor` builds the adapter in this process. The Ray executor
(:class:`foldbench.integrations.ray_eval.RayExecutor`) builds one that sends each request through Ray workers;
:func:`foldbench.integrations.executors.executor_for` turns ``RunOptions.executor`` into one of the two.
"""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from foldbench.harness.config import RunOptions
from foldbench.models.base import Model

__all__ = ["ClosingExecutor", "Executor", "LocalExecutor"]


@runtime_checkable
class Executor(Protocol):
    """Builds the models of a run; owns whatever they share (a connection to a cluster) until ``close``."""

    def build_model(self, spec: str, options: RunOptions) -> Model:
        """The model adapter that makes the calls of ``spec`` with ``options`` (its caller closes it)."""
        ...

    def close(self) -> None:
        """Release what the executor holds; the models it built must be closed first."""
        ...


class ClosingExecutor:
    """What the executors share: used as a context manager, an executor is closed when the block is left."""

    def close(self) -> None:
        """Nothing to release (executors that hold something override this)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


class LocalExecutor(ClosingExecutor):
    """The model adapters run in this process (the default)."""

    def build_model(self, spec: str, options: RunOptions) -> Model:
        """The adapter :func:`foldbench.models.registry.make_model` builds for ``spec``."""
        from foldbench.models.registry import make_model

        return make_model(
            spec, base_url=options.base_url, api_key_env=options.api_key_env, seed=options.seed, **options.params
        )
