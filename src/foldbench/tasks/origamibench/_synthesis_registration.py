"""Registers ``origamibench/synthesis-v1`` (import this module once; importing it again does nothing)."""

from foldbench.tasks.origamibench.synthesis import SynthesisTask
from foldbench.tasks.registry import register, task_ids

if SynthesisTask.id not in task_ids():
    register(SynthesisTask.id, SynthesisTask)
