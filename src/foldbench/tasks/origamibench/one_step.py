"""OrigamiBench's one-step multiple choice: given a folded reference state (front and back), choose the state
exactly one fold later.

Items are drawn from the built-in fold sequences (:mod:`foldbench.crease.sequences`), a sequence uniformly first.
The answer is the state after the reference. Two variants:

* **associative**: the reference is a state ``k >= 1`` and the three distractors are states of *other*
  sequences, at the answer's depth (number of folds) where there are enough, so that the answer and the
  distractors are drawn alike (each option's predecessor, as the reference, looks like no option);
* **causal**: the four options are states of the *same* sequence, no two of them consecutive, drawn uniformly
  among the sets that pass the checks below (:func:`causal_option_sets`, so no draw is rejected); one of them
  (by its place in time, balanced in blocks of four items) is the answer and the state before it the
  reference, so the distractors are earlier than the reference or two or more folds after it, and the
  option set says nothing about which option is the answer: the answer is the least folded, the most folded
  or a middle option equally often, no option has its own predecessor among the options, and no two of the
  options and their predecessors look alike (as the answer and the reference must not).

Every item is checked by the compiler: every option folds flat, exactly one option holds all the reference's
creases and is one step of its own sequence beyond a state with exactly the reference's creases, and no two of
the five pictures look alike (:func:`~foldbench.tasks.origamibench.pictures.pictures_look_alike`). The answer
letter is balanced in blocks of four items.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, field_validator

from foldbench.crease.pattern import CreasePattern
from foldbench.crease.sequences import CATEGORIES, FoldSequence, builtin_sequences
from foldbench.errors import FoldbenchError, InvalidKnobError
from foldbench.tasks.base import (
    ImagePart,
    Item,
    Metric,
    ParseFailure,
    Prompt,
    Scores,
    TaskSpec,
    TextPart,
    check_modalities,
)
from foldbench.tasks.choice import (
    LETTERS,
    answer_slot,
    choice_images,
    option_pictures,
    parse_choice,
    random_choice,
    reference_picture,
    score_choice,
    the_true_option,
    wrong_choice,
)
from foldbench.tasks.knobs import CommaList, Knobs, Whole, parse_knobs
from foldbench.tasks.prompts import load_prompt

__all__ = [
    "ENGINE_VERSION",
    "AssociativeTask",
    "CausalTask",
    "OneStepGenerationError",
    "OneStepKnobError",
    "OneStepKnobs",
    "OneStepTask",
    "causal_option_sets",
    "contains_creases",
    "one_fold_after",
]

ENGINE_VERSION = "origamibench-sequences-4"
"""The version of the fold sequences and of the checks the items are built with."""
MAX_TRIES = 1000
CAUSAL_MIN_FOLDS = 7
"""A causal item takes four states of one sequence, no two consecutive, so its sequence has at least 7 folds."""
_COVER = 1e-6
"""Distance (paper frame, side 10) within which a crease lies on another."""


class OneStepKnobError(InvalidKnobError):
    """A one-step knob that is out of range or leaves no item to draw."""


class OneStepGenerationError(FoldbenchError, RuntimeError):
    """No valid item could be drawn for a seed and index."""


class OneStepKnobs(Knobs):
    """Knobs of the one-step tasks."""

    categories: CommaList[str] | None = None
    """Sequence categories to draw references from (simple, base, pleat, twist); default: all."""
    sequences: CommaList[str] | None = None
    """Names of the built-in sequences to draw from; default: all (of the chosen categories)."""
    size: Whole = 256
    """Side in pixels of each view (front or back) of a state, 64-1024."""

    @field_validator("size")
    @classmethod
    def _size_in_range(cls, value: int) -> int:
        if not 64 <= value <= 1024:
            raise ValueError(f"size must be 64..1024, got {value}")
        return value


# ---- crease containment, checked on the compiled crease patterns ---------------------------------------------


def _crease_segments(pattern: CreasePattern) -> dict[str, np.ndarray]:
    """The mountain and valley edges of a pattern as ``(k, 2, 2)`` segments in the paper frame."""
    coords = pattern.vertices_coords * pattern.scale + np.array(pattern.offset)
    letters = np.array(pattern.edges_assignment)
    return {letter: coords[pattern.edges_vertices[letters == letter]].reshape(-1, 2, 2) for letter in ("M", "V")}


def _covered(segments: np.ndarray, cover: np.ndarray) -> bool:
    """Whether every segment is covered by the union of the collinear ``cover`` segments (which do not overlap
    each other, as the edges of one planar graph)."""
    if len(segments) == 0:
        return True
    if len(cover) == 0:
        return False
    for start, end in segments:
        along = end - start
        length = float(np.hypot(*along))
        unit = along / length
        normal = np.array([-unit[1], unit[0]])
        offsets = (cover - start) @ normal
        collinear = (np.abs(offsets) < _COVER).all(axis=1)
        if not collinear.any():
            return False
        positions = np.sort((cover[collinear] - start) @ unit, axis=1)
        overlap = np.clip(positions[:, 1], 0, length) - np.clip(positions[:, 0], 0, length)
        if float(np.clip(overlap, 0, None).sum()) < length - _COVER:
            return False
    return True


def contains_creases(inner: CreasePattern, outer: CreasePattern) -> bool:
    """Whether every mountain and valley crease of ``inner`` lies on creases of ``outer`` with the same letter.

    >>> from foldbench.crease.sequences import sequence_by_name
    >>> blintz = sequence_by_name("blintz")
    >>> contains_creases(blintz.pattern(1), blintz.pattern(2)), contains_creases(blintz.pattern(2), blintz.pattern(1))
    (True, False)
    """
    inner_segments, outer_segments = _crease_segments(inner), _crease_segments(outer)
    return all(_covered(inner_segments[letter], outer_segments[letter]) for letter in ("M", "V"))


def one_fold_after(reference: CreasePattern, sequence: FoldSequence, state: int) -> bool:
    """Whether state ``state`` of ``sequence`` is the reference plus one fold: it holds the reference's creases,
    and the state before it has exactly the reference's creases."""
    if state < 1:
        return False
    option, before = sequence.pattern(state), sequence.pattern(state - 1)
    return (contains_creases(reference, option) and contains_creases(reference, before)
            and contains_creases(before, reference))


