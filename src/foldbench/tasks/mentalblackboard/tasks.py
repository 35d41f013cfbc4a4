"""The four MentalBlackboard tasks: prediction, backward prediction, planning and generalization.

Each task draws items from a seed (item ``i`` from ``(seed, i)`` alone), stores the engine's ground truth with
them, and encodes what a model is shown in the requested modalities: ``text`` (the grids of
:mod:`foldbench.pft.encoders.text`), ``image`` (2D PNG pictures, one per step) and, for prediction and backward
prediction, the 3D animation as ``video`` (an MP4 with its key frames, for models that take video) or
``frames`` (the key frames alone, one per completed action); the files are written next to the items.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from foldbench.errors import FoldbenchError
from foldbench.pft.actions import Rotation, parse_actions
from foldbench.pft.encoders.text import encode_prompt_block, grid_text
from foldbench.pft.enumeration import GROUPS
from foldbench.pft.holes import ROTATION_FREE_SHAPES, Hole, Size, direction_period
from foldbench.pft.paper import Paper
from foldbench.pft.planner import find_plan
from foldbench.pft.simulate import solve
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import Item, ParseFailure, Prompt, Scores
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.mentalblackboard import baselines
from foldbench.tasks.mentalblackboard.answers import PlanningAnswer, parse_planning
from foldbench.tasks.mentalblackboard.common import (
    REFERENCE_SHEET,
    Draw,
    MentalBlackboardTask,
    answer_of,
    describe,
    folding_inputs,
    groups_knob,
    paper_holes,
    shapes_of,
    solution_of,
    step_paths,
)
from foldbench.tasks.mentalblackboard.knobs import (
    PLANNING_FOLD_COUNTS,
    GeneralizationKnobs,
    PlanningKnobs,
    PredictionKnobs,
)
from foldbench.tasks.mentalblackboard.measures import BREAKDOWNS, PLANNING_METRICS
from foldbench.tasks.mentalblackboard.preset import (
    PAPER_SHAPES,
    PLANNING_MAX_RESULT_HOLES,
    generalization_stratum,
    planning_stratum,
    prediction_group,
)
from foldbench.tasks.mentalblackboard.render import render_prompt
from foldbench.tasks.mentalblackboard.sampling import (
    SHAPES,
    Sides,
    hole_from_dict,
    hole_to_dict,
    sample_actions,
    sample_holes,
)
from foldbench.tasks.mentalblackboard.scoring import score_planning

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PredictionTask", "BackwardPredictionTask", "PlanningTask", "GeneralizationTask", "REFERENCE_SHEET"]


class PredictionTask(MentalBlackboardTask):
    """Predict the unfolded holes and the unfolding steps from the folds and the punched holes."""

    id = "mentalblackboard/prediction-v1"
    name = "prediction"
    modalities: tuple[str, ...] = ("text", "image", "video", "frames")
    sides: Sides = "front"
    default_groups: tuple[int, ...] = tuple(GROUPS)
    knob_schema: type[Knobs] = PredictionKnobs

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any], index: int | None = None) -> Draw:
        groups = groups_knob(knobs, self.default_groups)
        sides: Sides = knobs.get("sides", self.sides)
        group = groups[int(rng.integers(len(groups)))]
        if knobs.get("preset") == "paper" and index is not None:
            group = prediction_group(index)
        actions = sample_actions(rng, group, sides)
        folded = solve(actions, []).folded
        holes = sample_holes(rng, folded, rotation=any(isinstance(a, Rotation) for a in actions))
        solution = solve(actions, holes)
        inputs = {"actions": [a.code for a in actions], "initial_holes": [hole_to_dict(h) for h in holes]}
        metadata = {"group": group, "sides": sides, **describe(actions)}
        return inputs, answer_of(solution), metadata

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = folding_inputs(item.inputs, item.id, modalities, size, fps)
        target = dict(item.target)
        if "image" in modalities:
            target["image"] = f"images/{item.id}/result.png"
        if "video" in modalities or "frames" in modalities:
            target["video"] = f"videos/{item.id}/unfolding.mp4"
        return item.model_copy(update={"inputs": inputs, "target": target})

    def render(self, item: Item, modality: str) -> Prompt:
        """The prediction prompt in ``modality`` (``text`` or ``image``)."""
        self._check_modality(item, modality)
        images = item.inputs.get("images", {})
        video = item.inputs.get("video", {})
        if item.inputs.get("prompt") == "paper":
            return render_prompt(
                "prediction_paper",
                modality=modality,
                backward=item.metadata.get("sides") == "back",
                grids=item.inputs.get("text", ""),
                reference=images.get("reference", video.get("reference", "")),
                steps=images.get("steps", []),
                video=video.get("video", ""),
                frames=video.get("frames", []),
                holes=paper_holes(item.inputs["initial_holes"], modality),
                shapes=[s.value for s in SHAPES],
            )
        return render_prompt(
            "prediction",
            modality=modality,
            backward=item.metadata.get("sides") == "back",
            num_folds=item.metadata["num_folds"],
            num_rotations=item.metadata["num_rotations"],
            grids=item.inputs.get("text", ""),
            reference=images.get("reference", video.get("reference", "")),
            steps=images.get("steps", []),
            video=video.get("video", ""),
            frames=video.get("frames", []),
            holes=item.inputs["initial_holes"],
        )

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        from foldbench.pft.encoders import image

        solution = solution_of(item.inputs)
        for path, picture in zip(images["steps"], image.render_steps(solution, size=size), strict=True):
            yield path, image.png_bytes(picture)
        yield item.target["image"], image.png_bytes(image.render_result(solution.result_holes, size=size))


class BackwardPredictionTask(PredictionTask):
    """Prediction with every fold made away from the viewer (``-B``)."""

    id = "mentalblackboard/backward-prediction-v1"
    name = "backward-prediction"
    sides: Sides = "back"


class PlanningTask(MentalBlackboardTask):
    """Find folds (a given number, no rotation) and at most two punches that give an unfolded hole pattern."""

    id = "mentalblackboard/planning-v1"
    metrics = PLANNING_METRICS
    breakdowns = (*BREAKDOWNS, "punches")
    name = "planning"
    knob_schema: type[Knobs] = PlanningKnobs

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any], index: int | None = None) -> Draw:
        fold_counts = tuple(knobs.get("folds") or PLANNING_FOLD_COUNTS)
        max_holes = knobs.get("max_holes", 2)
        num_folds = fold_counts[int(rng.integers(len(fold_counts)))]
        punches = int(rng.integers(1, max_holes + 1))
        shapes = SHAPES
        paper = knobs.get("preset") == "paper" and index is not None
        if paper:
            num_folds, punches = planning_stratum(index)  # type: ignore[arg-type]
            shapes = PAPER_SHAPES
        while True:
            actions = sample_actions(rng, num_folds, "front")
            folded = solve(actions, []).folded
            holes = sample_holes(rng, folded, rotation=False, count=punches, shapes=shapes)
            solution = solve(actions, holes)
            if not paper or len(solution.result_holes) <= PLANNING_MAX_RESULT_HOLES:
                break
        inputs = {
            "num_folds": num_folds,
            "max_holes": max_holes,
            "result_holes": [hole_to_dict(h) for h in solution.result_holes],
        }
        target = {
            "actions": [a.code for a in actions],
            "initial_holes": [hole_to_dict(h) for h in holes],
            "result_holes": inputs["result_holes"],
        }
        metadata = {"group": num_folds, "punches": len(holes), **describe(actions)}
        if len(holes) > max_holes:
            # As in the paper's records: more punches than a plan may make. No plan within the limit may exist.
            metadata["solvable"] = find_plan(solution.result_holes, num_folds, max_holes=max_holes) is not None
        return inputs, target, metadata

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = dict(item.inputs)
        if "text" in modalities:
            inputs["text"] = grid_text(Paper.flat(), [hole_from_dict(h) for h in inputs["result_holes"]])
        if "image" in modalities:
            inputs["images"] = {"size": size, "reference": REFERENCE_SHEET, "result": f"images/{item.id}/result.png"}
        return item.model_copy(update={"inputs": inputs})

    def render(self, item: Item, modality: str) -> Prompt:
        """The planning prompt in ``modality`` (``text`` or ``image``)."""
        self._check_modality(item, modality)
        images = item.inputs.get("images", {})
        paper = item.inputs.get("prompt") == "paper"
        wording: dict[str, Any] = (
            {"holes": paper_holes(item.inputs["result_holes"], modality), "shapes": [s.value for s in shapes_of(item)]}
            if paper
            else {"holes": item.inputs["result_holes"]}
        )
        return render_prompt(
            "planning_paper" if paper else "planning",
            modality=modality,
            num_folds=item.inputs["num_folds"],
            max_holes=item.inputs["max_holes"],
            grid=item.inputs.get("text", ""),
            result=images.get("result", ""),
            reference=images.get("reference", ""),
            **wording,
        )

    def parse(self, item: Item, text: str) -> PlanningAnswer | ParseFailure:  # type: ignore[override]
        """Read a reply strictly as folds and punches."""
        return parse_planning(text)

    def score(self, item: Item, answer: Any) -> Scores:
        """Replay the plan in the engine and score the holes it makes."""
        return score_planning(item.inputs, item.target, answer)

    def score_in_modality(self, item: Item, answer: Any, modality: str) -> Scores:
        """As :meth:`score`: a replayed plan's holes carry their directions in every modality."""
        return self.score(item, answer)

    def human_form(self, item: Item) -> HumanForm:
        """People list the folds and click the holes to punch."""
        return HumanForm.plan()

    def oracle(self, item: Item) -> PlanningAnswer:  # type: ignore[override]
        """The plan the item was made from."""
        return baselines.oracle_planning(item)

    def random_answer(self, item: Item, rng: np.random.Generator) -> PlanningAnswer:  # type: ignore[override]
        """Random folds and punches of the right number."""
        return baselines.random_planning(item, rng)

    def answer_holes(self, item: Item, answer: Mapping[str, Any]) -> list[Hole] | None:
        """The holes the stored plan makes when the engine replays it (None if it cannot be replayed)."""
        plan = PlanningAnswer.model_validate(answer)
        try:
            return list(solve(parse_actions(plan.folds), plan.holes()).result_holes)
        except FoldbenchError:
            return None

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        from foldbench.pft.encoders import image

        holes = [hole_from_dict(h) for h in item.inputs["result_holes"]]
        yield images["result"], image.png_bytes(image.render_result(holes, size=size))


