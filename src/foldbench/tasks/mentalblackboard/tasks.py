"""The four MentalBlackboard tasks: prediction, backward prediction, planning and generalization.

Each task draws items from a seed (item ``i`` from ``(seed, i)`` alone), stores the engine's ground truth with
them, and encodes what a model is shown in the requested modalities: ``text`` (the grids of
:mod:`foldbench.pft.encoders.text`), ``image`` (2D PNG pictures, one per step) and, for prediction and backward
prediction, the 3D animation as ``video`` (an MP4 with its key frames, for models that take video) or
``frames`` (the key frames alone, one per completed action); the files are written next to the items.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from foldbench.errors import FoldbenchError
from foldbench.pft import ENGINE_VERSION
from foldbench.pft.actions import Fold, Rotation, parse_actions
from foldbench.pft.encoders.text import encode_prompt_block, grid_text
from foldbench.pft.enumeration import GROUPS, pattern_of
from foldbench.pft.holes import ROTATION_FREE_SHAPES, Hole, Size, direction_period
from foldbench.pft.paper import Paper
from foldbench.pft.simulate import Solution, solve
from foldbench.tasks.base import Item, ParseFailure, Prompt, Scores
from foldbench.tasks.mentalblackboard import baselines
from foldbench.tasks.mentalblackboard.answers import PlanningAnswer, PredictionAnswer, parse_planning, parse_prediction
from foldbench.tasks.mentalblackboard.render import render_prompt
from foldbench.tasks.mentalblackboard.sampling import (
    SHAPES,
    Sides,
    hole_from_dict,
    hole_to_dict,
    item_rng,
    sample_actions,
    sample_holes,
)
from foldbench.tasks.mentalblackboard.scoring import score_planning, score_prediction

__all__ = ["PredictionTask", "BackwardPredictionTask", "PlanningTask", "GeneralizationTask", "REFERENCE_SHEET"]

#: Where every dataset keeps the numbered location sheet.
REFERENCE_SHEET = "images/reference_sheet.png"
_PLANNING_GROUPS = (1, 2, 3, 4)


class KnobError(FoldbenchError, ValueError):
    """A generator option out of its range."""


def _groups_knob(knobs: Mapping[str, Any], default: tuple[int, ...]) -> tuple[int, ...]:
    groups = tuple(int(g) for g in knobs.get("groups") or default)
    bad = [g for g in groups if g not in GROUPS]
    if bad or not groups:
        raise KnobError(f"groups must be chosen from 1..9, got {list(groups)}")
    return groups


def _picture_knobs(knobs: Mapping[str, Any]) -> tuple[int, int]:
    """The picture size (pixels, even, 64-4096) and video frame rate (1-120) chosen by the knobs."""
    size, fps = knobs.get("size", 512), knobs.get("fps", 24)
    if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not 64 <= size <= 4096:
        raise KnobError(f"size must be an even number of pixels from 64 to 4096, got {size!r}")
    if isinstance(fps, bool) or not isinstance(fps, int) or not 1 <= fps <= 120:
        raise KnobError(f"fps must be a whole number from 1 to 120, got {fps!r}")
    return size, fps


def _describe(actions: tuple[Any, ...]) -> dict[str, Any]:
    folds = [a for a in actions if isinstance(a, Fold)]
    return {
        "pattern": pattern_of(actions),
        "num_folds": len(folds),
        "num_rotations": sum(isinstance(a, Rotation) for a in actions),
        "fold_families": "".join(sorted({f.type.family for f in folds})),
    }


Draw = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def _answer(solution: Solution) -> dict[str, Any]:
    return {
        "unfolding": [f.code for f in solution.unfolding],
        "result_holes": [hole_to_dict(h) for h in solution.result_holes],
        "total_holes": len(solution.result_holes),
    }


class _Base:
    id = ""
    modalities: tuple[str, ...] = ("text", "image")
    name = ""
    engine_version = ENGINE_VERSION

    def generate(
        self,
        n: int,
        seed: int,
        *,
        modalities: tuple[str, ...] = ("text",),
        knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        knobs = dict(knobs or {})
        unknown = [m for m in modalities if m not in self.modalities]
        if unknown:
            raise KnobError(f"{self.id} has no modality {unknown[0]!r} (it has {', '.join(self.modalities)})")
        size, fps = _picture_knobs(knobs)
        for index in range(start, n):
            item_seed, rng = item_rng(seed, index)
            item_id = f"{self.name}-{index:05d}"
            inputs, target, metadata = self._draw(rng, knobs)
            metadata["index"] = index
            item = Item(
                id=item_id,
                task=self.id,
                seed=item_seed,
                engine_version=ENGINE_VERSION,
                inputs=inputs,
                target=target,
                metadata=metadata,
            )
            yield self._encode(item, modalities, size, fps)

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any]) -> Draw:
        raise NotImplementedError

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        raise NotImplementedError

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The files of an item's picture modalities: 2D step images, 3D animation and key frames."""
        images = item.inputs.get("images")
        video = item.inputs.get("video")
        if not images and not video:
            return
        from foldbench.pft.encoders import image

        size = int((images or video or {}).get("size", 512))
        yield REFERENCE_SHEET, image.png_bytes(image.reference_sheet(size=size))
        if images:
            yield from self._image_assets(item, images, size)
        if video:
            yield from _video_assets(_solution_of(item.inputs), video, item.target.get("video"))

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        raise NotImplementedError

    def _check_modality(self, item: Item, modality: str) -> None:
        key = {"image": "images", "frames": "video"}.get(modality, modality)
        if modality not in self.modalities or key not in item.inputs:
            raise KnobError(f"item {item.id} was generated without the {modality!r} modality")

    def parse(self, item: Item, text: str) -> PredictionAnswer | ParseFailure:
        """Read a reply strictly (see :mod:`foldbench.tasks.mentalblackboard.answers`)."""
        return parse_prediction(text)

    def score(self, item: Item, answer: Any) -> Scores:
        """MentalBlackboard's metrics for one answer (see :mod:`foldbench.tasks.mentalblackboard.scoring`)."""
        return score_prediction(item.target, answer)

    def oracle(self, item: Item) -> PredictionAnswer:
        """The engine's answer."""
        return baselines.oracle_prediction(item)

    def random_answer(self, item: Item, rng: np.random.Generator) -> PredictionAnswer:
        """A random, well-formed answer."""
        return baselines.random_prediction(item, rng)

    def answer_holes(self, item: Item, answer: dict[str, Any]) -> list[Hole] | None:
        """The holes on the unfolded sheet that a stored answer claims (None if it makes none)."""
        return PredictionAnswer.model_validate(answer).holes()

    def gallery(self, item: Item, answer: dict[str, Any] | None) -> list[tuple[str, bytes]]:
        """Pictures for a report: the model's answer drawn on the sheet, beside the ground truth."""
        from foldbench.pft.encoders import image

        pictures = []
        if answer is not None:
            holes = self.answer_holes(item, answer)
            if holes is not None:
                pictures.append(("model's answer", image.png_bytes(image.render_result(holes, size=256))))
        truth = [hole_from_dict(h) for h in item.target["result_holes"]]
        pictures.append(("ground truth", image.png_bytes(image.render_result(truth, size=256))))
        if "video" in item.inputs:
            from foldbench.pft.encoders.video_strip import unfolding_strip

            strip = unfolding_strip(_solution_of(item.inputs), frames=6, size=160)
            pictures.append(("ground-truth unfolding (3D)", image.png_bytes(strip)))
        return pictures