# ---- the tasks -----------------------------------------------------------------------------------------------


def _item_rng(seed: int, index: int, salt: int) -> tuple[int, np.random.Generator]:
    item_seed = int(np.random.SeedSequence([seed, index, salt]).generate_state(1, dtype=np.uint64)[0] >> 1)
    return item_seed, np.random.default_rng(item_seed)


def _pick(rng: np.random.Generator, references: Sequence[tuple[FoldSequence, int]]) -> tuple[FoldSequence, int]:
    """A sequence drawn uniformly among those with references, then one of its reference states."""
    names = sorted({s.name for s, _ in references})
    name = names[int(rng.integers(len(names)))]
    states = [(s, k) for s, k in references if s.name == name]
    return states[int(rng.integers(len(states)))]


@cache
def _sequences_by_name() -> dict[str, FoldSequence]:
    return {s.name: s for s in builtin_sequences()}


class OneStepTask:
    """The shared half of the two one-step variants (the distractor draw differs)."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    variant: ClassVar[str] = ""
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = OneStepKnobs
    _salt: ClassVar[int] = 0

    @property
    def spec(self) -> TaskSpec:
        """Accuracy (one letter right or wrong), broken down by sequence category and reference depth."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=(Metric("accuracy"),),
            headline="accuracy",
            breakdowns=("category", "reference_folds"),
            gallery=self.gallery,
        )

    # ---- knobs -------------------------------------------------------------------------------------------
    def validate_knobs(self, knobs: Mapping[str, Any] | None) -> dict[str, Any]:
        """The knobs with defaults filled in, and the sequences they select; a :class:`OneStepKnobError` for
        unknown categories or sequences, or a selection that leaves no item to draw."""
        given = parse_knobs(self.knob_schema, self.id, knobs, error_type=OneStepKnobError)
        config = given.model_dump()
        categories = config["categories"] or CATEGORIES
        unknown = [c for c in categories if c not in CATEGORIES]
        if unknown:
            raise OneStepKnobError(
                f"{self.id}: knob 'categories': {unknown[0]!r} is not one of {', '.join(CATEGORIES)}")
        names = _sequences_by_name()
        chosen = config["sequences"] or tuple(names)
        missing = [n for n in chosen if n not in names]
        if missing:
            raise OneStepKnobError(f"{self.id}: knob 'sequences': no built-in sequence {missing[0]!r}")
        selected = tuple(names[n] for n in chosen if names[n].category in categories)
        if not self._references(selected):
            raise OneStepKnobError(f"{self.id}: the chosen categories and sequences leave no {self.variant} item "
                                   "to draw (they need longer or more sequences)")
        config["selected"] = selected
        return config

    def _references(self, sequences: Sequence[FoldSequence]) -> list[tuple[FoldSequence, int]]:
        """The (sequence, reference state) pairs items can be drawn from."""
        raise NotImplementedError

    # ---- generation --------------------------------------------------------------------------------------
    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        """Yield items ``start .. n-1`` of the dataset seeded with ``seed``; knobs are checked first."""
        check_modalities(self.id, modalities, self.modalities)
        if n < 0 or not 0 <= start <= n:
            raise OneStepKnobError(f"{self.id}: need 0 <= start <= n, got start {start} and n {n}")
        config = self.validate_knobs(knobs)
        return (self.make_item(seed, index, config) for index in range(start, n))

    def make_item(self, seed: int, index: int, config: Mapping[str, Any]) -> Item:
        """Item ``index`` of the dataset seeded with ``seed`` (a pure function of its arguments)."""
        item_seed, rng = _item_rng(seed, index, self._salt)
        answer_index = answer_slot(seed, index, self._salt + 1)
        slot = answer_slot(seed, index, self._salt + 2)
        for _ in range(MAX_TRIES):
            drawn = self._draw(rng, config["selected"], slot, config["size"])
            if drawn is not None:
                break
        else:
            raise OneStepGenerationError(f"{self.id}: no valid item for seed {seed}, index {index} after "
                                         f"{MAX_TRIES} tries; try other knobs")
        (sequence, state), distractors = drawn
        options = list(distractors)
        options.insert(answer_index, (sequence, state + 1))
        item_id = f"{self.name}-{index:06d}"
        base = f"images/{item_id}"
        return Item(
            id=item_id,
            task=self.id,
            seed=item_seed,
            engine_version=ENGINE_VERSION,
            inputs={
                "images": choice_images([f"{base}/option_{letter}.png" for letter in LETTERS],
                                        reference=f"{base}/reference.png", composite=f"{base}/composite.png"),
                "size": config["size"],
            },
            target={
                "answer": LETTERS[answer_index],
                "reference": {"sequence": sequence.name, "state": state},
                "options": [{"sequence": s.name, "state": k} for s, k in options],
            },
            metadata={
                "variant": self.variant,
                "sequence": sequence.name,
                "category": sequence.category,
                "reference_folds": state,
                "earlier_distractors": sum(1 for s, k in distractors if s is sequence and k < state),
                "index": index,
            },
        )

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], slot: int, size: int
              ) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        """The reference and three distractors, or None to draw again; ``slot`` (0-3, balanced in blocks of
        four items) is the variant's balancing target."""
        raise NotImplementedError

    @staticmethod
    def _valid(reference: tuple[FoldSequence, int], options: list[tuple[FoldSequence, int]]) -> bool:
        """Whether exactly the first option is one fold after the reference and no two pictures look alike."""
        from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

        sequence, state = reference
        pattern = sequence.pattern(state)
        if [one_fold_after(pattern, s, k) for s, k in options] != [True, False, False, False]:
            return False
        signatures = [state_signature(s, k) for s, k in [reference, *options]]
        return not any(pictures_look_alike(signatures[i], signatures[j])
                       for i in range(len(signatures)) for j in range(i + 1, len(signatures)))

    # ---- pictures ----------------------------------------------------------------------------------------
    def _states(self, item: Item) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]]:
        names = _sequences_by_name()
        reference = item.target["reference"]
        options = [(names[o["sequence"]], int(o["state"])) for o in item.target["options"]]
        return (names[reference["sequence"]], int(reference["state"])), options

    def _pictures(self, item: Item) -> tuple[Any, list[Any]]:
        from foldbench.tasks.origamibench.pictures import state_picture

        size = int(item.inputs["size"])
        reference, options = self._states(item)
        return state_picture(*reference, size), [state_picture(s, k, size) for s, k in options]

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The four option pictures, the reference picture and their composite (PNG)."""
        from foldbench.tasks.origamibench.pictures import composite, png_bytes

        reference, options = self._pictures(item)
        images = item.inputs["images"]
        for path, picture in zip(option_pictures(item.inputs), options, strict=True):
            yield path, png_bytes(picture)
        yield str(reference_picture(item.inputs)), png_bytes(reference)
        yield images["composite"], png_bytes(composite(reference, options))

    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """For a report: the question with the right option framed green and a wrong choice framed red."""
        from foldbench.tasks.origamibench.pictures import RIGHT_MARK, WRONG_MARK, composite, png_bytes

        reference, options = self._pictures(item)
        marks = {LETTERS.index(item.target["answer"]): RIGHT_MARK}
        wrong, caption = wrong_choice(item.target["answer"], answer)
        if wrong is not None:
            marks[LETTERS.index(wrong)] = WRONG_MARK
        return [(caption, png_bytes(composite(reference, options, marks)))]

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The options A-D and the reference as five pictures (in that order, as in the paper), then our
        instructions."""
        if modality not in self.modalities:
            raise OneStepKnobError(f"{self.id} has no modality {modality!r} (it has {', '.join(self.modalities)})")
        prompt = load_prompt("foldbench.tasks.origamibench", f"{self.name}.txt")
        parts = [ImagePart(path) for path in option_pictures(item.inputs)]
        parts.append(ImagePart(str(reference_picture(item.inputs))))
        return Prompt((*parts, TextPart(prompt.render().strip() + "\n")), template_version=prompt.version)

    def parse(self, item: Item, text: str) -> BaseModel | ParseFailure:
        """One letter A-D, read strictly (``[B]``, ``B``, ``{"answer": "B"}``; see
        :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the item's answer."""
        return score_choice(item.target["answer"], answer)

    def consistent_options(self, item: Item) -> list[bool]:
        """For each option, whether the compiler's crease patterns make it one fold after the reference."""
        (sequence, state), options = self._states(item)
        reference = sequence.pattern(state)
        return [one_fold_after(reference, s, k) for s, k in options]

    def oracle(self, item: Item) -> BaseModel:
        """The one option one fold after the reference."""
        return the_true_option(self.consistent_options(item), item.id, "are one fold after the reference")

    def random_answer(self, item: Item, rng: np.random.Generator) -> BaseModel:
        """A letter drawn uniformly."""
        return random_choice(rng)


