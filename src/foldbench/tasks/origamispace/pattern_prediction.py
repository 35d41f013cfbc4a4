"""OrigamiSpace's pattern prediction: a crease pattern is shown; which of four names is the model it folds into?

Options are names of a named, categorised collection (:mod:`foldbench.tasks.origamispace.named_patterns`): by
default the built-in fold sequences (the picture is the final state of the answer's sequence, which the compiler
folds flat), or with the ``collection`` knob a folder whose files OrigamiBench's Table 3 names and categorises
(e.g. ``../shared/corpus/flat-folder/instagram``). The four options come from four different semantic categories,
so every distractor is of another category than the answer (the paper's appendix B.1, rule 2), and from one
difficulty group (OrigamiSpace's difficulty, or the collection's tier), so that they are of comparable
complexity. No two options share a name or a crease pattern; the oracle finds the answer as the one option whose
own crease pattern has the shown pattern's fingerprint.

**No blind shortcut.** Options are text, so rules that read only the names (their likeness to each other, their
length) must not find the answer. Items come in blocks of four (items 0-3, 4-7, ...): the four items of a block
share one set of four names, and each name of the set is the answer of exactly one item of the block (the order
drawn from the seed). Any rule that picks an option from the names alone is then right exactly once per block,
and every name is the answer in exactly a quarter of the items it appears in. The answer letter is balanced in
blocks of four as well, and the other options are shuffled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from PIL import Image, ImageDraw
from pydantic import BaseModel, field_validator

from foldbench.crease.io.collection import paper_models_folder
from foldbench.crease.render import crease_pattern_png
from foldbench.errors import FoldbenchError, InvalidKnobError
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
    the_true_option,
    wrong_choice,
)
from foldbench.tasks.choice_fields import (
    answer_field,
    option_records,
    option_sources,
    option_sources_field,
    options_field,
)
from foldbench.tasks.knobs import Knobs, Whole
from foldbench.tasks.origamispace.named_patterns import (
    BUILTIN,
    NamedPattern,
    builtin_named_patterns,
    folder_named_patterns,
    pattern_digest,
    source_pattern,
)
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["ENGINE_VERSION", "PatternPredictionError", "PatternPredictionKnobs", "PatternPredictionTask",
           "draw_name_set"]

ENGINE_VERSION = "origamispace-pattern-prediction-2"
SALT = 0x9A77
MAX_TRIES = 200


class PatternPredictionError(FoldbenchError, RuntimeError):
    """No valid set of names could be drawn."""


class PatternPredictionKnobs(Knobs):
    """Knobs of pattern prediction."""

    collection: str | None = None
    """A folder of crease-pattern files named and categorised by OrigamiBench's Table 3 (e.g.
    ``../shared/corpus/flat-folder/instagram``); default: the built-in fold sequences."""
    preset: Literal["paper"] | None = None
    """``paper``: the names, categories and crease patterns of OrigamiBench's 366 models that ship with foldbench
    (Table 3), options drawn within one tier from four categories. Not with ``collection``."""
    size: Whole = 512
    """Side in pixels of the crease-pattern picture, 64-1024."""

    @field_validator("size")
    @classmethod
    def _size_in_range(cls, value: int) -> int:
        if not 64 <= value <= 1024:
            raise ValueError(f"size must be 64..1024, got {value}")
        return value


def _usable_groups(patterns: Sequence[NamedPattern]) -> dict[str, list[NamedPattern]]:
    """The difficulty groups with patterns of at least four categories."""
    groups: dict[str, list[NamedPattern]] = {}
    for pattern in patterns:
        groups.setdefault(pattern.group, []).append(pattern)
    return {g: members for g, members in sorted(groups.items()) if len({p.category for p in members}) >= 4}


def draw_name_set(patterns: Sequence[NamedPattern], rng: np.random.Generator) -> list[NamedPattern] | None:
    """Four patterns of one difficulty group, of four different categories, with four different names and
    crease patterns (None when the draw fails)."""
    groups = _usable_groups(patterns)
    if not groups:
        return None
    names = list(groups)
    members = groups[names[int(rng.integers(len(names)))]]
    categories = sorted({p.category for p in members})
    chosen = []
    for category in rng.choice(len(categories), size=4, replace=False):
        pool = [p for p in members if p.category == categories[int(category)]]
        chosen.append(pool[int(rng.integers(len(pool)))])
    if len({p.name.casefold() for p in chosen}) < 4:
        return None
    if len({pattern_digest(source_pattern(p.source)) for p in chosen}) < 4:
        return None
    return chosen


def _option_record(pattern: NamedPattern) -> dict[str, str]:
    return {"name": pattern.name, "category": pattern.category, **pattern.source}


class PatternPredictionTask(TaskBase):
    """Which of four names does the crease pattern fold into?"""

    id = "origamispace/pattern-prediction-v2"
    name = "pattern-prediction"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = PatternPredictionKnobs
    engine_version = ENGINE_VERSION
    item_salt = (SALT,)

    @property
    def spec(self) -> TaskSpec:
        """Accuracy, by the answer's category and difficulty group."""
        return TaskSpec(engine_version=ENGINE_VERSION, metrics=(Metric("accuracy"),), headline="accuracy",
                        breakdowns=("category", "group"), gallery=self.gallery, manifest_notes=self.manifest_notes)

    def manifest_notes(self, knobs: Mapping[str, Any]) -> dict[str, Any]:
        """The collection the names come from and how the names are balanced."""
        shipped = "OrigamiBench's 366 models (Table 3), shipped with foldbench"
        return {
            "collection": shipped if knobs.get("preset") == "paper" else knobs.get("collection")
            or "built-in fold sequences",
            "options": "four names of four different categories and one difficulty group",
            "balance": "blocks of four items share their four names, each the answer once; letters balanced "
                       "in blocks of four",
        }

    # ---- generation --------------------------------------------------------------------------------------
    def patterns(self, config: PatternPredictionKnobs) -> tuple[NamedPattern, ...]:
        """The named patterns the knobs select; an :class:`InvalidKnobError` of one line when the collection is
        not a folder or has too few named, categorised patterns to make an item."""
        if config.preset == "paper":
            if config.collection is not None:
                raise InvalidKnobError(f"{self.id}: knob 'collection' is not for the paper preset")
            config = config.model_copy(update={"collection": str(paper_models_folder())})
        if config.collection is None:
            patterns = builtin_named_patterns()
            where = "the built-in fold sequences"
        else:
            if not Path(config.collection).is_dir():
                raise InvalidKnobError(f"{self.id}: knob 'collection': {config.collection} is not a folder")
            patterns = folder_named_patterns(config.collection)
            where = config.collection
            if not patterns:
                raise InvalidKnobError(f"{self.id}: knob 'collection': {where} has no named, categorised crease "
                                       "patterns (pattern prediction needs names and categories); no items made")
        if not _usable_groups(patterns):
            raise InvalidKnobError(f"{self.id}: knob 'collection': {where} has no difficulty group with patterns "
                                   "of four categories; no items made")
        return patterns

    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        """Items ``start .. n-1``; item ``i`` depends only on ``(seed, i)`` and the knobs (and the folder)."""
        config = self.checked_knobs(knobs, modalities)
        patterns = self.patterns(config)
        return (self._item(seed, index, patterns, config.size) for index in range(start, n))

    def _name_set(self, seed: int, block: int, patterns: Sequence[NamedPattern]) -> list[NamedPattern]:
        rng = np.random.default_rng(np.random.SeedSequence([seed, block, SALT]))
        for _ in range(MAX_TRIES):
            chosen = draw_name_set(patterns, rng)
            if chosen is not None:
                return chosen
        raise PatternPredictionError(f"{self.id}: no set of four distinct names for seed {seed}, block {block}")

    def _item(self, seed: int, index: int, patterns: Sequence[NamedPattern], size: int) -> Item:
        item_seed, rng = self.item_rng(seed, index)
        name_set = self._name_set(seed, index // 4, patterns)
        answer = name_set[answer_slot(seed, index, salt=SALT + 1)]
        distractors = [name_set[int(i)] for i in rng.permutation(4) if name_set[int(i)] is not answer]
        slot = answer_slot(seed, index, salt=SALT + 2)
        options = list(distractors)
        options.insert(slot, answer)
        item_id = f"{self.name}-{index:05d}"
        return self.new_item(
            item_id, item_seed,
            inputs={**options_field([p.name for p in options]), "size": size,
                    "images": {"crease_pattern": f"images/{item_id}/crease_pattern.png"}},
            target={**answer_field(LETTERS[slot]), "shown": dict(answer.source),
                    "digest": pattern_digest(source_pattern(answer.source)),
                    **option_sources_field([_option_record(p) for p in options])},
            metadata={"category": answer.category, "group": answer.group,
                      "collection": "built-in" if answer.source["collection"] == BUILTIN else "folder"},
        )  # fmt: skip

    # ---- pictures ----------------------------------------------------------------------------------------
    def _picture(self, item: Item) -> Image.Image:
        return crease_pattern_png(source_pattern(item.target["shown"]), int(item.inputs["size"]))

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The crease-pattern picture."""
        yield item.inputs["images"]["crease_pattern"], png_bytes(self._picture(item))

    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """For a report: the crease pattern with the options written below, the answer and the choice named."""
        picture = self._picture(item)
        lines = [f"{letter}. {name}" for letter, name in zip(LETTERS, option_records(item.inputs), strict=True)]
        image = Image.new("RGB", (picture.width, picture.height + 18 * len(lines) + 16), "white")
        image.paste(picture, (0, 0))
        draw = ImageDraw.Draw(image)
        for row, line in enumerate(lines):
            draw.text((8, picture.height + 8 + 18 * row), line, fill=(0, 0, 0))
        _, caption = wrong_choice(item.target["answer"], answer)
        return [(caption, png_bytes(image))]

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The crease pattern, then the question with the four names."""
        self.check_modality(modality)
        prompt = load_prompt("foldbench.tasks.origamispace", "pattern-prediction.txt")
        text = prompt.render(options=list(zip(LETTERS, option_records(item.inputs), strict=True))).strip()
        return Prompt((ImagePart(item.inputs["images"]["crease_pattern"]), TextPart(text + "\n")),
                      template_version=prompt.version or "")

    def parse(self, item: Item, text: str) -> Choice | ParseFailure:
        """One letter A-D (see :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the shown model's name."""
        return score_choice(item.target["answer"], answer)

    def matching_options(self, item: Item) -> list[bool]:
        """For each option, whether its own crease pattern is the one shown (by fingerprint)."""
        shown = item.target["digest"]
        return [pattern_digest(source_pattern(option)) == shown for option in option_sources(item.target)]

    def oracle(self, item: Item) -> Choice:
        """The one option whose crease pattern is the shown one."""
        return the_true_option(self.matching_options(item), item.id, "have the shown crease pattern")

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()

    def random_answer(self, item: Item, rng: np.random.Generator) -> Choice:
        """A letter drawn uniformly."""
        return random_choice(rng)
