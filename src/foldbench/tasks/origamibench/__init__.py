"""OrigamiBench: one-step multiple choice on the built-in fold sequences (associative and causal variants)."""

from foldbench.tasks.origamibench.one_step import AssociativeTask, CausalTask, OneStepTask
from foldbench.tasks.registry import register

__all__ = ["AssociativeTask", "CausalTask", "OneStepTask"]

register(AssociativeTask.id, AssociativeTask)
register(CausalTask.id, CausalTask)