def _video_assets(solution: Solution, video: dict[str, Any], unfolding_path: str | None) -> Iterator[tuple[str, bytes]]:
    """The animation of a configuration (MP4), its key frames (PNG) and, for reports, the unfolding (MP4)."""
    import tempfile
    from pathlib import Path

    from foldbench.pft.encoders.video import render_item_video

    with tempfile.TemporaryDirectory() as scratch:
        written = render_item_video(
            solution, scratch, size=int(video["size"]), fps=int(video["fps"]), unfolding=unfolding_path is not None
        )
        yield video["video"], (Path(scratch) / str(written["video"])).read_bytes()
        for path, name in zip(video["frames"], written["key_frames"], strict=True):
            yield path, (Path(scratch) / name).read_bytes()
        if unfolding_path is not None:
            yield unfolding_path, (Path(scratch) / str(written["unfolding_video"])).read_bytes()


def _solution_of(inputs: Mapping[str, Any], holes_key: str = "initial_holes") -> Solution:
    return solve(parse_actions(inputs["actions"]), [hole_from_dict(h) for h in inputs[holes_key]])


class PredictionTask(_Base):
    """Predict the unfolded holes and the unfolding steps from the folds and the punched holes."""

    id = "mentalblackboard/prediction-v1"
    name = "prediction"
    modalities: tuple[str, ...] = ("text", "image", "video", "frames")
    sides: Sides = "front"
    default_groups: tuple[int, ...] = tuple(GROUPS)

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any]) -> Draw:
        groups = _groups_knob(knobs, self.default_groups)
        sides: Sides = knobs.get("sides", self.sides)
        group = groups[int(rng.integers(len(groups)))]
        actions = sample_actions(rng, group, sides)
        folded = solve(actions, []).folded
        holes = sample_holes(rng, folded, rotation=any(isinstance(a, Rotation) for a in actions))
        solution = solve(actions, holes)
        inputs = {"actions": [a.code for a in actions], "initial_holes": [hole_to_dict(h) for h in holes]}
        metadata = {"group": group, "sides": sides, **_describe(actions)}
        return inputs, _answer(solution), metadata

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = dict(item.inputs)
        target = dict(item.target)
        if "text" in modalities:
            inputs["text"] = encode_prompt_block(_solution_of(inputs))
        if "image" in modalities:
            count = len(inputs["actions"]) + 2
            inputs["images"] = {
                "size": size,
                "reference": REFERENCE_SHEET,
                "steps": [f"images/{item.id}/step_{i:02d}.png" for i in range(count)],
            }
            target["image"] = f"images/{item.id}/result.png"
        if "video" in modalities or "frames" in modalities:
            count = len(inputs["actions"]) + 2
            inputs["video"] = {
                "size": size,
                "fps": fps,
                "reference": REFERENCE_SHEET,
                "video": f"videos/{item.id}/folding.mp4",
                "frames": [f"videos/{item.id}/key_{i:02d}.png" for i in range(count)],
            }
            target["video"] = f"videos/{item.id}/unfolding.mp4"
        return item.model_copy(update={"inputs": inputs, "target": target})

    def render(self, item: Item, modality: str) -> Prompt:
        """The prediction prompt in ``modality`` (``text`` or ``image``)."""
        self._check_modality(item, modality)
        images = item.inputs.get("images", {})
        video = item.inputs.get("video", {})
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

        solution = _solution_of(item.inputs)
        for path, picture in zip(images["steps"], image.render_steps(solution, size=size), strict=True):
            yield path, image.png_bytes(picture)
        yield item.target["image"], image.png_bytes(image.render_result(solution.result_holes, size=size))