class AssociativeTask(OneStepTask):
    """Distractors from other sequences, at the answer's depth where possible."""

    id = "origamibench/one-step-associative-v4"
    name = "one-step-associative"
    variant = "associative"
    _salt = 0xA550
    reference_likeness_by_design: ClassVar[str] = (
        "one-step associative asks for the reference plus one fold among states of other sequences, so its answer "
        "is meant to look like the reference (OrigamiBench section 3)")

    def _references(self, sequences: Sequence[FoldSequence]) -> list[tuple[FoldSequence, int]]:
        if len(sequences) < 4:
            return []
        return [(s, k) for s in sequences for k in range(1, len(s))]

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], slot: int, size: int
              ) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        sequence, state = _pick(rng, self._references(sequences))
        depth = state + 1
        others = [s for s in sequences if s is not sequence]
        same_depth = [(s, depth) for s in others if len(s) >= depth]
        near = [(s, k) for s in others for k in (depth - 1, depth + 1) if 1 <= k <= len(s)]
        pool = same_depth if len(same_depth) >= 3 else same_depth + near
        if len(pool) < 3:
            return None
        picks = [pool[i] for i in rng.choice(len(pool), size=3, replace=False)]
        if len({id(s) for s, _ in picks}) < 3:
            return None
        # like the answer, every distractor's own last fold shows, and its predecessor looks like no option
        from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

        options = [(sequence, depth), *picks]
        before = [state_signature(s, k - 1) for s, k in options]
        shown = [state_signature(s, k) for s, k in options]
        if any(pictures_look_alike(b, o) for b in before for o in shown):
            return None
        if not self._valid((sequence, state), [(sequence, depth), *picks]):
            return None
        return (sequence, state), picks


