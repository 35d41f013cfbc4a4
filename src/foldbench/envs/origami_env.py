"""``foldbench/OrigamiSynthesis-v0``: fold a blank square toward a target shape by adding creases.

Each episode starts from the uncreased square (paper frame: (0, 0) bottom-left, (10, 10) top-right) and a
target (:class:`~foldbench.envs.targets.Target`). Each step adds the creases of one action; the environment keeps
them only when the paper still folds flat (:mod:`foldbench.envs.sheet`).

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
    (a target read from a file written to a few decimals; :func:`~foldbench.envs.targets.match_distance`). The
    episode terminates when GS reaches 1 and is truncated after ``budget`` steps
    (10 or 25, the published budgets). The last step's ``info["final_metrics"]`` holds GS, the raster GS, SS
    (shape-descriptor embedder unless another is given) and QE.

Version history:
    v0: first version.
"""

from __future__ import annotations

import json
import string
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import gymnasium
import numpy as np
import shapely
from gymnasium import spaces
from PIL import Image
from shapely.geometry.base import BaseGeometry

from foldbench.envs.folded import silhouette_of
from foldbench.envs.metrics import (
    geometric_similarity,
    outlines_match,
    query_efficiency,
    raster_geometric_similarity,
)
from foldbench.envs.pictures import Window, crease_pattern_image, episode_window, folded_image
from foldbench.envs.sheet import ActionResult, Sheet, apply_action, blank_sheet
from foldbench.envs.similarity import ImageEmbedder, ShapeDescriptorEmbedder, semantic_similarity
from foldbench.envs.targets import Target, match_distance, random_simple_fold_target

__all__ = ["BUDGETS", "ENV_ID", "TEXT_LIMIT", "EpisodeStep", "OrigamiSynthesisEnv"]

ENV_ID = "foldbench/OrigamiSynthesis-v0"
BUDGETS: tuple[int, ...] = (10, 25)
"""The step budgets of the published protocol."""
TEXT_LIMIT: int = 32768
"""The longest text observation (the crease list is shortened, oldest first, to stay under it)."""
ACTION_TEXT_LIMIT: int = 8192
RASTER_SIZE: int = 512
"""Picture side of the raster GS (the published protocol)."""
SS_SIZE: int = 256
"""Picture side for SS (each folded form drawn alone in its own window, as the published metric does)."""
NEAR_MATCH: float = 1e-3
"""Below this distance of GS from 1 the environment checks whether the outlines match within the target's
precision (:func:`~foldbench.envs.targets.match_distance`); a match counts as GS 1."""
_CHARSET = frozenset(string.printable)
_FORM_DIGITS = 6


@dataclass(frozen=True)
class EpisodeStep:
    """One step of an episode: what was asked, whether it was kept, and the GS after it."""

    action: Any
    accepted: bool
    feedback: dict[str, Any]
    added: np.ndarray | None
    form_changed: bool
    gs: float


def _outline(geometry: BaseGeometry) -> list[list[list[float]]]:
    """Each polygon's outer ring, rounded to 0.001, without repeated points (closed: last point = first)."""
    rings = []
    for polygon in getattr(geometry, "geoms", [geometry]):
        if polygon.is_empty:
            continue
        points = np.round(np.asarray(polygon.simplify(0).exterior.coords), 3).tolist()
        ring = [point for index, point in enumerate(points) if index == 0 or point != points[index - 1]]
        rings.append(ring)
    return rings


def _form(sheet: Sheet) -> frozenset[tuple[float, float]]:
    return frozenset(map(tuple, np.round(sheet.aligned.vertices_coords, _FORM_DIGITS).tolist()))


