"""The crease-pattern code environment behind a text-in, text-and-pictures-out interface (VAGEN style), like
:class:`~foldbench.envs.wrappers.TextInterface` for the synthesis environment: ``reset(seed) -> (obs, info)``,
``step(action_text) -> (obs, reward, done, info)``, ``system_prompt()``. The model's text is untrusted: it is
read strictly as one FOLD JSON object (see :mod:`foldbench.envs.code_env`), never evaluated.
"""

from __future__ import annotations

from typing import Any

from foldbench.envs.code_env import CreasePatternCodeEnv
from foldbench.envs.code_reward import RewardShaping
from foldbench.envs.wrappers import IMAGE_PLACEHOLDER
from foldbench.origami.instances import Instance
from foldbench.text.prompts import load_prompt

__all__ = ["CodeTextInterface"]


class CodeTextInterface:
    """``foldbench/CreasePatternCode-v1`` for RL frameworks that speak raw model text.

    Observations are ``{"obs_str": str, "multi_modal_data": {"<image>": [PIL images]}}``: ``obs_str`` holds one
    ``<image>`` placeholder per picture (the reference's crease pattern, then the folded model; first turn
    only, since they do not change), the verdict on the previous answer and the JSON state. ``info`` has
    ``metrics`` (``turn_metrics``: ``action_is_valid``, the answer was a readable crease pattern, and
    ``action_is_effective``, it compiled and raised the partial score; ``traj_metrics``: ``success``),
    ``llm_raw_response`` (cut to 2,000 characters) and, at the end, ``final_score``.

    Args:
        budget: answers per episode.
        shaping: the reward weights (default :class:`RewardShaping`).
        image_size: picture side; ``images=False`` leaves the pictures out (text-only models).
        folds: folding steps of the random reference instances.
    """

    def __init__(self, budget: int = 10, shaping: RewardShaping | None = None, image_size: int = 256,
                 images: bool = True, folds: tuple[int, ...] = (3, 4, 5, 6)) -> None:
        self.images = images
        self.env = CreasePatternCodeEnv(folds=folds, budget=budget, shaping=shaping, image_size=image_size,
                                        observation_mode="full" if images else "text")

    def system_prompt(self) -> str:
        """The instructions (the pictures, the FOLD fields, the rules of flat folding and the budget)."""
        return load_prompt("foldbench.envs", "codegen.txt").render(images=self.images, budget=self.env.budget)

    def reset(self, seed: int | None = None, instance: Instance | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode (the same seed gives the same reference)."""
        options = {"instance": instance} if instance is not None else None
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observation(observation, None), info

    def step(self, action_text: str) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        """Compile and score the model's raw text as one answer; never raises for any text."""
        text = action_text if isinstance(action_text, str) else str(action_text)
        before = self.env.previous_partial
        observation, reward, terminated, truncated, info = self.env.step(text)
        verdict = {"compiled": info["compiled"], "partial_score": info["answer_partial_score"],
                   "error": {"class": info["error_class"], "code": info["error_code"],
                             "message": info["error_message"]}}
        error = verdict.get("error") or {}
        info = {
            **info,
            "llm_raw_response": text[:2000],
            "metrics": {
                "turn_metrics": {"action_is_valid": error.get("class") not in ("CSE", "BUDGET"),
                                 "action_is_effective": bool(verdict.get("compiled"))
                                 and self.env.previous_partial > before},
                "traj_metrics": {"success": bool(terminated)},
            },
        }
        return self._observation(observation, verdict), float(reward), bool(terminated or truncated), info

    def _observation(self, observation: dict[str, Any], verdict: dict[str, Any] | None) -> dict[str, Any]:
        lines = []
        pictures = []
        if verdict is None:
            assert self.env.instance is not None
            lines.append(f'The model is "{self.env.instance.name}".')
            if self.images:
                pictures = list(self.env.pictures().values())
                lines.append("Crease pattern: " + IMAGE_PLACEHOLDER + " Folded model: " + IMAGE_PLACEHOLDER)
        elif verdict.get("compiled"):
            lines.append(f"Your pattern folds flat; partial score {verdict['partial_score']:.3f}.")
        else:
            error = verdict.get("error") or {}
            lines.append(f"Your pattern does not fold flat ({error.get('class')} {error.get('code')}): "
                         f"{error.get('message')}")
        lines.append("State: " + observation["text"])
        return {"obs_str": "\n".join(lines), "multi_modal_data": {IMAGE_PLACEHOLDER: pictures}}

    def close(self) -> None:
        """Release the environment."""
        self.env.close()
