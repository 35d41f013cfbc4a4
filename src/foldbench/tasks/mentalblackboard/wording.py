"""The wording of the MentalBlackboard prompts, one function per prompt, in plain Python.

Each function returns the prompt's text with ``@@image PATH`` lines where a picture goes and ``@@video
PATH|FRAME,...`` lines where a video goes; :func:`foldbench.tasks.mentalblackboard.render.render_prompt` splits it
into parts. ``*_paper`` prompts carry the paper's content and answer keys, the others foldbench's wording with
hints. Values are written with ``str``; hole entries are mappings with ``shape``, ``size``, ``direction`` and
``location`` (and ``where``, the location as the paper's prompts word it). Building the text needs no template
engine, so rendering an item is cheap and a text evaluation loads nothing it does not use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["PROMPTS"]

Holes = Sequence[Mapping[str, Any]]

_SHEET = (
    "The paper is a square sheet divided into a 4×4 grid of square cells. Each cell is cut by one of its diagonals "
    "into two triangles, so the sheet has 32 triangles. They are numbered 1 to 32 row by row from the top-left "
    "corner, two per cell, the left triangle of each cell first: triangle number = 8 × row + 2 × column + tri + 1, "
    "counting row, column and tri from 0 (tri 0 is the left triangle of its cell). A cell whose row + column is "
    "even is cut from its top-left to its bottom-right corner; the other cells are cut from bottom-left to "
    "top-right."
)
_TEXT_GRIDS_HELP = (
    "Each grid below shows the paper from the front after one step. A line is one row of cells; a cell is two "
    "characters, its left triangle then its right one. 1 means paper lies on that triangle of the sheet, 0 means "
    "the spot is empty because the paper there has been folded away. On the punching grid a letter marks each "
    "hole, punched through every layer: C circle, E ellipse, S star, A triangle, Z trapezoid, T letter, Q square, "
    "R rectangle, X text; upper case for large holes, lower case for small ones."
)
_IMAGE_HELP = (
    "In the pictures, white triangles carry paper, black ones are spots the paper was folded away from, and green "
    "shapes are holes punched through every layer of the folded paper."
)
_DIRECTIONS = (
    "Directions are angles in degrees, counter-clockwise as you look at the paper; 0 means the shape stands upright."
)
_CODES = (
    "Name each fold with one of these codes: H1 (top half onto bottom half), H2 (bottom onto top), V1 (left onto "
    "right), V2 (right onto left), D1 (top-left half onto bottom-right half, across a diagonal), D2 (top-right onto "
    "bottom-left), D3 (bottom-left onto top-right), D4 (bottom-right onto top-left). A fold always halves the paper "
    "as it lies at that moment. Add -F when the moving part comes toward you and lands on top, -B when it moves "
    "away from you and ends up underneath."
)
_HOLE_SCHEMA = (
    '{"shape": "circle|square|triangle|trapezoid|star|letter|text|ellipse|rectangle", "size": "small|large", '
    '"direction": 0|90|180|270, "location": <triangle number 1-32>}'
)
_ANSWER_LINE = (
    'You may reason first. End your reply with one JSON object of this form:\n{"total_holes": <number of holes on '
    'the unfolded sheet>, "unfolding": ["<code>", ...], "result_holes": [' + _HOLE_SCHEMA + ", ...]}"
)
_NUMBERED_SHEET = "This picture numbers the triangles of the flat sheet:\n@@image "
_PAPER_PICTURE = " A picture shows where each number lies:\n@@image "
_PAPER_INTRO = "You can picture paper in your mind and fold, turn and unfold it there. "
_PAPER_ANSWER = "Think it through step by step, then answer in this JSON format:\n"
_PAPER_LETTERS = "C circle, E ellipse, S star, A triangle, Z trapezoid, T letter, Q square, R rectangle, X text"
_STEPS_SHOWN = "The paper before the first step, after each step, and after punching:\n"
_THREE_D_COLOURS = "The front of the paper is white, its back light blue, and holes show as black marks."


def _plural(count: Any, suffix: str = "s") -> str:
    return suffix if count != 1 else ""


def _images(paths: Sequence[Any]) -> str:
    return "".join(f"@@image {path}\n" for path in paths)


def _video(video: Any, frames: Sequence[Any]) -> str:
    return f"@@video {video}|{','.join(str(frame) for frame in frames)}"


def _hole_list(holes: Holes) -> str:
    return "".join(
        f"- {h['shape']}, {h['size']}, direction {h['direction']}°, at triangle {h['location']}\n" for h in holes
    )


def _paper_holes(holes: Holes) -> str:
    return "".join(
        f"Shape: {h['shape']}, Size: {h['size']}, Location: {h['where']}, Direction: {h['direction']} degrees.\n"
        for h in holes
    )


def _paper_sheet(modality: str) -> str:
    if modality == "text":
        return (
            "The sheet starts as a 4x4 grid of square cells, each cut into two triangles. A triangle is named by its "
            "location [row, column, tri]: row and column count from 0 at the top-left corner, and tri is 0 for the "
            "left triangle of its cell and 1 for the right one."
        )
    return (
        "The sheet starts flat, as a square cut into 32 triangles numbered 1 to 32, row by row from left to right "
        "beginning at the top-left corner."
    )


def _paper_codes(side: str, verb: str) -> str:
    s = "F" if side == "front" else "B"
    return (
        f"H1-{s}: {verb} horizontally, top to bottom\n"
        f"H2-{s}: {verb} horizontally, bottom to top\n"
        f"V1-{s}: {verb} vertically, left to right\n"
        f"V2-{s}: {verb} vertically, right to left\n"
        f"D1-{s}: {verb} diagonally, top-left to bottom-right\n"
        f"D2-{s}: {verb} diagonally, top-right to bottom-left\n"
        f"D3-{s}: {verb} diagonally, bottom-left to top-right\n"
        f"D4-{s}: {verb} diagonally, bottom-right to top-left"
    )


def _paper_result_schema(side: str, modality: str, shapes: Sequence[Any]) -> str:
    s = "F" if side == "front" else "B"
    codes = " | ".join(f"{code}-{s}" for code in ("H1", "H2", "V1", "V2", "D1", "D2", "D3", "D4"))
    location = "[<row>, <column>, <tri>]" if modality == "text" else '"<1-32>"'
    return (
        "```json\n{\n"
        '  "totalNumberofHoles": <number>,\n'
        f'  "unfoldingTypes": [{codes}],\n'
        '  "resultHoles": [\n'
        "    {\n"
        f'      "shape": "<{" | ".join(str(shape) for shape in shapes)}>",\n'
        '      "size": "<small | large>",\n'
        '      "direction": "<0 | 90 | 180 | 270>",\n'
        f'      "location": {location}\n'
        "    }\n"
        "  ]\n"
        "}\n```"
    )


def prediction(
    *, modality: str, backward: bool, num_folds: int, num_rotations: int, grids: str, reference: str,
    steps: Sequence[str], video: str, frames: Sequence[str], holes: Holes,
) -> str:  # fmt: skip
    """Prediction in foldbench's wording: fold and turn counts, cell diagonals and code meanings given."""
    turned = ""
    if num_rotations:
        turned = (
            f" and turned {num_rotations} time{_plural(num_rotations)} (a turn rotates the whole folded paper in "
            "its own plane about the centre of the sheet)"
        )
    away = (
        " Every fold in this puzzle moved paper away from you, behind the rest; you always see the front of the sheet."
        if backward
        else ""
    )
    if modality == "text":
        body = f"{_TEXT_GRIDS_HELP}\n\n{grids}"
    elif modality == "image":
        body = f"{_IMAGE_HELP} {_NUMBERED_SHEET}{reference}\n{_STEPS_SHOWN}{_images(steps)}"
    elif modality == "video":
        body = (
            f"{_NUMBERED_SHEET}{reference}\nA 3D animation shows the sheet being folded"
            f"{' and turned' if num_rotations else ''} and then punched, seen from a fixed camera in front of it. "
            f"{_THREE_D_COLOURS}\n{_video(video, frames)}"
        )
    else:
        body = (
            f"{_NUMBERED_SHEET}{reference}\nThese are still frames from a 3D animation of the sheet, seen from a "
            "fixed camera in front of it: the flat sheet, then one frame after each completed step, then one after "
            f"punching. {_THREE_D_COLOURS}\n{_images(frames)}"
        )
    return (
        f"You are solving a paper folding and hole punching puzzle.\n\n{_SHEET}\n\n"
        f"The paper was folded {num_folds} time{_plural(num_folds)}{turned}, in the order shown; the steps are not "
        f"named. Then holes were punched through every layer.{away}\n\n{body}\n\n"
        "The holes punched through the folded paper (locations as you see the folded paper):\n"
        f"{_hole_list(holes)}\n{_DIRECTIONS}\n\n"
        "Unfold the paper in your mind, one fold at a time, and find every hole on the flat sheet. Do not undo the "
        "turns: the unfolded sheet keeps the orientation it has at the end, and each unfolding step is named as it "
        f"looks in that orientation. {_CODES} An unfolding step keeps the suffix of the fold it undoes.\n\n"
        f"{_ANSWER_LINE}"
    )


