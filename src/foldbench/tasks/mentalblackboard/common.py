"""What the MentalBlackboard tasks share: the task base class, knob checks, and item encodings."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from foldbench.errors import InvalidKnobError
from foldbench.pft import ENGINE_VERSION
from foldbench.pft.actions import Fold, Rotation, parse_actions
from foldbench.pft.encoders.text import encode_prompt_block
from foldbench.pft.enumeration import pattern_of
from foldbench.pft.grid import row_col_tri
from foldbench.pft.holes import Hole, Shape
from foldbench.pft.simulate import Solution, solve
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import Item, Metric, ParseFailure, Scores, TaskSpec
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.mentalblackboard import baselines
from foldbench.tasks.mentalblackboard.answers import PredictionAnswer, parse_prediction
from foldbench.tasks.mentalblackboard.knobs import PictureKnobs
from foldbench.tasks.mentalblackboard.measures import BREAKDOWNS, PREDICTION_METRICS, mentalblackboard_spec
from foldbench.tasks.mentalblackboard.preset import PAPER_SHAPES
from foldbench.tasks.mentalblackboard.sampling import hole_from_dict, hole_to_dict
from foldbench.tasks.mentalblackboard.scoring import score_prediction
from foldbench.tasks.task_base import TaskBase

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "REFERENCE_SHEET",
    "Draw",
    "MentalBlackboardTask",
    "answer_of",
    "describe",
    "groups_knob",
    "paper_holes",
    "picture_knobs",
    "shapes_of",
    "folding_inputs",
    "solution_of",
    "step_paths",
]

#: Where every dataset keeps the numbered location sheet.
REFERENCE_SHEET = "images/reference_sheet.png"


def groups_knob(knobs: Mapping[str, Any], default: tuple[int, ...]) -> tuple[int, ...]:
    """The configuration groups the (validated) knobs choose, or ``default``."""
    return tuple(knobs.get("groups") or default)


def picture_knobs(knobs: Mapping[str, Any]) -> tuple[int, int]:
    """The picture size and video frame rate the (validated) knobs choose."""
    return knobs.get("size", 512), knobs.get("fps", 24)


def step_paths(folder: str, stem: str, actions: list[str]) -> list[str]:
    """The file names of a configuration's step pictures: the flat sheet, one per action, and the punched paper.

    >>> step_paths("images/x", "step", ["H1-F"])
    ['images/x/step_00.png', 'images/x/step_01.png', 'images/x/step_02.png']
    """
    return [f"{folder}/{stem}_{index:02d}.png" for index in range(len(actions) + 2)]


def folding_inputs(
    inputs: dict[str, Any], folder: str, modalities: tuple[str, ...], size: int, fps: int
) -> dict[str, Any]:
    """``inputs`` with the encodings of its folding (``actions`` and ``initial_holes``) in ``modalities``: the text
    grids, the step pictures under ``images/<folder>``, the animation and key frames under ``videos/<folder>``."""
    inputs = dict(inputs)
    if "text" in modalities:
        inputs["text"] = encode_prompt_block(solution_of(inputs))
    if "image" in modalities:
        inputs["images"] = {
            "size": size,
            "reference": REFERENCE_SHEET,
            "steps": step_paths(f"images/{folder}", "step", inputs["actions"]),
        }
    if "video" in modalities or "frames" in modalities:
        inputs["video"] = {
            "size": size,
            "fps": fps,
            "reference": REFERENCE_SHEET,
            "video": f"videos/{folder}/folding.mp4",
            "frames": step_paths(f"videos/{folder}", "key", inputs["actions"]),
        }
    return inputs


@cache
def _reference_sheet_png(size: int) -> bytes:
    """The numbered location sheet as PNG bytes, encoded once per size (every item of a dataset shares it)."""
    from foldbench.pft.encoders import image

    return image.png_bytes(image.reference_sheet(size=size))


def describe(actions: tuple[Any, ...]) -> dict[str, Any]:
    folds = [a for a in actions if isinstance(a, Fold)]
    return {
        "pattern": pattern_of(actions),
        "num_folds": len(folds),
        "num_rotations": sum(isinstance(a, Rotation) for a in actions),
        "fold_families": "".join(sorted({f.type.family for f in folds})),
    }


Draw = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def paper_holes(holes: list[dict[str, Any]], modality: str) -> list[dict[str, Any]]:
    """Holes for a prompt worded as the paper's: the location as ``[row, column, tri]`` in text, else 1-32."""
    lines = []
    for hole in holes:
        row, column, tri = row_col_tri(int(hole["location"]) - 1)
        where = f"[{row}, {column}, {tri}]" if modality == "text" else str(hole["location"])
        lines.append({**hole, "where": where})
    return lines


