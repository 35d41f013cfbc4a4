"""The two cube tasks: 3D folding (net to cube) and 2D unfolding (cube to net).

Faces carry six distinct patterns out of twelve, and a pattern's orientation matters (up to its own symmetry).
An option is consistent when some rotation of the folded cube — all 24 are tried — shows exactly what the option
(or the question) shows on its three visible faces.

* **folding-3d**, easy: every option shows the cube from the net's own pose (the net's first cell in front, the
  same front face in every option); hard: each option is seen from its own random orientation, with four
  different front faces.
* **unfolding-2d**, easy: the four nets share one layout; hard: four different nets of the eleven.

Wrong cubes swap two faces' patterns, turn one pattern, or rearrange all six (one of the 29 other labellings).
In folding-3d the four options are four such changes of a hidden cube, and the net shown is the net of one of them
(so the answer is not the centre of the options); every option is wrong for every other option's cube. In
unfolding-2d the wrong nets are changes of the cube shown, drawn in other orientations (and, when hard, layouts).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from foldbench.pfp.cube import (
    FRONT,
    NET_LAYOUTS,
    NORMALS,
    ROTATIONS,
    Cube,
    Net,
    View,
    all_views,
    fold_net,
    labellings,
    layout_variants,
    rotate_cube,
    unfold_cube,
    view_consistent,
    view_of,
)
from foldbench.pfp.cube_variants import modified_cube, relabelled
from foldbench.pfp.render_cubes import PATTERN_NAMES, PATTERN_ORDERS
from foldbench.tasks.base import Item
from foldbench.tasks.choice_fields import option_records, options_field
from foldbench.tasks.pfp.common import PfpTaskBase

__all__ = ["FoldingTask", "UnfoldingTask", "net_from_dict", "net_to_dict"]

_QUESTION_SIZE = 240
_OPTION_SIZE = 176
_TRIES = 60
Drawn = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def net_to_dict(net: Net) -> dict[str, Any]:
    """A net as item data."""
    return {"cells": [list(c) for c in net.cells], "patterns": list(net.patterns), "turns": list(net.turns)}


def net_from_dict(data: Mapping[str, Any]) -> Net:
    """The inverse of :func:`net_to_dict`."""
    return Net(
        tuple((int(c), int(r)) for c, r in data["cells"]),
        tuple(int(p) for p in data["patterns"]),
        tuple(int(t) for t in data["turns"]),
    )


def _view_from(data: list[list[int]]) -> View:
    return tuple((int(p), int(t)) for p, t in data)  # type: ignore[return-value]


def _random_net(rng: np.random.Generator, net_index: int | None = None) -> Net:
    index = int(rng.integers(len(NET_LAYOUTS))) if net_index is None else net_index
    variants = layout_variants(index)
    cells = variants[int(rng.integers(len(variants)))]
    patterns = tuple(int(p) for p in rng.choice(len(PATTERN_NAMES), size=6, replace=False))
    return Net(cells, patterns, tuple(int(t) for t in rng.integers(0, 4, size=6)))


def _wrong_cube(rng: np.random.Generator, cube: Cube, faces: tuple[Any, ...]) -> tuple[Cube, str]:
    if rng.random() < 0.25 and len(faces) == 6:
        choices = labellings()
        return relabelled(rng, cube, choices[int(rng.integers(1, len(choices)))]), "relabel"
    return modified_cube(rng, cube, faces), "swap-or-turn"


def _random_rotation(rng: np.random.Generator) -> Any:
    return ROTATIONS[int(rng.integers(len(ROTATIONS)))]


def _place(answer: Any, others: list[Any], answer_index: int) -> list[Any]:
    return others[:answer_index] + [answer] + others[answer_index:]


class FoldingTask(PfpTaskBase):
    """Choose the cube a patterned net folds into."""

    id = "pfp/folding-3d-v2"
    name = "folding-3d"
    type_name = "folding-3d"
    subtasks = ("easy", "hard")
    paper_counts = {"easy": 300, "hard": 300}

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        centre_net = _random_net(rng)
        centre = fold_net(centre_net, PATTERN_ORDERS)
        hard = subtask == "hard"
        faces = NORMALS if hard else tuple(n for n in NORMALS if n != FRONT)
        cubes: list[Cube] = []
        views: list[View] = []
        orbits: list[frozenset[View]] = []
        for _ in range(_TRIES):
            cube, _kind = _wrong_cube(rng, centre, faces)
            view = view_of(rotate_cube(cube, _random_rotation(rng))) if hard else view_of(cube)
            if hard and any(view[0][0] == other[0][0] for other in views):
                continue
            if any(view in orbit for orbit in orbits):
                continue  # each option must be wrong for every other option's cube ...
            orbit = all_views(cube)
            if any(other in orbit for other in views):
                continue  # ... both ways
            cubes.append(cube)
            views.append(view)
            orbits.append(orbit)
            if len(views) == 4:
                break
        else:
            return None
        net = unfold_cube(cubes[answer_index], centre_net.cells)
        inputs = {"net": net_to_dict(net), **options_field([[list(face) for face in view] for view in views])}
        metadata = {
            "net_layout": NET_LAYOUTS.index(_layout_name(net.cells)),
            "patterns": [PATTERN_NAMES[p] for p in net.patterns],
        }
        return inputs, {}, metadata

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when some rotation of the folded net shows it."""
        cube = fold_net(net_from_dict(item.inputs["net"]), PATTERN_ORDERS)
        return [view_consistent(cube, _view_from(o)) for o in option_records(item.inputs)]

    def options_distinct(self, item: Item) -> bool:
        """No two options show the same three faces."""
        views = [_view_from(o) for o in option_records(item.inputs)]
        return len(set(views)) == 4

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 2

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.render_cubes import draw_cube_view, draw_net

        question = [draw_net(net_from_dict(item.inputs["net"]), _QUESTION_SIZE), question_panel(_QUESTION_SIZE)]
        return question, [draw_cube_view(_view_from(o), _OPTION_SIZE) for o in option_records(item.inputs)]