_PREDICTION_PAPER_SHOWN = {
    "text": "Below, a paper folding and hole punching task is written out as text.",
    "image": "Below, a paper folding and hole punching task is drawn as a sequence of flat pictures.",
    "video": "A 3D animation of a paper folding and hole punching task is attached.",
}


def prediction_paper(
    *, modality: str, backward: bool, grids: str, reference: str, steps: Sequence[str], video: str,
    frames: Sequence[str], holes: Holes, shapes: Sequence[str],
) -> str:  # fmt: skip
    """Prediction as the paper asks it (its content and answer keys)."""
    side = "back" if backward else "front"
    shown = _PREDICTION_PAPER_SHOWN.get(
        modality, "Below are frames of a 3D animation of a paper folding and hole punching task."
    )
    picture = f"{_PAPER_PICTURE}{reference}" if modality != "text" else ""
    away = (
        "You always see the front of the paper, and every fold takes the moving part backward, away from you; a "
        "rotation turns the whole sheet and does not depend on front or back. "
        if backward
        else ""
    )
    if modality == "text":
        body = (
            "Each grid after Step 0 (the flat sheet) shows the paper after one action, a fold or a rotation; the "
            "last grid shows the punched holes. A cell is written as two digits, its left triangle then its right "
            "one: 1 is visible paper, 0 a place the paper has been folded away from. After the last fold, holes "
            f"are punched, and a letter stands in the grid for each: {_PAPER_LETTERS}; an upper-case letter is a "
            f"large hole, a lower-case one a small hole.\n\n{grids}"
        )
    elif modality == "image":
        body = (
            "Every picture between the first (the flat sheet) and the punching picture shows one action, a fold or "
            "a rotation. In the pictures, white triangles are visible paper, black triangles are places the paper "
            f"has been folded away from, and green shapes are the holes punched after the last fold.\n{_images(steps)}"
        )
    elif modality == "video":
        body = (
            "Every action of the animation before the final punching is a fold or a rotation. Holes show as black "
            f"shapes.\n{_video(video, frames)}"
        )
    else:
        body = (
            "After the first frame (the flat sheet), every frame before the last one (the punched paper) shows a "
            f"fold or a rotation. Holes show as black shapes.\n{_images(frames)}"
        )
    undoing = ", undoing each fold backward as it was made" if backward else ""
    return (
        f"{_PAPER_INTRO}{shown} {_paper_sheet(modality)}{picture}\n\n"
        f"The paper is folded one or more times in a set order, and it may also be rotated. {away}{body}\n\n"
        f"These holes were punched:\n{_paper_holes(holes)}\n"
        f"Unfold the paper in your mind, one step at a time{undoing}. Then give the unfolding steps in order, the "
        "total number of holes after unfolding, and the shape, size, direction and location of every hole on the "
        "unfolded sheet.\n\n"
        "Do not undo a rotation. Without a rotation, the unfolding steps are the folds reversed, in order and in "
        "direction. With a rotation, the paper lies turned, so work out which unfolding really happens given how "
        f"the paper is now oriented. The unfolding steps to choose from:\n{_paper_codes(side, 'unfold')}\n\n"
        f"{_PAPER_ANSWER}{_paper_result_schema(side, modality, shapes)}"
    )


