"""The harness side of the baselines: it gives ``random`` and ``oracle`` their answers from the task, item by item,
so the model layer never sees an item or a task."""

from __future__ import annotations

from typing import TYPE_CHECKING

from foldbench.models.base import Model, ModelRequest
from foldbench.models.baselines import BaselineModel, OracleModel, RandomModel
from foldbench.tasks.base import Item, Task

if TYPE_CHECKING:
    import numpy as np

__all__ = ["for_item"]


def for_item(model: Model, task: Task, item: Item, repeat: int = 0) -> Model:
    """``model`` ready to answer ``item`` (its ``repeat``-th asking): a baseline bound to the task's answer for it,
    any other model as is.

    The oracle replies with ``task.oracle(item)``; the random baseline with ``task.random_answer(item, rng)``,
    ``rng`` being its own generator for the item, turn and repeat (each repeat draws afresh; repeat 0 draws what
    a run without repeats draws).
    """
    if not isinstance(model, BaselineModel):
        return model
    asking = item.id if repeat == 0 else f"{item.id}#repeat-{repeat}"
    if isinstance(model, OracleModel):

        def oracle(_request: ModelRequest, _rng: np.random.Generator) -> str:
            return task.oracle(item).model_dump_json()

        return model.answering(asking, oracle)
    if isinstance(model, RandomModel):

        def chance(_request: ModelRequest, rng: np.random.Generator) -> str:
            return task.random_answer(item, rng).model_dump_json()

        return model.answering(asking, chance)
    raise TypeError(f"no answer function for the baseline {model.name}")  # pragma: no cover
