"""Perception questions about one folding configuration: what the pictures, the grids or the video show, with the
engine's answer — not what the paper would look like unfolded.

The question types follow the four perception tests of MentalBlackboard's appendix B (a single picture, a video,
a picture series and the text grids), in our own words. A question whose answer would be ambiguous for the
configuration is not asked: a hole's direction only for shapes whose four directions all look different (and
never from text grids, which do not encode directions), the location of a hole only when its shape is unique, a
left/below relation only when the two holes are at least a cell apart, the half of the sheet only when exactly
one half (or none) holds all of the paper, and the action between two steps only when exactly one fold type or
turn leads from the one to the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from foldbench.errors import FoldbenchError
from foldbench.pft.actions import Action, Fold, FoldType, Rotation, parse_action
from foldbench.pft.grid import triangle_vertices
from foldbench.pft.holes import Hole, Shape, Size, direction_period
from foldbench.pft.paper import Paper
from foldbench.pft.simulate import Solution

__all__ = ["Question", "STATIC_KINDS", "VIDEO_KINDS", "questions_for"]

SHAPES = tuple(s.value for s in Shape)
SIZES = tuple(s.value for s in Size)
HALVES = ("top", "bottom", "left", "right", "none")
ACTION_KINDS = tuple(t.value for t in FoldType) + ("R90", "R180", "R270")
YES_NO = ("yes", "no")

#: Question types asked about pictures, picture series and text grids (tests 1, 3 and 4).
STATIC_KINDS = (
    "action_count",
    "hole_count",
    "hole_shape",
    "hole_size",
    "hole_location",
    "hole_direction",
    "paper_count",
    "half",
    "action_between",
    "left_of",
    "below",
    "grid_size",
)
#: Question types asked about a video (test 2).
VIDEO_KINDS = ("action_count", "rotation_count", "hole_count", "action_kind", "hole_shapes", "left_of", "below")


@dataclass(frozen=True, slots=True)
class Question:
    """One question: its type, wording, the answers offered and the engine's answer (one of them)."""

    kind: str
    text: str
    choices: tuple[str, ...]
    answer: str


def _numbers(low: int, high: int) -> tuple[str, ...]:
    return tuple(str(n) for n in range(low, high + 1))


def _centroid(location: int) -> tuple[float, float]:
    vertices = triangle_vertices(location - 1)
    return sum(v[0] for v in vertices) / 3, sum(v[1] for v in vertices) / 3


def _half(paper: Paper) -> str | None:
    """The one half of the sheet that holds all of the paper, ``none``, or None when two halves do (a quarter)."""
    points = [v for p in paper.occupied() for v in triangle_vertices(p)]
    inside = [
        name
        for name, test in (
            ("top", lambda x, y: y <= 2),
            ("bottom", lambda x, y: y >= 2),
            ("left", lambda x, y: x <= 2),
            ("right", lambda x, y: x >= 2),
        )
        if all(test(x, y) for x, y in points)
    ]
    if len(inside) > 1:
        return None
    return inside[0] if inside else "none"


def _action_kind(action: Action) -> str:
    return action.code if isinstance(action, Rotation) else action.type.value


def _leading_kinds(before: Paper, after: Paper) -> set[str]:
    """The fold types and turns that take ``before`` to a paper covering what ``after`` covers."""
    kinds = set()
    for kind in ACTION_KINDS:
        action = parse_action(kind if kind.startswith("R") else f"{kind}-F")
        try:
            if before.apply(action).occupancy() == after.occupancy():
                kinds.add(kind)
        except FoldbenchError:
            continue
    return kinds