def planning(
    *, modality: str, num_folds: int, max_holes: int, grid: str, result: str, reference: str, holes: Holes
) -> str:
    """Planning in foldbench's wording: cell diagonals and code meanings given."""
    if modality == "text":
        shown = f"{_TEXT_GRIDS_HELP}\n\n{grid}"
    else:
        shown = f"@@image {result}\n{_IMAGE_HELP} {_NUMBERED_SHEET}{reference}"
    were = "were" if max_holes != 1 else "was"
    return (
        f"You are solving a paper folding and hole punching puzzle in reverse.\n\n{_SHEET}\n\n"
        f"A sheet was folded exactly {num_folds} time{_plural(num_folds)} (no turns), then at most {max_holes} "
        f"hole{_plural(max_holes)} {were} punched through every layer of the folded paper, and the sheet was "
        f"unfolded. This is the unfolded result:\n{shown}\n\n"
        f"The holes on the unfolded sheet:\n{_hole_list(holes)}\n{_DIRECTIONS}\n\n"
        f"Find a sequence of exactly {num_folds} fold{_plural(num_folds)} and at most {max_holes} "
        f"punch{_plural(max_holes, 'es')} that produces exactly these holes. {_CODES} Give each punch at its "
        "triangle number as you would see the folded paper, with its shape, size and direction there.\n\n"
        "You may reason first. End your reply with one JSON object of this form:\n"
        '{"folds": ["<code>", ...], "initial_holes": [' + _HOLE_SCHEMA + ", ...]}"
    )