_ATTRIBUTES = ("shape", "size", "location", "direction")


def _change_one(
    rng: np.random.Generator, holes: tuple[Hole, ...], folded: Paper, rotation: bool, attribute: str | None = None
) -> tuple[str, tuple[Hole, ...]]:
    """Change exactly one attribute of one hole (``attribute`` if it can be changed, else a random one); returns
    the attribute and the new holes."""
    free = [p + 1 for p in folded.occupied() if p + 1 not in {h.location for h in holes}]
    shapes = [s for s in SHAPES if not (rotation and s in ROTATION_FREE_SHAPES)]
    options = []
    for index, hole in enumerate(holes):
        options.append(("shape", index))
        options.append(("size", index))
        if free:
            options.append(("location", index))
        if direction_period(hole.shape) > 90:
            options.append(("direction", index))
    drawn = _ATTRIBUTES[int(rng.integers(4))]
    attribute = attribute or drawn
    candidates = [o for o in options if o[0] == attribute] or options
    attribute, index = candidates[int(rng.integers(len(candidates)))]
    hole = holes[index]
    if attribute == "shape":
        # another shape on which the hole keeps its direction (a star at 270 cannot become an ellipse, whose 270
        # reads as 90: the direction would seem to change too)
        others = [s for s in shapes if s is not hole.shape and hole.direction < direction_period(s)]
        changed = Hole(others[int(rng.integers(len(others)))], hole.size, hole.direction, hole.location)
    elif attribute == "size":
        changed = Hole(hole.shape, Size.LARGE if hole.size is Size.SMALL else Size.SMALL, hole.direction, hole.location)
    elif attribute == "location":
        changed = Hole(hole.shape, hole.size, hole.direction, free[int(rng.integers(len(free)))])
    else:
        period = direction_period(hole.shape)
        others_d = [d for d in range(0, period, 90) if d != hole.direction]
        changed = Hole(hole.shape, hole.size, others_d[int(rng.integers(len(others_d)))], hole.location)
    return attribute, holes[:index] + (changed,) + holes[index + 1 :]


