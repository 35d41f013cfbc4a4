"""What the PFP tasks share: knobs, the item loop with bounded retries, splits, presets, prompts, parse/score.

Item ``i`` of a dataset seeded with ``s`` is drawn from ``(s, i)`` alone. Its subtask is the ``i``-th in turn of
the requested subtasks (with the ``paper`` preset, the ``i``-th of :func:`paper_schedule`), its answer letter is
balanced in blocks of four items (:func:`answer_slot`), and its split follows the published composition (141,000
train / 6,000 validation / 3,000 test of 150,000) by its seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import accumulate
from typing import Any

import numpy as np
from pydantic import BaseModel
from shapely.errors import GEOSException

from foldbench.pfp import ENGINE_VERSION
from foldbench.pfp.errors import PfpGenerationError, PfpKnobError
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
    parse_choice,
    random_choice,
    score_choice,
    the_true_option,
    wrong_choice,
)
from foldbench.tasks.choice import answer_slot as balanced_slot
from foldbench.tasks.choice_fields import (
    SUBTASK_KEY,
    answer_field,
    option_pictures,
    picture_fields,
    question_pictures,
    subtask_field,
)
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.pfp.knobs import PfpKnobs
from foldbench.tasks.task_base import TaskBase, check_range
from foldbench.tasks.task_base import item_rng as task_item_rng
from foldbench.text.prompts import load_prompt

__all__ = [
    "MAX_TRIES",
    "SPLIT_SIZES",
    "PfpTaskBase",
    "answer_slot",
    "item_rng",
    "load_template",
    "paper_schedule",
    "seed_in_split",
    "split_of",
]

MAX_TRIES = 200
ITEM_SALT = (0x50F9,)
"""Mixed into every PFP item seed (see :func:`item_rng`)."""
SPLIT_SIZES = {"train": 141_000, "validation": 6_000, "test": 3_000}
_SPLIT_TOTAL = sum(SPLIT_SIZES.values())
_SPLIT_OFFSETS = dict(zip(SPLIT_SIZES, accumulate(SPLIT_SIZES.values(), initial=0), strict=False))


def item_rng(seed: int, index: int) -> tuple[int, np.random.Generator]:
    """The seed of item ``index`` and a generator drawn from it (items do not depend on each other).

    >>> item_rng(0, 0)[0] == item_rng(0, 0)[0]
    True
    """
    return task_item_rng(seed, index, ITEM_SALT)


def answer_slot(seed: int, index: int) -> int:
    """The answer's position (0-3) of a PFP item, balanced in blocks of four
    (:func:`foldbench.tasks.choice.answer_slot`).

    >>> sorted(answer_slot(5, i) for i in range(8, 12))
    [0, 1, 2, 3]
    """
    return balanced_slot(seed, index, salt=0xA4)


def seed_in_split(item_seed: int, split: str) -> int:
    """An item seed moved into ``split`` (keeping its randomness): ``split_of`` of the result is ``split``, so
    datasets asked for different splits never share an item seed.

    >>> split_of(seed_in_split(12345, "test"))
    'test'
    """
    if split not in SPLIT_SIZES:
        raise PfpKnobError(f"split must be one of {', '.join(SPLIT_SIZES)}, got {split!r}")
    offset = _SPLIT_OFFSETS[split]
    base = item_seed >> 1
    return base - base % _SPLIT_TOTAL + offset + base % SPLIT_SIZES[split]


def split_of(item_seed: int) -> str:
    """The split of an item, in the proportions of :data:`SPLIT_SIZES`.

    >>> split_of(0)
    'train'
    """
    slot = item_seed % _SPLIT_TOTAL
    if slot < SPLIT_SIZES["train"]:
        return "train"
    return "validation" if slot < SPLIT_SIZES["train"] + SPLIT_SIZES["validation"] else "test"


def paper_schedule(counts: Mapping[str, int]) -> tuple[str, ...]:
    """The subtasks of one block of items in the given counts, interleaved evenly (each subtask's ``j``-th item sits
    at the fraction ``(j + 1/2) / count`` of the block), so that any first ``n`` items keep the proportions.

    >>> paper_schedule({"easy": 2, "hard": 1})
    ('easy', 'hard', 'easy')
    """
    slots = [
        ((j + 0.5) / count, order, name) for order, (name, count) in enumerate(counts.items()) for j in range(count)
    ]
    return tuple(name for _, _, name in sorted(slots))


def load_template(name: str) -> tuple[str, str]:
    """The prompt template ``prompts/<name>.txt``: its version (first line ``version: ...``) and its text."""
    prompt = load_prompt("foldbench.tasks.pfp", f"{name}.txt")
    if prompt.version is None:
        raise ValueError(f"prompt template {name}.txt must start with a 'version:' line")
    return prompt.version, prompt.render().strip() + "\n"


class PfpTaskBase(TaskBase):
    """The shared half of a PFP task; subclasses define ``_draw``, ``_pictures`` and ``consistent_options``.

    Knobs common to every PFP task: ``subtasks`` (a list, or a comma-separated string; default all, taken in
    turn by item index), ``panels`` (default true: also write each question and option picture on its own,
    beside the composite) and ``split`` (``train``, ``validation`` or ``test``: every item of that split; default
    none, the splits in the published proportions).
    """

    id = ""
    name = ""
    type_name = ""
    subtasks: tuple[str, ...] = ()
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = PfpKnobs
    engine_version = ENGINE_VERSION
    knob_error = PfpKnobError
    item_salt = ITEM_SALT
    paper_counts: Mapping[str, int] = {}
    """Items per subtask in the papers' test split (600 per type, read off their Tables 1 and 2); empty for a task
    the papers do not have (it then has no ``paper`` preset)."""

    @property
    def spec(self) -> TaskSpec:
        """Accuracy (one letter right or wrong) as the headline, results by task type and subtask."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=(Metric("accuracy"),),
            headline="accuracy",
            breakdowns=("type", SUBTASK_KEY),
            gallery=self.gallery,
            manifest_notes=self.manifest_notes,
        )

    # ---- knobs -------------------------------------------------------------------------------------------
    def validate_knobs(self, knobs: Mapping[str, Any] | None) -> dict[str, Any]:
        """The knobs with defaults filled in; an :class:`~foldbench.errors.InvalidKnobError` for unknown or
        ill-typed ones (from the task's ``knob_schema``), :class:`PfpKnobError` for impossible ones."""
        knobs = self.checked_knobs(knobs, ()).given()
        if knobs.get("preset") == "paper":
            if not self.paper_counts:
                raise PfpKnobError(f"{self.id} is not one of the papers' tasks: it has no 'paper' preset")
            if knobs.get("subtasks"):
                raise PfpKnobError(f"{self.id}: the 'paper' preset fixes the subtasks; leave out 'subtasks'")
            knobs = {**knobs, "subtasks": tuple(self.paper_counts), "split": knobs.get("split") or "test"}
        subtasks = knobs.get("subtasks") or self.subtasks
        if isinstance(subtasks, str):
            subtasks = [s.strip() for s in subtasks.split(",") if s.strip()]
        bad = [s for s in subtasks if s not in self.subtasks]
        if bad or not subtasks:
            raise PfpKnobError(
                f"{self.id}: subtask {bad[0] if bad else '(none)'!r} is not one of {', '.join(self.subtasks)}"
            )
        config = dict(knobs)
        config["subtasks"] = tuple(subtasks)
        config["panels"] = config.get("panels", True)
        self._check_knobs(config)
        return config

    def manifest_notes(self, knobs: Mapping[str, Any]) -> dict[str, Any]:
        """What the manifest states about a dataset of this task: its split and the legibility rule."""
        from foldbench.pfp.tolerance import MIN_FEATURE, MIN_FEATURE_PX

        split = knobs.get("split")
        notes: dict[str, Any] = {
            "split": split if split is not None else "mixed (141,000 : 6,000 : 3,000)",
            "legibility": {"min_feature_units": MIN_FEATURE, "min_feature_px": MIN_FEATURE_PX},
        }
        if knobs.get("preset") == "paper":
            if split is None:
                notes["split"] = "test"
            notes["composition"] = {"preset": "paper", "per_block_of_600": dict(self.paper_counts)}
        return notes

    def _check_knobs(self, config: dict[str, Any]) -> None:
        """Task-specific knob checks (fill in defaults in ``config``)."""

    # ---- generation --------------------------------------------------------------------------------------
    def generate(
        self,
        n: int,
        seed: int,
        *,
        modalities: tuple[str, ...] = ("image",),
        knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        """Yield items ``start .. n-1`` of the dataset seeded with ``seed`` (item ``i`` depends only on ``seed``,
        ``i`` and the knobs); knobs are checked when this is called, before anything is generated."""
        self.check_modalities(modalities)
        check_range(self.id, n, start, PfpKnobError)
        config = self.validate_knobs(knobs)
        return (self.make_item(seed, index, config) for index in range(start, n))

    def make_item(self, seed: int, index: int, config: Mapping[str, Any]) -> Item:
        """Item ``index`` of the dataset seeded with ``seed`` (a pure function of its arguments)."""
        item_seed, rng = self.item_rng(seed, index)
        if config.get("split") is not None:
            item_seed = seed_in_split(item_seed, config["split"])
            rng = np.random.default_rng(item_seed)
        subtask = self.subtask_of(index, config)
        answer_index = answer_slot(seed, index)
        item_config = self._item_config(index, config)
        for _ in range(MAX_TRIES):
            try:
                drawn = self._draw(rng, subtask, answer_index, item_config)
            except GEOSException:
                # Floating-point geometry that shapely cannot resolve (see foldbench.pfp.tolerance) rejects this
                # attempt like any other invalid draw; the next attempt continues the same random stream.
                drawn = None
            if drawn is not None:
                break
        else:
            raise PfpGenerationError(
                f"{self.id}: no valid {subtask} item for seed {seed}, index {index} after {MAX_TRIES} tries; "
                "try another seed or relax the knobs"
            )
        inputs, target, metadata = drawn
        item_id = f"{self.name}-{index:06d}"
        inputs["images"] = self._image_paths(item_id, inputs, panels=config["panels"])
        target.update(answer_field(LETTERS[answer_index]))
        metadata.update(
            {"type": self.type_name, **subtask_field(subtask), "split": split_of(item_seed), "index": index}
        )
        return self.new_item(item_id, item_seed, inputs, target, metadata)

    def subtask_of(self, index: int, config: Mapping[str, Any]) -> str:
        """The subtask of item ``index``: the requested subtasks in turn, or with the ``paper`` preset the
        :func:`paper_schedule` of :attr:`paper_counts`, repeated every block of its total."""
        if config.get("preset") == "paper":
            schedule = paper_schedule(self.paper_counts)
            return schedule[index % len(schedule)]
        return config["subtasks"][index % len(config["subtasks"])]

    def _item_config(self, index: int, config: Mapping[str, Any]) -> Mapping[str, Any]:
        """The knobs item ``index`` is drawn with (a task may narrow them per item, e.g. to balance a preset)."""
        return config

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None:
        raise NotImplementedError

    def _image_paths(self, item_id: str, inputs: Mapping[str, Any], *, panels: bool) -> dict[str, Any]:
        base = f"images/{item_id}"
        count = self._question_panel_count(inputs) if panels else 0
        return {
            "composite": f"{base}/composite.png",
            **picture_fields(
                question=[f"{base}/question_{k}.png" for k in range(count)],
                options=[f"{base}/option_{letter}.png" for letter in LETTERS] if panels else [],
            ),
        }

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        raise NotImplementedError

    # ---- pictures ----------------------------------------------------------------------------------------
    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The composite PNG and the separate question and option pictures of an item."""
        from foldbench.pfp.drawing import composite, png_bytes

        question, options = self._pictures(item)
        yield item.inputs["images"]["composite"], png_bytes(composite(question, options))
        question_paths = question_pictures(item.inputs)
        if not question_paths:
            return  # generated with panels=false: the composite only
        for path, picture in zip(question_paths, question, strict=True):
            yield path, png_bytes(picture)
        for path, picture in zip(option_pictures(item.inputs), options, strict=True):
            yield path, png_bytes(picture)

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        raise NotImplementedError

    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """For a report: the question with the right option framed green and a wrong choice framed red."""
        from foldbench.pfp.drawing import RIGHT_MARK, WRONG_MARK, composite, png_bytes

        question, options = self._pictures(item)
        marks = {LETTERS.index(item.target["answer"]): RIGHT_MARK}
        wrong, caption = wrong_choice(item.target["answer"], answer)
        if wrong is not None:
            marks[LETTERS.index(wrong)] = WRONG_MARK
        return [(caption, png_bytes(composite(question, options, marks=marks)))]

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The question picture and our instructions, asking for one letter as JSON."""
        self.check_modality(modality)
        version, text = load_template(self.name)
        return Prompt((ImagePart(item.inputs["images"]["composite"]), TextPart(text)), template_version=version)

    def parse(self, item: Item, text: str) -> BaseModel | ParseFailure:
        """One letter A-D, read strictly (see :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the item's answer."""
        return score_choice(item.target["answer"], answer)

    def consistent_options(self, item: Item) -> list[bool]:
        """For each option, whether the engine finds it consistent with the question."""
        raise NotImplementedError

    def options_distinct(self, item: Item) -> bool:
        """Whether no two options look the same (geometric comparison)."""
        raise NotImplementedError

    def oracle(self, item: Item) -> BaseModel:
        """The engine's answer: the one option it finds consistent."""
        return the_true_option(self.consistent_options(item), item.id, "are consistent for the engine")

    def random_answer(self, item: Item, rng: np.random.Generator) -> BaseModel:
        """A letter drawn uniformly."""
        return random_choice(rng)

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()
