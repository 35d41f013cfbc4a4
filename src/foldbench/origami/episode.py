"""The synthesis episode: fold a blank square toward a target by adding creases, step by step.

The rules of ``foldbench/OrigamiSynthesis-v0`` without Gymnasium, so that the OrigamiBench synthesis task and the
environment (:class:`foldbench.envs.origami_env.OrigamiSynthesisEnv`, which adds the spaces, the seeded random
target and rendering) play the same episode.

An episode starts from the uncreased square (paper frame: (0, 0) bottom-left, (10, 10) top-right) and a target
(:class:`~foldbench.origami.targets.Target`). Each step adds the creases of one action (a dict or JSON text,
:func:`~foldbench.origami.actions.parse_action`); the sheet keeps them only when the paper still folds flat
(:mod:`foldbench.origami.sheet`). A refused action changes nothing and says why; ``step`` never raises for an
action.

Observation: the folded pictures (target, current front and back, crease pattern) in one window per episode, and
the same state as JSON text (step, budget, feedback on the previous action, the creases, the target's and the
current silhouette outlines); with ``observation_mode="text"`` only the text.

Reward: the change of the exact geometric similarity (GS: IoU of the aligned folded silhouettes) made by the
step; 0 for a refused action. GS counts as 1 when the outlines differ only by slivers within the target's
precision (:func:`~foldbench.origami.targets.match_distance`). The episode terminates when GS reaches 1 and is
truncated after ``budget`` steps; the last step's ``info["final_metrics"]`` holds GS, the raster GS, SS and QE.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import shapely
from PIL import Image
from shapely.geometry.base import BaseGeometry

from foldbench.origami.folded import silhouette_of
from foldbench.origami.metrics import (
    geometric_similarity,
    outlines_match,
    query_efficiency,
    raster_geometric_similarity,
)
from foldbench.origami.pictures import Window, crease_pattern_image, episode_window, folded_image
from foldbench.origami.sheet import ActionResult, Sheet, apply_action, blank_sheet
from foldbench.origami.similarity import ImageEmbedder, ShapeDescriptorEmbedder, semantic_similarity
from foldbench.origami.targets import Target, match_distance

__all__ = ["BUDGETS", "NEAR_MATCH", "RASTER_SIZE", "SS_SIZE", "TEXT_LIMIT", "EpisodeStep", "SynthesisEpisode"]

BUDGETS: tuple[int, ...] = (10, 25)
"""The step budgets of the published protocol."""
TEXT_LIMIT: int = 32768
"""The longest text observation (the crease list is shortened, oldest first, to stay under it)."""
RASTER_SIZE: int = 512
"""Picture side of the raster GS (the published protocol)."""
SS_SIZE: int = 256
"""Picture side for SS (each folded form drawn alone in its own window, as the published metric does)."""
NEAR_MATCH: float = 1e-3
"""Below this distance of GS from 1 the environment checks whether the outlines match within the target's
precision (:func:`~foldbench.origami.targets.match_distance`); a match counts as GS 1."""
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


class SynthesisEpisode:
    """One synthesis episode after another: the sheet, the target, the steps taken and their GS.

    Args:
        budget: steps per episode (10 or 25).
        image_size: side of the observation pictures.
        observation_mode: ``"full"`` (pictures and text) or ``"text"`` (text only, no rendering: faster).
        embedder: the SS embedder of the final metrics (default: the offline shape descriptor).
        final_metrics: compute the final metrics at the end of each episode (``info["final_metrics"]``); False
            leaves them out, for training loops that use only the reward (they cost more than a step).
        step_cache: remember the outcome of up to this many (creases so far, action) pairs and replay it instead
            of compiling again (0: off). Training loops revisit the same states (every episode starts blank), and
            the outcome of an action depends only on them; a replayed step is the step computed first.
    """

    def __init__(self, budget: int = 10, image_size: int = 256, observation_mode: Literal["full", "text"] = "full",
                 embedder: ImageEmbedder | None = None, final_metrics: bool = True, step_cache: int = 0) -> None:
        if budget < 1:
            raise ValueError(f"budget must be at least 1, got {budget}")
        if observation_mode not in ("full", "text"):
            raise ValueError(f"observation_mode is 'full' or 'text', got {observation_mode!r}")
        if step_cache < 0:
            raise ValueError(f"step_cache must be 0 or more, got {step_cache}")
        self.image_size, self.observation_mode = image_size, observation_mode
        self.embedder = embedder or ShapeDescriptorEmbedder()
        self.with_final_metrics = final_metrics
        self.step_cache_size = step_cache
        self._step_cache: OrderedDict[tuple[bytes, tuple[str, ...], str], ActionResult] = OrderedDict()
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
    def begin(self, target: Target, budget: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start from the blank square toward ``target`` with ``budget`` steps (default: the last budget);
        returns the first observation and info."""
        budget = self.budget if budget is None else budget
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
            raise RuntimeError("begin an episode before its first step")
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

    def fold_text(self) -> str:
        """The current state as a ``.fold`` file."""
        return self.sheet.fold_text(f"synthesis toward {self.target.name if self.target else 'nothing'}")