class OrigamiSynthesisEnv(gymnasium.Env[dict[str, Any], Any]):
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
        if budget < 1:
            raise ValueError(f"budget must be at least 1, got {budget}")
        if observation_mode not in ("full", "text"):
            raise ValueError(f"observation_mode is 'full' or 'text', got {observation_mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None or 'rgb_array', got {render_mode!r}")
        self.default_target, self.default_budget = target, budget
        self.image_size, self.observation_mode, self.render_mode = image_size, observation_mode, render_mode
        self.embedder = embedder or ShapeDescriptorEmbedder()
        self.with_final_metrics = final_metrics
        if step_cache < 0:
            raise ValueError(f"step_cache must be 0 or more, got {step_cache}")
        self.step_cache_size = step_cache
        self._step_cache: OrderedDict[tuple[bytes, tuple[str, ...], str], ActionResult] = OrderedDict()
        picture = spaces.Box(0, 255, (image_size, image_size, 3), np.uint8)
        fields: dict[str, spaces.Space[Any]] = {"text": spaces.Text(TEXT_LIMIT, min_length=0, charset=_CHARSET)}
        if observation_mode == "full":
            fields = {"target": picture, "current_front": picture, "current_back": picture,
                      "crease_pattern": picture, **fields}
        self.observation_space = spaces.Dict(fields)
        self.action_space = spaces.Text(ACTION_TEXT_LIMIT, min_length=0, charset=_CHARSET)
        self._blank = blank_sheet()
        self.sheet: Sheet = self._blank
        self.target: Target | None = None
        self.budget = budget
        self.history: list[EpisodeStep] = []
        self.gs = 0.0
        self._target_shape: BaseGeometry = shapely.Polygon()
        self._window: Window = (0.0, 0.0, 10.0)
        self._match_distance = 0.0
        self._pictures: dict[str, Image.Image] = {}
        self._pictures_for: tuple[Target, Sheet] | None = None

    # -- episode ---------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start from the blank square; ``options``: ``target`` (a :class:`Target`) and ``budget`` (steps)."""
        super().reset(seed=seed)
        options = dict(options or {})
        target = options.get("target", self.default_target)
        if target is None:
            target = random_simple_fold_target(self.np_random, int(self.np_random.integers(1, 4)), grid=8)
        if not isinstance(target, Target):
            raise TypeError(f"options['target'] must be a Target, got {type(target).__name__}")
        budget = int(options.get("budget", self.default_budget))
        if budget < 1:
            raise ValueError(f"budget must be at least 1, got {budget}")
        self.target, self.budget, self.sheet, self.history = target, budget, self._blank, []
        self._target_shape = silhouette_of(target.aligned)
        self._window = episode_window(target.aligned)
        self._pictures_for = None
        self._match_distance = match_distance(target)
        self.gs = self._similarity(self.sheet)
        return self._observation(None), self._info(None)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Apply one action (dict or JSON text); a refused action changes nothing and says why."""
        if self.target is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if len(self.history) >= self.budget:
            feedback = {"accepted": False, "stage": "budget", "class": "BUDGET", "code": "E_BUDGET_SPENT",
                        "message": f"the budget of {self.budget} steps is spent", "where": {}}
            return self._observation(feedback), 0.0, False, True, self._info(feedback)
        result = self._apply(action)
        before, previous = self.gs, self.sheet
        if result.accepted:
            self.sheet = result.sheet
            self.gs = self._similarity(self.sheet)
        changed = result.accepted and _form(previous) != _form(self.sheet)
        recorded = action if isinstance(action, (dict, str)) else repr(action)[:200]
        self.history.append(EpisodeStep(recorded, result.accepted, result.feedback,
                                        result.added if result.accepted else None, changed, self.gs))
        terminated = self.gs >= 1.0
        truncated = not terminated and len(self.history) >= self.budget
        info = self._info(result.feedback)
        if (terminated or truncated) and self.with_final_metrics:
            info["final_metrics"] = self.final_metrics()
        return self._observation(result.feedback), float(self.gs - before), terminated, truncated, info

    def _apply(self, action: Any) -> ActionResult:
        """:func:`apply_action` on the current sheet, through the step cache when it is on."""
        if not self.step_cache_size or not isinstance(action, (dict, str)):
            return apply_action(self.sheet, action)
        try:
            action_key = action if isinstance(action, str) else json.dumps(action, sort_keys=True)
        except (TypeError, ValueError):
            return apply_action(self.sheet, action)
        key = (self.sheet.creases.tobytes(), self.sheet.assignments, action_key)
        cached = self._step_cache.get(key)
        if cached is not None:
            self._step_cache.move_to_end(key)
            return cached
        result = apply_action(self.sheet, action)
        self._step_cache[key] = result
        if len(self._step_cache) > self.step_cache_size:
            self._step_cache.popitem(last=False)
        return result

    # -- metrics ---------------------------------------------------------------------------------------------
    def _similarity(self, sheet: Sheet) -> float:
        """Exact GS of ``sheet`` against the target; 1 when the outlines match within the target's precision."""
        shape = silhouette_of(sheet.aligned)
        value = geometric_similarity(self._target_shape, shape)
        if 1.0 - NEAR_MATCH < value < 1.0 and outlines_match(self._target_shape, shape, self._match_distance):
            return 1.0
        return value

    def final_metrics(self) -> dict[str, float]:
        """GS (exact), GS by the raster protocol (1 when the exact GS is), SS and QE of the episode so far."""
        assert self.target is not None
        window = episode_window(self.target.aligned, self.sheet.aligned)
        raster = 1.0 if self.gs >= 1.0 else raster_geometric_similarity(  # a reached target is not off by a pixel
            folded_image(self.target.aligned, "front", RASTER_SIZE, window),
            folded_image(self.sheet.aligned, "front", RASTER_SIZE, window))
        own_target = folded_image(self.target.aligned, "front", SS_SIZE, episode_window(self.target.aligned))
        own_result = folded_image(self.sheet.aligned, "front", SS_SIZE, episode_window(self.sheet.aligned))
        qe = query_efficiency([s.added for s in self.history], [s.form_changed for s in self.history],
                              self.sheet.creases)
        return {"gs": self.gs, "gs_raster": raster, "ss": semantic_similarity(own_target, own_result, self.embedder),
                "qe": qe}

    # -- observations ----------------------------------------------------------------------------------------
    def state_json(self, feedback: dict[str, Any] | None) -> dict[str, Any]:
        """The text observation as a dict."""
        assert self.target is not None
        return {
            "step": len(self.history), "budget": self.budget, "steps_left": self.budget - len(self.history),
            "paper": {"bottom_left": [0, 0], "top_right": [10, 10]},
            "previous_action": feedback,
            "creases": self.sheet.crease_list(),
            "target_outline": _outline(self._target_shape),
            "current_outline": _outline(silhouette_of(self.sheet.aligned)),
        }

    def _text(self, feedback: dict[str, Any] | None) -> str:
        state = self.state_json(feedback)
        text = json.dumps(state, separators=(",", ":"))
        while len(text) > TEXT_LIMIT and state["creases"]:
            state["creases"] = state["creases"][len(state["creases"]) // 2 + 1:]
            state["creases_omitted"] = True
            text = json.dumps(state, separators=(",", ":"))
        return text[:TEXT_LIMIT]

    def pictures(self) -> dict[str, Image.Image]:
        """The observation pictures (target, current front and back, crease pattern); drawn again only when the
        sheet changed."""
        assert self.target is not None
        drawn_for = self._pictures_for
        if drawn_for is None or drawn_for[0] is not self.target or drawn_for[1] is not self.sheet:
            self._pictures, self._pictures_for = self._draw(), (self.target, self.sheet)
        return dict(self._pictures)

    def _draw(self) -> dict[str, Image.Image]:
        assert self.target is not None
        size, window = self.image_size, self._window
        return {
            "target": folded_image(self.target.aligned, "front", size, window, square_outline=True),
            "current_front": folded_image(self.sheet.aligned, "front", size, window, square_outline=True),
            "current_back": folded_image(self.sheet.aligned, "back", size, window, square_outline=True),
            "crease_pattern": crease_pattern_image(self.sheet.aligned, size),
        }

    def _observation(self, feedback: dict[str, Any] | None) -> dict[str, Any]:
        observation: dict[str, Any] = {"text": self._text(feedback)}
        if self.observation_mode == "full":
            observation.update({name: np.asarray(image, dtype=np.uint8) for name, image in self.pictures().items()})
        return observation

    def _info(self, feedback: dict[str, Any] | None) -> dict[str, Any]:
        assert self.target is not None
        return {"gs": self.gs, "steps": len(self.history), "budget": self.budget, "target": self.target.name,
                "accepted": bool(feedback and feedback.get("accepted")), "feedback": feedback or {}}

    def render(self) -> np.ndarray | None:
        """With ``render_mode="rgb_array"``: target, front, back and crease pattern side by side."""
        if self.render_mode != "rgb_array" or self.target is None:
            return None
        return np.hstack([np.asarray(p, dtype=np.uint8) for p in self.pictures().values()])

    def fold_text(self) -> str:
        """The current state as a ``.fold`` file."""
        return self.sheet.fold_text(f"synthesis toward {self.target.name if self.target else 'nothing'}")