def planning_paper(
    *, modality: str, num_folds: int, max_holes: int, grid: str, result: str, reference: str, holes: Holes,
    shapes: Sequence[str],
) -> str:  # fmt: skip
    """Planning as the paper asks it (its content and answer keys)."""
    picture = f"{_PAPER_PICTURE}{reference}" if modality != "text" else ""
    if modality == "text":
        shown = (
            "This grid shows a sheet that was folded, punched and then opened out again. A cell is written as two "
            f"digits, its left triangle then its right one, and a letter stands for each hole: {_PAPER_LETTERS}; an "
            f"upper-case letter is a large hole, a lower-case one a small hole.\n\n{grid}"
        )
    else:
        shown = (
            "This picture shows a sheet that was folded, punched and then opened out again; white triangles are "
            f"visible paper and green shapes are the holes where they ended up:\n@@image {result}"
        )
    location = "[<row>, <column>, <tri>]" if modality == "text" else "<1-32>"
    return (
        f"{_PAPER_INTRO}{_paper_sheet(modality)}{picture}\n\n{shown}\n\n"
        f"The unfolded sheet has these holes:\n{_paper_holes(holes)}\n"
        "Find the folds, in the right order, that lead to this pattern of holes, and the holes punched in the "
        "folded paper before it was opened: their location on the folded paper, size, direction and shape.\n\n"
        f"You may punch at most {max_holes} hole{_plural(max_holes)} in the folded paper. You must use exactly "
        f"{num_folds} fold{_plural(num_folds)}, no more and no fewer. Rotations are not allowed: only horizontal, "
        f"vertical and diagonal folds. The folds to choose from:\n{_paper_codes('front', 'fold')}\n\n"
        f"{_PAPER_ANSWER}```json\n{{\n"
        '  "folds": ["<H1-F | H2-F | V1-F | V2-F | D1-F | D2-F | D3-F | D4-F>", ...],\n'
        '  "holes": [\n'
        "    {\n"
        f'      "shape": "<{" | ".join(str(shape) for shape in shapes)}>",\n'
        '      "size": "<small | large>",\n'
        '      "direction": <0 | 90 | 180 | 270>,\n'
        f'      "location": {location}\n'
        "    }\n"
        "  ]\n"
        "}\n```"
    )


