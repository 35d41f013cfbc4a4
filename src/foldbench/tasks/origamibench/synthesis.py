"""OrigamiBench's full-step interactive task: fold a blank square toward a target in at most 10 or 25 actions.

Targets (``source``): seeded random simple folds of the square (their own action list is known: the oracle replays
it), the built-in fold sequences, a folder of crease-pattern files, or ``paper``: the 342 of the paper's
366 models drawn on a square, shipped with foldbench (:func:`~foldbench.crease.io.collection.paper_models`,
Table 3's names, categories and tiers). ``preset=paper`` selects them (:data:`PRESETS`).

The conversation is one request per step. By default it follows the paper's protocol
(:mod:`foldbench.tasks.origamibench.synthesis_protocol`): its prompt with a worked few-shot example, three
pictures (target, current folded sheet, current crease pattern) and, after each reply, only whether the action
could be folded. ``prompt=foldbench`` shows foldbench's prompt (four pictures and the JSON state) and
``feedback=detailed`` the reason for a refusal. Every turn is stored by the harness; a resumed run replays the
stored replies through :meth:`SynthesisTask.step`, which rebuilds the episode exactly.

Scores: ``gs_raster`` (the headline: GS as the paper computes it, the raster IoU of the two folded forms drawn at
512 pixels in one frame), ``gs`` (exact IoU of the aligned folded silhouettes), ``ss_clip`` (the paper's SS:
cosine similarity of CLIP ViT-B/16 embeddings, only when the ``clip_weights`` knob names a checkpoint; empty
otherwise), ``ss_shape`` (an offline stand-in that measures shape, not meaning), QE, and whether the target was
reached. The episode lives in the task while the conversation
runs; :meth:`SynthesisTask.parse` attaches it to the final answer (so reports can replay it) and
:meth:`SynthesisTask.score` scores it.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
from PIL import Image
from pydantic import BaseModel, ConfigDict, Field

from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.errors import InvalidKnobError
from foldbench.messages import ImagePart, Part, TextPart
from foldbench.origami.actions import AddCrease, AddCreases, ParsedAction, SchemaRejection, parse_action
from foldbench.origami.episode import SynthesisEpisode
from foldbench.origami.pictures import crease_pattern_image, episode_window, folded_image, png_bytes
from foldbench.origami.policies import oracle_action, random_valid_action
from foldbench.origami.sheet import apply_action, blank_sheet
from foldbench.origami.similarity import ImageEmbedder, OpenClipEmbedder, ShapeDescriptorEmbedder, semantic_similarity
from foldbench.origami.targets import Target, random_simple_fold_target
from foldbench.tasks.base import Feedback, Item, Metric, ParseFailure, Plot, Prompt, Scores, TaskSpec
from foldbench.tasks.knobs import Knobs, Whole, apply_preset
from foldbench.tasks.origamibench.synthesis_protocol import (
    EXAMPLE_IMAGES,
    FeedbackMode,
    PromptMode,
    example_pictures,
    feedback_parts,
    paper_pictures,
    paper_prompt_parts,
    plain_state,
)
from foldbench.tasks.origamibench.synthesis_targets import source_targets
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["PRESETS", "SynthesisAnswer", "SynthesisKnobs", "SynthesisTask"]

ENGINE_VERSION = "origamibench-synthesis-2"
IMAGE_SIZE = 384
_GALLERY_FRAMES = 12


class SynthesisKnobs(Knobs):
    """Generator options of the synthesis task."""

    budget: Literal[10, 25] = 10
    """Steps per episode (the published budgets)."""
    min_folds: Whole = Field(1, ge=1, le=8)
    """Fewest simple folds in a target."""
    max_folds: Whole = Field(3, ge=1, le=8)
    """Most simple folds in a target."""
    grid: Whole = Field(8, ge=0, le=64)
    """Fold lines through multiples of 1/grid of the side (horizontal, vertical, diagonal); 0 for free lines."""
    source: str = "random"
    """Where targets come from: ``random`` (seeded random simple folds), ``builtin`` (the built-in fold sequences
    in order, with their names, categories and fold steps), ``paper`` (the 342 of the paper's 366 models drawn on a
    square, Easy first, with Table 3's names, categories and tiers) or a folder of crease-pattern files (tier and
    category from Table 3 where known). Pattern files have no fold steps, so the oracle cannot play them."""
    preset: Literal["paper"] | None = None
    """``paper``: the paper's composition, its models as targets (``source=paper``) with the paper's prompt
    and feedback; knobs given beside it win."""
    prompt: Literal["paper", "foldbench"] = "paper"
    """``paper``: the paper's prompt (a worked few-shot example, three pictures per turn); ``foldbench``: four
    pictures (with the back view) and the JSON state each turn. The text modality always uses ``foldbench``."""
    feedback: Literal["feasible", "detailed"] = "feasible"
    """What the model hears after an action: ``feasible`` (whether it could be folded, as the paper) or
    ``detailed`` (also why a refused action was refused: the check, the error class and code, the place)."""
    clip_weights: str | None = None
    """A checkpoint of CLIP ViT-B/16 fine-tuned on origami pictures (``scripts/finetune_clip_supcon.py`` is the
    paper's recipe; needs the ``clip`` extra). With it, ``ss_clip`` is the paper's SS; without, it stays empty and
    only the shape stand-in ``ss_shape`` is given."""


PRESETS: dict[str, dict[str, Any]] = {"paper": {"source": "paper", "prompt": "paper", "feedback": "feasible"}}
"""The knob values each preset sets (see :func:`~foldbench.tasks.knobs.apply_preset`)."""


class SynthesisAnswer(BaseModel):
    """A parsed final reply: its action, and the episode it ended (each step's action, whether it was kept, GS)."""

    model_config = ConfigDict(extra="forbid")

    action: dict[str, Any]
    episode: list[dict[str, Any]] = Field(default_factory=list)


Answer = AddCrease | AddCreases | SynthesisAnswer


def _target_of(item: Item) -> Target:
    fold = item.target["fold"]
    coords = np.asarray(fold["vertices_coords"], float)
    segments = coords[np.asarray(fold["edges_vertices"], int)]
    pattern = build_crease_pattern(segments, fold["edges_assignment"], source=item.id)
    actions = tuple(item.target["actions"]) if item.target.get("actions") else None
    return Target(item.target["name"], pattern, actions, item.metadata["category"], item.metadata["tier"],
                  float(item.target.get("precision", 0.0)), item.target.get("compile_timeout", 10.0))


def _png(image: Image.Image) -> bytes:
    return png_bytes(image)


class SynthesisTask(TaskBase):
    """Fold a blank square toward a target (see the module docstring)."""

    id: str = "origamibench/synthesis-v1"
    modalities: tuple[str, ...] = ("image", "text")
    knob_schema: type[Knobs] = SynthesisKnobs
    engine_version = ENGINE_VERSION

    def __init__(self) -> None:
        self._targets: dict[str, Target] = {}
        self._episodes: dict[str, SynthesisEpisode] = {}
        self._embedders: dict[str, ImageEmbedder] = {}
        self.spec = TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=(
                Metric("gs_raster", "mean"), Metric("gs", "mean"),
                Metric("ss_clip", "mean"), Metric("ss_shape", "mean"), Metric("qe", "mean"),
                Metric("solved"), Metric("parse_failure"),
            ),
            headline="gs_raster",
            breakdowns=("tier", "category", "budget", "folds"),
            plots=(Plot("GS, SS and QE by the target's number of folds", "folds", ("gs_raster", "ss_shape", "qe"),
                        "folds in the target", "synthesis_by_folds.png"),),
            gallery=self.gallery,
            max_turns=25,
        )

    # -- items -----------------------------------------------------------------------------------------------
    def generate(self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",),
                 knobs: Mapping[str, Any] | None = None, start: int = 0) -> Iterator[Item]:
        """Items ``start .. n-1``: targets of seeded random simple folds with their fold actions, or the targets of
        the ``source`` knob in order (item ``i`` is target ``i`` modulo their number)."""
        options = apply_preset(self.checked_knobs(knobs, modalities), self.id, PRESETS)
        if options.clip_weights is not None and not Path(options.clip_weights).is_file():
            raise InvalidKnobError(f"{self.id}: clip_weights {options.clip_weights!r} is not a file")
        weights = str(Path(options.clip_weights).resolve()) if options.clip_weights else None
        if options.min_folds > options.max_folds:
            raise InvalidKnobError(f"{self.id}: min_folds {options.min_folds} is above max_folds {options.max_folds}")
        targets = source_targets(self.id, options.source)
        for index in range(start, n):
            if targets is None:
                rng = np.random.default_rng([seed, index, 14])
                folds = int(rng.integers(options.min_folds, options.max_folds + 1))
                target = random_simple_fold_target(rng, folds, grid=options.grid or None,
                                                   name=f"synthesis-{index:05d}")
            else:
                target = targets[index % len(targets)]
            record = target.to_dict()
            images = {"target": f"images/synthesis-{index:05d}-target.png",
                      "front": "images/blank-front.png", "back": "images/blank-back.png",
                      "crease_pattern": "images/blank-crease-pattern.png"}
            if options.prompt == "paper":
                images |= {name: f"images/{name.replace('_', '-')}.png" for name in EXAMPLE_IMAGES}
            yield self.new_item(
                f"synthesis-{index:05d}", seed,
                inputs={"budget": options.budget, "prompt": options.prompt, "feedback": options.feedback,
                        "clip_weights": weights, "images": images},
                target={"name": record["name"], "fold": record["fold"], "actions": record["actions"],
                        "precision": record["precision"], "compile_timeout": record["compile_timeout"]},
                metadata={"tier": target.tier, "category": target.category, "budget": options.budget,
                          "folds": len(target.actions or ())},
            )

    def target(self, item: Item) -> Target:
        """The item's target (built once per item)."""
        if item.id not in self._targets:
            self._targets[item.id] = _target_of(item)
        return self._targets[item.id]

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The target picture and the blank square's pictures, in the episode's window."""
        episode = self._fresh_episode(item)
        pictures = episode.pictures()
        images = item.inputs["images"]
        yield images["target"], _png(pictures["target"])
        yield images["front"], _png(folded_image(blank_sheet().aligned, "front", IMAGE_SIZE, (-0.6, -0.6, 11.2),
                                                 square_outline=True))
        yield images["back"], _png(folded_image(blank_sheet().aligned, "back", IMAGE_SIZE, (-0.6, -0.6, 11.2),
                                                square_outline=True))
        yield images["crease_pattern"], _png(pictures["crease_pattern"])
        if _prompt_mode(item) == "paper":
            examples = example_pictures(IMAGE_SIZE)
            for name in EXAMPLE_IMAGES:
                yield images[name], examples[name]

    def _fresh_episode(self, item: Item) -> SynthesisEpisode:
        episode = SynthesisEpisode(budget=int(item.inputs["budget"]), image_size=IMAGE_SIZE)
        episode.begin(self.target(item))
        return episode

    # -- conversation ----------------------------------------------------------------------------------------
    def render(self, item: Item, modality: str) -> Prompt:
        """The instructions, the target and the blank square: the paper's prompt with its worked example
        (``prompt=paper``, pictures), or foldbench's with pictures for ``image`` and the JSON state."""
        if modality == "image" and _prompt_mode(item) == "paper":
            shown = dict(item.inputs["images"])
            shown |= {"current_folded": shown["front"], "current_pattern": shown["crease_pattern"]}
            paper_parts, version = paper_prompt_parts(shown)
            return Prompt(tuple(paper_parts), template_version=version)
        template = load_prompt("foldbench.origami", "synthesis.txt")
        episode = self._fresh_episode(item)
        text = template.render(images=modality == "image", budget=item.inputs["budget"])
        state = episode.state_json(None)
        parts: list[Part] = [TextPart(text)]
        if modality == "image":
            images = item.inputs["images"]
            parts += [ImagePart(images[name]) for name in ("target", "front", "back", "crease_pattern")]
        parts.append(TextPart("State:\n" + json.dumps(state, separators=(",", ":"))))
        return Prompt(tuple(parts), template_version=template.version or "")

    def step(self, item: Item, reply: str, turn: int) -> Feedback:
        """Apply reply ``turn`` to the item's episode (a new episode at turn 0) and show the next observation."""
        if turn == 0 or item.id not in self._episodes:
            self._episodes[item.id] = self._fresh_episode(item)
        episode = self._episodes[item.id]
        observation, _, terminated, truncated, info = episode.step(reply)
        feedback = info["feedback"] or {}
        done = bool(terminated or truncated)
        mode = _feedback_mode(item)
        if _prompt_mode(item) == "paper" and "current_front" in observation:
            return Feedback(tuple(feedback_parts(feedback, mode, episode.pictures())), done=done)
        if feedback.get("accepted"):
            verdict = "Your action was kept."
        elif mode == "detailed":
            verdict = f"Your action was refused ({feedback.get('code')}): {feedback.get('message')}"
        else:
            verdict = "Your action was refused: it could not be folded."
        parts: list[Part] = [TextPart(verdict)]
        if "current_front" in observation:
            pictures = episode.pictures()
            parts += [ImagePart(data=_png(pictures[name]))
                      for name in ("target", "current_front", "current_back", "crease_pattern")]
        state = observation["text"] if mode == "detailed" else plain_state(observation["text"])
        parts.append(TextPart("State:\n" + state))
        return Feedback(tuple(parts), done=done)

    def parse(self, item: Item, text: str) -> SynthesisAnswer | ParseFailure:
        """The reply read strictly as an action, with the item's episode so far attached."""
        if not text.strip():
            return ParseFailure("empty", "the reply is empty")
        parsed = parse_action(text)
        if isinstance(parsed, SchemaRejection):
            kind = {"E_ACTION_TOO_LONG": "too_long", "E_ACTION_NOT_JSON": "invalid_json"}.get(parsed.code, "schema")
            return ParseFailure(kind, parsed.message, text[:200])  # type: ignore[arg-type]
        episode = self._episodes.get(item.id)
        steps = [] if episode is None else [
            {"action": s.action if isinstance(s.action, dict) else _action_dict(s.action), "accepted": s.accepted,
             "gs": s.gs} for s in episode.history]
        return SynthesisAnswer(action=parsed.to_dict(), episode=steps)

    # -- scores ----------------------------------------------------------------------------------------------
    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """The episode's final metrics (the stored episode when the conversation ran; otherwise ``answer`` alone
        from the blank square; a parse failure without an episode scores 0 everywhere)."""
        episode = self._episodes.pop(item.id, None)
        failed = isinstance(answer, ParseFailure)
        clip = self._clip(item)
        ss_note = (f"SS: {clip.name} (the paper's CLIP set-up)" if clip is not None
                   else "SS: no CLIP weights given, so no semantic similarity; ss_shape is a shape stand-in")
        if episode is None:
            if failed:
                zeros = dict.fromkeys(("gs_raster", "gs", "ss_shape", "qe", "solved"), 0.0)
                return Scores({**zeros, "ss_clip": None if clip is None else 0.0, "parse_failure": 1.0},
                              {"steps": 0, "accepted": 0}, (ss_note,))
            episode = self._fresh_episode(item)
            assert isinstance(answer, BaseModel)
            action = answer.action if isinstance(answer, SynthesisAnswer) else answer.model_dump(mode="json")
            episode.step(action)
        metrics = episode.final_metrics()
        accepted = sum(s.accepted for s in episode.history)
        target_picture, result_picture = paper_pictures(self.target(item).aligned, episode.sheet.aligned)
        if metrics["gs"] >= 1.0:  # the same outline within the target's precision: drawn alike, not off by a pixel
            result_picture = target_picture
        values = {
            "gs_raster": metrics["gs_raster"], "gs": metrics["gs"],
            "ss_clip": None if clip is None else semantic_similarity(target_picture, result_picture, clip),
            "ss_shape": semantic_similarity(target_picture, result_picture, ShapeDescriptorEmbedder()),
            "qe": metrics["qe"], "solved": float(metrics["gs"] >= 1.0), "parse_failure": float(failed),
        }
        notes = (f"GS per step: {', '.join(f'{s.gs:.3f}' for s in episode.history)}", ss_note)
        return Scores(values, {"steps": len(episode.history), "accepted": accepted}, notes)

    def _clip(self, item: Item) -> ImageEmbedder | None:
        """The CLIP embedder of the item's ``clip_weights`` (built once per checkpoint), or None."""
        weights = item.inputs.get("clip_weights")
        if not weights:
            return None
        if weights not in self._embedders:
            self._embedders[weights] = OpenClipEmbedder(weights, model="ViT-B-16")
        return self._embedders[weights]

    # -- baselines -------------------------------------------------------------------------------------------
    def oracle(self, item: Item) -> AddCrease | AddCreases:
        """The target's next fold step (replaying its own action list turn by turn).

        Raises:
            InvalidKnobError: the item's target has no fold steps (it comes from a crease-pattern file).
        """
        if not self.target(item).actions:
            raise InvalidKnobError(f"{self.id}: item {item.id} (target {item.target['name']}) comes from a "
                                   "crease-pattern file without fold steps: no oracle; use source=random or builtin")
        episode = self._episodes.get(item.id)
        kept = 0 if episode is None else sum(s.accepted for s in episode.history)
        action = oracle_action(self.target(item), kept)
        model = AddCreases if action.get("action") == "add_creases" else AddCrease
        return model.model_validate(action)

    def random_answer(self, item: Item, rng: np.random.Generator) -> AddCrease:
        """A random lattice crease that the item's current sheet accepts
        (:func:`~foldbench.origami.policies.random_valid_action`)."""
        episode = self._episodes.get(item.id)
        return random_valid_action(episode.sheet if episode is not None else blank_sheet(), rng)

    # -- reports ---------------------------------------------------------------------------------------------
    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """The episode as a strip (target, then the folded paper after each kept step) and its GS per step."""
        target = self.target(item)
        episode = list((answer or {}).get("episode") or [])
        sheet, frames = blank_sheet(), []
        for step in episode:
            if step.get("accepted"):
                result = apply_action(sheet, step.get("action"))
                if result.accepted:
                    sheet = result.sheet
                    frames.append(sheet)
        window = episode_window(target.aligned, *(f.aligned for f in frames))
        size = 160
        pictures = [folded_image(target.aligned, "front", size, window, square_outline=True)]
        pictures += [folded_image(f.aligned, "front", size, window, square_outline=True)
                     for f in frames[-_GALLERY_FRAMES:]]
        pictures.append(crease_pattern_image(sheet.aligned, size))
        strip = Image.new("RGB", (size * len(pictures) + 4 * (len(pictures) - 1), size), "white")
        for index, picture in enumerate(pictures):
            strip.paste(picture, (index * (size + 4), 0))
        images = [("target, the paper after each kept step, final crease pattern", _png(strip))]
        if episode:
            images.append(("GS per step", _gs_plot([float(s.get("gs", 0.0)) for s in episode])))
        return images


def _prompt_mode(item: Item) -> PromptMode:
    """The item's prompt (datasets written before the paper protocol have foldbench's)."""
    return "paper" if item.inputs.get("prompt") == "paper" else "foldbench"


def _feedback_mode(item: Item) -> FeedbackMode:
    """The item's feedback (datasets written before the paper protocol have the detailed one)."""
    return "feasible" if item.inputs.get("feedback") == "feasible" else "detailed"


def _action_dict(action: Any) -> dict[str, Any]:
    parsed = parse_action(action)
    return parsed.to_dict() if isinstance(parsed, ParsedAction) else {"unparsed": str(action)[:200]}


def _gs_plot(values: list[float]) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(4, 2.2), dpi=80)
    axis.plot(range(1, len(values) + 1), values, marker="o")
    axis.set_xlabel("step")
    axis.set_ylabel("GS")
    axis.set_ylim(-0.02, 1.02)
    axis.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()