class BackwardPredictionTask(PredictionTask):
    """Prediction with every fold made away from the viewer (``-B``)."""

    id = "mentalblackboard/backward-prediction-v1"
    name = "backward-prediction"
    sides: Sides = "back"


class PlanningTask(_Base):
    """Find folds (a given number, no rotation) and at most two punches that give an unfolded hole pattern."""

    id = "mentalblackboard/planning-v1"
    name = "planning"

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any]) -> Draw:
        fold_counts = tuple(int(f) for f in knobs.get("folds") or _PLANNING_GROUPS)
        if not fold_counts or any(f not in _PLANNING_GROUPS for f in fold_counts):
            raise KnobError(f"planning folds must be chosen from 1..4, got {list(fold_counts)}")
        max_holes = int(knobs.get("max_holes", 2))
        if max_holes not in (1, 2):
            raise KnobError(f"max_holes must be 1 or 2, got {max_holes}")
        num_folds = fold_counts[int(rng.integers(len(fold_counts)))]
        actions = sample_actions(rng, num_folds, "front")
        folded = solve(actions, []).folded
        holes = sample_holes(rng, folded, rotation=False, count=int(rng.integers(1, max_holes + 1)))
        solution = solve(actions, holes)
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
        metadata = {"group": num_folds, **_describe(actions)}
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
        return render_prompt(
            "planning",
            modality=modality,
            num_folds=item.inputs["num_folds"],
            max_holes=item.inputs["max_holes"],
            grid=item.inputs.get("text", ""),
            result=images.get("result", ""),
            reference=images.get("reference", ""),
            holes=item.inputs["result_holes"],
        )

    def parse(self, item: Item, text: str) -> PlanningAnswer | ParseFailure:  # type: ignore[override]
        """Read a reply strictly as folds and punches."""
        return parse_planning(text)

    def score(self, item: Item, answer: Any) -> Scores:
        """Replay the plan in the engine and score the holes it makes."""
        return score_planning(item.inputs, item.target, answer)

    def oracle(self, item: Item) -> PlanningAnswer:  # type: ignore[override]
        """The plan the item was made from."""
        return baselines.oracle_planning(item)

    def random_answer(self, item: Item, rng: np.random.Generator) -> PlanningAnswer:  # type: ignore[override]
        """Random folds and punches of the right number."""
        return baselines.random_planning(item, rng)

    def answer_holes(self, item: Item, answer: dict[str, Any]) -> list[Hole] | None:
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
    rng: np.random.Generator, holes: tuple[Hole, ...], folded: Paper, rotation: bool
) -> tuple[str, tuple[Hole, ...]]:
    """Change exactly one attribute of one hole; returns the attribute and the new holes."""
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
    attribute = _ATTRIBUTES[int(rng.integers(4))]
    candidates = [o for o in options if o[0] == attribute] or options
    attribute, index = candidates[int(rng.integers(len(candidates)))]
    hole = holes[index]
    if attribute == "shape":
        others = [s for s in shapes if s is not hole.shape]
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


