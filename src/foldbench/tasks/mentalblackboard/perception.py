"""Perception probes for MentalBlackboard: questions about what a configuration's pictures, grids or video show,
drawn from the same configurations as the reasoning tasks so that the two results pair up item by item.

Item ``i`` of a probe dataset asks question slot ``i mod q`` (``q`` = the ``questions`` knob) about configuration
``i div q``, which is exactly item ``i div q`` of the prediction (or backward-prediction, knob ``source``) dataset
of the same seed and knobs; ``metadata["source_item"]`` names that item. The question types are in
:mod:`foldbench.tasks.mentalblackboard.perception_questions`; each item's choices are listed in the prompt and
the reply is read strictly as ``{"answer": ...}`` naming one of them. Results break down by question type.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from pydantic import field_validator

from foldbench.pft import ENGINE_VERSION
from foldbench.pft.actions import parse_actions
from foldbench.tasks.base import Item, Prompt, TaskSpec, check_modalities
from foldbench.tasks.knobs import Whole, parse_knobs
from foldbench.tasks.mentalblackboard.common import (
    REFERENCE_SHEET,
    _reference_sheet_png,
    folding_inputs,
    picture_knobs,
    solution_of,
    video_assets,
)
from foldbench.tasks.mentalblackboard.knobs import PredictionDrawKnobs
from foldbench.tasks.mentalblackboard.perception_questions import Question, questions_for
from foldbench.tasks.mentalblackboard.render import render_prompt
from foldbench.tasks.mentalblackboard.sampling import item_rng
from foldbench.tasks.probes import PROBE_METRICS, ProbeAnswers

__all__ = ["PerceptionKnobs", "PerceptionTask"]

_VIEWS = {"text": "grid", "image": "picture", "frames": "frame", "video": "video"}


class PerceptionKnobs(PredictionDrawKnobs):
    """Knobs of the perception probes: those of the source task, and how many questions per configuration."""

    source: Literal["prediction", "backward-prediction"] = "prediction"
    """The reasoning task whose configurations the probes ask about (same seed and knobs, same configurations)."""
    questions: Whole = 6
    """Questions per configuration: 1 to 12 (item i asks about configuration i div questions)."""

    @field_validator("questions")
    @classmethod
    def _questions(cls, value: int) -> int:
        if not 1 <= value <= 12:
            raise ValueError("must be a whole number from 1 to 12")
        return value


@lru_cache(maxsize=4)
def _step_pngs(actions: tuple[str, ...], holes: str, size: int) -> tuple[bytes, ...]:
    """The step pictures of one configuration (the items of a configuration share them; cached)."""
    import json

    from foldbench.pft.encoders import image

    solution = solution_of({"actions": list(actions), "initial_holes": json.loads(holes)})
    return tuple(image.png_bytes(picture) for picture in image.render_steps(solution, size=size))


def _pick(questions: list[Question], seed: int, configuration: int, slot: int) -> Question:
    """Question slot ``slot`` of a configuration: the question types in an order drawn for the configuration (so
    its first slots ask different types), and one question of that type drawn for the slot."""
    kinds = sorted({q.kind for q in questions})
    order = np.random.default_rng([seed, configuration, 1]).permutation(len(kinds))
    kind = kinds[int(order[slot % len(kinds)])]
    of_kind = [q for q in questions if q.kind == kind]
    return of_kind[int(np.random.default_rng([seed, configuration, 2, slot]).integers(len(of_kind)))]


class PerceptionTask(ProbeAnswers):
    """Perception probes (see the module docstring)."""

    id = "mentalblackboard/perception-v1"
    modalities: tuple[str, ...] = ("text", "image", "video", "frames")
    knob_schema = PerceptionKnobs

    @property
    def spec(self) -> TaskSpec:
        """Accuracy as the headline, broken down by question type and by the configuration's folds."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=PROBE_METRICS,
            headline="correct",
            breakdowns=("question", "num_folds", "group"),
        )

    def generate(
        self,
        n: int,
        seed: int,
        *,
        modalities: tuple[str, ...] = ("text",),
        knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        """Items ``start .. n-1``; item ``i`` asks about configuration ``i div questions`` (see the module)."""
        from foldbench.tasks.mentalblackboard.tasks import BackwardPredictionTask, PredictionTask

        given = parse_knobs(self.knob_schema, self.id, knobs).given()
        check_modalities(self.id, modalities, self.modalities)
        size, fps = picture_knobs(given)
        per = given.get("questions", 6)
        source_task = BackwardPredictionTask() if given.get("source") == "backward-prediction" else PredictionTask()
        source_knobs = {k: v for k, v in given.items() if k in ("groups", "sides")}
        view = _VIEWS[modalities[0]]
        for index in range(start, n):
            configuration, slot = divmod(index, per)
            _, rng = item_rng(seed, configuration)
            inputs, _target, metadata = source_task._draw(rng, dict(source_knobs))
            solution = solution_of(inputs)
            questions = questions_for(solution, parse_actions(inputs["actions"]), view=view)
            question = _pick(questions, seed, configuration, slot)
            source_id = f"{source_task.name}-{configuration:05d}"
            item_inputs: dict[str, Any] = {
                **inputs,
                "source_item": source_id,
                "question": question.text,
                "choices": list(question.choices),
            }
            item = Item(
                id=f"perception-{configuration:05d}-{slot:02d}",
                task=self.id,
                seed=item_rng(seed, index)[0],
                engine_version=ENGINE_VERSION,
                inputs=item_inputs,
                target={"answer": question.answer},
                metadata={**metadata, "index": index, "question": question.kind, "source_item": source_id},
            )
            yield self._encode(item, modalities, size, fps)

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = folding_inputs(item.inputs, item.inputs["source_item"], modalities, size, fps)
        return item.model_copy(update={"inputs": inputs})

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The reference sheet, the configuration's step pictures, and its animation with key frames."""
        import json

        images = item.inputs.get("images")
        video = item.inputs.get("video")
        if not images and not video:
            return
        size = int((images or video or {})["size"])
        yield REFERENCE_SHEET, _reference_sheet_png(size)
        if images:
            holes = json.dumps(item.inputs["initial_holes"], sort_keys=True)
            pngs = _step_pngs(tuple(item.inputs["actions"]), holes, size)
            yield from zip(images["steps"], pngs, strict=True)
        if video:
            yield from video_assets(solution_of(item.inputs), video, None)

    def render(self, item: Item, modality: str) -> Prompt:
        """The question about the configuration as ``modality`` shows it."""
        key = {"image": "images", "frames": "video"}.get(modality, modality)
        if modality not in self.modalities or key not in item.inputs:
            from foldbench.errors import InvalidKnobError

            raise InvalidKnobError(f"item {item.id} was generated without the {modality!r} modality")
        images = item.inputs.get("images", {})
        video = item.inputs.get("video", {})
        return render_prompt(
            "perception",
            modality=modality,
            grids=item.inputs.get("text", ""),
            reference=images.get("reference", video.get("reference", "")),
            steps=images.get("steps", []),
            video=video.get("video", ""),
            frames=video.get("frames", []),
            turns=item.metadata.get("num_rotations", 0),
            question=item.inputs["question"],
            choices=item.inputs["choices"],
        )