def _change_every(
    rng: np.random.Generator, holes: tuple[Hole, ...], folded: Paper, rotation: bool, attribute: str
) -> tuple[str, tuple[Hole, ...]]:
    """The paper's change: ``attribute`` of every hole for shape and size, of the one hole for the others."""
    if attribute in ("location", "direction"):
        return _change_one(rng, holes, folded, rotation, attribute)
    changed = []
    for hole in holes:
        if attribute == "size":
            size = Size.LARGE if hole.size is Size.SMALL else Size.SMALL
            changed.append(Hole(hole.shape, size, hole.direction, hole.location))
        else:
            others = [
                s
                for s in PAPER_SHAPES
                if s is not hole.shape
                and not (rotation and s in ROTATION_FREE_SHAPES)
                and hole.direction < direction_period(s)
            ]
            changed.append(Hole(others[int(rng.integers(len(others)))], hole.size, hole.direction, hole.location))
    return attribute, tuple(changed)


class GeneralizationTask(MentalBlackboardTask):
    """A solved reference case and a target case with the same folds and one hole attribute changed."""

    id = "mentalblackboard/generalization-v1"
    breakdowns = (*BREAKDOWNS, "changed")
    name = "generalization"
    default_groups: tuple[int, ...] = (1, 2, 3, 4)
    knob_schema: type[Knobs] = GeneralizationKnobs

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any], index: int | None = None) -> Draw:
        groups = groups_knob(knobs, self.default_groups)
        group = groups[int(rng.integers(len(groups)))]
        if knobs.get("preset") == "paper" and index is not None:
            group, changed, count = generalization_stratum(index)
            actions = sample_actions(rng, group, "front")
            folded = solve(actions, []).folded
            rotation = any(isinstance(a, Rotation) for a in actions)
            shapes = tuple(s for s in PAPER_SHAPES if changed != "direction" or direction_period(s) > 90)
            reference_holes = sample_holes(rng, folded, rotation=rotation, count=count, shapes=shapes)
            attribute, target_holes = _change_every(rng, reference_holes, folded, rotation, changed)
        else:
            actions = sample_actions(rng, group, knobs.get("sides", "front"))
            folded = solve(actions, []).folded
            rotation = any(isinstance(a, Rotation) for a in actions)
            reference_holes = sample_holes(rng, folded, rotation=rotation)
            attribute, target_holes = _change_one(rng, reference_holes, folded, rotation)
        reference = solve(actions, reference_holes)
        solution = solve(actions, target_holes)
        inputs = {
            "actions": [a.code for a in actions],
            "reference": {"initial_holes": [hole_to_dict(h) for h in reference_holes], **answer_of(reference)},
            "initial_holes": [hole_to_dict(h) for h in target_holes],
            "changed": attribute,
        }
        metadata = {"group": group, "changed": attribute, **describe(actions)}
        return inputs, answer_of(solution), metadata

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = dict(item.inputs)
        if "text" in modalities:
            reference = solve(
                parse_actions(inputs["actions"]), [hole_from_dict(h) for h in inputs["reference"]["initial_holes"]]
            )
            result = grid_text(Paper.flat(), reference.result_holes)
            inputs["text"] = {
                "reference": encode_prompt_block(reference) + f"\n\nUnfolded result:\n{result}",
                "target": encode_prompt_block(solution_of(inputs)),
            }
        if "image" in modalities:
            inputs["images"] = {
                "size": size,
                "reference": REFERENCE_SHEET,
                "reference_steps": step_paths(f"images/{item.id}", "reference_step", inputs["actions"]),
                "reference_result": f"images/{item.id}/reference_result.png",
                "steps": step_paths(f"images/{item.id}", "step", inputs["actions"]),
            }
        return item.model_copy(update={"inputs": inputs})

    def render(self, item: Item, modality: str) -> Prompt:
        """The generalization prompt in ``modality`` (``text`` or ``image``)."""
        self._check_modality(item, modality)
        images = item.inputs.get("images", {})
        texts = item.inputs.get("text", {})
        reference = item.inputs["reference"]
        if item.inputs.get("prompt") == "paper":
            wording: dict[str, Any] = {
                "reference_holes": paper_holes(reference["initial_holes"], modality),
                "reference_results": paper_holes(reference["result_holes"], modality),
                "holes": paper_holes(item.inputs["initial_holes"], modality),
                "shapes": [s.value for s in shapes_of(item)],
            }
        else:
            wording = {
                "num_folds": item.metadata["num_folds"],
                "num_rotations": item.metadata["num_rotations"],
                "reference_holes": reference["initial_holes"],
                "reference_results": reference["result_holes"],
                "reference_unfolding": reference["unfolding"],
                "holes": item.inputs["initial_holes"],
            }
        return render_prompt(
            "generalization_paper" if item.inputs.get("prompt") == "paper" else "generalization",
            modality=modality,
            reference_text=texts.get("reference", ""),
            target_text=texts.get("target", ""),
            reference_sheet=images.get("reference", ""),
            reference_steps=images.get("reference_steps", []),
            reference_result=images.get("reference_result", ""),
            steps=images.get("steps", []),
            **wording,
        )

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        from foldbench.pft.encoders import image

        actions = parse_actions(item.inputs["actions"])
        reference = solve(actions, [hole_from_dict(h) for h in item.inputs["reference"]["initial_holes"]])
        for path, picture in zip(images["reference_steps"], image.render_steps(reference, size=size), strict=True):
            yield path, image.png_bytes(picture)
        yield images["reference_result"], image.png_bytes(image.render_result(reference.result_holes, size=size))
        target = solution_of(item.inputs)
        for path, picture in zip(images["steps"], image.render_steps(target, size=size), strict=True):
            yield path, image.png_bytes(picture)
