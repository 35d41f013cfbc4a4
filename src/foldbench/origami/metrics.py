"""The synthesis metrics, as pure functions: query efficiency (QE), geometric similarity (GS, exact and by the
raster protocol) and the silhouette mask the raster protocol and the shape descriptors share.

* **QE**: the share of steps (every action submitted, refused ones included) whose creases are all still in the
  final pattern and that changed the folded form.
* **GS (exact)**: the IoU of the target's and the final folded silhouettes, computed from the folded polygons with
  shapely, both aligned by :mod:`foldbench.origami.folded` (folded from the same square, the face under the reference
  point stays where it lies).
* **GS (raster)**: the published protocol on two pictures: grey ``0.299 R + 0.587 G + 0.114 B``, foreground
  where it is below 250, the largest connected foreground region with its holes filled, then the IoU of the two
  masks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image
from shapely.geometry.base import BaseGeometry

from foldbench.jit import kernel

__all__ = [
    "FOREGROUND_BELOW",
    "IOU_SNAP",
    "geometric_similarity",
    "mask_iou",
    "outlines_match",
    "query_efficiency",
    "raster_geometric_similarity",
    "silhouette_mask",
]

IOU_SNAP: float = 1e-9
"""IoU values within this of 0 or 1 are snapped to it (floating-point noise of the polygon overlay)."""
FOREGROUND_BELOW: float = 250.0
"""Grey levels below this are paper (the raster protocol's threshold)."""


def geometric_similarity(target: BaseGeometry, result: BaseGeometry) -> float:
    """IoU of two silhouettes (shapely geometries): area of the intersection over area of the union.

    >>> import shapely
    >>> square, half = shapely.box(0, 0, 10, 10), shapely.box(0, 0, 5, 10)
    >>> geometric_similarity(square, square), geometric_similarity(square, half)
    (1.0, 0.5)
    >>> geometric_similarity(shapely.Polygon(), square)
    0.0
    """
    union = target.union(result).area
    if union <= 0.0:
        return 0.0
    value = target.intersection(result).area / union
    if value > 1.0 - IOU_SNAP:
        return 1.0
    return 0.0 if value < IOU_SNAP else float(value)


def outlines_match(target: BaseGeometry, result: BaseGeometry, distance: float) -> bool:
    """Whether two silhouettes are the same shape up to ``distance``: every region where they differ is a sliver
    no wider than ``2 * distance`` (it vanishes when shrunk by ``distance``), as the rounding of a target's
    coordinates leaves along its outline.

    >>> import shapely
    >>> square = shapely.box(0, 0, 10, 10)
    >>> outlines_match(square, shapely.box(0, 0, 10, 10 + 1e-8), 1e-7)
    True
    >>> outlines_match(square, shapely.box(0, 0, 10, 10.01), 1e-7), outlines_match(square, shapely.Polygon(), 1e-7)
    (False, False)
    """
    difference = target.symmetric_difference(result)
    return difference.is_empty or difference.buffer(-distance).is_empty


def query_efficiency(steps_creases: Sequence[np.ndarray | None], steps_changed: Sequence[bool],
                     final_creases: np.ndarray, tolerance: float = 1e-6) -> float:
    """The share of steps that count: accepted (creases given, not None), every crease still lying on a crease of
    the final pattern, and the folded form changed. 0 for an episode without steps.

    Args:
        steps_creases: per step, the ``(k, 2, 2)`` creases it added, or None when it was refused.
        steps_changed: per step, whether the folded form changed.
        final_creases: ``(m, 2, 2)`` creases of the final pattern.
        tolerance: how far a crease may lie from the final ones and still count as kept.

    >>> c = np.array([[[5.0, 0.0], [5.0, 10.0]]])
    >>> query_efficiency([c, None], [True, False], c)
    0.5
    >>> query_efficiency([], [], c)
    0.0
    """
    if not steps_creases:
        return 0.0
    counted = 0
    for creases, changed in zip(steps_creases, steps_changed, strict=True):
        if creases is None or not changed:
            continue
        if all(_covered(crease, final_creases, tolerance) for crease in np.asarray(creases).reshape(-1, 2, 2)):
            counted += 1
    return counted / len(steps_creases)


def _covered(crease: np.ndarray, finals: np.ndarray, tolerance: float) -> bool:
    """Whether the whole of ``crease`` lies on final creases (within ``tolerance``): the final creases that lie
    along it, projected onto it, must leave no gap longer than ``tolerance``. Its ends alone, or its ends and its
    midpoint, would let a crease across a gap count as kept.

    >>> finals = np.array([[[0.0, 5.0], [2.0, 5.0]], [[3.0, 5.0], [10.0, 5.0]]])
    >>> _covered(np.array([[0.0, 5.0], [10.0, 5.0]]), finals, 1e-6)  # the gap from 2 to 3 is not paper's crease
    False
    >>> _covered(np.array([[3.0, 5.0], [9.0, 5.0]]), finals, 1e-6)
    True
    """
    start, end = np.asarray(crease, dtype=float)
    direction = end - start
    length = float(np.hypot(*direction))
    segments = np.asarray(finals, dtype=float).reshape(-1, 2, 2)
    if length <= tolerance:
        return any(_distance_to_segment(start, s) <= tolerance for s in segments)
    spans = []
    for segment in segments:
        if any(_distance_to_line(point, start, direction, length) > tolerance for point in segment):
            continue  # not along the crease: it meets it at one point at most
        along = sorted(float((point - start) @ direction) / length for point in segment)
        low, high = max(along[0], 0.0), min(along[1], length)
        if low <= high:
            spans.append((low, high))
    reached = 0.0
    for low, high in sorted(spans):
        if low > reached + tolerance:
            return False
        reached = max(reached, high)
    return reached >= length - tolerance


def _distance_to_segment(point: np.ndarray, segment: np.ndarray) -> float:
    start, end = segment
    direction = end - start
    length_squared = float(direction @ direction)
    t = 0.0 if length_squared == 0 else float(np.clip((point - start) @ direction / length_squared, 0, 1))
    return float(np.hypot(*(start + t * direction - point)))


def _distance_to_line(point: np.ndarray, start: np.ndarray, direction: np.ndarray, length: float) -> float:
    """Distance from ``point`` to the infinite line through ``start`` along ``direction`` (of ``length``)."""
    offset = point - start
    return abs(float(offset[0] * direction[1] - offset[1] * direction[0])) / length


@kernel
def _label(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """4-connected components of a boolean mask (labels 1..count, 0 outside)."""
    height, width = mask.shape
    labels = np.zeros((height, width), np.int32)
    stack = np.empty((height * width, 2), np.int32)
    count = 0
    for row in range(height):
        for col in range(width):
            if not mask[row, col] or labels[row, col]:
                continue
            count += 1
            labels[row, col] = count
            top = 0
            stack[0, 0], stack[0, 1] = row, col
            top = 1
            while top:
                top -= 1
                r, c = stack[top, 0], stack[top, 1]
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nr, nc = r + dr, c + dc
                    if 0 <= nr < height and 0 <= nc < width and mask[nr, nc] and not labels[nr, nc]:
                        labels[nr, nc] = count
                        stack[top, 0], stack[top, 1] = nr, nc
                        top += 1
    return labels, count


def silhouette_mask(image: Image.Image | np.ndarray) -> np.ndarray:
    """The raster protocol's mask of a picture: grey below :data:`FOREGROUND_BELOW`, largest 4-connected region,
    holes filled (background regions that do not reach the picture's border).

    >>> blank = np.full((8, 8, 3), 255, np.uint8)
    >>> int(silhouette_mask(blank).sum())
    0
    >>> ring = blank.copy(); ring[2:6, 2:6] = 0; ring[3:5, 3:5] = 255
    >>> int(silhouette_mask(ring).sum())
    16
    """
    pixels = np.asarray(image.convert("RGB") if isinstance(image, Image.Image) else image, dtype=float)
    grey = pixels[..., 0] * 0.299 + pixels[..., 1] * 0.587 + pixels[..., 2] * 0.114
    foreground = grey < FOREGROUND_BELOW
    labels, count = _label(foreground)
    if count == 0:
        return foreground
    sizes = np.bincount(labels.ravel())[1:]
    region = labels == (int(sizes.argmax()) + 1)
    outside, _ = _label(~region)
    border = np.unique(np.concatenate([outside[0], outside[-1], outside[:, 0], outside[:, -1]]))
    return region | ~np.isin(outside, border[border > 0]) & (outside > 0)


def mask_iou(first: np.ndarray, second: np.ndarray) -> float:
    """IoU of two boolean masks of the same shape (0 when both are empty).

    >>> a = np.zeros((4, 4), bool); a[:2] = True
    >>> mask_iou(a, a), mask_iou(a, ~a), mask_iou(a, np.ones((4, 4), bool))
    (1.0, 0.0, 0.5)
    """
    if first.shape != second.shape:
        raise ValueError(f"masks differ in shape: {first.shape} and {second.shape}")
    union = int(np.logical_or(first, second).sum())
    return 0.0 if union == 0 else int(np.logical_and(first, second).sum()) / union


def raster_geometric_similarity(target_image: Image.Image | np.ndarray,
                                result_image: Image.Image | np.ndarray) -> float:
    """GS by the raster protocol: :func:`mask_iou` of the two pictures' :func:`silhouette_mask`."""
    return mask_iou(silhouette_mask(target_image), silhouette_mask(result_image))