class GeneralizationTask(_Base):
    """A solved reference case and a target case with the same folds and one hole attribute changed."""

    id = "mentalblackboard/generalization-v1"
    name = "generalization"
    default_groups: tuple[int, ...] = (1, 2, 3, 4)

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any]) -> Draw:
        groups = _groups_knob(knobs, self.default_groups)
        group = groups[int(rng.integers(len(groups)))]
        actions = sample_actions(rng, group, knobs.get("sides", "front"))
        folded = solve(actions, []).folded
        rotation = any(isinstance(a, Rotation) for a in actions)
        reference_holes = sample_holes(rng, folded, rotation=rotation)
        attribute, target_holes = _change_one(rng, reference_holes, folded, rotation)
        reference = solve(actions, reference_holes)
        solution = solve(actions, target_holes)
        inputs = {
            "actions": [a.code for a in actions],
            "reference": {"initial_holes": [hole_to_dict(h) for h in reference_holes], **_answer(reference)},
            "initial_holes": [hole_to_dict(h) for h in target_holes],
            "changed": attribute,
        }
        metadata = {"group": group, "changed": attribute, **_describe(actions)}
        return inputs, _answer(solution), metadata

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        inputs = dict(item.inputs)
        if "text" in modalities:
            reference = solve(
                parse_actions(inputs["actions"]), [hole_from_dict(h) for h in inputs["reference"]["initial_holes"]]
            )
            result = grid_text(Paper.flat(), reference.result_holes)
            inputs["text"] = {
                "reference": encode_prompt_block(reference) + f"\n\nUnfolded result:\n{result}",
                "target": encode_prompt_block(_solution_of(inputs)),
            }
        if "image" in modalities:
            count = len(inputs["actions"]) + 2
            inputs["images"] = {
                "size": size,
                "reference": REFERENCE_SHEET,
                "reference_steps": [f"images/{item.id}/reference_step_{i:02d}.png" for i in range(count)],
                "reference_result": f"images/{item.id}/reference_result.png",
                "steps": [f"images/{item.id}/step_{i:02d}.png" for i in range(count)],
            }
        return item.model_copy(update={"inputs": inputs})

    def render(self, item: Item, modality: str) -> Prompt:
        """The generalization prompt in ``modality`` (``text`` or ``image``)."""
        self._check_modality(item, modality)
        images = item.inputs.get("images", {})
        texts = item.inputs.get("text", {})
        reference = item.inputs["reference"]
        return render_prompt(
            "generalization",
            modality=modality,
            num_folds=item.metadata["num_folds"],
            num_rotations=item.metadata["num_rotations"],
            reference_text=texts.get("reference", ""),
            target_text=texts.get("target", ""),
            reference_sheet=images.get("reference", ""),
            reference_steps=images.get("reference_steps", []),
            reference_result=images.get("reference_result", ""),
            steps=images.get("steps", []),
            reference_holes=reference["initial_holes"],
            reference_results=reference["result_holes"],
            reference_unfolding=reference["unfolding"],
            holes=item.inputs["initial_holes"],
        )

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        from foldbench.pft.encoders import image

        actions = parse_actions(item.inputs["actions"])
        reference = solve(actions, [hole_from_dict(h) for h in item.inputs["reference"]["initial_holes"]])
        for path, picture in zip(images["reference_steps"], image.render_steps(reference, size=size), strict=True):
            yield path, image.png_bytes(picture)
        yield images["reference_result"], image.png_bytes(image.render_result(reference.result_holes, size=size))
        target = _solution_of(item.inputs)
        for path, picture in zip(images["steps"], image.render_steps(target, size=size), strict=True):
            yield path, image.png_bytes(picture)
