"""Other ways to drive the synthesis environment.

* :class:`LatticeActions`: a discrete action space for RL libraries: action ``k`` adds the crease between two
  points of a fixed ``n`` x ``n`` lattice of the paper frame (default 9 x 9: multiples of 1.25) as a mountain or
  a valley. Pairs are numbered in order ``(i, j)`` with ``i < j`` over lattice points (row-major from the bottom
  left), each pair twice (``M`` then ``V``).
* :class:`TextInterface`: the environment for RL frameworks that speak raw model text (VAGEN style):
  ``reset(seed) -> (obs, info)``, ``step(action_text) -> (obs, reward, done, info)``, ``system_prompt()``. The
  text is untrusted: it is read strictly as one JSON action (a surrounding code fence is allowed; at most
  :data:`~foldbench.envs.actions.MAX_ACTION_CHARS` characters), never evaluated, and anything else is a refused
  step with feedback.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from foldbench.envs.actions import PAPER_SIZE
from foldbench.envs.origami_env import ENV_ID, OrigamiSynthesisEnv
from foldbench.envs.targets import Target
from foldbench.tasks.prompts import load_prompt

__all__ = ["GYMNASIUM_WRAPPERS", "IMAGE_PLACEHOLDER", "LatticeActions", "TextInterface", "lattice_pairs"]

IMAGE_PLACEHOLDER = "<image>"


def lattice_pairs(size: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Every unordered pair of distinct points of the ``size`` x ``size`` lattice over the paper.

    >>> pairs = lattice_pairs(3)
    >>> len(pairs), pairs[0]
    (36, ((0.0, 0.0), (5.0, 0.0)))
    """
    if size < 2:
        raise ValueError(f"a lattice needs at least 2 points a side, got {size}")
    ticks = np.linspace(0.0, PAPER_SIZE, size).tolist()
    points = [(x, y) for y in ticks for x in ticks]
    return list(combinations(points, 2))


class LatticeActions(gymnasium.ActionWrapper, gymnasium.utils.RecordConstructorArgs):
    """Discrete actions: creases between lattice points (see the module docstring for the numbering).

    It records its constructor arguments, so ``gymnasium.make`` can rebuild a wrapped environment from its spec.

    Raises:
        TypeError: ``env`` is not (a wrapper of) the synthesis environment.
    """

    env_ids: tuple[str, ...] = (ENV_ID,)
    """The registered environments this wrapper drives."""

    def __init__(self, env: gymnasium.Env, size: int = 9) -> None:
        if not isinstance(env.unwrapped, OrigamiSynthesisEnv):
            raise TypeError(f"LatticeActions wraps {ENV_ID}, not {type(env.unwrapped).__name__}")
        gymnasium.utils.RecordConstructorArgs.__init__(self, size=size)
        gymnasium.ActionWrapper.__init__(self, env)
        self.pairs = lattice_pairs(size)
        self.action_space = spaces.Discrete(2 * len(self.pairs))

    def action(self, action: Any) -> dict[str, Any]:
        """The crease action of index ``action``."""
        index = int(action)
        count = 2 * len(self.pairs)
        if not 0 <= index < count:
            raise ValueError(f"action {index} is outside 0..{count - 1}")
        (x1, y1), (x2, y2) = self.pairs[index // 2]
        return {"action": "add_crease", "p1": [x1, y1], "p2": [x2, y2], "assignment": "MV"[index % 2]}


GYMNASIUM_WRAPPERS: tuple[type[gymnasium.Wrapper], ...] = (LatticeActions,)
"""Every Gymnasium wrapper foldbench defines (the conformance tests run each over every registered id)."""


class TextInterface:
    """The synthesis environment behind a text-in, text-and-pictures-out interface (VAGEN style).

    Observations are ``{"obs_str": str, "multi_modal_data": {"<image>": [PIL images]}}``; ``obs_str`` holds one
    ``<image>`` placeholder per picture, in order (target, current front, current back, crease pattern), then
    the JSON state. ``info`` has ``metrics`` (``turn_metrics``: ``action_is_valid`` and ``action_is_effective``;
    ``traj_metrics``: ``success``), ``llm_raw_response`` (cut to 2,000 characters) and the final metrics when
    the episode ends.

    Args:
        target: the target (None: a random simple-fold target per reset, drawn from the seed).
        budget: steps per episode.
        image_size: picture side; ``images=False`` leaves the pictures out (text-only models).
    """

    def __init__(self, target: Target | None = None, budget: int = 10, image_size: int = 256,
                 images: bool = True) -> None:
        self.images = images
        self.env = OrigamiSynthesisEnv(target=target, budget=budget, image_size=image_size,
                                       observation_mode="full" if images else "text")

    def system_prompt(self) -> str:
        """The instructions (task, pictures, coordinates, the action format and the rules)."""
        return load_prompt("foldbench.envs", "synthesis.txt").render(images=self.images, budget=self.env.budget)

    def reset(self, seed: int | None = None, target: Target | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode (the same seed gives the same episode)."""
        options = {"target": target} if target is not None else None
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observation(observation, None), info

    def step(self, action_text: str) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        """Apply the model's raw text as one action; never raises for any text."""
        text = action_text if isinstance(action_text, str) else str(action_text)
        before = self.env.gs
        observation, reward, terminated, truncated, info = self.env.step(text)
        feedback = info["feedback"] or {}
        info = {
            **info,
            "llm_raw_response": text[:2000],
            "metrics": {
                "turn_metrics": {"action_is_valid": feedback.get("stage") not in ("schema", "budget"),
                                 "action_is_effective": bool(feedback.get("accepted")) and self.env.gs != before},
                "traj_metrics": {"success": bool(terminated)},
            },
        }
        return self._observation(observation, feedback), float(reward), bool(terminated or truncated), info

    def _observation(self, observation: dict[str, Any], feedback: dict[str, Any] | None) -> dict[str, Any]:
        pictures: list[Image.Image] = []
        lines = []
        if feedback is not None:
            lines.append("Your action was kept." if feedback.get("accepted")
                         else f"Your action was refused ({feedback.get('code')}): {feedback.get('message')}")
        if self.images:
            pictures = list(self.env.pictures().values())
            lines.append("Target: " + IMAGE_PLACEHOLDER + " Now, front: " + IMAGE_PLACEHOLDER + " back: "
                         + IMAGE_PLACEHOLDER + " crease pattern: " + IMAGE_PLACEHOLDER)
        lines.append("State: " + observation["text"])
        return {"obs_str": "\n".join(lines), "multi_modal_data": {IMAGE_PLACEHOLDER: pictures}}

    def close(self) -> None:
        """Release the environment."""
        self.env.close()