class CausalTask(OneStepTask):
    """Distractors from the same sequence: earlier states, or states two or more folds ahead."""

    id = "origamibench/one-step-causal-v3"
    name = "one-step-causal"
    variant = "causal"
    _salt = 0xCA05

    def _references(self, sequences: Sequence[FoldSequence]) -> list[tuple[FoldSequence, int]]:
        # the sequences with a valid option set for every place of the answer, each with its reference states
        return [(s, k) for s in sequences if all(causal_option_sets(s)) for k in
                sorted({states[slot] - 1 for slot, sets in enumerate(causal_option_sets(s)) for states in sets})]

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], slot: int, size: int
              ) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        names = sorted({s.name for s, _ in self._references(sequences)})
        sequence = _sequences_by_name()[names[int(rng.integers(len(names)))]]
        choices = causal_option_sets(sequence)[slot]
        states = choices[int(rng.integers(len(choices)))]
        answer = states[slot]
        return (sequence, answer - 1), [(sequence, k) for k in states if k != answer]


def _option_sets_of(count: int, folds: int) -> list[tuple[int, ...]]:
    """Every set of ``count`` states of ``1..folds``, no two consecutive, in increasing order."""
    return [tuple(b + offset for offset, b in enumerate(spread))
            for spread in combinations(range(1, folds - count + 2), count)]


