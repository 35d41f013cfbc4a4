"""Other ways to drive the synthesis environment.

* :class:`LatticeActions`: a discrete action space for RL libraries: action ``k`` adds the crease between two
  points of a fixed ``n`` x ``n`` lattice of the paper frame (default 9 x 9: multiples of 1.25) as a mountain or
  a valley. Pairs are numbered in order ``(i, j)`` with ``i < j`` over lattice points (row-major from the bottom
  left), each pair twice (``M`` then ``V``).
* :class:`RandomFoldTargets`: the environment as RL libraries train it (Stable-Baselines3, CleanRL): a new random
  simple-fold target at each reset (:class:`~foldbench.envs.target_split.SimpleFoldTargets`, with held-out
  shapes never drawn), the lattice actions of :class:`LatticeActions` and a flat ``Box`` observation (the target's
  and the current silhouette as coverage grids, :mod:`foldbench.envs.coverage`, and the share of steps left).
* :class:`TextInterface`: the environment for RL frameworks that speak raw model text (VAGEN style):
  ``reset(seed) -> (obs, info)``, ``step(action_text) -> (obs, reward, done, info)``, ``system_prompt()``. The
  text is untrusted: it is read strictly as one JSON action (a surrounding code fence is allowed; at most
  :data:`~foldbench.origami.actions.MAX_ACTION_CHARS` characters), never evaluated, and anything else is a refused
  step with feedback.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from foldbench.envs.coverage import coverage_grid
from foldbench.envs.origami_env import ENV_ID, OrigamiSynthesisEnv
from foldbench.envs.target_split import TRAINING_STREAM, SimpleFoldTargets
from foldbench.origami.actions import PAPER_SIZE
from foldbench.origami.folded import silhouette_of
from foldbench.origami.targets import Target
from foldbench.text.prompts import load_prompt

__all__ = ["GYMNASIUM_WRAPPERS", "IMAGE_PLACEHOLDER", "LatticeActions", "RandomFoldTargets", "TextInterface",
           "edge_to_edge_pairs", "lattice_pairs"]

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


def edge_to_edge_pairs(size: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The pairs of :func:`lattice_pairs` whose points both lie on the paper's boundary but not on one side: the
    creases that cross the paper from edge to edge.

    >>> pairs = edge_to_edge_pairs(3)
    >>> len(pairs), ((0.0, 0.0), (10.0, 10.0)) in pairs, ((0.0, 0.0), (5.0, 0.0)) in pairs
    (16, True, False)
    """
    def sides(point: tuple[float, float]) -> set[str]:
        x, y = point
        return {name for name, on in (("left", x == 0), ("right", x == PAPER_SIZE), ("bottom", y == 0),
                                      ("top", y == PAPER_SIZE)) if on}

    return [(a, b) for a, b in lattice_pairs(size) if sides(a) and sides(b) and not sides(a) & sides(b)]


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
        return _crease_action(self.pairs, action)


def _octilinear(pair: tuple[tuple[float, float], tuple[float, float]]) -> bool:
    """Whether the segment between the two points is horizontal, vertical or at 45 degrees."""
    (x1, y1), (x2, y2) = pair
    return x1 == x2 or y1 == y2 or abs(abs(x2 - x1) - abs(y2 - y1)) < 1e-9


