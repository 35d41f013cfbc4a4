"""The reward of the crease-pattern code environment, after OrigamiSpace's reinforcement-learning setting.

One step's reward is the sum of four terms, the episode's last step adds a fifth:

* **progress**: when the answer compiles (folds flat), ``progress_weight × (S − S_prev)``, where ``S`` is the
  fast partial score of the answer (:func:`foldbench.crease.score.similarity.partial_similarity`) and ``S_prev`` the
  partial score of the last answer that compiled in this episode (0 at the start);
* **compile bonus**: ``+compile_bonus`` when the answer compiles;
* **failure penalty**: ``−failure_penalty`` when it does not (a syntax error, a pattern that cannot fold flat or
  would pass through itself, or a precision problem), whatever the error;
* **step penalty**: ``−step_penalty`` for every step;
* **final reward**: on the last step, ``final_weight ×`` the paper's total of the episode's last answer (the four
  dimensions of :func:`foldbench.crease.score.similarity.score_generated`, with appendix D's fallbacks when it does not
  fold: the evaluation function of OrigamiSpace's section 4.4, as the paper's reinforcement learning uses it;
  ``origamispace/codegen-feedback-v1`` reports it as ``paper_total`` beside its headline).

The defaults make a step that compiles without progress cost ``step_penalty − compile_bonus`` = 0.01, so a policy
gains nothing by resubmitting a pattern, and a step that fails cost 0.12.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["RewardShaping", "RewardTerms"]


@dataclass(frozen=True, slots=True)
class RewardShaping:
    """The weights of the reward terms and the success threshold (see the module docstring).

    Attributes:
        progress_weight: factor of the partial-score progress ``S − S_prev``.
        compile_bonus: added when an answer compiles.
        failure_penalty: subtracted when an answer does not compile (a positive number).
        step_penalty: subtracted at every step (a positive number).
        final_weight: factor of the last answer's total score, added on the episode's last step.
        success_threshold: the episode ends early when an answer passes (compiles, no more folded states than
            the reference) and both its partial and its total score reach this value.
    """

    progress_weight: float = 1.0
    compile_bonus: float = 0.01
    failure_penalty: float = 0.1
    step_penalty: float = 0.02
    final_weight: float = 1.0
    success_threshold: float = 0.999

    def __post_init__(self) -> None:
        for name in ("progress_weight", "compile_bonus", "failure_penalty", "step_penalty", "final_weight"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative, got {getattr(self, name)}")
        if not 0.0 < self.success_threshold <= 1.0:
            raise ValueError(f"success_threshold must lie in (0, 1], got {self.success_threshold}")

    def step_terms(self, partial: float | None, previous: float) -> RewardTerms:
        """The terms of one step: ``partial`` is the answer's partial score (None when it did not compile),
        ``previous`` the partial score of the last answer that compiled.

        >>> RewardShaping().step_terms(0.5, 0.2).total
        0.29
        >>> RewardShaping().step_terms(None, 0.2).total
        -0.12
        """
        if partial is None:
            return RewardTerms(step_penalty=-self.step_penalty, failure_penalty=-self.failure_penalty)
        return RewardTerms(progress=self.progress_weight * (partial - previous), compile_bonus=self.compile_bonus,
                           step_penalty=-self.step_penalty)


@dataclass(frozen=True, slots=True)
class RewardTerms:
    """One step's reward, term by term (penalties are negative)."""

    progress: float = 0.0
    compile_bonus: float = 0.0
    failure_penalty: float = 0.0
    step_penalty: float = 0.0
    final: float = 0.0

    @property
    def total(self) -> float:
        """The step's reward (rounded to 12 digits, so that equal sums compare equal)."""
        return round(self.progress + self.compile_bonus + self.failure_penalty + self.step_penalty + self.final, 12)

    def as_dict(self) -> dict[str, float]:
        """The terms and their total."""
        return {**asdict(self), "total": self.total}
