"""The executor that ``RunOptions.executor`` names: ``"local"`` (this process) or ``"ray"`` (Ray workers,
``foldbench[ray]``), for :func:`foldbench.harness.evaluation.run_dataset` and
:func:`foldbench.harness.suite.run_suite`.

    options = RunOptions(executor="ray", workers=4)
    with executor_for(options) as executor:
        run_dataset(EvalConfig(task=..., data=..., model="openai:NAME", db=..., options=options), executor=executor)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.harness.config import RunOptions
from foldbench.harness.executors import LocalExecutor

if TYPE_CHECKING:
    from foldbench.integrations.ray_eval import RayExecutor

__all__ = ["executor_for"]


def executor_for(options: RunOptions) -> LocalExecutor | RayExecutor:
    """A new executor of the kind ``options.executor`` names (Ray is joined when its first model is built, or
    by ``connect()``); close it when the runs are done (it is a context manager)."""
    if options.executor == "ray":
        from foldbench.integrations.ray_eval import RayExecutor

        return RayExecutor(workers=options.workers, address=options.ray_address)
    return LocalExecutor()
