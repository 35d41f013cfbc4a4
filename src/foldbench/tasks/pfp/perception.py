"""Perception probes for Paper Folding Puzzles: questions about what a single-step item's picture shows, asked on
the same items as ``pfp/single-step`` so that the two results pair up.

A dataset of ``n`` probes asks about the first ``ceil(n / q)`` items (``q`` = the ``questions`` knob; twice or
four times as many when so few do not allow ``n`` balanced questions) of the single-step dataset of the same
seed and knobs, each shown in the same composite picture a model gets for that item (``metadata["source_item"]``
names it, ``metadata["source_seed"]`` and ``metadata["configuration"]`` pin it).
From every question those puzzles allow, :func:`foldbench.tasks.probes.balanced_plan` draws the ``n`` items:
question types equally often and, within a type, every answer equally often, each item offering the type's
answers that occur (so neither the most frequent answer nor a fixed place among the answers beats chance). The
items depend on ``n``. The questions, each asked only where its answer is unambiguous:

* ``fold_count`` — how many pictures of the top row show a fold;
* ``fold_side`` — which part of the paper moved in the first fold (not for corner folds);
* ``cutout_count`` — how many shapes are cut through the folded paper (only when no two of them touch);
* ``option_holes`` — how many holes inside the paper an option (any of A–D) shows, cuts that reach the edge not
  counted;
* ``most_holes`` — which option shows the most holes inside the paper, cuts that reach the edge not counted
  (only when one option has strictly the most).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import field_validator

from foldbench.pfp import ENGINE_VERSION
from foldbench.pfp.puzzle import Puzzle, puzzle_holes
from foldbench.pfp.shapes import cutout_polygon, sheet_polygon
from foldbench.tasks.base import ImagePart, Item, Prompt, TaskSpec, TextPart
from foldbench.tasks.choice_fields import (
    QUESTION_KIND_KEY,
    SUBTASK_KEY,
    answer_field,
    offered_choices,
    option_records,
    question_kind_field,
    question_text_field,
    without_probe_fields,
)
from foldbench.tasks.knobs import Knobs, Whole
from foldbench.tasks.pfp.fold_tasks import SingleStepTask
from foldbench.tasks.pfp.knobs import PfpFoldKnobs
from foldbench.tasks.probes import (
    PROBE_METRICS,
    Candidate,
    ProbeAnswers,
    asked_question,
    balanced_plan_over_sources,
    configuration_hash,
    offered_answers,
)
from foldbench.tasks.task_base import TaskBase

__all__ = ["PfpPerceptionKnobs", "PfpPerceptionTask", "fold_questions"]

TEMPLATE_VERSION = "pfp-perception-v2"
#: Distances (in sheet units; the sheet is 360 wide, about 2 units a pixel in an option picture) under which two
#: outlines read as touching in a picture (outlines are drawn 2 px wide).
_CLEAR = 5.0
SIDES = ("top", "bottom", "left", "right", "upper left", "upper right", "lower left", "lower right")
LETTERS = ("A", "B", "C", "D")


class PfpPerceptionKnobs(PfpFoldKnobs):
    """The single-step knobs, and how many questions per puzzle."""

    questions: Whole = 3
    """Questions per puzzle: 1 to 5 (item i asks about single-step item i div questions)."""

    @field_validator("questions")
    @classmethod
    def _questions(cls, value: int) -> int:
        if not 1 <= value <= 5:
            raise ValueError("must be a whole number from 1 to 5")
        return value


def _side(normal: tuple[float, float]) -> str:
    """The part of the paper a crease's normal points to (the part a fold moves), y pointing up."""
    nx, ny = normal
    vertical = "upper" if ny > 0.3 else "lower" if ny < -0.3 else ""
    horizontal = "right" if nx > 0.3 else "left" if nx < -0.3 else ""
    if vertical and horizontal:
        return f"{vertical} {horizontal}"
    return horizontal or ("top" if vertical == "upper" else "bottom")


def _inside_holes(option: Mapping[str, Any]) -> int | None:
    """The holes of an option's unfolded sheet that do not reach its edge; None when the number is not clear from
    the picture (two holes touching at a point, or a hole nearly touching the edge)."""
    puzzle = Puzzle.from_dict(dict(option))
    holes = puzzle_holes(puzzle)
    boundary = sheet_polygon(puzzle.sheet).boundary

    def inside(geometry: Any) -> int:
        pieces = list(getattr(geometry, "geoms", [geometry])) if not geometry.is_empty else []
        return sum(piece.distance(boundary) > _CLEAR for piece in pieces)

    count = inside(holes)
    near_edge = any(
        0 < piece.distance(boundary) <= _CLEAR for piece in getattr(holes, "geoms", [holes]) if not piece.is_empty
    )
    return None if near_edge or inside(holes.buffer(-_CLEAR)) != count else count


