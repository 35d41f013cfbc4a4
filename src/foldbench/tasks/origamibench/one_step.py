"""OrigamiBench's one-step multiple choice: given a folded reference state (front and back), choose the state
exactly one fold later.

Items are drawn from the built-in fold sequences (:mod:`foldbench.crease.sequences`) and, with the ``models``
knob, from sequences derived from the shipped models (:mod:`foldbench.tasks.origamibench.model_sequences`). The
answer is the state after the reference. Two variants:

* **associative**: the reference is a state ``k >= 1`` of a sequence drawn uniformly and the three distractors
  are states of *other* sequences, at the answer's depth (number of folds) where there are enough; of up to
  :data:`ASSOCIATIVE_CANDIDATES` valid draws, the item keeps the one that puts the answer nearest a target place
  by ink among the options (balanced in blocks of four items), so the amount of ink says nothing. Its answer is
  meant to look like the reference (the paper designs it so), which the audit is told
  (``reference_likeness_by_design``);
* **causal**: the reference is a folded state (never the blank square) and the distractors three other folded
  states of the *same* sequence (earlier, or two or more folds after the reference). Every valid question of a
  sequence is listed once (:func:`causal_sets`) with the answer's place among the options by each blind measure
  (distance to the reference picture by ink area, grey levels and outline overlap; ink among the options; time);
  an item draws target places (balanced in blocks of four items) and takes a question nearest them, so no measure
  finds the answer more often than chance. Causal pictures fill their views, so size says nothing.

Every item is checked by the compiler: every option folds flat, exactly one option holds all the reference's
creases and is one step of its own sequence beyond a state with exactly the reference's creases, and no two of
the five pictures look alike (:func:`~foldbench.tasks.origamibench.pictures.pictures_look_alike`). The answer
letter is balanced in blocks of four items. The associative prompt asks for ``[X]`` and the causal prompt for a
bare letter, as the paper's do; both read either form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, field_validator

from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.sequences import CATEGORIES, FoldSequence, builtin_sequences_by_name, sequence_by_name
from foldbench.errors import FoldbenchError, InvalidKnobError
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
    answer_slot,
    parse_choice,
    random_choice,
    score_choice,
    the_true_option,
    wrong_choice,
)
from foldbench.tasks.choice_fields import (
    answer_field,
    choice_images,
    option_pictures,
    option_sources,
    option_sources_field,
    reference_picture,
)
from foldbench.tasks.knobs import CommaList, Knobs, Whole
from foldbench.tasks.task_base import TaskBase, check_range, item_rng
from foldbench.text.prompts import load_prompt

__all__ = [
    "ENGINE_VERSION",
    "MODEL_CATEGORY",
    "AssociativeTask",
    "CausalTask",
    "OneStepGenerationError",
    "OneStepKnobError",
    "OneStepKnobs",
    "OneStepTask",
    "CausalSet",
    "causal_sets",
    "contains_creases",
    "one_fold_after",
]

ENGINE_VERSION = "origamibench-sequences-5"
"""The version of the fold sequences and of the checks the items are built with."""
MAX_TRIES = 1000
CAUSAL_MIN_FOLDS = 5
"""A causal item takes a folded reference and four other folded states of one sequence: at least 5 folds."""
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
    models: CommaList[str] | None = None
    """Also draw from the sequences derived from these of OrigamiBench's 366 shipped models (file names without
    ``.fold``, or ``all``), in category ``model`` (:mod:`foldbench.tasks.origamibench.model_sequences`; deriving
    all of them takes minutes the first time in a process). Default: none."""

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


_REMEMBERED = 4096
"""Patterns (and, separately, pairs of patterns) whose crease segments and containment are kept: a sequence's
states are asked about again and again (every ordering item's oracle, every causal set's check)."""
_segments_of: dict[tuple[int, ...], tuple[tuple[CreasePattern, ...], dict[str, np.ndarray]]] = {}
_containment_of: dict[tuple[int, ...], tuple[tuple[CreasePattern, ...], bool]] = {}


def _remembered(memo: dict[tuple[int, ...], tuple[tuple[Any, ...], Any]], objects: tuple[Any, ...],
                make: Callable[..., Any]) -> Any:
    """``make(*objects)``, made once per tuple of objects (by identity: crease patterns are immutable but not
    hashable). An entry holds its objects, so their ids name no other object while it is kept; the memo is
    emptied when it holds :data:`_REMEMBERED` entries."""
    key = tuple(map(id, objects))
    entry = memo.get(key)
    if entry is not None and all(kept is given for kept, given in zip(entry[0], objects, strict=True)):
        return entry[1]
    if len(memo) >= _REMEMBERED:
        memo.clear()
    value = make(*objects)
    memo[key] = (objects, value)
    return value


def _covers(inner: CreasePattern, outer: CreasePattern) -> bool:
    inner_segments = _remembered(_segments_of, (inner,), _crease_segments)
    outer_segments = _remembered(_segments_of, (outer,), _crease_segments)
    return all(_covered(inner_segments[letter], outer_segments[letter]) for letter in ("M", "V"))


def contains_creases(inner: CreasePattern, outer: CreasePattern) -> bool:
    """Whether every mountain and valley crease of ``inner`` lies on creases of ``outer`` with the same letter
    (worked out once per pair of pattern objects).

    >>> from foldbench.crease.sequences import sequence_by_name
    >>> blintz = sequence_by_name("blintz")
    >>> contains_creases(blintz.pattern(1), blintz.pattern(2)), contains_creases(blintz.pattern(2), blintz.pattern(1))
    (True, False)
    """
    return _remembered(_containment_of, (inner, outer), _covers)


def one_fold_after(reference: CreasePattern, sequence: FoldSequence, state: int) -> bool:
    """Whether state ``state`` of ``sequence`` is the reference plus one fold: it holds the reference's creases,
    and the state before it has exactly the reference's creases."""
    if state < 1:
        return False
    option, before = sequence.pattern(state), sequence.pattern(state - 1)
    return (contains_creases(reference, option) and contains_creases(reference, before)
            and contains_creases(before, reference))


