"""``foldbench/CreasePatternCode-v1``: write the crease pattern of a pictured origami model as FOLD JSON, compiled
and scored after every attempt (OrigamiSpace's reinforcement-learning setting for code generation).

Each episode draws a reference instance (:mod:`foldbench.origami.instances`): by default a seeded
random simple-fold model of 3 to 6 steps. Each step is one complete answer; the compiler reads it, folds it, and
the reward tells how much closer it came (:mod:`foldbench.envs.code_reward`).

Action space:
    Text (``gymnasium.spaces.Text``): the model's reply, read as in ``origamispace/codegen-v1`` (the whole reply
    or its last fenced block as JSON, else the last JSON object with FOLD fields; at most 1,000,000
    characters), with ``vertices_coords``, ``edges_vertices``, ``edges_assignment`` and optionally
    ``faces_vertices`` on the unit square. A dict is taken as the FOLD document itself. Anything else, or a
    document the strict reader refuses, is a syntax verdict (``CSE``) naming the field and index; ``step``
    never raises for an action.

Observation space (``gymnasium.spaces.Dict``):
    ``flat_pattern``: the reference's compiled flat pattern (its folded state: layer-count shading, outline,
    folded creases; :mod:`foldbench.origami.flat_pattern`; never the crease pattern itself);
    ``folded``: the reference folded flat (front); both RGB arrays of ``image_size`` pixels, the same for the
    whole episode; ``text``: JSON with the model's name, the step, the budget and the verdict on the previous
    answer (compiled or the error's class, code, message and place; its partial score; the reward terms). With
    ``observation_mode="text"`` only ``text``.

Reward:
    Progress of the fast partial score between answers that compile, a small bonus for compiling, a fixed
    penalty for failing to compile, a step penalty, and the total score of the last answer at the end (see
    :mod:`foldbench.envs.code_reward` for the terms and their default weights). The episode terminates when an
    answer passes and its partial and total scores reach ``shaping.success_threshold``, and is truncated after
    ``budget`` steps (default 10, the rounds of OrigamiSpace's environmental learning). The last step's
    ``info["final_score"]`` holds the total, whether it passed, the error class, the dimensions and sub-scores of
    the last answer. ``info`` holds flat values of fixed types (so that ``gymnasium.vector`` can stack them): the
    step, the error's class, code and message (empty when it compiled), the answer's partial score (-1 when it
    did not compile) and the reward terms.

Version history:
    v1: the observation's ``crease_pattern`` picture (which showed the answer) is replaced by ``flat_pattern``,
    the compiled flat pattern, as OrigamiSpace's input. v0 is no longer registered, so
    ``gymnasium.make("foldbench/CreasePatternCode-v0")`` raises Gymnasium's ``DeprecatedEnv`` naming v1.
    v0: first version; observation ``crease_pattern`` (the reference's crease pattern) and ``folded``.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from foldbench.crease.io.fold_format import pattern_from_fold
from foldbench.crease.io.generated import MAX_REPLY_CHARS, compile_generated
from foldbench.crease.render import folded_state_png
from foldbench.crease.score.similarity import (
    ReferenceFold,
    SimilarityScore,
    partial_similarity,
    prepare_reference,
    score_generated,
)
from foldbench.envs.code_reward import RewardShaping, RewardTerms
from foldbench.origami.flat_pattern import flat_pattern_png
from foldbench.origami.fold_reply import parse_fold_reply
from foldbench.origami.instances import DIFFICULTY_FOLDS as STEP_RANGES
from foldbench.origami.instances import Instance, pleat_instance, simple_fold_instance
from foldbench.text.replies import ParseFailure

__all__ = ["CODE_ENV_ID", "DEFAULT_FOLDS", "DIFFICULTY_FOLDS", "CreasePatternCodeEnv"]

CODE_ENV_ID = "foldbench/CreasePatternCode-v1"
DEFAULT_FOLDS: tuple[int, ...] = (3, 4, 5, 6)
"""Folding steps of the default random instances (as ``origamispace/codegen-v1``)."""
DIFFICULTY_FOLDS: dict[str, tuple[int, ...]] = {level: tuple(range(low, high + 1))
                                                for level, (low, high) in STEP_RANGES.items()}
"""Folding steps per OrigamiSpace difficulty: easy references are random simple folds, medium and hard ones
pleated models (as the code-generation tasks draw them)."""
TEXT_LIMIT: int = 16384
"""The longest text observation."""
_CHARSET = frozenset(string.printable)
_OPTIONS = frozenset({"instance", "folds", "difficulty", "budget"})


def _syntax_error(code: str, message: str) -> dict[str, Any]:
    return {"class": "CSE", "code": code, "message": message, "where": {"field": "<action>"}}


def _document(action: Any) -> tuple[Any, dict[str, Any] | None]:
    """The FOLD document of an action, or the syntax error that stands for it."""
    if isinstance(action, dict):
        return action, None
    if not isinstance(action, str):
        return None, _syntax_error("E_ACTION_TYPE", f"an action is FOLD JSON text, got {type(action).__name__}")
    answer = parse_fold_reply(action)
    if isinstance(answer, ParseFailure):
        return None, _syntax_error(f"E_REPLY_{answer.kind.upper()}", answer.message)
    return answer.document(), None


def _final_record(score: SimilarityScore) -> dict[str, Any]:
    """The last answer's scores as flat values: total, passed, error class, the dimensions and sub-scores."""
    return {"total": score.total, "passed": score.passed, "error_class": score.error_class or "",
            **score.dimensions, **score.subscores}