@cache
def causal_option_sets(sequence: FoldSequence) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each place of the answer in time (0-3), every valid causal option set of a sequence.

    A set is four states, no two consecutive, such that no two of them and their predecessors look alike (every
    option's own last fold shows, as the answer's must, and no option's predecessor looks like another option,
    as the reference must not: otherwise the answer would stand apart), and with the answer at that place,
    exactly the answer is one fold after the reference (:meth:`OneStepTask._valid`). Items are drawn among
    these sets, so no draw is ever rejected.
    """
    from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

    if len(sequence) < CAUSAL_MIN_FOLDS:
        return ((), (), (), ())
    signatures = [state_signature(sequence, k) for k in range(len(sequence) + 1)]
    alike = {(i, j) for i in range(len(signatures)) for j in range(i + 1, len(signatures))
             if pictures_look_alike(signatures[i], signatures[j])}
    distinct = []
    for states in _option_sets_of(4, len(sequence)):
        shown = sorted({*states, *(k - 1 for k in states)})
        if not any((a, b) in alike for i, a in enumerate(shown) for b in shown[i + 1:]):
            distinct.append(states)
    by_slot = []
    for slot in range(4):
        by_slot.append(tuple(states for states in distinct if OneStepTask._valid(
            (sequence, states[slot] - 1), [(sequence, states[slot]), *((sequence, k) for k in states
                                                                        if k != states[slot])])))
    return tuple(by_slot)