# ---- the tasks -----------------------------------------------------------------------------------------------


def _pick(rng: np.random.Generator, references: Sequence[tuple[FoldSequence, int]]) -> tuple[FoldSequence, int]:
    """A sequence drawn uniformly among those with references, then one of its reference states."""
    names = sorted({s.name for s, _ in references})
    name = names[int(rng.integers(len(names)))]
    states = [(s, k) for s, k in references if s.name == name]
    return states[int(rng.integers(len(states)))]


MODEL_CATEGORY = "model"
"""The category of the sequences derived from the shipped models."""


def _model_knob_sequences(task_id: str, models: Sequence[str] | None) -> dict[str, FoldSequence]:
    """The sequences derived from the models the ``models`` knob names (by sequence name); a
    :class:`OneStepKnobError` for a name that is no shipped model."""
    if not models:
        return {}
    from foldbench.tasks.origamibench.model_sequences import model_sequences, model_stems

    stems = model_stems()
    if list(models) != ["all"]:
        missing = [m for m in models if m not in stems]
        if missing:
            raise OneStepKnobError(f"{task_id}: knob 'models': no shipped model {missing[0]!r} (file names without "
                                   ".fold, e.g. 001_traditional_Sailboat, or all)")
        stems = tuple(sorted(set(models)))
    return {m.sequence.name: m.sequence for m in model_sequences(stems) if m.sequence is not None}


def _sequence_named(name: str) -> FoldSequence:
    """A built-in sequence, or one derived from a shipped model (``model-<file stem>``)."""
    if not name.startswith("model-"):
        return sequence_by_name(name)  # built alone: scoring one item does not build every built-in sequence
    from foldbench.tasks.origamibench.model_sequences import model_sequences

    derived = model_sequences((name.removeprefix("model-"),))
    if not derived or derived[0].sequence is None:
        raise KeyError(f"no sequence {name!r}: the model has no derived sequence")
    return derived[0].sequence