def generalization(
    *, modality: str, num_folds: int, num_rotations: int, reference_text: str, target_text: str,
    reference_sheet: str, reference_steps: Sequence[str], reference_result: str, steps: Sequence[str],
    reference_holes: Holes, reference_results: Holes, reference_unfolding: Sequence[str], holes: Holes,
) -> str:  # fmt: skip
    """Generalization in foldbench's wording: the example's unfolding steps and the code meanings given."""
    turns = ""
    if num_rotations:
        turns = f" and {num_rotations} turn{_plural(num_rotations)} of the whole paper in its plane"
    if modality == "text":
        example = f"{_TEXT_GRIDS_HELP}\n\n{reference_text}"
        puzzle = target_text
    else:
        example = (
            f"{_IMAGE_HELP} {_NUMBERED_SHEET}{reference_sheet}\n"
            f"The example paper before the first step, after each step, and after punching:\n"
            f"{_images(reference_steps)}The example unfolded:\n@@image {reference_result}"
        )
        puzzle = f"{_STEPS_SHOWN}{_images(steps)}"
    return (
        "You are solving a paper folding and hole punching puzzle by analogy with a solved example.\n\n"
        f"{_SHEET}\n\n"
        f"Two sheets were folded in the same way, {num_folds} fold{_plural(num_folds)}{turns}, and then punched. "
        "The holes punched differ between the two in exactly one respect — the location, the shape, the size or "
        "the direction of one hole — and are otherwise the same.\n\n"
        f"Solved example.\n{example}\n\n"
        f"Holes punched in the example (locations as seen on the folded paper):\n{_hole_list(reference_holes)}\n"
        f"Holes on the example's unfolded sheet:\n{_hole_list(reference_results)}\n"
        f"The example's unfolding steps: {', '.join(str(code) for code in reference_unfolding)}.\n\n"
        f"Your puzzle.\n{puzzle}\n\n"
        f"Holes punched in your puzzle:\n{_hole_list(holes)}\n{_DIRECTIONS}\n\n"
        "Work out how the example's folds carried its holes, apply the same to your puzzle, and report every hole "
        f"of your unfolded sheet. {_CODES}\n\n{_ANSWER_LINE}"
    )


