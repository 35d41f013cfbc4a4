"""OrigamiSpace's multi-step spatial reasoning: numbered pictures of states of one fold sequence, shuffled; which
of four orders (written like ``3, 1, 4, 2``) puts them in the order they are folded?

Items are drawn from the built-in fold sequences (:mod:`foldbench.crease.sequences`): a sequence with enough
steps uniformly, then ``k`` of its folded states (the ``states`` knob, 4-9 pictures). The default composition is
the paper's (section 4.2): :data:`PAPER_QUESTIONS` questions averaging 7.5 steps, here blocks of four items of 7
and of 8 pictures in turn. Each state is compiled by
:meth:`~foldbench.crease.sequences.FoldSequence.compiled` and drawn front and back as the OrigamiBench one-step
task draws it (:mod:`foldbench.tasks.origamibench.pictures`), but each scaled to fill its picture (the ``fill``
knob): at one scale the outline shrinks with every fold and gives the order away. A draw where two pictures look
alike is drawn again, and each state's creases must hold the creases of every earlier one and not the other way
round, so the true order is the only order in which every picture's creases hold the previous picture's. The
oracle finds that order from the compiled crease patterns alone.

**The four orders.** As in the paper, the wrong orders keep some local order right: they differ from the true
order by swapping one adjacent pair (the default, the ``edits`` knob), reversing a run of three or more, or
turning a block of four round. The set
is closed under those edits: it is ``{b∘g : g in G}`` for an order ``b`` drawn uniformly and a group ``G`` of four
position edits (two disjoint swaps or reversals and their combination, or the four turns of a block), so every
option is one edit from two others (or from all three), and every option could be the true one: nothing in the
set marks the answer (not being the medoid of the others, not its numbers, not its length). Items come in blocks
of four that share one set of orders and one number of pictures, each order the true one of exactly one item of
the block (their pictures come from different draws), so a rule that reads the orders alone is right exactly
once per block. The answer letter is balanced in blocks of four, the other options shuffled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from pydantic import BaseModel, field_validator

from foldbench.crease.sequences import CATEGORIES, FoldSequence, builtin_sequences_by_name, sequence_by_name
from foldbench.errors import FoldbenchError, InvalidKnobError
from foldbench.origami.instances import difficulty_of
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
from foldbench.tasks.origamibench.one_step import contains_creases
from foldbench.tasks.task_base import TaskBase
from foldbench.text.prompts import load_prompt

__all__ = ["DEFAULT_PICTURES", "EDIT_KINDS", "ENGINE_VERSION", "PAPER_QUESTIONS", "OrderingError", "OrderingKnobs",
           "OrderingTask", "edit_group", "order_text"]

ENGINE_VERSION = "origamispace-ordering-3"
SALT = 0x0D3E
MAX_TRIES = 400
MIN_PICTURES, MAX_PICTURES = 4, 9
DEFAULT_PICTURES: tuple[int, ...] = (7, 8)
"""Pictures per item by default, taken in turn by block of four items: 7.5 on average, as the paper's questions
(version 2 drew 4, 5, 6)."""
PAPER_QUESTIONS: int = 250
"""How many ordering questions the paper has (section 4.2); ``foldbench generate -n 250`` gives that many, 7.5
pictures on average."""
EDIT_KINDS: tuple[str, ...] = ("two-swaps", "swap-and-reversal", "two-reversals", "block-turn")
"""The groups of position edits an option set can be built from."""
DEFAULT_EDITS: tuple[str, ...] = ("two-swaps",)
"""Two disjoint adjacent swaps: the wrong orders are the finest (each differs from the true one in adjacent
pictures), and shallow picture cues find the answer least often with them (see docs/families/origamispace.md)."""
MIN_POSITIONS = {"two-swaps": 4, "swap-and-reversal": 5, "two-reversals": 6, "block-turn": 4}
EditKind = Literal["two-swaps", "swap-and-reversal", "two-reversals", "block-turn"]

Edit = tuple[int, ...]
"""A rearrangement of positions: the order ``o`` edited by ``g`` reads ``o[g[0]], o[g[1]], ...``."""


class OrderingError(FoldbenchError, RuntimeError):
    """No valid item could be drawn for a seed and index."""


class OrderingKnobs(Knobs):
    """Knobs of the ordering task."""

    categories: CommaList[str] | None = None
    """Sequence categories to draw from (simple, base, pleat, twist); default: all."""
    sequences: CommaList[str] | None = None
    """Names of the built-in sequences to draw from; default: all (of the chosen categories)."""
    states: CommaList[Whole] | None = None
    """Numbers of pictures per item (4-9), taken in turn by block of four items; default 7, 8 (the paper's 7.5
    steps on average)."""
    size: Whole = 160
    """Side in pixels of each view (front or back) of a state, 64-512."""
    edits: CommaList[EditKind] | None = None
    """Kinds of wrong orders, one kind per block of four items drawn among these (those that fit the number of
    pictures): ``two-swaps`` (two disjoint adjacent pairs swapped, singly and together), ``swap-and-reversal``
    (an adjacent swap and a reversed run of three or more), ``two-reversals``, ``block-turn`` (a block of four
    turned by one, two or three places); default ``two-swaps``."""
    fill: bool = True
    """Draw each state scaled to fill its views (default), so that the size of the folded outline, which shrinks
    with every fold, does not give the order away; false draws every state at one scale, as OrigamiBench does."""

    @field_validator("size")
    @classmethod
    def _size_in_range(cls, value: int) -> int:
        if not 64 <= value <= 512:
            raise ValueError(f"size must be 64..512, got {value}")
        return value


# ---- the option sets ---------------------------------------------------------------------------------------


def _reversal(k: int, i: int, length: int) -> Edit:
    g = list(range(k))
    g[i:i + length] = reversed(g[i:i + length])
    return tuple(g)


def _turn(k: int, i: int, shift: int) -> Edit:
    g = list(range(k))
    for j in range(4):
        g[i + j] = i + (j + shift) % 4
    return tuple(g)


def _compose(g: Edit, h: Edit) -> Edit:
    """``g`` then ``h``: the order edited by ``g``, then by ``h``."""
    return tuple(g[p] for p in h)


def _runs(k: int, lengths: Sequence[int]) -> list[tuple[int, int]]:
    return [(i, length) for length in lengths for i in range(k - length + 1)]


def _disjoint(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] + a[1] <= b[0] or b[0] + b[1] <= a[0]


def edit_group(kind: str, k: int, rng: np.random.Generator) -> list[Edit] | None:
    """Four position edits of ``k`` positions that form a group (the identity first), of the given kind, placed
    at random; None when ``k`` positions leave no room for that kind.

    >>> group = edit_group("block-turn", 4, np.random.default_rng(0))
    >>> group[0], sorted(group)[1:]
    ((0, 1, 2, 3), [(1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)])
    """
    identity = tuple(range(k))
    if kind == "block-turn":
        if k < 4:
            return None
        i = int(rng.integers(k - 3))
        return [identity, *(_turn(k, i, shift) for shift in (1, 2, 3))]
    swaps, reversals = _runs(k, [2]), _runs(k, range(3, k + 1))
    first_pool, second_pool = {"two-swaps": (swaps, swaps), "swap-and-reversal": (swaps, reversals),
                               "two-reversals": (reversals, reversals)}[kind]
    same_kind = first_pool is second_pool
    pairs = [(a, b) for a in first_pool for b in second_pool if _disjoint(a, b) and (a < b or not same_kind)]
    if not pairs:
        return None
    (i, m), (j, n) = pairs[int(rng.integers(len(pairs)))]
    s, t = _reversal(k, i, m), _reversal(k, j, n)
    return [identity, s, t, _compose(s, t)]


def order_text(order: Sequence[int]) -> str:
    """An order of picture numbers as an option is written.

    >>> order_text([3, 1, 4, 2])
    '3, 1, 4, 2'
    """
    return ", ".join(str(number) for number in order)


def _option_set(seed: int, block: int, k: int, kinds: Sequence[str]) -> tuple[str, list[tuple[int, ...]]]:
    """The kind of edits (one of ``kinds`` that fits ``k`` pictures) and the four orders of picture numbers 1..k
    shared by one block of items."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, block, SALT]))
    fitting = [kind for kind in kinds if k >= MIN_POSITIONS[kind]]
    kind = fitting[int(rng.integers(len(fitting)))]
    group = edit_group(kind, k, rng)
    if group is None:
        raise AssertionError(f"no {kind} edits of {k} positions")
    base = tuple(int(x) + 1 for x in rng.permutation(k))
    return kind, [tuple(base[p] for p in g) for g in group]