class OneStepTask(TaskBase):
    """The shared half of the two one-step variants (the distractor draw differs)."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    variant: ClassVar[str] = ""
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = OneStepKnobs
    engine_version = ENGINE_VERSION
    knob_error = OneStepKnobError
    _salt: ClassVar[int] = 0
    fill: ClassVar[bool] = False
    """Whether each picture is scaled to fill its views (the causal pictures), or all drawn at one scale."""

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
        given = self.checked_knobs(knobs, ())
        config = given.model_dump()
        known = (*CATEGORIES, MODEL_CATEGORY) if config["models"] else CATEGORIES
        categories = config["categories"] or known
        unknown = [c for c in categories if c not in known]
        if unknown:
            raise OneStepKnobError(
                f"{self.id}: knob 'categories': {unknown[0]!r} is not one of {', '.join(known)}")
        names = {**builtin_sequences_by_name(), **_model_knob_sequences(self.id, config["models"])}
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
        self.check_modalities(modalities)
        check_range(self.id, n, start, OneStepKnobError)
        config = self.validate_knobs(knobs)
        return (self.make_item(seed, index, config) for index in range(start, n))

    def make_item(self, seed: int, index: int, config: Mapping[str, Any]) -> Item:
        """Item ``index`` of the dataset seeded with ``seed`` (a pure function of its arguments)."""
        item_seed, rng = item_rng(seed, index, (self._salt,))
        answer_index = answer_slot(seed, index, self._salt + 1)
        targets = tuple(answer_slot(seed, index, self._salt + 2 + k) for k in range(len(_LIKENESS_WEIGHTS)))
        for _ in range(MAX_TRIES):
            drawn = self._draw(rng, config["selected"], targets, config["size"])
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
        return self.new_item(
            item_id,
            item_seed,
            {
                "images": choice_images([f"{base}/option_{letter}.png" for letter in LETTERS],
                                        reference=f"{base}/reference.png", composite=f"{base}/composite.png"),
                "size": config["size"],
            },
            target={
                **answer_field(LETTERS[answer_index]),
                "reference": {"sequence": sequence.name, "state": state},
                **option_sources_field([{"sequence": s.name, "state": k} for s, k in options]),
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

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], targets: tuple[int, ...],
              size: int) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        """The reference and three distractors, or None to draw again; ``targets`` (each 0-3, each balanced in
        blocks of four items) are the places the variant aims to give the answer (see :data:`_LIKENESS_WEIGHTS`)."""
        raise NotImplementedError

    @staticmethod
    def _valid_options(reference: tuple[FoldSequence, int], options: list[tuple[FoldSequence, int]]) -> bool:
        """Whether exactly the first option is one fold after the reference (by the compiler's crease patterns)."""
        sequence, state = reference
        pattern = sequence.pattern(state)
        return [one_fold_after(pattern, s, k) for s, k in options] == [True, False, False, False]

    @staticmethod
    def _valid(reference: tuple[FoldSequence, int], options: list[tuple[FoldSequence, int]]) -> bool:
        """Whether exactly the first option is one fold after the reference and no two pictures look alike."""
        from foldbench.tasks.origamibench.pictures import states_look_alike

        if not OneStepTask._valid_options(reference, options):
            return False
        states = [reference, *options]
        return not any(states_look_alike(*states[i], *states[j])
                       for i in range(len(states)) for j in range(i + 1, len(states)))

    # ---- pictures ----------------------------------------------------------------------------------------
    def _states(self, item: Item) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]]:
        reference = item.target["reference"]
        options = [(_sequence_named(o["sequence"]), int(o["state"])) for o in option_sources(item.target)]
        return (_sequence_named(reference["sequence"]), int(reference["state"])), options

    def _pictures(self, item: Item) -> tuple[Any, list[Any]]:
        from foldbench.tasks.origamibench.pictures import state_picture

        size = int(item.inputs["size"])
        reference, options = self._states(item)
        return state_picture(*reference, size, self.fill), [state_picture(s, k, size, self.fill) for s, k in options]

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The four option pictures, the reference picture and their composite (PNG)."""
        from foldbench.tasks.origamibench.pictures import composite, png_bytes, state_png

        reference, options = self._pictures(item)
        size = int(item.inputs["size"])
        (reference_sequence, reference_state), states = self._states(item)
        images = item.inputs["images"]
        for path, (sequence, state) in zip(option_pictures(item.inputs), states, strict=True):
            yield path, state_png(sequence, state, size, self.fill)
        yield str(reference_picture(item.inputs)), state_png(reference_sequence, reference_state, size, self.fill)
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
        self.check_modality(modality)
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

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()


class AssociativeTask(OneStepTask):
    """Distractors from other sequences, at the answer's depth where possible; among a few valid draws, the one
    that puts the answer nearest to its target place by ink among the options."""

    id = "origamibench/one-step-associative-v5"
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

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], targets: tuple[int, ...],
              size: int) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        from foldbench.tasks.origamibench.pictures import state_likeness

        sequence, state = _pick(rng, self._references(sequences))
        best: tuple[int, list[tuple[FoldSequence, int]]] | None = None
        for _ in range(ASSOCIATIVE_CANDIDATES):
            picks = self._distractors(rng, sequences, sequence, state)
            if picks is None:
                continue
            inks = [int(state_likeness(s, k, size)[1].sum()) for s, k in [(sequence, state + 1), *picks]]
            if inks.count(inks[0]) > 1:
                continue
            miss = abs(sum(1 for ink in inks[1:] if ink < inks[0]) - targets[0])
            if best is None or miss < best[0]:
                best = (miss, picks)
            if miss == 0:
                break
        return None if best is None else ((sequence, state), best[1])

    def _distractors(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], sequence: FoldSequence,
                     state: int) -> list[tuple[FoldSequence, int]] | None:
        """Three states of other sequences near the answer's depth that pass the checks, or None."""
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
        from foldbench.tasks.origamibench.pictures import states_look_alike

        options = [(sequence, depth), *picks]
        if any(states_look_alike(s, k - 1, *shown) for s, k in options for shown in options):
            return None
        if not self._valid((sequence, state), [(sequence, depth), *picks]):
            return None
        return picks


