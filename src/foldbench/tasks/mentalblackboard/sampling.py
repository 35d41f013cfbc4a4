"""Random configurations and holes for MentalBlackboard items, drawn from a passed ``numpy`` generator."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal

from foldbench.pft.actions import Action, Fold, Rotation
from foldbench.pft.enumeration import configurations
from foldbench.pft.holes import ROTATION_FREE_SHAPES, Hole, Shape, Size
from foldbench.pft.paper import Paper
from foldbench.tasks.task_base import item_rng as task_item_rng

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Sides",
    "SHAPES",
    "group_skeletons",
    "sample_actions",
    "sample_holes",
    "hole_to_dict",
    "hole_from_dict",
    "item_rng",
]

Sides = Literal["front", "back", "mixed"]

SHAPES: tuple[Shape, ...] = tuple(Shape)
DIRECTIONS = (0, 90, 180, 270)


def item_rng(seed: int, index: int) -> tuple[int, np.random.Generator]:
    """The seed of item ``index`` of a dataset seeded with ``seed``, and a generator drawn from it.

    Items are independent of each other, so the first k items of a dataset do not depend on its size.
    """
    return task_item_rng(seed, index)


@cache
def group_skeletons(group: int) -> tuple[tuple[Action, ...], ...]:
    """The valid sequences of a group with every fold made toward the viewer (sides are chosen later)."""
    return tuple(
        actions for actions in configurations(group) if all(not isinstance(a, Fold) or a.front for a in actions)
    )


def sample_actions(rng: np.random.Generator, group: int, sides: Sides) -> tuple[Action, ...]:
    """A uniformly drawn valid sequence of ``group``, with fold sides by ``sides``."""
    skeletons = group_skeletons(group)
    skeleton = skeletons[int(rng.integers(len(skeletons)))]
    actions: list[Action] = []
    for action in skeleton:
        if isinstance(action, Rotation):
            actions.append(action)
        else:
            front = sides == "front" or (sides == "mixed" and bool(rng.integers(2)))
            actions.append(Fold(action.type, front))
    return tuple(actions)


def sample_holes(
    rng: np.random.Generator,
    paper: Paper,
    *,
    rotation: bool,
    count: int | None = None,
    shapes: tuple[Shape, ...] = SHAPES,
) -> tuple[Hole, ...]:
    """Holes at distinct positions of the folded paper, of the given ``shapes``.

    Without ``count``: one to three holes when more than 8 positions have paper, one or two for 5-8, else one.
    Rotation tasks leave out circle and square, which a rotation does not change.
    """
    occupied = paper.occupied()
    if count is None:
        most = 3 if len(occupied) > 8 else 2 if len(occupied) >= 5 else 1
        count = int(rng.integers(1, most + 1))
    count = min(count, len(occupied))
    shapes = tuple(s for s in shapes if not (rotation and s in ROTATION_FREE_SHAPES))
    positions = rng.choice(occupied, size=count, replace=False)
    holes = []
    for position in sorted(int(p) for p in positions):
        shape = shapes[int(rng.integers(len(shapes)))]
        size = (Size.SMALL, Size.LARGE)[int(rng.integers(2))]
        direction = DIRECTIONS[int(rng.integers(4))]
        holes.append(Hole(shape, size, direction, position + 1))
    return tuple(holes)


def hole_to_dict(hole: Hole) -> dict[str, Any]:
    """A hole as item data: ``{shape, size, direction, location}`` (direction as its canonical class)."""
    return {"shape": hole.shape.value, "size": hole.size.value, "direction": hole.direction, "location": hole.location}


_SHAPE_OF = {shape.value: shape for shape in Shape}
_SIZE_OF = {size.value: size for size in Size}


def hole_from_dict(data: dict[str, Any]) -> Hole:
    """The inverse of :func:`hole_to_dict` (a hole stored as item data, its fields plain strings and integers, is
    built once and the frozen hole reused: an item's holes are scored at every asking)."""
    shape, size, direction, location = data["shape"], data["size"], data["direction"], data["location"]
    if type(shape) is str and type(size) is str and type(direction) is int and type(location) is int:
        return _stored_hole(shape, size, direction, location)
    return _hole(shape, size, direction, location)


def _hole(shape: Any, size: Any, direction: Any, location: Any) -> Hole:
    shape = _SHAPE_OF[shape] if type(shape) is str and shape in _SHAPE_OF else Shape(shape)
    size = _SIZE_OF[size] if type(size) is str and size in _SIZE_OF else Size(size)
    return Hole(shape, size, int(direction), int(location))


@lru_cache(maxsize=4096)
def _stored_hole(shape: str, size: str, direction: int, location: int) -> Hole:
    """:func:`_hole` of plain values, remembered (valid holes are 9 shapes × 2 sizes × 4 directions × 32
    locations; a value that makes no hole raises and is not remembered)."""
    return _hole(shape, size, direction, location)
