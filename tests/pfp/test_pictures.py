"""Every option picture of the fold-and-cut tasks shows its own record: redrawn here without the renderer."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from foldbench.pfp.puzzle import Puzzle, holes_of, legibility_problem
from foldbench.pfp.shapes import sheet_polygon
from foldbench.pfp.tolerance import SHEET_SIZE
from foldbench.tasks.base import Item
from foldbench.tasks.pfp import FinalFoldTask, InverseTask, MissingStepTask, SingleStepTask
from foldbench.tasks.pfp.fold_tasks import OPTION_SIZE

MAX_STRAY = 12
"""Stray pixels allowed per picture (outline joins at acute corners); a misdrawn notch gives far more."""
BORDER = 3
"""Pixels this close to an edge of the expected paper may differ (outlines are 2 px wide, more at sharp corners)."""


def _ring(coords: object, size: int) -> list[tuple[float, float]]:
    scale = size / (SHEET_SIZE * 1.2)
    return [(size / 2 + x * scale, size / 2 - y * scale) for x, y in np.asarray(coords)[:, :2]]


def _expected_paper(option: dict, size: int) -> np.ndarray:
    """The paper of an option as a mask: the sheet filled, then every hole piece of the record cleared."""
    puzzle = Puzzle.from_dict(option)
    image = Image.new("1", (size, size), 0)
    draw = ImageDraw.Draw(image)
    draw.polygon(_ring(sheet_polygon(puzzle.sheet).exterior.coords, size), fill=1)
    holes = holes_of(puzzle)
    for piece in getattr(holes, "geoms", [holes]):
        if isinstance(piece, Polygon) and not piece.is_empty:
            draw.polygon(_ring(piece.exterior.coords, size), fill=0)
            for interior in piece.interiors:
                draw.polygon(_ring(interior.coords, size), fill=1)
    return np.asarray(image, dtype=bool)


def _near_edge(mask: np.ndarray, distance: int) -> np.ndarray:
    grown, shrunk = mask.copy(), mask.copy()
    for _ in range(distance):
        padded_grown = np.pad(grown, 1)
        padded_shrunk = np.pad(shrunk, 1, constant_values=True)
        grown = (
            padded_grown[1:-1, 1:-1]
            | padded_grown[:-2, 1:-1]
            | padded_grown[2:, 1:-1]
            | padded_grown[1:-1, :-2]
            | padded_grown[1:-1, 2:]
        )
        shrunk = (
            padded_shrunk[1:-1, 1:-1]
            & padded_shrunk[:-2, 1:-1]
            & padded_shrunk[2:, 1:-1]
            & padded_shrunk[1:-1, :-2]
            & padded_shrunk[1:-1, 2:]
        )
    return grown & ~shrunk


def _mismatched_pixels(task: SingleStepTask, item: Item) -> list[int]:
    _, pictures = task._pictures(item)
    counts = []
    for option, picture in zip(item.inputs["options"], pictures, strict=True):
        drawn = np.asarray(picture) != 0  # anything not background: paper or outline
        expected = _expected_paper(option, OPTION_SIZE)
        counts.append(int(((drawn != expected) & ~_near_edge(expected, BORDER)).sum()))
    return counts


def test_the_seed_7_notch_at_a_corner_is_drawn_as_a_notch() -> None:
    """Item 441 of seed 7 cuts a circle over the hexagon's corner: once drawn as paper with a diamond outline."""
    task = SingleStepTask()
    item = task.make_item(7, 441, task.validate_knobs({}))
    assert max(_mismatched_pixels(task, item)) <= MAX_STRAY


@pytest.mark.parametrize("seed", [3, 11])
def test_every_option_picture_matches_its_record(seed: int) -> None:
    task = SingleStepTask()
    for item in task.generate(24, seed):
        assert max(_mismatched_pixels(task, item)) <= MAX_STRAY, item.id


@pytest.mark.parametrize("task_type", [SingleStepTask, MissingStepTask, FinalFoldTask, InverseTask])
def test_every_pattern_shown_is_legible(task_type: type) -> None:
    """Holes, bridges and notches of every unfolded pattern a question shows are at least MIN_FEATURE wide."""
    task = task_type()
    for item in task.generate(12, 21):
        shown = item.inputs["options"] if task_type is SingleStepTask else [item.inputs["puzzle"]]
        for record in shown:
            puzzle = Puzzle.from_dict(record)
            assert legibility_problem(puzzle.sheet, holes_of(puzzle)) is None, item.id


def test_fold_step_pictures_kept_by_a_task_are_the_pictures_a_fresh_task_draws() -> None:
    """The step pictures a task keeps (the options of a strict multi-step item share their first steps) give the
    same files as a task drawing everything afresh, and drawing on a picture handed out changes no later one."""
    from foldbench.tasks.pfp import MissingStepStrictTask

    kept = MissingStepStrictTask()
    items = list(kept.generate(2, 13))
    first = [dict(kept.assets(item)) for item in items]
    assert len(kept.step_pictures) > 0
    sheet, steps = items[0].inputs["puzzle"]["sheet"], Puzzle.from_dict(items[0].inputs["puzzle"]).steps
    for picture in kept._sequence_pictures(sheet, steps, 112):
        picture.paste(0, (0, 0, picture.width, picture.height))  # blacked out: the kept pictures must not change
    for item, files in zip(items, first, strict=True):
        assert dict(kept.assets(item)) == files
        assert dict(MissingStepStrictTask().assets(item)) == files