@dataclass(frozen=True)
class CausalSet:
    """One causal question a sequence offers: the reference state, the four option states (in time order, the
    answer ``reference + 1`` among them) and where the answer stands among them by each blind measure."""

    sequence: FoldSequence
    reference: int
    states: tuple[int, ...]
    places: tuple[int, ...]
    """The answer's place (0-3) among the options: nearest-to-farthest from the reference picture by ink area,
    grey levels and outline overlap, then by ink among the options, then in time."""


class CausalTask(OneStepTask):
    """Distractors from the same sequence (any states but the reference and the blank square), chosen so that
    the answer is no nearer to the reference picture than chance makes it."""

    id = "origamibench/one-step-causal-v4"
    name = "one-step-causal"
    variant = "causal"
    fill = True
    _salt = 0xCA05

    def _references(self, sequences: Sequence[FoldSequence]) -> list[tuple[FoldSequence, int]]:
        return sorted({(s.name, c.reference): (s, c.reference) for s in sequences for c in causal_sets(s)}.values(),
                      key=lambda pair: (pair[0].name, pair[1]))

    def _draw(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], targets: tuple[int, ...],
              size: int) -> tuple[tuple[FoldSequence, int], list[tuple[FoldSequence, int]]] | None:
        pool = [c for s in sequences for c in causal_sets(s)]
        places = np.array([c.places for c in pool], dtype=float)
        misses = (np.abs(places - np.array(targets, dtype=float)) * np.array(_LIKENESS_WEIGHTS)).sum(axis=1)
        closest = np.flatnonzero(misses <= misses.min() + 1e-9)
        chosen = pool[int(closest[int(rng.integers(len(closest)))])]
        answer = chosen.reference + 1
        return (chosen.sequence, chosen.reference), [(chosen.sequence, k) for k in chosen.states if k != answer]