# ---- the task ----------------------------------------------------------------------------------------------


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow without sized default fonts
        return ImageFont.load_default()


def _font_size(size: int) -> int:
    return max(12, size // 8)


def _composite(pictures: Sequence[Image.Image], caption: str = "") -> Image.Image:
    """The pictures numbered 1..k, two to a row."""
    gap, label = 14, _font_size(pictures[0].height) + 8
    columns = 2
    rows = (len(pictures) + columns - 1) // columns
    width = columns * pictures[0].width + (columns + 1) * gap
    extra = 24 if caption else 0
    height = rows * (pictures[0].height + label + gap) + gap + extra
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = _font(_font_size(pictures[0].height))
    for number, picture in enumerate(pictures, start=1):
        x = gap + ((number - 1) % columns) * (picture.width + gap)
        y = gap + ((number - 1) // columns) * (picture.height + label + gap)
        draw.text((x, y), str(number), fill=(0, 0, 0), font=font)
        image.paste(picture, (x, y + label))
    if caption:
        draw.text((gap, height - extra), caption, fill=(0, 0, 0), font=_font(14))
    return image


class OrderingTask(TaskBase):
    """In which order were the pictured states folded?"""

    id = "origamispace/multi-step-ordering-v3"
    name = "multi-step-ordering"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = OrderingKnobs
    engine_version = ENGINE_VERSION
    item_salt = (SALT,)

    @property
    def spec(self) -> TaskSpec:
        """Accuracy, by number of pictures, sequence category and the kind of edits of the option set."""
        return TaskSpec(engine_version=ENGINE_VERSION, metrics=(Metric("accuracy"),), headline="accuracy",
                        breakdowns=("pictures", "category", "edits"), gallery=self.gallery,
                        manifest_notes=self.manifest_notes)

    def manifest_notes(self, knobs: Mapping[str, Any]) -> dict[str, Any]:
        """How the orders are built and balanced."""
        return {
            "source": "built-in fold sequences; states compiled and drawn front and back",
            "options": "a set of four orders closed under the edits of one kind: "
                       + ", ".join(knobs.get("edits") or DEFAULT_EDITS),
            "balance": "blocks of four items share their four orders, each the true order once; letters balanced "
                       "in blocks of four",
            "composition": "pictures per item, in turn by block of four: "
                           + ", ".join(str(k) for k in (knobs.get("states") or DEFAULT_PICTURES))
                           + f" (the paper: {PAPER_QUESTIONS} questions, 7.5 steps on average)",
        }

    # ---- knobs -------------------------------------------------------------------------------------------
    def validate_knobs(self, knobs: Mapping[str, Any] | None) -> dict[str, Any]:
        """The knobs with defaults, and the sequences they select; an :class:`InvalidKnobError` for unknown
        categories or sequences, picture counts out of range, or a selection too short for a picture count."""
        config = self.checked_knobs(knobs, ()).model_dump()
        categories = config["categories"] or CATEGORIES
        unknown = [c for c in categories if c not in CATEGORIES]
        if unknown:
            raise InvalidKnobError(f"{self.id}: knob 'categories': {unknown[0]!r} is not one of "
                                   f"{', '.join(CATEGORIES)}")
        names = builtin_sequences_by_name()
        chosen = config["sequences"] or tuple(names)
        missing = [n for n in chosen if n not in names]
        if missing:
            raise InvalidKnobError(f"{self.id}: knob 'sequences': no built-in sequence {missing[0]!r}")
        counts = config["states"] or DEFAULT_PICTURES
        wrong = [c for c in counts if not MIN_PICTURES <= c <= MAX_PICTURES]
        if wrong:
            raise InvalidKnobError(f"{self.id}: knob 'states': every count must be {MIN_PICTURES}..{MAX_PICTURES}, "
                                   f"got {wrong[0]}")
        selected = tuple(names[n] for n in chosen if names[n].category in categories)
        for count in counts:
            if not any(len(s) >= count for s in selected):
                raise InvalidKnobError(f"{self.id}: knob 'states': no chosen sequence has {count} folded states")
        kinds = config["edits"] or DEFAULT_EDITS
        for count in counts:
            if not any(count >= MIN_POSITIONS[kind] for kind in kinds):
                raise InvalidKnobError(f"{self.id}: knob 'edits': none of {', '.join(kinds)} fits {count} pictures")
        config["selected"], config["states"], config["edits"] = selected, tuple(counts), tuple(kinds)
        return config

    # ---- generation --------------------------------------------------------------------------------------
    def generate(
        self, n: int, seed: int, *, modalities: tuple[str, ...] = ("image",), knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:  # fmt: skip
        """Items ``start .. n-1``; item ``i`` depends only on ``(seed, i)`` and the knobs."""
        self.check_modalities(modalities)
        config = self.validate_knobs(knobs)
        return (self.make_item(seed, index, config) for index in range(start, n))

    def _draw_states(self, rng: np.random.Generator, sequences: Sequence[FoldSequence], k: int, fill: bool
                     ) -> tuple[FoldSequence, list[int]] | None:
        from foldbench.tasks.origamibench.pictures import pictures_look_alike, state_signature

        names = sorted(s.name for s in sequences if len(s) >= k)
        sequence = builtin_sequences_by_name()[names[int(rng.integers(len(names)))]]
        states = sorted(int(s) for s in rng.choice(np.arange(1, len(sequence) + 1), size=k, replace=False))
        signatures = [state_signature(sequence, state, fill) for state in states]
        if any(pictures_look_alike(a, b) for i, a in enumerate(signatures) for b in signatures[i + 1:]):
            return None
        patterns = [sequence.pattern(state) for state in states]
        for earlier, later in zip(patterns, patterns[1:], strict=False):
            if not contains_creases(earlier, later) or contains_creases(later, earlier):
                return None
        return sequence, states

    def make_item(self, seed: int, index: int, config: Mapping[str, Any]) -> Item:
        """Item ``index`` of the dataset seeded with ``seed`` (a pure function of its arguments)."""
        item_seed, rng = self.item_rng(seed, index)
        counts = config["states"]
        k = int(counts[(index // 4) % len(counts)])
        kind, orders = _option_set(seed, index // 4, k, config["edits"])
        for _ in range(MAX_TRIES):
            drawn = self._draw_states(rng, config["selected"], k, config["fill"])
            if drawn is not None:
                break
        else:
            raise OrderingError(f"{self.id}: no {k} distinct states for seed {seed}, index {index} after "
                                f"{MAX_TRIES} tries; try other knobs")
        sequence, states = drawn
        answer = orders[answer_slot(seed, index, salt=SALT + 1)]
        # the picture numbered answer[p] shows the p-th state in folding order
        by_number = [0] * k
        for position, number in enumerate(answer):
            by_number[number - 1] = states[position]
        distractors = [orders[int(i)] for i in rng.permutation(4) if orders[int(i)] != answer]
        slot = answer_slot(seed, index, salt=SALT + 2)
        options = list(distractors)
        options.insert(slot, answer)
        item_id = f"{self.name}-{index:05d}"
        base = f"images/{item_id}"
        return self.new_item(
            item_id, item_seed,
            inputs={**options_field([order_text(o) for o in options]), "size": config["size"], "fill": config["fill"],
                    "images": {"composite": f"{base}/composite.png",
                               "states": [f"{base}/state_{number}.png" for number in range(1, k + 1)]}},
            target={**answer_field(LETTERS[slot]), "sequence": sequence.name, "states": by_number,
                    "order": list(answer)},
            metadata={"pictures": k, "category": sequence.category, "sequence": sequence.name,
                      "difficulty": difficulty_of(len(sequence)), "edits": kind},
        )  # fmt: skip

    # ---- pictures ----------------------------------------------------------------------------------------
    def _pictures(self, item: Item) -> list[Image.Image]:
        from foldbench.tasks.origamibench.pictures import state_picture

        sequence = sequence_by_name(item.target["sequence"])
        size, fill = int(item.inputs["size"]), bool(item.inputs["fill"])
        return [state_picture(sequence, int(state), size, fill) for state in item.target["states"]]

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The numbered pictures together, and each on its own."""
        from foldbench.tasks.origamibench.pictures import png_bytes

        pictures = self._pictures(item)
        images = item.inputs["images"]
        yield images["composite"], png_bytes(_composite(pictures))
        for path, picture in zip(images["states"], pictures, strict=True):
            yield path, png_bytes(picture)

    def gallery(self, item: Item, answer: Mapping[str, Any] | None) -> list[tuple[str, bytes]]:
        """For a report: the pictures, the true order and the order chosen."""
        from foldbench.tasks.origamibench.pictures import png_bytes

        right, options = item.target["answer"], option_records(item.inputs)
        caption = f"answer {right}: {options[LETTERS.index(right)]}"
        chosen = (answer or {}).get("answer")
        if chosen in LETTERS and chosen != right:
            caption += f"; model chose {chosen}: {options[LETTERS.index(chosen)]}"
        elif chosen is None:
            caption += "; no readable choice"
        return [(caption, png_bytes(_composite(self._pictures(item), caption)))]

    # ---- prompts and answers -----------------------------------------------------------------------------
    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The numbered pictures, then the question with the four orders."""
        self.check_modality(modality)
        prompt = load_prompt("foldbench.tasks.origamispace", "multi-step-ordering.txt")
        text = prompt.render(count=len(item.inputs["images"]["states"]), fill=bool(item.inputs["fill"]),
                             options=list(zip(LETTERS, option_records(item.inputs), strict=True))).strip()
        return Prompt((ImagePart(item.inputs["images"]["composite"]), TextPart(text + "\n")),
                      template_version=prompt.version or "")

    def parse(self, item: Item, text: str) -> Choice | ParseFailure:
        """One letter A-D (see :mod:`foldbench.tasks.choice`)."""
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        """Accuracy: 1 when the letter is the true order."""
        return score_choice(item.target["answer"], answer)

    def folding_order(self, item: Item) -> list[int]:
        """The picture numbers in folding order, read from the compiled crease patterns: a picture comes after
        every picture whose creases it holds."""
        sequence = sequence_by_name(item.target["sequence"])
        patterns = [sequence.pattern(int(state)) for state in item.target["states"]]
        held = [sum(contains_creases(other, pattern) for j, other in enumerate(patterns) if j != i)
                for i, pattern in enumerate(patterns)]
        if sorted(held) != list(range(len(patterns))):
            raise AssertionError(f"{item.id}: the pictures' creases do not nest as a chain ({held})")
        return [number for _, number in sorted(zip(held, range(1, len(patterns) + 1), strict=True))]

    def oracle(self, item: Item) -> Choice:
        """The option that is the folding order the compiled crease patterns give."""
        text = order_text(self.folding_order(item))
        matching = [i for i, option in enumerate(option_records(item.inputs)) if option == text]
        if len(matching) != 1:
            raise AssertionError(f"{item.id}: {len(matching)} options are the folding order {text}")
        return Choice(answer=LETTERS[matching[0]])  # type: ignore[arg-type]

    def human_form(self, item: Item) -> HumanForm:
        """People pick one option letter."""
        return HumanForm.letters()

    def random_answer(self, item: Item, rng: np.random.Generator) -> Choice:
        """A letter drawn uniformly."""
        return random_choice(rng)