def fold_questions(inputs: Mapping[str, Any]) -> list[tuple[str, str, tuple[str, ...], str]]:
    """Every unambiguous question about a single-step item: (type, wording, choices, answer)."""
    puzzle = inputs["puzzle"]
    steps = puzzle["steps"]
    questions: list[tuple[str, str, tuple[str, ...], str]] = [
        (
            "fold_count",
            "How many pictures in the top row show a fold (a red fold line)?",
            ("1", "2", "3", "4"),
            str(len(steps)),
        )
    ]
    first = steps[0]
    if len(first) == 1 and not first[0]["code"].startswith("K"):
        questions.append(
            (
                "fold_side",
                "In the first fold, which part of the paper moved over the rest?",
                SIDES,
                _side(tuple(first[0]["normal"])),
            )
        )
    polygons = [cutout_polygon(c) for c in Puzzle.from_dict(dict(puzzle)).cutouts]
    if all(a.distance(b) > 1e-6 for i, a in enumerate(polygons) for b in polygons[:i]):
        questions.append(
            (
                "cutout_count",
                "How many shapes (drawn in blue) are cut through the folded paper?",
                ("1", "2", "3", "4", "5", "6"),
                str(len(polygons)),
            )
        )
    counts = [_inside_holes(option) for option in option_records(inputs)]
    for letter, asked in zip(LETTERS, counts, strict=True):
        if asked is not None and asked <= 12:
            questions.append(
                (
                    "option_holes",
                    f"How many holes inside the paper does option {letter} show (cuts that reach the edge of the "
                    "paper do not count)?",
                    tuple(str(k) for k in range(13)),
                    str(asked),
                )
            )
    known = [count for count in counts if count is not None]
    if len(known) == len(counts) and known.count(max(known)) == 1:
        questions.append(
            (
                "most_holes",
                "Which option in the bottom row shows the most holes inside the paper (cuts that reach the edge of "
                "the paper do not count)?",
                LETTERS,
                LETTERS[known.index(max(known))],
            )
        )
    return questions


class PfpPerceptionTask(ProbeAnswers, TaskBase):
    """Perception probes on single-step puzzles (see the module docstring)."""

    id = "pfp/single-step-perception-v2"
    modalities: tuple[str, ...] = ("image",)
    knob_schema: type[Knobs] = PfpPerceptionKnobs
    engine_version = ENGINE_VERSION

    def __init__(self) -> None:
        self._source = SingleStepTask()

    @property
    def spec(self) -> TaskSpec:
        """Accuracy as the headline, broken down by question type."""
        return TaskSpec(
            engine_version=ENGINE_VERSION,
            metrics=PROBE_METRICS,
            headline="correct",
            breakdowns=(QUESTION_KIND_KEY, SUBTASK_KEY),
        )

    def generate(
        self,
        n: int,
        seed: int,
        *,
        modalities: tuple[str, ...] = ("image",),
        knobs: Mapping[str, Any] | None = None,
        start: int = 0,
    ) -> Iterator[Item]:
        """Items ``start .. n-1`` of the balanced plan over the first ``ceil(n / questions)`` single-step items."""
        given = self.checked_knobs(knobs, modalities).given()
        per = given.pop("questions", 3)
        sources: list[Item] = []
        candidates: list[Candidate] = []

        def candidates_from(count: int) -> list[Candidate]:
            # a tiny dataset may need more puzzles than n / questions to vary its answers
            fresh = self._source.generate(count, seed, modalities=("image",), knobs=given, start=len(sources))
            for source in fresh:
                for kind, text, choices, answer in fold_questions(source.inputs):
                    candidates.append(Candidate(len(sources), kind, answer, choices, text))
                sources.append(source)
            return candidates

        plan, offered = balanced_plan_over_sources(n, per, candidates_from, (seed, 0x9E0C))
        for index in range(start, n):
            candidate = plan[index]
            source = sources[candidate.source]
            yield self.new_item(
                f"perception-{index:06d}",
                source.seed,
                {
                    **source.inputs,
                    **question_text_field(candidate.question),
                    **offered_choices(offered[candidate.kind]),
                },
                answer_field(candidate.answer),
                {
                    **source.metadata,
                    "index": index,
                    **question_kind_field(candidate.kind),
                    "source_item": source.id,
                    "source_seed": source.seed,
                    "configuration": configuration_hash(source.inputs),
                },
            )

    def _source_item(self, item: Item) -> Item:
        inputs = without_probe_fields(item.inputs)
        return Item(
            id=item.metadata["source_item"],
            task=self._source.id,
            seed=item.seed,
            engine_version=item.engine_version,
            inputs=inputs,
            target={},
            metadata={},
        )

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        """The single-step item's pictures."""
        yield from self._source.assets(self._source_item(item))

    def render(self, item: Item, modality: str = "image") -> Prompt:
        """The single-step item's picture and the question."""
        self.check_modality(modality)
        choices = offered_answers(item)
        text = (
            "This is a question about what the picture shows, not a puzzle: look carefully and report what you see.\n"
            "The top row of the picture shows a sheet of paper, then the paper after each fold (the outline before "
            "the fold in grey, the fold line in red), then the folded paper with the shapes cut through it in blue; "
            "the bottom row shows four unfolded sheets, options A to D.\n\n"
            f"Question: {asked_question(item)}\nPossible answers: {', '.join(choices)}\n\n"
            'Reply with one JSON object naming one of the possible answers, for example {"answer": "'
            f'{choices[0]}"}}.'
        )
        return Prompt((ImagePart(item.inputs["images"]["composite"]), TextPart(text)), TEMPLATE_VERSION)