def _layout_name(cells: tuple[tuple[int, int], ...]) -> str:
    for index, drawing in enumerate(NET_LAYOUTS):
        if cells in layout_variants(index):
            return drawing
    raise AssertionError(f"cells {cells} are not one of the 11 nets")


class UnfoldingTask(PfpTaskBase):
    """Choose the net a patterned cube unfolds into."""

    id = "pfp/unfolding-2d-v2"
    name = "unfolding-2d"
    type_name = "unfolding-2d"
    subtasks = ("easy", "hard")
    paper_counts = {"easy": 300, "hard": 300}

    def _draw(
        self, rng: np.random.Generator, subtask: str, answer_index: int, config: Mapping[str, Any]
    ) -> Drawn | None:
        cube = fold_net(_random_net(rng), PATTERN_ORDERS)
        shown = view_of(rotate_cube(cube, _random_rotation(rng)))
        hard = subtask == "hard"
        net_indices = [int(i) for i in rng.permutation(len(NET_LAYOUTS))[:4]] if hard else [int(rng.integers(11))] * 4

        def layout(k: int) -> tuple[tuple[int, int], ...]:
            variants = layout_variants(net_indices[k])
            return variants[int(rng.integers(len(variants)))]

        shared = layout(0)
        answer = unfold_cube(rotate_cube(cube, _random_rotation(rng)), shared)
        nets = [answer]
        for _ in range(_TRIES):
            cells = layout(len(nets)) if hard else shared
            wrong, _kind = _wrong_cube(rng, cube, NORMALS)
            net = unfold_cube(rotate_cube(wrong, _random_rotation(rng)), cells)
            if net in nets or view_consistent(fold_net(net, PATTERN_ORDERS), shown):
                continue
            nets.append(net)
            if len(nets) == 4:
                break
        else:
            return None
        options = _place(answer, nets[1:], answer_index)
        inputs = {"view": [list(face) for face in shown], **options_field([net_to_dict(net) for net in options])}
        metadata = {"net_layouts": [NET_LAYOUTS.index(_layout_name(n.cells)) for n in options]}
        return inputs, {}, metadata

    def consistent_options(self, item: Item) -> list[bool]:
        """An option is right when its folded cube can show the cube in the question."""
        shown = _view_from(item.inputs["view"])
        return [view_consistent(fold_net(net_from_dict(o), PATTERN_ORDERS), shown) for o in option_records(item.inputs)]

    def options_distinct(self, item: Item) -> bool:
        """No two options are the same drawing (layout, patterns and their turns)."""
        nets = [net_from_dict(o) for o in option_records(item.inputs)]
        return len(set(nets)) == 4

    def _question_panel_count(self, inputs: Mapping[str, Any]) -> int:
        return 2

    def _pictures(self, item: Item) -> tuple[list[Any], list[Any]]:
        from foldbench.pfp.drawing import question_panel
        from foldbench.pfp.render_cubes import draw_cube_view, draw_net

        question = [draw_cube_view(_view_from(item.inputs["view"]), _QUESTION_SIZE), question_panel(_QUESTION_SIZE)]
        return question, [draw_net(net_from_dict(o), _OPTION_SIZE) for o in option_records(item.inputs)]