def _crease_action(pairs: list[tuple[tuple[float, float], tuple[float, float]]], action: Any) -> dict[str, Any]:
    """The crease action of lattice index ``action`` (two per pair of points: mountain, then valley)."""
    index = int(action)
    if not 0 <= index < 2 * len(pairs):
        raise ValueError(f"action {index} is outside 0..{2 * len(pairs) - 1}")
    (x1, y1), (x2, y2) = pairs[index // 2]
    return {"action": "add_crease", "p1": [x1, y1], "p2": [x2, y2], "assignment": "MV"[index % 2]}


class RandomFoldTargets(gymnasium.Wrapper, gymnasium.utils.RecordConstructorArgs):
    """Training over a distribution of targets: random simple folds, lattice actions, a flat ``Box`` observation.

    Reset draws a new target from :class:`~foldbench.envs.target_split.SimpleFoldTargets` (seeded by the reset
    seed; no held-out shape is ever drawn) unless ``options["target"]`` names one (how held-out targets are
    evaluated). The action space is ``Discrete(2 * pairs)``: a crease between a pair of lattice points, mountain
    then valley for each pair in order (by default the horizontal, vertical and diagonal ones of
    :func:`edge_to_edge_pairs`);
    the observation is ``Box(0, 1, (2 * cells**2 + 1,), float32)``: the target's coverage grid, the current
    silhouette's coverage grid (:func:`~foldbench.envs.coverage.coverage_grid`, flattened, bottom row first) and
    the share of the budget left. The reward is the environment's (the change of GS) and ``info`` is passed on.

    Args:
        env: the synthesis environment (``observation_mode="text"`` avoids drawing pictures nobody reads).
        folds, grid, seed, held_out, validation: the target distribution (see :class:`SimpleFoldTargets`).
        lattice: lattice points per side of the actions (5: multiples of 2.5).
        cells: cells per side of each coverage grid.
        edge_to_edge: only creases running across the paper, between two lattice points of its boundary that
            are not on the same side (:func:`edge_to_edge_pairs`; 160 actions on the 5 x 5 lattice, against 600
            for every pair): the only creases that fold flat on their own, so fewer actions are refused for
            sure. False numbers every pair as :class:`LatticeActions` does.
        octilinear: only horizontal, vertical and diagonal (45 degree) creases, the directions of the grid
            targets' fold lines (40 actions with ``edge_to_edge`` on the 5 x 5 lattice).
        targets: a target distribution to use (and share between environments of one process, with its
            remembered compilations) instead of the one ``folds``, ``grid``, ``seed`` and ``held_out`` describe.

    Raises:
        TypeError: ``env`` is not (a wrapper of) the synthesis environment.
    """

    env_ids: tuple[str, ...] = (ENV_ID,)
    """The registered environments this wrapper drives."""

    def __init__(self, env: gymnasium.Env, folds: tuple[int, ...] = (1, 2), grid: int = 4, seed: int = 0,
                 held_out: int = 16, validation: int = 0, lattice: int = 5, cells: int = 16, edge_to_edge: bool = True,
                 octilinear: bool = True, targets: SimpleFoldTargets | None = None) -> None:
        if not isinstance(env.unwrapped, OrigamiSynthesisEnv):
            raise TypeError(f"RandomFoldTargets wraps {ENV_ID}, not {type(env.unwrapped).__name__}")
        gymnasium.utils.RecordConstructorArgs.__init__(self, folds=tuple(folds), grid=grid, seed=seed,
                                                       held_out=held_out, validation=validation,
                                                       lattice=lattice, cells=cells,
                                                       edge_to_edge=edge_to_edge, octilinear=octilinear,
                                                       targets=targets)
        gymnasium.Wrapper.__init__(self, env)
        self.targets = targets or SimpleFoldTargets(tuple(folds), grid, seed, held_out, validation)
        pairs = edge_to_edge_pairs(lattice) if edge_to_edge else lattice_pairs(lattice)
        self.pairs = [pair for pair in pairs if _octilinear(pair)] if octilinear else pairs
        self.cells = cells
        self.action_space = spaces.Discrete(2 * len(self.pairs))
        self.observation_space = spaces.Box(0.0, 1.0, (2 * cells * cells + 1,), np.float32)
        self._rng: np.random.Generator | None = None
        self._target_grid = np.zeros(cells * cells, np.float32)

    def action(self, action: Any) -> dict[str, Any]:
        """The crease action of index ``action``."""
        return _crease_action(self.pairs, action)

    def held_out_targets(self) -> tuple[Target, ...]:
        """The held-out targets (pass each as ``reset(options={"target": ...})`` to evaluate)."""
        return self.targets.held_out_targets()

    def validation_targets(self) -> tuple[Target, ...]:
        """The validation targets (for choosing when to stop training; never drawn for training, never held out)."""
        return self.targets.validation_targets()

    def own_crease_actions(self, target: Target) -> list[int] | None:
        """The actions that fold ``target`` by its own creases, one per fold, or None when a fold adds more than
        one crease or a crease that is not an action (the target is then out of reach of one crease per step)."""
        actions = []
        for step in target.actions:
            if len(step["creases"]) != 1:
                return None
            crease = step["creases"][0]
            ends = tuple(tuple(float(round(value, 6)) + 0.0 for value in crease[end]) for end in ("p1", "p2"))
            pair = next((p for p in (ends, ends[::-1]) if p in self.pairs), None)
            if pair is None:
                return None
            actions.append(2 * self.pairs.index(pair) + "MV".index(crease["assignment"]))
        return actions

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode toward ``options["target"]`` or a new training target."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(None if seed is None else [seed, TRAINING_STREAM])
        options = dict(options or {})
        if options.get("target") is None:
            options["target"] = self.targets.draw(self._rng)
        _, info = self.env.reset(seed=seed, options=options)
        base = self.env.unwrapped
        assert isinstance(base, OrigamiSynthesisEnv)
        self._target_grid = coverage_grid(base._target_shape, self.cells).ravel()
        return self._features(), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Add the crease of lattice index ``action``."""
        _, reward, terminated, truncated, info = self.env.step(self.action(action))
        return self._features(), float(reward), terminated, truncated, info

    def _features(self) -> np.ndarray:
        base = self.env.unwrapped
        assert isinstance(base, OrigamiSynthesisEnv)
        current = coverage_grid(silhouette_of(base.sheet.aligned), self.cells).ravel()
        left = np.float32(max(0, base.budget - len(base.history)) / base.budget)
        return np.concatenate([self._target_grid, current, [left]]).astype(np.float32)


GYMNASIUM_WRAPPERS: tuple[type[gymnasium.Wrapper], ...] = (LatticeActions, RandomFoldTargets)
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
        return load_prompt("foldbench.origami", "synthesis.txt").render(images=self.images, budget=self.env.budget)

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
