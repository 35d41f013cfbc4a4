"""OrigamiSpace's crease-pattern code generation: from the compiled flat pattern (the folded state the compiler
computes, :mod:`foldbench.origami.flat_pattern`) and the folded-shape pictures, front and back, write
the crease pattern as FOLD JSON; the crease pattern itself is never shown. Scored by compiling it and comparing
it with the reference (:mod:`foldbench.crease.score.similarity`).

Two tasks share this module: ``origamispace/codegen-v1`` (one answer, in context) and
``origamispace/codegen-feedback-v1`` (environmental learning: up to ten answers, each followed by the compiler's
error or the scores; the last answer is scored, and every round's scores are kept in the turn feedback).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from pydantic import BaseModel

from foldbench.crease import build_crease_pattern, pattern_from_fold, random_simple_folds
from foldbench.crease.io.collection import paper_models
from foldbench.crease.render import folded_state_png
from foldbench.crease.score.similarity import (
    DIMENSION_WEIGHTS,
    SUBSCORE_NAMES,
    ReferenceFold,
    SimilarityScore,
    prepare_reference,
    score_generated,
)
from foldbench.errors import InvalidKnobError
from foldbench.origami.flat_pattern import flat_pattern_png
from foldbench.origami.fold_reply import FoldAnswer, parse_fold_reply
from foldbench.origami.instances import (
    DIFFICULTY_FOLDS,
    Instance,
    difficulty_of,
    folder_instance,
    pattern_files,
    pleat_instance,
    png_bytes,
    simple_fold_instance,
)
from foldbench.tasks.base import (
    Feedback,
    ImagePart,
    Item,
    Metric,
    ParseFailure,
    Plot,
    Prompt,
    RoundPlot,
    Scores,
    TaskSpec,
    TextPart,
)
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.origamispace.knobs import CodegenKnobs
from foldbench.tasks.origamispace.named_patterns import display_name
from foldbench.tasks.origamispace.rounds import read_round_scores
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["ENGINE_VERSION", "ERROR_CLASSES", "CodegenFeedbackTask", "CodegenTask", "feedback_text"]

ENGINE_VERSION = "origamispace-codegen-3"
"""The version of the instance generator and the similarity scores."""
DEFAULT_FOLDS: tuple[int, ...] = (3, 4, 5, 6)
ERROR_CLASSES: tuple[str, ...] = ("CSE", "GIF", "PSI", "AFS", "PRECISION")
PAPER_TIERS: tuple[str, ...] = ("Easy", "Medium", "Hard")
"""The difficulty levels of the paper preset, taken in turn by item index (Table 3's tiers)."""
PAPER_MAX_FACES = 1000
"""The most faces a model of the paper preset may have unless ``max_faces`` is given."""
IMAGE_SIZE = 512
PICTURES: tuple[str, ...] = ("flat_pattern", "folded", "folded_back")
"""The pictures shown, in order (never the crease pattern)."""
FEEDBACK_ROUNDS = 10
SOLVED = 0.999
"""A feedback conversation ends early once a passing answer's headline score is at least this much."""


@lru_cache(maxsize=64)
def _reference(fold_json: str) -> ReferenceFold:
    return prepare_reference(pattern_from_fold(json.loads(fold_json), "reference"))


def _reference_of(item: Item) -> ReferenceFold:
    return _reference(json.dumps(item.target["fold"], sort_keys=True))


TABLE2 = "Table 2 (compiled answers)"
"""The group of the metrics in the layout of OrigamiSpace's Table 2."""


def _metrics() -> tuple[Metric, ...]:
    return (
        Metric("score", "mean"),
        Metric("paper_total", "mean"),
        *(Metric(name, "mean") for name in DIMENSION_WEIGHTS),
        Metric("creases", "mean"),
        Metric("pass_rate"),
        Metric("parse_failure"),
        # Table 2: the compile pass rate, each error class's rate, and the paper's scores over compiled answers
        Metric("compiled", group=TABLE2, label="compile pass rate"),
        *(Metric(f"error_{name.lower()}", group=TABLE2, label=f"{name} rate") for name in ERROR_CLASSES),
        *(Metric(f"compiled_{name}", "mean", group=TABLE2, label=name.replace("_", " "))
          for name in DIMENSION_WEIGHTS),
        Metric("compiled_paper_total", "mean", group=TABLE2, label="total"),
        *(Metric(name, "mean", group="sub-score") for name in SUBSCORE_NAMES),
    )


def score_values(result: SimilarityScore, parse_failed: bool = False) -> Scores:
    """The per-item scores of a similarity result: the headline ``score``, the paper's total and dimensions
    (with appendix D's fallbacks), the crease agreement, the verdict, and the paper's scores again as
    ``compiled_*``, present only when the answer compiled (Table 2 averages them over compiled answers)."""
    values: dict[str, float | None] = {"score": result.score, "paper_total": result.total, **result.dimensions,
                                       "creases": result.creases, "pass_rate": float(result.passed),
                                       "compiled": float(result.compiled)}
    for name in ERROR_CLASSES:
        values[f"error_{name.lower()}"] = float(result.error_class == name)
    for name in DIMENSION_WEIGHTS:
        values[f"compiled_{name}"] = result.dimensions[name] if result.compiled else None
    values["compiled_paper_total"] = result.total if result.compiled else None
    values["parse_failure"] = float(parse_failed)
    values.update(result.subscores)
    notes = () if result.error is None else (f"{result.error['class']} {result.error['code']}",)
    return Scores(values, notes=notes)


def item_pictures(item: Item) -> dict[str, Image.Image]:
    """The pictures an item shows, by asset path: the compiled flat pattern, the folded shape front and back."""
    compiled = _reference_of(item).compiled
    images = item.inputs["images"]
    drawn = {"flat_pattern": flat_pattern_png(compiled, IMAGE_SIZE),
             "folded": folded_state_png(compiled, 0, "front", IMAGE_SIZE),
             "folded_back": folded_state_png(compiled, 0, "back", IMAGE_SIZE)}
    return {images[name]: drawn[name] for name in PICTURES}


class CodegenTask(TaskBase):
    """Write the crease pattern of a pictured model as FOLD JSON (one answer)."""

    id = "origamispace/codegen-v1"
    name = "codegen"
    template = "codegen.txt"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = CodegenKnobs
    engine_version = ENGINE_VERSION
    item_salt = (0x0C0DE,)
    max_turns = 1

    @property
    def spec(self) -> TaskSpec:
        """Headline: foldbench's score; the paper's total and dimensions, the crease agreement, the pass rate,
        Table 2's layout (compile pass rate, error classes, dimensions over compiled answers) and sub-scores."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=_metrics(),
            headline="score",
            breakdowns=("difficulty", "fold_count"),
            plots=(Plot("Code-generation score by folding steps", "fold_count",
                        ("score", "paper_total", *DIMENSION_WEIGHTS, "pass_rate"), "folding steps",
                        "codegen_by_steps.png"),),
            max_turns=self.max_turns,
        )

    # ---- generation --------------------------------------------------------------------------------------
    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        """Items ``start .. n-1``: item ``i`` depends only on ``(seed, i)``, the knobs (and the folder's files)."""
        config = self.checked_knobs(knobs, modalities)
        if config.preset == "paper":
            clash = sorted({"folds", "folder", "difficulty"} & config.model_fields_set)
            if clash:
                raise InvalidKnobError(f"{self.id}: knob {clash[0]!r} is not for the paper preset")
            max_faces = config.max_faces if "max_faces" in config.model_fields_set else PAPER_MAX_FACES
            return (self._paper_item(seed, index, max_faces) for index in range(start, n))
        files: list[Path] = []
        if config.folder is not None:
            if not Path(config.folder).is_dir():
                raise InvalidKnobError(f"{self.id}: knob 'folder': {config.folder} is not a folder")
            files = pattern_files(config.folder)
            if not files:
                raise InvalidKnobError(f"{self.id}: knob 'folder': no crease-pattern files in {config.folder}")
            if config.difficulty != "easy":
                raise InvalidKnobError(f"{self.id}: knob 'difficulty' is for generated models, not with 'folder'")
        hardest = {"easy": 0, "medium": DIFFICULTY_FOLDS["medium"][1]}.get(config.difficulty,
                                                                            DIFFICULTY_FOLDS["hard"][1])
        if 2 * hardest > config.max_faces:
            raise InvalidKnobError(f"{self.id}: knob 'max_faces': {config.difficulty} models need up to "
                                   f"{2 * hardest} faces, got {config.max_faces}")
        folds = config.folds or DEFAULT_FOLDS
        return (self._item(seed, index, folds, files, config.max_faces, config.difficulty)
                for index in range(start, n))

    def _item(self, seed: int, index: int, folds: tuple[int, ...], files: list[Path], max_faces: int,
              difficulty: str = "easy") -> Item:
        item_seed, rng = self.item_rng(seed, index)
        level = ("easy", "medium", "hard")[index % 3] if difficulty == "mixed" else difficulty
        if files:
            instance = self._folder_instance(rng, files, max_faces)
        elif level == "easy":
            instance = simple_fold_instance(rng, folds[index % len(folds)], max_faces)
        else:
            low, high = DIFFICULTY_FOLDS[level]
            instance = pleat_instance(rng, int(rng.integers(low, high + 1)), max_faces)
        item_id = f"{self.name}-{index:05d}"
        return self.new_item(
            item_id, item_seed,
            inputs={"model_name": instance.name,
                    "images": {"flat_pattern": f"images/{item_id}/flat_pattern.png",
                               "folded": f"images/{item_id}/folded.png",
                               "folded_back": f"images/{item_id}/folded_back.png"}},
            target={"fold": instance.fold_document(), "states": instance.compiled.state_count},
            metadata={"fold_count": instance.fold_count, "difficulty": difficulty_of(instance.fold_count),
                      "faces": instance.pattern.face_count, "source": instance.source},
        )  # fmt: skip

    def _paper_item(self, seed: int, index: int, max_faces: int) -> Item:
        """Item ``index`` of the paper preset: a model of tier ``PAPER_TIERS[index % 3]``, the ``index // 3``-th
        of that tier in a seeded order (one that does not compile within the budget is replaced from the far end
        of the order)."""
        tier = PAPER_TIERS[index % len(PAPER_TIERS)]
        entries = [entry for entry in paper_models().by_tier(tier)  # faces by Euler's formula, before compiling
                   if entry.name and entry.category and entry.edges - entry.vertices + 1 <= max_faces]
        order = np.random.default_rng(np.random.SeedSequence([seed, PAPER_TIERS.index(tier), 0x7AB3])
                                      ).permutation(len(entries))
        first = index // len(PAPER_TIERS) % len(entries)
        # a model that does not compile is replaced from the far end of the order (the k-th item of the tier from
        # the k-th last model down), which the next items do not reach before they have used most of the tier
        last = len(entries) - 1 - first
        fallbacks = (*range(last, -1, -1), *range(len(entries) - 1, last, -1))
        for position in (first, *(p for p in fallbacks if p != first)):
            entry = entries[int(order[position])]
            instance = folder_instance(entry.path, max_faces)
            if instance is not None:
                break
        else:
            raise InvalidKnobError(f"{self.id}: no {tier} model compiles with at most {max_faces} faces")
        item_seed = self.item_rng(seed, index)[0]
        item_id = f"{self.name}-{index:05d}"
        return self.new_item(
            item_id, item_seed,
            inputs={"model_name": display_name(str(entry.name)),
                    "images": {name: f"images/{item_id}/{name}.png" for name in PICTURES}},
            target={"fold": instance.fold_document(), "states": instance.compiled.state_count},
            metadata={"fold_count": None, "difficulty": tier.lower(), "category": entry.category,
                      "faces": instance.pattern.face_count, "source": entry.file, "collection": "paper"},
        )  # fmt: skip

    def _folder_instance(self, rng: np.random.Generator, files: list[Path], max_faces: int) -> Instance:
        for position in rng.permutation(len(files)):
            instance = folder_instance(files[int(position)], max_faces)
            if instance is not None:
                return instance
        raise InvalidKnobError(f"{self.id}: no file in the folder compiles with at most {max_faces} faces")

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The compiled flat pattern and the folded shape seen from the front and from the back."""
        for path, image in item_pictures(item).items():
            yield path, png_bytes(image)

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The three pictures and the instructions."""
        self.check_modality(modality)
        prompt = load_prompt("foldbench.tasks.origamispace", self.template)
        text = prompt.render(name=item.inputs["model_name"], rounds=FEEDBACK_ROUNDS).strip()
        images = item.inputs["images"]
        return Prompt((*(ImagePart(images[name]) for name in PICTURES), TextPart(text)),
                      template_version=prompt.version or "")

    def parse(self, item: Item, text: str) -> FoldAnswer | ParseFailure:
        """The FOLD object of the reply (see :mod:`foldbench.origami.fold_reply`)."""
        return parse_fold_reply(text)

    def evaluate(self, item: Item, answer: BaseModel | ParseFailure) -> SimilarityScore:
        """The verdict and similarity of an answer (a parse failure is a syntax verdict, every score 0)."""
        if isinstance(answer, ParseFailure):
            return score_generated(None, _reference_of(item))
        if not isinstance(answer, FoldAnswer):
            raise TypeError(f"expected a FoldAnswer, got {type(answer).__name__}")
        return score_generated(answer.document(), _reference_of(item))

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """foldbench's score (headline), the paper's total and dimensions, the verdict and every sub-score."""
        return score_values(self.evaluate(item, answer), isinstance(answer, ParseFailure))

    def oracle(self, item: Item) -> FoldAnswer:
        """The reference pattern itself."""
        return FoldAnswer.model_validate(item.target["fold"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> FoldAnswer:
        """A random pattern of the item's kind with as many steps: simple folds (4 steps for a folder's file), or
        a pleated model for a medium or hard item."""
        steps = item.metadata.get("fold_count") or 4
        if item.metadata.get("source") == "pleats":
            return FoldAnswer.model_validate(pleat_instance(rng, int(steps), 10 * int(steps)).fold_document())
        simple = random_simple_folds(rng, int(steps))
        fields = build_crease_pattern(simple.segments, "".join(simple.assignments)).to_fold_fields()
        del fields["edges_foldAngle"]
        return FoldAnswer.model_validate(fields)


def feedback_text(result: SimilarityScore, turn: int) -> str:
    """What the compiler says about one answer (the first line records the round's scores)."""
    scores = {"round": turn + 1, "score": round(result.score, 4), "paper_total": round(result.total, 4),
              **{name: round(value, 4) for name, value in result.dimensions.items()},
              "error": None if result.error is None else result.error["class"]}
    lines = [f"round scores: {json.dumps(scores)}"]
    if result.error is not None:
        lines.append(f"Compiler: {result.error['class']} {result.error['code']}: {result.error['message']}")
    if result.error is None or result.error["class"] == "AFS":
        lines.append("Your pattern folds flat. Similarity to the original model: "
                     + ", ".join(f"{name.replace('_', ' ')} {value:.3f}" for name, value in result.dimensions.items())
                     + f"; the paper's total {result.total:.3f}; overall score {result.score:.3f}.")
    lines.append("Send an improved crease pattern as a FOLD JSON object.")
    return "\n".join(lines)


class CodegenFeedbackTask(CodegenTask):
    """Environmental learning: up to ten answers, each followed by the compiler's verdict and the scores."""

    id = "origamispace/codegen-feedback-v1"
    name = "codegen-feedback"
    template = "codegen-feedback.txt"
    max_turns = FEEDBACK_ROUNDS

    @property
    def spec(self) -> TaskSpec:
        """As the one-answer task's, with the scores per feedback round (OrigamiSpace's figure 3)."""
        per_round = RoundPlot("Score per feedback round", ("score", "paper_total", "pass_rate", *DIMENSION_WEIGHTS),
                              read_round_scores, "codegen_by_round.png", "feedback round")
        return dataclasses.replace(super().spec, round_plots=(per_round,))

    def step(self, item: Item, reply: str, turn: int) -> Feedback:
        """The compiler's verdict and scores on answer ``turn``; done once an answer compiles and matches."""
        answer = self.parse(item, reply)
        if isinstance(answer, ParseFailure):
            record = {"round": turn + 1, "score": 0.0, "paper_total": 0.0, "error": "CSE"}
            return Feedback((TextPart(f"round scores: {json.dumps(record)}"
                                      f"\nNo crease pattern found in your reply ({answer.message}). Reply with a FOLD "
                                      "JSON object."),))
        result = self.evaluate(item, answer)
        return Feedback((TextPart(feedback_text(result, turn)),), done=result.passed and result.score >= SOLVED)