class CreasePatternCodeEnv(gymnasium.Env[dict[str, Any], Any]):
    """Write a pictured model's crease pattern as FOLD JSON (see the module docstring for spaces and reward).

    Args:
        instances: a pool of reference instances to draw from at each reset (None: a random simple-fold model
            per reset, its number of steps drawn from ``folds``).
        folds: folding steps of the random instances.
        budget: steps (answers) per episode.
        shaping: the reward weights and the success threshold.
        max_faces: the most faces of a random instance.
        image_size: side of the observation pictures.
        observation_mode: ``"full"`` (pictures and text) or ``"text"`` (no pictures: nothing is drawn).
        render_mode: None or ``"rgb_array"`` (the two pictures side by side).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 1}

    def __init__(self, instances: Sequence[Instance] | None = None, folds: Sequence[int] = DEFAULT_FOLDS,
                 budget: int = 10, shaping: RewardShaping | None = None, max_faces: int = 200,
                 image_size: int = 256, observation_mode: Literal["full", "text"] = "full",
                 render_mode: str | None = None) -> None:
        if budget < 1:
            raise ValueError(f"budget must be at least 1, got {budget}")
        if not folds or any(int(count) < 1 for count in folds):
            raise ValueError(f"folds must be positive step counts, got {list(folds)}")
        if instances is not None and not instances:
            raise ValueError("instances is None or a non-empty sequence")
        if observation_mode not in ("full", "text"):
            raise ValueError(f"observation_mode is 'full' or 'text', got {observation_mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None or 'rgb_array', got {render_mode!r}")
        self.instances = None if instances is None else tuple(instances)
        self.folds = tuple(int(count) for count in folds)
        self.default_budget, self.budget = budget, budget
        self.shaping = shaping or RewardShaping()
        self.max_faces, self.image_size = max_faces, image_size
        self.observation_mode, self.render_mode = observation_mode, render_mode
        picture = spaces.Box(0, 255, (image_size, image_size, 3), np.uint8)
        fields: dict[str, spaces.Space[Any]] = {"text": spaces.Text(TEXT_LIMIT, min_length=0, charset=_CHARSET)}
        if observation_mode == "full":
            fields = {"flat_pattern": picture, "folded": picture, **fields}
        self.observation_space = spaces.Dict(fields)
        self.action_space = spaces.Text(MAX_REPLY_CHARS, min_length=0, charset=_CHARSET)
        self.instance: Instance | None = None
        self.reference: ReferenceFold | None = None
        self.steps = 0
        self.previous_partial = 0.0
        self.last_document: Any = None
        self.history: list[dict[str, Any]] = []
        self._pictures: dict[str, np.ndarray] = {}

    # -- episode ---------------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Draw a reference and start over. ``options``: ``instance`` (an :class:`Instance`), ``folds`` (the
        steps of a random instance), ``difficulty`` (``"easy"``: 3 to 9 steps of
        random simple folds; ``"medium"`` 10-19 and ``"hard"`` 20-30 steps of pleated models) and ``budget``."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown}; known: {sorted(_OPTIONS)}")
        self.instance = self._draw_instance(options)
        self.budget = int(options.get("budget", self.default_budget))
        if self.budget < 1:
            raise ValueError(f"budget must be at least 1, got {self.budget}")
        # the reference is read back from its FOLD fields, exactly as the code-generation tasks score it
        self.reference = prepare_reference(pattern_from_fold(self.instance.fold_document(), "reference"))
        self.steps, self.previous_partial, self.last_document, self.history = 0, 0.0, None, []
        self._pictures = {}
        if self.observation_mode == "full" or self.render_mode == "rgb_array":
            self._pictures = {
                "flat_pattern": np.asarray(flat_pattern_png(self.reference.compiled, self.image_size), np.uint8),
                "folded": np.asarray(folded_state_png(self.reference.compiled, 0, "front", self.image_size),
                                     np.uint8),
            }
        return self._observation(None), self._info(None)

    def _draw_instance(self, options: dict[str, Any]) -> Instance:
        if "instance" in options:
            instance = options["instance"]
            if not isinstance(instance, Instance):
                raise TypeError(f"options['instance'] must be an Instance, got {type(instance).__name__}")
            return instance
        if "difficulty" in options:
            difficulty = options["difficulty"]
            if difficulty not in DIFFICULTY_FOLDS:
                raise ValueError(f"difficulty {difficulty!r}: one of {sorted(DIFFICULTY_FOLDS)}")
            choices = DIFFICULTY_FOLDS[difficulty]
            if difficulty != "easy":
                folds = choices[int(self.np_random.integers(len(choices)))]
                return pleat_instance(self.np_random, folds, self.max_faces)
        elif "folds" in options:
            choices = (int(options["folds"]),)
        elif self.instances is not None:
            return self.instances[int(self.np_random.integers(len(self.instances)))]
        else:
            choices = self.folds
        folds = choices[int(self.np_random.integers(len(choices)))]
        return simple_fold_instance(self.np_random, folds, self.max_faces)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Compile and score one answer (text or dict); never raises for an action."""
        if self.reference is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self.steps >= self.budget:
            verdict = {"compiled": False, "error": {"class": "BUDGET", "code": "E_BUDGET_SPENT",
                       "message": f"the budget of {self.budget} answers is spent", "where": {}},
                       "partial_score": None, "reward": RewardTerms().as_dict()}
            return self._observation(verdict), 0.0, False, True, self._info(verdict)
        self.steps += 1
        document, error = _document(action)
        partial = None
        if error is None:
            generated = compile_generated(document)
            error = generated.error
            partial = partial_similarity(generated, self.reference)
        terms = self.shaping.step_terms(partial, self.previous_partial)
        if partial is not None:
            self.previous_partial = partial
        self.last_document = document
        final: SimilarityScore | None = None
        threshold = self.shaping.success_threshold
        if partial is not None and partial >= threshold:
            final = score_generated(document, self.reference)
        terminated = final is not None and final.passed and final.total >= threshold
        truncated = not terminated and self.steps >= self.budget
        if terminated or truncated:
            final = final or score_generated(self.last_document, self.reference)
            terms = RewardTerms(terms.progress, terms.compile_bonus, terms.failure_penalty, terms.step_penalty,
                                self.shaping.final_weight * final.total)
        verdict = {"compiled": partial is not None, "error": error,
                   "partial_score": None if partial is None else round(partial, 6), "reward": terms.as_dict()}
        self.history.append(verdict)
        info = self._info(verdict)
        if terminated or truncated:
            assert final is not None
            info["final_score"] = _final_record(final)
        return self._observation(verdict), terms.total, terminated, truncated, info

    # -- observations ----------------------------------------------------------------------------------------
    def state_json(self, verdict: dict[str, Any] | None) -> dict[str, Any]:
        """The text observation as a dict."""
        assert self.instance is not None
        return {"model_name": self.instance.name, "step": self.steps, "budget": self.budget,
                "steps_left": self.budget - self.steps, "paper": {"bottom_left": [0, 0], "top_right": [1, 1]},
                "previous_answer": verdict}

    def _text(self, verdict: dict[str, Any] | None) -> str:
        state = self.state_json(verdict)
        text = json.dumps(state, separators=(",", ":"))
        if len(text) > TEXT_LIMIT and verdict and verdict.get("error"):
            state["previous_answer"] = {**verdict, "error": {**verdict["error"],
                                                             "message": verdict["error"]["message"][:1000]}}
            text = json.dumps(state, separators=(",", ":"))
        return text[:TEXT_LIMIT]

    def pictures(self) -> dict[str, Image.Image]:
        """The reference's crease-pattern and folded pictures (empty in text mode)."""
        return {name: Image.fromarray(array) for name, array in self._pictures.items()}

    def _observation(self, verdict: dict[str, Any] | None) -> dict[str, Any]:
        observation: dict[str, Any] = {"text": self._text(verdict)}
        if self.observation_mode == "full":
            observation.update({name: array.copy() for name, array in self._pictures.items()})
        return observation

    def _info(self, verdict: dict[str, Any] | None) -> dict[str, Any]:
        """Flat values of fixed types (so that vector environments can stack them)."""
        assert self.instance is not None
        verdict = verdict or {}
        error = verdict.get("error") or {}
        partial = verdict.get("partial_score")
        return {"steps": self.steps, "budget": self.budget, "model_name": self.instance.name,
                "fold_count": self.instance.fold_count or 0, "partial_score": self.previous_partial,
                "compiled": bool(verdict.get("compiled")),
                "answer_partial_score": -1.0 if partial is None else float(partial),
                "error_class": str(error.get("class", "")), "error_code": str(error.get("code", "")),
                "error_message": str(error.get("message", "")),
                "reward_terms": dict(verdict.get("reward") or RewardTerms().as_dict())}

    def render(self) -> np.ndarray | None:
        """With ``render_mode="rgb_array"``: the compiled flat pattern and the folded model side by side."""
        if self.render_mode != "rgb_array" or not self._pictures:
            return None
        return np.hstack([self._pictures["flat_pattern"], self._pictures["folded"]])
