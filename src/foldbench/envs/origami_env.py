"""``foldbench/OrigamiSynthesis-v0``: fold a blank square toward a target shape by adding creases.

Each episode starts from the uncreased square (paper frame: (0, 0) bottom-left, (10, 10) top-right) and a
target (:class:`~foldbench.origami.targets.Target`). Each step adds the creases of one action; the environment keeps
them only when the paper still folds flat (:mod:`foldbench.origami.sheet`).

Action space:
    JSON text (``gymnasium.spaces.Text``) or the equivalent dict: ``{"action": "add_crease", "p1": [x, y],
    "p2": [x, y], "assignment": "M" | "V"}`` or ``{"action": "add_creases", "creases": [{"p1", "p2",
    "assignment"}, ...]}``. Anything else is refused with feedback; ``step`` never raises for an action.

Observation space (``gymnasium.spaces.Dict``):
    ``target`` (the target folded, front), ``current_front``, ``current_back``, ``crease_pattern``: RGB arrays of
    ``image_size`` pixels, the folded pictures in one window per episode (the square and the target) so they
    share a scale; ``text``: the same state as JSON text (step, budget, feedback on the previous action, the
    creases, the target's and the current silhouette outlines). With ``observation_mode="text"`` only ``text``.

Reward:
    The change of the geometric similarity (exact GS: IoU of the aligned folded silhouettes) made by the step;
    0 for a refused action. GS counts as 1 when the outlines differ only by slivers within the target's precision
    (a target read from a file written to a few decimals; :func:`~foldbench.origami.targets.match_distance`). The
    episode terminates when GS reaches 1 and is truncated after ``budget`` steps
    (10 or 25, the published budgets). The last step's ``info["final_metrics"]`` holds GS, the raster GS, SS
    (shape-descriptor embedder unless another is given) and QE.

The episode rules (steps, reward, observation content) are :class:`~foldbench.origami.episode.SynthesisEpisode`,
which the OrigamiBench synthesis task plays as well; this class adds the spaces, the seeded random target and
rendering.

Version history:
    v0: first version.
"""

from __future__ import annotations

import string
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from foldbench.origami.episode import BUDGETS, TEXT_LIMIT, EpisodeStep, SynthesisEpisode
from foldbench.origami.similarity import ImageEmbedder
from foldbench.origami.targets import Target, random_simple_fold_target

__all__ = ["BUDGETS", "ENV_ID", "TEXT_LIMIT", "EpisodeStep", "OrigamiSynthesisEnv"]

ENV_ID = "foldbench/OrigamiSynthesis-v0"
ACTION_TEXT_LIMIT: int = 8192
_CHARSET = frozenset(string.printable)


class OrigamiSynthesisEnv(SynthesisEpisode, gymnasium.Env[dict[str, Any], Any]):
    """Fold a blank square toward a target (see the module docstring for spaces, reward and versions).

    Args:
        target: the default target (``reset(options={"target": ...})`` overrides it); None draws a random target
            of 1 to 3 simple folds on a 1/8 grid from the environment's generator at each reset.
        budget: steps per episode (10 or 25).
        image_size: side of the observation pictures.
        observation_mode: ``"full"`` (pictures and text) or ``"text"`` (text only, no rendering: faster).
        render_mode: None or ``"rgb_array"`` (target, front, back and crease pattern side by side).
        embedder: the SS embedder of the final metrics (default: the offline shape descriptor).
        final_metrics: compute the final metrics at the end of each episode (``info["final_metrics"]``); False
            leaves them out, for training loops that use only the reward (they cost more than a step).
        step_cache: remember the outcome of up to this many (creases so far, action) pairs and replay it instead
            of compiling again (0: off). Training loops revisit the same states (every episode starts blank), and
            the outcome of an action depends only on them; a replayed step is the step computed first.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, target: Target | None = None, budget: int = 10, image_size: int = 256,
                 observation_mode: Literal["full", "text"] = "full", render_mode: str | None = None,
                 embedder: ImageEmbedder | None = None, final_metrics: bool = True, step_cache: int = 0) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None or 'rgb_array', got {render_mode!r}")
        super().__init__(budget, image_size, observation_mode, embedder, final_metrics, step_cache)
        self.default_target, self.default_budget = target, budget
        self.render_mode = render_mode
        picture = spaces.Box(0, 255, (image_size, image_size, 3), np.uint8)
        fields: dict[str, spaces.Space[Any]] = {"text": spaces.Text(TEXT_LIMIT, min_length=0, charset=_CHARSET)}
        if observation_mode == "full":
            fields = {"target": picture, "current_front": picture, "current_back": picture,
                      "crease_pattern": picture, **fields}
        self.observation_space = spaces.Dict(fields)
        self.action_space = spaces.Text(ACTION_TEXT_LIMIT, min_length=0, charset=_CHARSET)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start from the blank square; ``options``: ``target`` (a :class:`Target`) and ``budget`` (steps)."""
        gymnasium.Env.reset(self, seed=seed)
        options = dict(options or {})
        target = options.get("target", self.default_target)
        if target is None:
            target = random_simple_fold_target(self.np_random, int(self.np_random.integers(1, 4)), grid=8)
        if not isinstance(target, Target):
            raise TypeError(f"options['target'] must be a Target, got {type(target).__name__}")
        return self.begin(target, int(options.get("budget", self.default_budget)))

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply one action (dict or JSON text); a refused action changes nothing and says why."""
        if self.target is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return super().step(action)

    def render(self) -> np.ndarray | None:
        """With ``render_mode="rgb_array"``: target, front, back and crease pattern side by side."""
        if self.render_mode != "rgb_array" or self.target is None:
            return None
        return np.hstack([np.asarray(p, dtype=np.uint8) for p in self.pictures().values()])
