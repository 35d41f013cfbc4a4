"""Foldability questions (beyond OrigamiSpace): four crease patterns, exactly one of which cannot fold flat (or,
in the second variant, exactly one of which can). The compiler decides every option and names the reason (error
class and where); the patterns that fail are near-misses of patterns that fold (one crease's mountain/valley
assignment flipped, or one crease vertex moved), so the answer cannot be read from the shape of the pattern.

Every option's verdict is stable (:mod:`foldbench.tasks.origamispace.stability`): no two features of a pattern,
flat or folded, lie closer than :data:`~foldbench.tasks.origamispace.stability.FEATURE_MARGIN` (a thousandth of
the paper) unless they coincide, no vertex nearly meets Kawasaki, and every tolerance level the compiler
considers sound gives the same verdict; a draw that fails is drawn again (version 1 kept options resting on
folded gaps of 5e-5).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

import numpy as np
from PIL import Image, ImageDraw
from pydantic import BaseModel

from foldbench.crease import build_crease_pattern, pattern_from_fold, random_simple_folds
from foldbench.crease.graph.local_checks import vertices_creases
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.io.generated import compile_generated
from foldbench.crease.render import crease_pattern_png
from foldbench.errors import InvalidKnobError
from foldbench.origami.instances import png_bytes
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import (
    ImagePart,
    Item,
    Metric,
    ParseFailure,
    Prompt,
    Scores,
    TaskSpec,
    TextPart,
)
from foldbench.tasks.choice import (
    LETTERS,
    Choice,
    answer_slot,
    parse_choice,
    random_choice,
    score_choice,
)
from foldbench.tasks.choice_fields import answer_field, option_pictures, option_records, options_field, picture_fields
from foldbench.tasks.knobs import CommaList, Knobs, Whole
from foldbench.tasks.origamispace.stability import option_stability
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["ENGINE_VERSION", "VARIANTS", "FoldabilityKnobs", "FoldabilityTask", "near_miss"]

ENGINE_VERSION = "origamispace-foldability-2"
VARIANTS: tuple[str, ...] = ("one-unfoldable", "one-foldable")
OPTION_SIZE = 256
MAX_DRAWS = 400
MOVE_DISTANCE = (0.03, 0.08)
"""How far (paper size 1) a moved crease vertex goes."""

Variant = Literal["one-unfoldable", "one-foldable"]


class FoldabilityKnobs(Knobs):
    """Knobs of the foldability questions."""

    variants: CommaList[Variant] | None = None
    """Variants taken in turn by item index: ``one-unfoldable`` (which pattern cannot fold flat?) and
    ``one-foldable`` (which pattern can?); default both."""
    folds: CommaList[Whole] | None = None
    """Simple folding steps of the patterns (one count per item, drawn from these); default 2, 3, 4."""


def _document(pattern: Any) -> dict[str, Any]:
    fields = pattern.to_fold_fields()
    del fields["edges_foldAngle"]
    del fields["faces_vertices"]
    return fields


def near_miss(document: dict[str, Any], rng: np.random.Generator,
              pattern: CreasePattern | None = None) -> dict[str, Any] | None:
    """A copy of a FOLD pattern with one crease's assignment flipped or one interior crease vertex moved (None
    when the pattern has nothing to change); ``pattern`` is the document's crease pattern when the caller has
    built it already."""
    pattern = pattern_from_fold(document) if pattern is None else pattern
    creases = [e for e, letter in enumerate(document["edges_assignment"]) if letter in "MV"]
    neighbours, on_boundary = vertices_creases(pattern)
    movable = [v for v, edges in enumerate(neighbours) if edges and not on_boundary[v]]
    if not creases:
        return None
    changed = {**document, "edges_assignment": list(document["edges_assignment"]),
               "vertices_coords": [list(p) for p in document["vertices_coords"]]}
    if movable and rng.random() < 0.5:
        vertex = movable[int(rng.integers(len(movable)))]
        angle = rng.uniform(0, 2 * np.pi)
        distance = rng.uniform(*MOVE_DISTANCE)
        x, y = changed["vertices_coords"][vertex]
        changed["vertices_coords"][vertex] = [float(np.clip(x + distance * np.cos(angle), 0.01, 0.99)),
                                              float(np.clip(y + distance * np.sin(angle), 0.01, 0.99))]
    else:
        edge = creases[int(rng.integers(len(creases)))]
        changed["edges_assignment"][edge] = "M" if changed["edges_assignment"][edge] == "V" else "V"
    return changed


def _options_picture(pictures: list[Image.Image]) -> Image.Image:
    gap, label = 16, 30
    width = len(pictures) * (OPTION_SIZE + gap) + gap
    image = Image.new("RGB", (width, OPTION_SIZE + label + 2 * gap), "white")
    draw = ImageDraw.Draw(image)
    for position, picture in enumerate(pictures):
        x = gap + position * (OPTION_SIZE + gap)
        image.paste(picture, (x, gap))
        draw.text((x + OPTION_SIZE // 2 - 4, OPTION_SIZE + gap + 8), LETTERS[position], fill="black")
    return image


class FoldabilityTask(TaskBase):
    """Which of four crease patterns is the odd one out in foldability?"""

    id = "origamispace/foldability-v2"
    name = "foldability"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = FoldabilityKnobs
    engine_version = ENGINE_VERSION
    item_salt = (0xF01D,)

    @property
    def spec(self) -> TaskSpec:
        """Accuracy, by variant and by the error class of the reason."""
        return TaskSpec(engine_version=ENGINE_VERSION, metrics=(Metric("accuracy"),), headline="accuracy",
                        breakdowns=("variant", "folds"))

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        """Items ``start .. n-1``; item ``i`` depends only on ``(seed, i)`` and the knobs."""
        config = self.checked_knobs(knobs, modalities)
        variants = config.variants or VARIANTS
        folds = config.folds or (2, 3, 4)
        if any(count < 1 for count in folds):
            raise InvalidKnobError(f"{self.id}: knob 'folds': every count must be at least 1, got {list(folds)}")
        return (self._item(seed, index, variants[index % len(variants)], folds) for index in range(start, n))

    def _item(self, seed: int, index: int, variant: str, folds: tuple[int, ...]) -> Item:
        item_seed, rng = self.item_rng(seed, index)
        fold_count = int(folds[int(rng.integers(len(folds)))])
        want_odd_foldable = variant == "one-foldable"
        odd: tuple[dict[str, Any], dict[str, Any] | None] | None = None
        common: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
        for _ in range(MAX_DRAWS):
            if odd is not None and len(common) == 3:
                break
            simple = random_simple_folds(rng, fold_count)
            original = _document(build_crease_pattern(simple.segments, "".join(simple.assignments)))
            # each document's pattern is built once (by the compile) and read again by the near-miss and the
            # stability check; the compile draws nothing from rng, so it may come before the near-miss
            compiled = compile_generated(original)
            candidate = near_miss(original, rng, compiled.pattern)
            if candidate is None or compiled.error is not None:
                continue
            compiled_candidate = compile_generated(candidate)
            verdict = compiled_candidate.error
            if verdict is None or verdict["class"] in ("CSE", "PRECISION"):
                continue  # only clear geometric failures (GIF, PSI) make a near-miss
            if not (option_stability(original, None, compiled.pattern, every_reason=False).stable
                    and option_stability(candidate, verdict, compiled_candidate.pattern, every_reason=False).stable):
                continue  # a verdict resting on a hair is no key
            foldable_one, unfoldable_one = original, (candidate, verdict)
            if want_odd_foldable:
                if odd is None and rng.random() < 0.5:
                    odd = (foldable_one, None)
                elif len(common) < 3:
                    common.append(unfoldable_one)
            else:
                if odd is None and rng.random() < 0.5:
                    odd = unfoldable_one
                elif len(common) < 3:
                    common.append((foldable_one, None))
        if odd is None or len(common) < 3:
            raise RuntimeError(f"{self.id}: no item for seed {seed}, index {index} in {MAX_DRAWS} draws")
        slot = answer_slot(seed, index, salt=0xF01D)
        chosen = list(common)
        chosen.insert(slot, odd)
        options = [document for document, _ in chosen]
        reason = odd[1] or {"class": None, "code": "FOLDS", "message": "the only pattern that folds flat",
                            "where": {}}
        item_id = f"{self.name}-{index:05d}"
        return self.new_item(
            item_id, item_seed,
            inputs={**options_field(options),
                    "images": {"composite": f"images/{item_id}/composite.png",
                               **picture_fields(options=[f"images/{item_id}/option_{letter}.png"
                                                         for letter in LETTERS])}},
            target={**answer_field(LETTERS[slot]), "reason": reason, "verdicts": [verdict for _, verdict in chosen]},
            metadata={"variant": variant, "folds": fold_count,
                      "error_class": reason["class"] or "none"},
        )  # fmt: skip

    def _pictures(self, item: Item) -> list[Image.Image]:
        return [crease_pattern_png(pattern_from_fold(option), OPTION_SIZE) for option in option_records(item.inputs)]

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The four crease patterns side by side, and each on its own."""
        pictures = self._pictures(item)
        images = item.inputs["images"]
        yield images["composite"], png_bytes(_options_picture(pictures))
        for path, picture in zip(option_pictures(item.inputs), pictures, strict=True):
            yield path, png_bytes(picture)

    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The four patterns and the question of the item's variant."""
        self.check_modality(modality)
        prompt = load_prompt("foldbench.tasks.origamispace", "foldability.txt")
        text = prompt.render(odd_foldable=item.metadata["variant"] == "one-foldable").strip()
        return Prompt((ImagePart(item.inputs["images"]["composite"]), TextPart(text)),
                      template_version=prompt.version or "")

    def parse(self, item: Item, text: str) -> Choice | ParseFailure:
        """One letter A-D (see :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the odd pattern."""
        return score_choice(item.target["answer"], answer)

    def foldable_options(self, item: Item) -> list[bool]:
        """For each option, whether the compiler folds it flat."""
        return [compile_generated(option).error is None for option in option_records(item.inputs)]

    def oracle(self, item: Item) -> Choice:
        """The compiler's answer: the option whose foldability differs from the other three."""
        foldable = self.foldable_options(item)
        odd = [i for i, value in enumerate(foldable) if foldable.count(value) == 1]
        if len(odd) != 1:
            raise AssertionError(f"{item.id}: the compiler finds no single odd option ({foldable})")
        return Choice(answer=LETTERS[odd[0]])  # type: ignore[arg-type]

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()

    def random_answer(self, item: Item, rng: np.random.Generator) -> Choice:
        """A letter drawn uniformly."""
        return random_choice(rng)
