"""OrigamiBench: the interactive synthesis task (an agent folds a square toward a target, one crease action a
turn) and one-step multiple choice on the built-in fold sequences (associative and causal variants)."""

from foldbench.tasks.origamibench.one_step import AssociativeTask, CausalTask, OneStepTask
from foldbench.tasks.origamibench.synthesis import SynthesisTask
from foldbench.tasks.registry import register

__all__ = ["AssociativeTask", "CausalTask", "OneStepTask", "SynthesisTask"]

register(AssociativeTask.id, AssociativeTask)
register(CausalTask.id, CausalTask)
register(SynthesisTask.id, SynthesisTask)