def shapes_of(item: Item) -> tuple[Shape, ...]:
    """The shapes an item's holes are drawn from: the paper's six in its planning and generalization preset."""
    return PAPER_SHAPES if item.metadata.get("preset") == "paper" else tuple(Shape)


def answer_of(solution: Solution) -> dict[str, Any]:
    return {
        "unfolding": [f.code for f in solution.unfolding],
        "result_holes": [hole_to_dict(h) for h in solution.result_holes],
        "total_holes": len(solution.result_holes),
    }


class MentalBlackboardTask(TaskBase):
    """The protocol methods the four tasks share; each sets its id, name and the hooks _draw/_encode."""

    id = ""
    modalities: tuple[str, ...] = ("text", "image")
    name = ""
    engine_version = ENGINE_VERSION
    metrics: tuple[Metric, ...] = PREDICTION_METRICS
    breakdowns: tuple[str, ...] = BREAKDOWNS
    knob_schema: type[Knobs] = PictureKnobs

    @property
    def spec(self) -> TaskSpec:
        """Exact match as the headline, pooled partial and field accuracies, results by group and folds."""
        return mentalblackboard_spec(self.metrics, self.gallery, self.breakdowns)

    def generate(
        self,
        n: int,
        seed: int,
        *,
        modalities: tuple[str, ...] = ("text",),
        knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        knobs = self.checked_knobs(knobs, modalities).given()
        size, fps = picture_knobs(knobs)
        records = knobs.get("records")
        if records:  # the published records' reader, imported only to generate from them
            from foldbench.tasks.mentalblackboard.published import record_count, record_draw
        if records and n > (count := record_count(self.name, records)):
            raise InvalidKnobError(f"{self.id}: the records file makes {count} items, not {n}")
        for index in range(start, n):
            item_seed, rng = self.item_rng(seed, index)
            item_id = f"{self.name}-{index:05d}"
            if records:
                inputs, target, metadata = record_draw(self.name, records, index)
            else:
                inputs, target, metadata = self._draw(rng, knobs, index)
            if "prompt" in self.knob_schema.model_fields:
                inputs["prompt"] = knobs.get("prompt", "paper")
            if knobs.get("preset"):
                metadata["preset"] = knobs["preset"]
            metadata["index"] = index
            yield self._encode(self.new_item(item_id, item_seed, inputs, target, metadata), modalities, size, fps)

    def _draw(self, rng: np.random.Generator, knobs: dict[str, Any], index: int | None = None) -> Draw:
        """Inputs, target and metadata of one item; ``index`` places it in the paper's composition (preset)."""
        raise NotImplementedError

    def _encode(self, item: Item, modalities: tuple[str, ...], size: int, fps: int) -> Item:
        raise NotImplementedError

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The files of an item's picture modalities: 2D step images, 3D animation and key frames."""
        images = item.inputs.get("images")
        video = item.inputs.get("video")
        if not images and not video:
            return
        size = int((images or video or {}).get("size", 512))
        yield REFERENCE_SHEET, _reference_sheet_png(size)
        if images:
            yield from self._image_assets(item, images, size)
        if video:
            yield from video_assets(solution_of(item.inputs), video, item.target.get("video"))

    def _image_assets(self, item: Item, images: dict[str, Any], size: int) -> Iterator[tuple[str, bytes]]:
        raise NotImplementedError

    def _check_modality(self, item: Item, modality: str) -> None:
        key = {"image": "images", "frames": "video"}.get(modality, modality)
        if modality not in self.modalities or key not in item.inputs:
            raise InvalidKnobError(f"item {item.id} was generated without the {modality!r} modality")

    def parse(self, item: Item, text: str) -> PredictionAnswer | ParseFailure:
        """Read a reply strictly (see :mod:`foldbench.tasks.mentalblackboard.answers`)."""
        return parse_prediction(text)

    def score(self, item: Item, answer: Any) -> Scores:
        """MentalBlackboard's metrics for one answer (see :mod:`foldbench.tasks.mentalblackboard.scoring`),
        directions compared (the picture modalities' rule)."""
        return score_prediction(item.target, answer)

    def score_in_modality(self, item: Item, answer: Any, modality: str) -> Scores:
        """The metrics under the rule of the modality the item was asked in: the text grids carry no direction,
        so in ``text`` direction takes no part in matching holes, as the benchmark's text scoring has it."""
        return score_prediction(item.target, answer, directed=modality != "text")

    def human_form(self, item: Item) -> HumanForm:
        """People click the holes on the unfolded sheet and list the unfolding steps."""
        return HumanForm.holes()

    def oracle(self, item: Item) -> PredictionAnswer:
        """The engine's answer."""
        return baselines.oracle_prediction(item)

    def random_answer(self, item: Item, rng: np.random.Generator) -> PredictionAnswer:
        """A random, well-formed answer."""
        return baselines.random_prediction(item, rng)

    def answer_holes(self, item: Item, answer: Mapping[str, Any]) -> list[Hole] | None:
        """The holes on the unfolded sheet that a stored answer claims (None if it makes none)."""
        return PredictionAnswer.model_validate(answer).holes()

    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """Pictures for a report: the model's answer drawn on the sheet beside the ground truth, and the model's
        unfolding replayed on the engine's folded paper as a frame strip (with the ground truth's beside it)."""
        from foldbench.pft.encoders import image
        from foldbench.pft.encoders.answer_strip import predicted_unfolding_strip

        pictures = []
        holes = self.answer_holes(item, answer) if answer is not None else None
        if holes is not None:
            pictures.append(("model's answer", image.png_bytes(image.render_result(holes, size=256))))
        truth = [hole_from_dict(h) for h in item.target["result_holes"]]
        pictures.append(("ground truth", image.png_bytes(image.render_result(truth, size=256))))
        if answer is not None and holes is not None and "unfolding" in answer and "actions" in item.inputs:
            solution = solution_of(item.inputs)
            strip, caption = predicted_unfolding_strip(solution, answer["unfolding"], holes)
            pictures.append((caption, image.png_bytes(strip)))
            correct, _ = predicted_unfolding_strip(solution, [f.code for f in solution.unfolding], truth)
            pictures.append(("ground-truth unfolding", image.png_bytes(correct)))
        if "video" in item.inputs:
            from foldbench.pft.encoders.video_strip import unfolding_strip

            strip = unfolding_strip(solution_of(item.inputs), frames=6, size=160)
            pictures.append(("ground-truth unfolding (3D)", image.png_bytes(strip)))
        return pictures


def video_assets(solution: Solution, video: dict[str, Any], unfolding_path: str | None) -> Iterator[tuple[str, bytes]]:
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


def solution_of(inputs: Mapping[str, Any], holes_key: str = "initial_holes") -> Solution:
    return solve(parse_actions(inputs["actions"]), [hole_from_dict(h) for h in inputs[holes_key]])
