"""OrigamiSpace's spatial-relationship prediction (multiple choice): pose localization, layering and geometric
change, asked about crease patterns the compiler folds.

References are the states (one fold or more) of the built-in fold sequences (:mod:`foldbench.crease.sequences`,
the default) or seeded random simple-fold instances (:mod:`foldbench.origami.instances`). As in the
paper (section 4.3), each item shows the crease pattern only, with labelled points, and asks one question of
:mod:`foldbench.tasks.origamispace.relationship_questions` about what becomes of them after folding; the
``folded_picture`` knob adds the folded model (front view, unmarked) as a second picture. The answer and every
distractor come from the compiler, and :meth:`SpatialRelationshipTask.oracle` solves the item again from its
marks. A reference is used only when its folded state rests on no hair
(:func:`~foldbench.tasks.origamispace.stability.reference_stability`: no two folded features closer than a
thousandth of the paper unless they coincide, every sound tolerance level folding it), so no count, order or
distance depends on a tolerance. The states of the built-in sequences and their stability are kept for the life
of the process (every task object and every dataset of a run share them: they depend on nothing but the state);
references of random patterns and the unmarked pictures are kept for the life of the task object.

Balance: the answer's place among the options is :func:`~foldbench.tasks.choice.answer_slot` (each place once
in every block of four items), and the four items of a block share one question type, so every type is balanced
on its own.

Version 3: the crease pattern only by default, every mark on it (version 2 showed the folded model with marks on
it), and references that rest on a hair are skipped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, Literal

import numpy as np
from PIL import Image
from pydantic import BaseModel, Field

from foldbench.crease import compile_crease_pattern, pattern_from_fold
from foldbench.crease.sequences import FoldSequence, builtin_sequences, sequence_by_name
from foldbench.errors import FoldbenchError, InvalidKnobError
from foldbench.origami.instances import difficulty_of, png_bytes, simple_fold_instance
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
from foldbench.tasks.choice_fields import answer_field, option_records, options_field
from foldbench.tasks.knobs import CommaList, Knobs, Whole
from foldbench.tasks.origamispace.relationship_answers import solve_question
from foldbench.tasks.origamispace.relationship_pictures import pattern_picture
from foldbench.tasks.origamispace.relationship_questions import (
    KINDS,
    QUESTION_TYPES,
    Mark,
    Question,
    build_question,
)
from foldbench.tasks.origamispace.relationships import FoldReference
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["ENGINE_VERSION", "RelationshipGenerationError", "SpatialRelationshipKnobs", "SpatialRelationshipTask",
           "question_type_of"]

ENGINE_VERSION = "origamispace-relationships-3"
MAX_DRAWS = 300
"""References drawn for one item before giving up."""
_SALT = 0x5EA7


class RelationshipGenerationError(FoldbenchError, RuntimeError):
    """No question could be drawn for an item with the chosen knobs."""


class SpatialRelationshipKnobs(Knobs):
    """Knobs of the spatial-relationship questions."""

    kind: Literal["pose", "layering", "geometric", "mixed"] = "mixed"
    """Which questions: ``pose`` (where a point lands, which side up), ``layering`` (layer count at a mark,
    thickest region, stacking order), ``geometric`` (distance or angle after folding) or ``mixed`` (the three in
    turn)."""
    source: Literal["builtin", "random"] = "builtin"
    """References: the states of the built-in fold sequences, or random simple-fold instances."""
    sequences: CommaList[str] | None = None
    """With ``source=builtin``: the sequences to draw from (default all)."""
    folds: CommaList[Whole] | None = None
    """With ``source=random``: simple folding steps to draw from (default 2, 3, 4, 5)."""
    size: Whole = Field(384, ge=128, le=1024)
    """Side in pixels of each picture."""
    folded_picture: bool = False
    """Also show the folded model (front view, unmarked) as a second picture. The paper shows the crease pattern
    only (the default)."""


def question_type_of(kind: str, index: int) -> str:
    """The question type of item ``index``: items come in blocks of four of one type; ``mixed`` takes the kinds
    in turn, and a kind its types in turn.

    >>> [question_type_of("layering", i) for i in (0, 3, 4, 8, 12)]
    ['layers', 'layers', 'thickest', 'stacking', 'layers']
    >>> [question_type_of("mixed", i) for i in (0, 4, 8, 12, 16)]
    ['pose', 'layers', 'distance', 'pose', 'thickest']
    """
    block = index // 4
    if kind == "mixed":
        kind, block = KINDS[block % len(KINDS)], block // len(KINDS)
    types = QUESTION_TYPES[kind]
    return types[block % len(types)]


def _fold_fields(pattern: Any) -> dict[str, Any]:
    fields = pattern.to_fold_fields()
    del fields["edges_foldAngle"]
    return fields


@cache
def _builtin_reference(sequence: FoldSequence, state: int) -> FoldReference:
    """State ``state`` of a built-in sequence as a reference, one object per state for the process (its compiled
    fold is the sequence's own cached one, its stability judged once)."""
    return FoldReference(sequence.compiled(state), f"{sequence.name} after {state} folds", state)


def _solved_as_drawn(reference: FoldReference, question: Question) -> bool:
    """Whether solving the question again from its stored marks (as the oracle will) gives its answer and only
    its answer."""
    pattern_marks = tuple(Mark.from_record(m.to_record()) for m in question.pattern_marks)
    try:
        return solve_question(reference, question.question_type, question.options, pattern_marks) == question.answer
    except AssertionError:
        return False


class SpatialRelationshipTask(TaskBase):
    """Where does a point land, how thick is the model there, how do distances change?"""

    id = "origamispace/spatial-relationship-v3"
    name = "spatial-relationship"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = SpatialRelationshipKnobs
    engine_version = ENGINE_VERSION
    item_salt = (_SALT,)

    def __init__(self) -> None:
        self._references: dict[str, FoldReference] = {}
        self._pictures: dict[tuple[str, str, int], Image.Image] = {}

    @property
    def spec(self) -> TaskSpec:
        """Accuracy, by kind, question type and difficulty."""
        return TaskSpec(engine_version=ENGINE_VERSION, metrics=(Metric("accuracy"),), headline="accuracy",
                        breakdowns=("kind", "question_type", "difficulty"))

    # ---- references --------------------------------------------------------------------------------------
    def _builtin(self, sequence: FoldSequence, state: int) -> FoldReference:
        return _builtin_reference(sequence, state)

    def stable(self, reference: FoldReference) -> bool:
        """Whether the reference's folded state rests on no hair (:func:`reference_stability`), kept per
        reference (per process for the built-in states)."""
        return reference.stable

    def _from_fields(self, fields: dict[str, Any], fold_count: int | None) -> FoldReference:
        key = "fold:" + hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
        if key not in self._references:
            compiled = compile_crease_pattern(pattern_from_fold(fields), limit=8)
            self._references[key] = FoldReference(compiled, "simple folds", fold_count)
        return self._references[key]

    def reference(self, item: Item) -> FoldReference:
        """The compiled reference an item asks about."""
        source = item.inputs["reference"]
        if source["source"] == "builtin":
            return self._builtin(sequence_by_name(source["sequence"]), int(source["state"]))
        return self._from_fields(source["pattern"], source.get("folds"))

    def _states(self, config: SpatialRelationshipKnobs) -> list[tuple[FoldSequence, int]]:
        sequences = builtin_sequences()
        if config.sequences:
            known = {s.name for s in sequences}
            missing = [name for name in config.sequences if name not in known]
            if missing:
                raise InvalidKnobError(f"{self.id}: knob 'sequences': no built-in sequence {missing[0]!r}")
            sequences = tuple(s for s in sequences if s.name in config.sequences)
        return [(s, k) for s in sequences for k in range(1, len(s) + 1)]

    # ---- generation --------------------------------------------------------------------------------------
    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        """Items ``start .. n-1``; item ``i`` depends only on ``(seed, i)`` and the knobs."""
        config = self.checked_knobs(knobs, modalities)
        folds = config.folds or (2, 3, 4, 5)
        if any(count < 1 for count in folds):
            raise InvalidKnobError(f"{self.id}: knob 'folds': every count must be at least 1, got {list(folds)}")
        states = self._states(config) if config.source == "builtin" else []
        return (self._item(seed, index, config, states, folds) for index in range(start, n))

    def _draw_reference(self, rng: np.random.Generator, config: SpatialRelationshipKnobs,
                        states: list[tuple[FoldSequence, int]], folds: tuple[int, ...]
                        ) -> tuple[FoldReference, dict[str, Any], dict[str, Any]]:
        if config.source == "builtin":
            sequence, state = states[int(rng.integers(len(states)))]
            source = {"source": "builtin", "sequence": sequence.name, "state": state}
            return self._builtin(sequence, state), source, {"sequence": sequence.name, "category": sequence.category,
                                                             "folds": state}
        count = int(folds[int(rng.integers(len(folds)))])
        instance = simple_fold_instance(rng, count, max_faces=200)
        fields = _fold_fields(instance.pattern)
        source = {"source": "random", "pattern": fields, "folds": instance.fold_count}
        reference = self._from_fields(fields, instance.fold_count)
        return reference, source, {"sequence": "random", "category": "simple", "folds": instance.fold_count}

    def _item(self, seed: int, index: int, config: SpatialRelationshipKnobs,
              states: list[tuple[FoldSequence, int]], folds: tuple[int, ...]) -> Item:
        item_seed, rng = self.item_rng(seed, index)
        slot = answer_slot(seed, index, salt=_SALT)
        balance = answer_slot(seed, index, salt=_SALT + 1)  # where the answer's marks sit, balanced apart from slot
        question_type = question_type_of(config.kind, index)
        question: Question | None = None
        for _ in range(MAX_DRAWS):
            reference, source, facts = self._draw_reference(rng, config, states, folds)
            if not self.stable(reference):
                continue
            question = build_question(question_type, reference, rng, slot, balance)
            if question is not None and _solved_as_drawn(reference, question):
                break
            question = None
        if question is None:
            raise RelationshipGenerationError(f"{self.id}: no {question_type} question for seed {seed}, index "
                                              f"{index} in {MAX_DRAWS} draws; try other knobs")
        item_id = f"{self.name}-{index:05d}"
        inputs: dict[str, Any] = {
            "reference": source,
            "question_type": question_type,
            "pattern_marks": [m.to_record() for m in question.pattern_marks],
            **options_field(question.options),
            "size": config.size,
            "images": {"pattern": f"images/{item_id}/pattern.png"},
        }
        if config.folded_picture:
            inputs["images"]["folded"] = f"images/{item_id}/folded.png"
        if question_type == "distance":
            inputs["flat_distance"] = f"{question.facts['flat']:.1f}"
        if question_type == "angle":
            inputs["flat_angle"] = str(round(question.facts["flat"]))
        return self.new_item(
            item_id, item_seed, inputs=inputs,
            target={**answer_field(LETTERS[question.answer]), "value": question.options[question.answer],
                    "facts": question.facts},
            metadata={"kind": question.kind, "question_type": question_type, **facts,
                      "difficulty": difficulty_of(facts["folds"])},
        )

    # ---- pictures ----------------------------------------------------------------------------------------
    def _marks(self, item: Item) -> tuple[Mark, ...]:
        return tuple(Mark.from_record(m) for m in item.inputs["pattern_marks"])

    def pictures(self, item: Item) -> tuple[Image.Image, Image.Image | None]:
        """The crease pattern with the item's marks, and the unmarked folded model (None unless the item was
        made with ``folded_picture``)."""
        from foldbench.crease.render import crease_pattern_png, folded_state_png

        reference = self.reference(item)
        size = int(item.inputs["size"])
        key = (reference.name + json.dumps(item.inputs["reference"], sort_keys=True), size)
        if ("pattern", *key) not in self._pictures:
            self._pictures["pattern", *key] = crease_pattern_png(reference.compiled.pattern, size)
        folded = None
        if "folded" in item.inputs["images"]:  # drawn only for the items that show it
            if ("folded", *key) not in self._pictures:
                self._pictures["folded", *key] = folded_state_png(reference.compiled, 0, "front", size)
            folded = self._pictures["folded", *key]
        return pattern_picture(reference, self._marks(item), size, self._pictures["pattern", *key]), folded

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The marked crease pattern (PNG), and the folded model when the item shows it."""
        pattern, folded = self.pictures(item)
        yield item.inputs["images"]["pattern"], png_bytes(pattern)
        if folded is not None:
            yield item.inputs["images"]["folded"], png_bytes(folded)

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The crease pattern (and the folded model with ``folded_picture``), the question of the item's type and
        the options A-D."""
        self.check_modality(modality)
        prompt = load_prompt("foldbench.tasks.origamispace", "spatial-relationship.txt")
        text = prompt.render(question_type=item.inputs["question_type"],
                             flat_distance=item.inputs.get("flat_distance", ""),
                             flat_angle=item.inputs.get("flat_angle", ""),
                             folded_picture="folded" in item.inputs["images"],
                             options=list(zip(LETTERS, option_records(item.inputs), strict=True)))
        text = "\n".join(line for line in text.splitlines() if line.strip())
        images = item.inputs["images"]
        pictures = [ImagePart(images["pattern"])] + ([ImagePart(images["folded"])] if "folded" in images else [])
        return Prompt((*pictures, TextPart(text)), template_version=prompt.version or "")

    def parse(self, item: Item, text: str) -> Choice | ParseFailure:
        """One letter A-D (see :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the right option."""
        return score_choice(item.target["answer"], answer)

    def solve(self, item: Item) -> int:
        """The right option's index, computed again by the compiler from the item's marks."""
        return solve_question(self.reference(item), item.inputs["question_type"], option_records(item.inputs),
                              self._marks(item))

    def oracle(self, item: Item) -> Choice:
        """The compiler's answer (:meth:`solve`)."""
        return Choice(answer=LETTERS[self.solve(item)])  # type: ignore[arg-type]

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()

    def random_answer(self, item: Item, rng: np.random.Generator) -> Choice:
        """A letter drawn uniformly."""
        return random_choice(rng)
