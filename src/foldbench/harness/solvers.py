"""Solvers: how a conversation with a model goes, between rendering an item and scoring the final reply.

The runner renders an item's prompt, hands it to a solver with a ``generate`` function, and scores the reply the
solver ends on. ``generate`` asks the model (or answers from the store when the same request was answered
before) and stores the turn the moment its reply arrives, so a solver never deals with the store or resuming:
re-running a killed conversation replays its answered turns from the store and asks only the first unanswered
one.

* :class:`OneShotSolver` asks once (the prompt as one user turn).
* :class:`MultiTurnSolver` keeps the conversation going: after each reply a step function gives feedback (the
  next user turn) and says whether the conversation is over; it stops then, or when the turn budget is spent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from foldbench.messages import Conversation, Message, Prompt, TextPart
from foldbench.models.base import ModelReply
from foldbench.tasks.spec import Feedback

__all__ = ["Generate", "MultiTurnSolver", "OneShotSolver", "Solver", "StepFunction", "TurnOutcome"]

#: The feedback on a reply: (reply text, turn index) -> :class:`Feedback`.
StepFunction = Callable[[str, int], Feedback]


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """One answered turn: the reply, and the feedback on it (None for one-shot turns and failed requests)."""

    reply: ModelReply
    feedback: Feedback | None = None


class Generate(Protocol):
    """Asks for the next assistant turn of ``conversation`` and stores it (with the step's feedback); ``params``
    are generation parameters for this request only (they enter its key)."""

    async def __call__(
        self, conversation: Conversation, *, step: StepFunction | None = None, params: Mapping[str, Any] | None = None
    ) -> TurnOutcome: ...


class Solver(Protocol):
    """Plays out one item's conversation; returns the reply to score (or the failed one)."""

    async def solve(self, prompt: Prompt, generate: Generate) -> ModelReply: ...


class OneShotSolver:
    """Asks once: the prompt, one reply."""

    async def solve(self, prompt: Prompt, generate: Generate) -> ModelReply:
        """The model's only reply to ``prompt``."""
        return (await generate(prompt.conversation())).reply


class MultiTurnSolver:
    """Feedback after each reply, until the step function says done or ``max_turns`` replies were given.

    Args:
        step: the feedback on a reply (bound to the item).
        max_turns: the turn budget (at least 1).
    """

    def __init__(self, step: StepFunction, max_turns: int) -> None:
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {max_turns}")
        self.step = step
        self.max_turns = max_turns

    async def solve(self, prompt: Prompt, generate: Generate) -> ModelReply:
        """The last reply of the conversation (or the first that failed)."""
        conversation = prompt.conversation()
        for turn in range(self.max_turns):
            outcome = await generate(conversation, step=self.step)
            feedback = outcome.feedback
            if outcome.reply.error is not None or feedback is None or feedback.done or turn + 1 == self.max_turns:
                return outcome.reply
            conversation = conversation.then(
                Message("assistant", (TextPart(outcome.reply.text),)), Message("user", feedback.parts)
            )
        raise AssertionError("unreachable: the loop returns on its last turn")  # pragma: no cover
