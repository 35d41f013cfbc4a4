"""Perception probes for MentalBlackboard: questions about what a configuration's pictures, grids or video show,
drawn from the same configurations as the reasoning tasks so that the two results pair up item by item.

A dataset of ``n`` probes asks about the first ``ceil(n / q)`` configurations (``q`` = the ``questions`` knob;
twice or four times as many when so few do not allow ``n`` balanced questions) of the prediction (or
backward-prediction, knob ``source``) dataset of the same seed and knobs: ``metadata["source_item"]`` names the
item asked about, ``metadata["source_seed"]`` its seed and ``metadata["configuration"]`` the hash of its
configuration (:func:`foldbench.tasks.probes.configuration_hash`). From every question those configurations allow,
:func:`foldbench.tasks.probes.balanced_plan` draws the ``n`` items: question types equally often, and within a type
every answer equally often, each item offering the type's answers that occur. So no prior answers a type: its most
frequent answer, or any fixed place among the offered answers, is right as often as chance. The grid size of text
grids is never asked (every grid is 4 × 4). The items depend on ``n`` (the plan is drawn for the whole dataset).

Each question is worded for every modality the dataset is generated with ("the hole punching grid", "the last
picture", "the last frame"), and only question types every one of those modalities can answer are asked (no
directions when text grids are among them). The question types are in
:mod:`foldbench.tasks.mentalblackboard.perception_questions`; the reply is read strictly as ``{"answer": ...}``
naming one of the offered answers. Results break down by question type.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, Literal

from pydantic import field_validator

from foldbench.pft import ENGINE_VERSION
from foldbench.pft.actions import parse_actions
from foldbench.tasks.base import Item, Prompt, TaskSpec
from foldbench.tasks.choice_fields import (
    QUESTION_KIND_KEY,
    answer_field,
    offered_choices,
    question_kind_field,
    question_text_field,
)
from foldbench.tasks.knobs import Whole
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
from foldbench.tasks.probes import (
    PROBE_METRICS,
    Candidate,
    ProbeAnswers,
    asked_question,
    balanced_plan_over_sources,
    configuration_hash,
    offered_answers,
)
from foldbench.tasks.task_base import TaskBase

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


def _worded(per_view: Mapping[str, list[Question]]) -> list[tuple[Question, dict[str, str]]]:
    """The questions every view asks (matched by type and order within the type, with the same answer), each with
    its wording per modality."""
    grouped = {modality: _by_kind(questions) for modality, questions in per_view.items()}
    first, *others = per_view
    worded = []
    for kind, questions in grouped[first].items():
        for position, question in enumerate(questions):
            texts = {first: question.text}
            for modality in others:
                same = grouped[modality].get(kind, [])
                if position >= len(same) or same[position].answer != question.answer:
                    break
                texts[modality] = same[position].text
            else:
                worded.append((question, texts))
    return worded


def _by_kind(questions: list[Question]) -> dict[str, list[Question]]:
    grouped: dict[str, list[Question]] = defaultdict(list)
    for question in questions:
        grouped[question.kind].append(question)
    return grouped


class PerceptionTask(ProbeAnswers, TaskBase):
    """Perception probes (see the module docstring)."""

    id = "mentalblackboard/perception-v2"
    modalities: tuple[str, ...] = ("text", "image", "video", "frames")
    knob_schema = PerceptionKnobs
    engine_version = ENGINE_VERSION

    @property
    def spec(self) -> TaskSpec:
        """Accuracy as the headline, broken down by question type and by the configuration's folds."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=PROBE_METRICS,
            headline="correct",
            breakdowns=(QUESTION_KIND_KEY, "num_folds", "group"),
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
        """Items ``start .. n-1`` of the balanced plan over the first ``ceil(n / questions)`` configurations (see the
        module)."""
        from foldbench.tasks.mentalblackboard.tasks import BackwardPredictionTask, PredictionTask

        given = self.checked_knobs(knobs, modalities).given()
        size, fps = picture_knobs(given)
        per = given.get("questions", 6)
        source_task = BackwardPredictionTask() if given.get("source") == "backward-prediction" else PredictionTask()
        source_knobs = {k: v for k, v in given.items() if k in ("groups", "sides")}
        configurations: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
        candidates: list[Candidate] = []

        def candidates_from(count: int) -> list[Candidate]:
            # a tiny dataset may need more configurations than n / questions to vary its answers
            for configuration in range(len(configurations), count):
                source_seed, rng = self.item_rng(seed, configuration)
                inputs, _target, metadata = source_task._draw(rng, dict(source_knobs))
                solution = solution_of(inputs)
                actions = parse_actions(inputs["actions"])
                per_view = {m: questions_for(solution, actions, view=_VIEWS[m]) for m in modalities}
                configurations.append((source_seed, inputs, metadata))
                for question, texts in _worded(per_view):
                    candidates.append(
                        Candidate(configuration, question.kind, question.answer, question.choices, (question, texts))
                    )
            return candidates

        plan, offered = balanced_plan_over_sources(n, per, candidates_from, (seed, 0x9E0B))
        for index in range(start, n):
            candidate = plan[index]
            question, texts = candidate.question
            source_seed, inputs, metadata = configurations[candidate.source]
            source_id = f"{source_task.name}-{candidate.source:05d}"
            item_inputs: dict[str, Any] = {
                **inputs,
                "source_item": source_id,
                **question_text_field(texts[modalities[0]]),
                "questions": texts,
                **offered_choices(offered[question.kind]),
            }
            item = self.new_item(
                f"perception-{index:05d}",
                self.item_rng(seed, index)[0],
                item_inputs,
                answer_field(question.answer),
                {
                    **metadata,
                    "index": index,
                    **question_kind_field(question.kind),
                    "source_item": source_id,
                    "source_seed": source_seed,
                    "configuration": configuration_hash(inputs),
                },
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
            question=item.inputs.get("questions", {}).get(modality, asked_question(item)),
            choices=list(offered_answers(item)),
        )