def generalization_paper(
    *, modality: str, reference_text: str, target_text: str, reference_sheet: str, reference_steps: Sequence[str],
    reference_result: str, steps: Sequence[str], reference_holes: Holes, reference_results: Holes, holes: Holes,
    shapes: Sequence[str],
) -> str:  # fmt: skip
    """Generalization as the paper asks it (a Reference Task and a Target Task, its answer keys)."""
    if modality != "text":
        shown = (
            f"{_PAPER_PICTURE}{reference_sheet}\n\nIn every picture, white triangles are visible paper, black "
            "triangles are places the paper has been folded away from, and green shapes are holes punched after "
            "the last fold."
        )
        example = f"{_images(reference_steps)}Unfolded result:\n@@image {reference_result}"
        puzzle = _images(steps)
    else:
        shown = (
            " In every grid a cell is written as two digits, its left triangle then its right one: 1 is visible "
            "paper, 0 a place the paper has been folded away from; a letter stands for each hole: "
            f"{_PAPER_LETTERS}, upper case for large holes and lower case for small ones."
        )
        example = reference_text
        puzzle = target_text
    return (
        f"{_PAPER_INTRO}This is an analogy made of two paper folding and hole punching cases, a Reference Task and "
        "a Target Task, each shown step by step as the paper is folded and punched. "
        f"{_paper_sheet(modality)}{shown}\n\n"
        "Reference Task\n\n"
        "An example of how a sequence of folds and a punch lead to a pattern of holes on the unfolded paper: the "
        "folding and punching step by step, then the opened sheet with all its holes.\n\n"
        f"Folding and punching:\n{example}\n\n"
        f"Holes punched after the last fold, before unfolding:\n{_paper_holes(reference_holes)}\n"
        f"Holes on the unfolded result:\n{_paper_holes(reference_results)}\n"
        "Target Task\n\n"
        "A second case folded by the same sequence as the Reference Task, but punched differently; its unfolded "
        "result is not shown.\n\n"
        f"Folding and punching:\n{puzzle}\n\n"
        f"Holes punched after the last fold, before unfolding:\n{_paper_holes(holes)}\n"
        "The folds are the same in both tasks. Of the punched holes, exactly one of four aspects differs from the "
        "Reference Task — location, shape, size or direction — and everything else is the same.\n\n"
        "Reason by analogy: see how the folds and the punch of the Reference Task produced its unfolded holes, and "
        "carry the same transformation over to the Target Task with its own hole information. Give the location, "
        "size, direction and shape of every hole of the Target Task on the unfolded paper.\n\n"
        f"{_PAPER_ANSWER}{_paper_result_schema('front', modality, shapes)}"
    )


def _numbered_pictures(paths: Sequence[str], last: str) -> str:
    lines = []
    for index, path in enumerate(paths):
        if index == len(paths) - 1:
            label = last
        elif index == 0:
            label = "Step 0 (the flat sheet):"
        else:
            label = f"Step {index}:"
        lines.append(f"{label}\n@@image {path}\n")
    return "".join(lines)


def perception(
    *, modality: str, grids: str, reference: str, steps: Sequence[str], video: str, frames: Sequence[str],
    turns: int, question: str, choices: Sequence[str],
) -> str:  # fmt: skip
    """A perception probe: one question about what the item shows, with its possible answers."""
    if modality == "text":
        body = (
            f"{_TEXT_GRIDS_HELP} The grids are numbered: step 0 is the flat sheet, step k the paper after the k-th "
            f"fold or turn, and the last grid shows the holes punched through the folded paper.\n\n{grids}"
        )
    elif modality == "image":
        body = (
            f"{_IMAGE_HELP} {_NUMBERED_SHEET}{reference}\n"
            f"{_numbered_pictures(steps, 'The last picture (after punching):')}"
        )
    elif modality == "video":
        body = (
            f"{_NUMBERED_SHEET}{reference}\nA 3D animation shows the sheet being folded{', turned' if turns else ''} "
            f"and then punched, seen from a fixed camera in front of it. {_THREE_D_COLOURS}\n{_video(video, frames)}"
        )
    else:
        body = (
            f"{_NUMBERED_SHEET}{reference}\nStill frames from a 3D animation of the sheet, seen from a fixed camera "
            "in front of it (the front of the paper is white, its back light blue, holes are black marks):\n"
            f"{_numbered_pictures(frames, 'The last frame (after punching):')}"
        )
    return (
        "This is a question about what you are shown, not a puzzle: look carefully and report what you see.\n\n"
        f"{_SHEET}\n\n{body}\n\n{_CODES}\n\n"
        f"Question: {question}\nPossible answers: {', '.join(str(choice) for choice in choices)}\n\n"
        "Reply with one JSON object naming one of the possible answers, for example "
        f'{{"answer": "{choices[0]}"}}.'
    )


#: Every prompt by its name (what :func:`~foldbench.tasks.mentalblackboard.render.render_prompt` is given).
PROMPTS: dict[str, Callable[..., str]] = {
    "prediction": prediction,
    "prediction_paper": prediction_paper,
    "planning": planning,
    "planning_paper": planning_paper,
    "generalization": generalization,
    "generalization_paper": generalization_paper,
    "perception": perception,
}