_LIKENESS_WEIGHTS: tuple[float, ...] = (2.0, 2.0, 2.0, 1.0, 1.0)
"""How much a causal item's draw weighs missing the answer's target place by each measure of
:attr:`CausalSet.places` (the three reference-aware measures most, being the hardest to balance); the associative
draw uses the first target alone, for the answer's place by ink among the options."""
ASSOCIATIVE_CANDIDATES = 12
"""Valid distractor draws an associative item compares before it keeps the one nearest its ink target."""


@cache
def causal_sets(sequence: FoldSequence) -> tuple[CausalSet, ...]:
    """Every causal question of a sequence that passes the checks.

    The reference is a folded state (never the blank square), the answer the state after it, and the three
    distractors any other folded states of the sequence; every option's own last fold shows in its picture, no
    two of the five pictures look alike, and exactly the answer is one fold after the reference
    (:meth:`OneStepTask._valid`). Each set records the answer's places by the blind measures, so that items can
    be drawn to put the answer at every place equally often.
    """
    from foldbench.tasks.origamibench.pictures import likeness_ranks, state_likeness

    if len(sequence) < CAUSAL_MIN_FOLDS:
        return ()
    signatures, shows = _causal_signatures(sequence)
    sets = []
    for reference in range(1, len(sequence)):
        answer = reference + 1
        if not shows[answer]:
            continue
        others = [k for k in range(1, len(sequence) + 1) if k not in (reference, answer) and shows[k]]
        # Whether each state is one fold after the reference, asked once per state rather than once per
        # combination of distractors (OneStepTask._valid_options asks the same of each option).
        reference_pattern = sequence.pattern(reference)
        follows = {k: one_fold_after(reference_pattern, sequence, k) for k in (answer, *others)}
        for distractors in combinations(others, 3):
            states = tuple(sorted((answer, *distractors)))
            if any(signatures[a, b] for a, b in combinations(sorted((reference, *states)), 2)):
                continue
            place = states.index(answer)
            features = [state_likeness(sequence, k, _LIKENESS_SIZE, fill=True) for k in states]
            ranks = likeness_ranks(state_likeness(sequence, reference, _LIKENESS_SIZE, fill=True), features, place)
            inks = [int(mask.sum()) for _, mask in features]
            if ranks is None or inks.count(inks[place]) > 1:
                continue
            if [follows[k] for k in (answer, *distractors)] != [True, False, False, False]:
                continue
            ink_place = sum(1 for ink in inks if ink < inks[place])
            sets.append(CausalSet(sequence, reference, states, (*ranks, ink_place, place)))
    return tuple(sets)


_LIKENESS_SIZE = 128
"""Pixels a view at which causal sets are measured (the measures shrink every picture to 48-64 pixels first)."""


def _causal_signatures(sequence: FoldSequence) -> tuple[dict[tuple[int, int], bool], list[bool]]:
    """Which pairs of a sequence's folded states look alike (as the causal pictures draw them), and whether each
    state's last fold shows."""
    from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

    count = len(sequence) + 1
    fitted = [state_signature(sequence, k, True) for k in range(count)]
    alike = {(a, b): pictures_look_alike(fitted[a], fitted[b]) for a in range(count) for b in range(a + 1, count)}
    plain = [state_signature(sequence, k) for k in range(count)]
    shows = [k >= 1 and not pictures_look_alike(plain[k], plain[k - 1]) for k in range(count)]
    return alike, shows