def questions_for(solution: Solution, actions: Sequence[Action], *, view: str) -> list[Question]:
    """Every unambiguous question about a configuration as ``view`` shows it (``picture``, ``grid``, ``frame`` or
    ``video``)."""
    holes: tuple[Hole, ...] = tuple(solution.initial_holes)
    if view == "video":
        return _video_questions(holes, actions)
    states = list(solution.states)
    last = "hole punching grid" if view == "grid" else f"last {view} (after punching)"
    questions = [
        Question(
            "action_count",
            f"How many steps (folds and turns) are shown between the flat sheet and the {last}?",
            _numbers(1, 8),
            str(len(actions)),
        ),
        Question("hole_count", f"How many holes are marked on the {last}?", _numbers(0, 8), str(len(holes))),
    ]
    shape_counts = {shape: sum(h.shape is shape for h in holes) for shape in Shape}
    for hole in holes:
        at = f"the hole at triangle {hole.location} of the {last}"
        questions.append(Question("hole_shape", f"What is the shape of {at}?", SHAPES, hole.shape.value))
        questions.append(Question("hole_size", f"Is {at} small or large?", SIZES, hole.size.value))
        if view != "grid" and direction_period(hole.shape) == 360:
            questions.append(
                Question(
                    "hole_direction",
                    f"In which direction does {at} point (degrees counter-clockwise, 0 = upright)?",
                    ("0", "90", "180", "270"),
                    str(hole.direction),
                )
            )
        if shape_counts[hole.shape] == 1:
            questions.append(
                Question(
                    "hole_location",
                    f"At which triangle number is the {hole.shape.value} hole on the {last}?",
                    _numbers(1, 32),
                    str(hole.location),
                )
            )
    questions += _relations(holes, last)
    if view == "grid":
        questions.append(
            Question(
                "grid_size",
                "How many rows of cells does each grid have, and how many cells does each row have (rows × cells)?",
                ("2×2", "2×4", "4×2", "4×4", "4×8", "8×4", "8×8"),
                "4×4",
            )
        )
    for step in range(1, len(states)):
        paper = states[step]
        questions.append(
            Question(
                "paper_count",
                f"How many of the 32 triangles carry paper in step {step}?",
                _numbers(1, 32),
                str(len(paper.occupied())),
            )
        )
        half = _half(paper)
        if half is not None:
            questions.append(
                Question(
                    "half",
                    f"Which half of the sheet holds all of the paper in step {step} (none if no half does)?",
                    HALVES,
                    half,
                )
            )
        kinds = _leading_kinds(states[step - 1], paper)
        if kinds == {_action_kind(actions[step - 1])}:
            questions.append(
                Question(
                    "action_between",
                    f"Which action leads from step {step - 1} to step {step}: a fold (H1, H2, V1, V2, D1, D2, D3, D4, "
                    "named as in the codes above, side left out) or a turn (R90, R180, R270 counter-clockwise)?",
                    ACTION_KINDS,
                    _action_kind(actions[step - 1]),
                )
            )
    return questions


def _relations(holes: Sequence[Hole], where: str) -> list[Question]:
    """Left-of and below between holes of shapes that occur once, when their centres are a cell apart or more."""
    shape_counts = {shape: sum(h.shape is shape for h in holes) for shape in Shape}
    unique = [h for h in holes if shape_counts[h.shape] == 1]
    questions = []
    for first in unique:
        for second in unique:
            if first is second:
                continue
            (x1, y1), (x2, y2) = _centroid(first.location), _centroid(second.location)
            a, b = f"the {first.shape.value} hole", f"the {second.shape.value} hole"
            if abs(x1 - x2) >= 1:
                text = f"Does {a} lie left of {b} on the {where}?"
                questions.append(Question("left_of", text, YES_NO, "yes" if x1 < x2 else "no"))
            if abs(y1 - y2) >= 1:
                text = f"Does {a} lie below {b} on the {where}?"
                questions.append(Question("below", text, YES_NO, "yes" if y1 > y2 else "no"))
    return questions


def _video_questions(holes: Sequence[Hole], actions: Sequence[Action]) -> list[Question]:
    questions = [
        Question(
            "action_count",
            "How many actions (folds and turns) does the video show before the punching?",
            _numbers(1, 8),
            str(len(actions)),
        ),
        Question(
            "rotation_count",
            "How many times is the folded paper turned in the video?",
            _numbers(0, 4),
            str(sum(isinstance(a, Rotation) for a in actions)),
        ),
        Question("hole_count", "How many holes are punched at the end of the video?", _numbers(0, 8), str(len(holes))),
        Question(
            "hole_shapes",
            "How many different hole shapes are punched at the end of the video?",
            _numbers(0, 8),
            str(len({h.shape for h in holes})),
        ),
    ]
    questions += _relations(holes, "punched paper at the end of the video")
    for index, action in enumerate(actions, start=1):
        questions.append(
            Question(
                "action_kind",
                f"Is action number {index} of the video a fold or a turn?",
                ("fold", "turn"),
                "fold" if isinstance(action, Fold) else "turn",
            )
        )
    return questions
