"""A small depth-buffered rasteriser for flat, textured triangles, in numpy (no GPU, no display).

World coordinates follow the sheet's screen convention: ``x`` to the right, ``y`` **down**, ``z`` toward the
viewer; the flat sheet is ``[0, 4] × [0, 4]`` at ``z = 0``. Each triangle is a rigid copy of a triangle of the
flat sheet: a *material* point ``(u, v)`` of the flat sheet lands at ``rotation @ (u, v, 0) + translation``.

A fixed pinhole camera looks at the sheet's centre from in front of it, slightly above and to the right
(:data:`CAMERA_TILT_DEGREES`, :data:`CAMERA_AZIMUTH_DEGREES`).
For each triangle the map from material to pixel coordinates is a plane homography ``G``; its inverse ``H``
gives, per pixel, the material point (first two rows) and the inverse view depth ``1 / depth`` (third row), which
is affine in pixel coordinates and serves as the depth key (larger is nearer). Rendering is deferred:

1. every triangle is scan-converted over its bounding box (row spans from its edges), keeping the nearest
   triangle's id and depth key per pixel;
2. each covered pixel's material point is looked up in a *material texture* (a shade level over the flat sheet,
   0..255: full on plain paper, darker on the triangles' edge lines, 0 inside holes), which picks the pixel's
   colour from its triangle's :func:`color_table`: the flat (Lambert) colour, whose front or back tint is chosen
   by the side the triangle shows the camera, at 256 shades.

Everything is deterministic float arithmetic (no LAPACK), so the same input gives the same pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray
from PIL import Image

__all__ = [
    "CAMERA_AZIMUTH_DEGREES",
    "CAMERA_DISTANCE",
    "CAMERA_TILT_DEGREES",
    "Camera",
    "camera_for",
    "color_table",
    "compose_frame",
    "rasterize",
    "shade_colors",
]

FloatArray = NDArray[np.float64]

#: Distance from the camera to the sheet's centre, in grid units (the sheet is 4 units wide).
CAMERA_DISTANCE = 14.0
#: How far the camera is raised above the sheet's centre, in degrees (0 = straight on).
CAMERA_TILT_DEGREES = 14.0
#: How far the camera is moved to the right of the sheet's centre, in degrees, so that no crease (horizontal,
#: vertical or diagonal) is seen exactly edge-on while its flap stands upright.
CAMERA_AZIMUTH_DEGREES = 9.0
#: Fraction of the frame left free around the flat sheet on its widest side.
FRAME_MARGIN = 0.09
#: Light direction (toward the light, world coordinates) and the ambient share of the flat shading.
LIGHT_DIRECTION = (-0.35, -0.45, 1.0)
AMBIENT = 0.58
#: Triangles whose projected area is below this (square pixels) are edge-on and skipped.
MIN_PIXEL_AREA = 1e-6


@dataclass(frozen=True, slots=True)
class Camera:
    """A pinhole camera: ``pixel = (focal * xc / zc + cx, focal * yc / zc + cy)`` with
    ``(xc, yc, zc) = axes @ (point - position)`` (camera right, down and forward)."""

    size: int
    position: tuple[float, float, float]
    axes: tuple[tuple[float, float, float], ...]
    focal: float
    center: tuple[float, float]

    def intrinsics(self) -> FloatArray:
        """The 3×3 intrinsic matrix."""
        return np.array([[self.focal, 0.0, self.center[0]], [0.0, self.focal, self.center[1]], [0.0, 0.0, 1.0]])

    def project(self, points: FloatArray) -> FloatArray:
        """Pixel coordinates (``n × 2``) of world points (``n × 3``); pixel ``(i, j)`` covers
        ``[i, i + 1) × [j, j + 1)``.

        >>> camera = camera_for(128)
        >>> bool(np.allclose(camera.project(np.array([[2.0, 2.0, 0.0]])), 64.0, atol=8))
        True
        """
        camera_points = (np.asarray(points, dtype=np.float64) - np.array(self.position)) @ np.array(self.axes).T
        return self.focal * camera_points[:, :2] / camera_points[:, 2:3] + np.array(self.center)


def _triple(vector: FloatArray) -> tuple[float, float, float]:
    return float(vector[0]), float(vector[1]), float(vector[2])


@cache
def camera_for(size: int) -> Camera:
    """The fixed camera of a ``size``×``size`` frame, framing the flat sheet with a margin."""
    tilt, azimuth = math.radians(CAMERA_TILT_DEGREES), math.radians(CAMERA_AZIMUTH_DEGREES)
    offset = np.array([math.sin(azimuth) * math.cos(tilt), -math.sin(tilt), math.cos(azimuth) * math.cos(tilt)])
    eye = np.array([2.0, 2.0, 0.0]) + CAMERA_DISTANCE * offset
    forward_axis = -offset
    right_axis = np.cross(forward_axis, [0.0, 1.0, 0.0])
    right_axis /= np.linalg.norm(right_axis)
    down_axis = np.cross(right_axis, forward_axis)
    position = _triple(eye)
    right, down, forward = _triple(right_axis), _triple(down_axis), _triple(forward_axis)
    unit = Camera(size, position, (right, down, forward), 1.0, (0.0, 0.0))
    corners = unit.project(np.array([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [4.0, 4.0, 0.0]]))
    low, high = corners.min(axis=0), corners.max(axis=0)
    focal = size * (1.0 - 2.0 * FRAME_MARGIN) / float((high - low).max())
    middle = (low + high) / 2.0
    center = (size / 2.0 - focal * float(middle[0]), size / 2.0 - focal * float(middle[1]))
    return Camera(size, position, (right, down, forward), focal, center)


def _inverse3(matrices: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Batched 3×3 inverses by the adjugate (deterministic), and the determinants."""
    a = matrices
    cofactor = np.empty_like(a)
    cofactor[:, 0, 0] = a[:, 1, 1] * a[:, 2, 2] - a[:, 1, 2] * a[:, 2, 1]
    cofactor[:, 0, 1] = a[:, 0, 2] * a[:, 2, 1] - a[:, 0, 1] * a[:, 2, 2]
    cofactor[:, 0, 2] = a[:, 0, 1] * a[:, 1, 2] - a[:, 0, 2] * a[:, 1, 1]
    cofactor[:, 1, 0] = a[:, 1, 2] * a[:, 2, 0] - a[:, 1, 0] * a[:, 2, 2]
    cofactor[:, 1, 1] = a[:, 0, 0] * a[:, 2, 2] - a[:, 0, 2] * a[:, 2, 0]
    cofactor[:, 1, 2] = a[:, 0, 2] * a[:, 1, 0] - a[:, 0, 0] * a[:, 1, 2]
    cofactor[:, 2, 0] = a[:, 1, 0] * a[:, 2, 1] - a[:, 1, 1] * a[:, 2, 0]
    cofactor[:, 2, 1] = a[:, 0, 1] * a[:, 2, 0] - a[:, 0, 0] * a[:, 2, 1]
    cofactor[:, 2, 2] = a[:, 0, 0] * a[:, 1, 1] - a[:, 0, 1] * a[:, 1, 0]
    determinant = a[:, 0, 0] * cofactor[:, 0, 0] + a[:, 0, 1] * cofactor[:, 1, 0] + a[:, 0, 2] * cofactor[:, 2, 0]
    safe = np.where(determinant == 0.0, 1.0, determinant)
    return cofactor / safe[:, None, None], determinant


def shade_colors(
    rotations: FloatArray,
    translations: FloatArray,
    camera: Camera,
    front_color: tuple[int, int, int],
    back_color: tuple[int, int, int],
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """Each triangle's flat colour (``n × 3``, 0..255) and whether it shows its back to the camera.

    The normal is the rotated material ``+z``; it is flipped to face the camera before the Lambert term, so
    both sides are lit alike and only their tint differs.
    """
    normals = rotations[:, :, 2]
    to_camera = np.array(camera.position) - translations  # the translation is a point of the triangle's plane
    facing = np.einsum("ij,ij->i", normals, to_camera)
    shows_back = facing < 0.0
    normals = np.where(shows_back[:, None], -normals, normals)
    light = np.array(LIGHT_DIRECTION) / np.linalg.norm(LIGHT_DIRECTION)
    lambert = np.clip(normals @ light, 0.0, 1.0)
    intensity = AMBIENT + (1.0 - AMBIENT) * lambert / float(light[2])
    tint = np.where(shows_back[:, None], np.array(back_color, float), np.array(front_color, float))
    return np.minimum(tint * intensity[:, None], 255.0), shows_back


def rasterize(
    rotations: FloatArray,
    translations: FloatArray,
    material_vertices: FloatArray,
    camera: Camera,
) -> tuple[NDArray[np.int32], NDArray[np.float32], FloatArray]:
    """Scan-convert the triangles with a depth buffer.

    Args:
        rotations: ``n × 3 × 3`` rotation of each triangle (material -> world).
        translations: ``n × 3`` translation of each triangle.
        material_vertices: ``n × 3 × 2`` each triangle's vertices on the flat sheet.
        camera: the camera.

    Returns:
        The id buffer (``size × size``, -1 where no triangle), the inverse-depth buffer, and each triangle's
        pixel -> material homography ``H`` (``n × 3 × 3``; row 2 gives the inverse depth).
    """
    size = camera.size
    axes = np.array(camera.axes)
    intrinsics = camera.intrinsics()
    # Material (u, v, 1) -> homogeneous pixel: K @ axes @ [r0, r1, t - position].
    columns = np.concatenate([rotations[:, :, :2], (translations - np.array(camera.position))[:, :, None]], axis=2)
    material_to_pixel = intrinsics @ (axes @ columns)
    pixel_to_material, determinants = _inverse3(material_to_pixel)
    world = np.einsum("nij,nkj->nki", rotations[:, :, :2], material_vertices) + translations[:, None, :]
    screen = camera.project(world.reshape(-1, 3)).reshape(-1, 3, 2)
    ids = np.full((size, size), -1, dtype=np.int32)
    depth = np.zeros((size, size), dtype=np.float32)
    centers = np.arange(size, dtype=np.float64) + 0.5
    centers32 = centers.astype(np.float32)
    for index in range(len(rotations)):
        if determinants[index] == 0.0:
            continue
        _draw_triangle(index, screen[index], pixel_to_material[index, 2], ids, depth, centers, centers32)
    return ids, depth, pixel_to_material


def _draw_triangle(
    index: int,
    vertices: FloatArray,
    depth_plane: FloatArray,
    ids: NDArray[np.int32],
    depth: NDArray[np.float32],
    centers: FloatArray,
    centers32: NDArray[np.float32],
) -> None:
    size = ids.shape[0]
    (x0, y0), (x1, y1), (x2, y2) = vertices
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    if abs(area) < MIN_PIXEL_AREA:
        return
    column_start = max(0, math.floor(min(x0, x1, x2) - 0.5))
    column_stop = min(size, math.ceil(max(x0, x1, x2) + 0.5))
    row_start = max(0, math.floor(min(y0, y1, y2) - 0.5))
    row_stop = min(size, math.ceil(max(y0, y1, y2) + 0.5))
    if column_start >= column_stop or row_start >= row_stop:
        return
    rows = centers[row_start:row_stop]
    low = np.full(len(rows), -np.inf)
    high = np.full(len(rows), np.inf)
    sign = 1.0 if area > 0 else -1.0
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2)), ((x2, y2), (x0, y0))):
        # Inside when sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) >= 0, i.e. a * x + rest >= 0.
        a = -sign * (by - ay)
        rest = sign * ((bx - ax) * (rows - ay) + (by - ay) * ax)
        if a > 0:
            np.maximum(low, -rest / a, out=low)
        elif a < 0:
            np.minimum(high, -rest / a, out=high)
        else:
            high[rest < 0] = -np.inf
    columns = centers32[column_start:column_stop]
    inside = (columns >= low.astype(np.float32)[:, None]) & (columns <= high.astype(np.float32)[:, None])
    plane = depth_plane.astype(np.float32)
    key = columns * plane[0] + (centers32[row_start:row_stop] * plane[1] + plane[2])[:, None]
    depth_view = depth[row_start:row_stop, column_start:column_stop]
    inside &= key > depth_view
    np.copyto(depth_view, key, where=inside)
    np.copyto(ids[row_start:row_stop, column_start:column_stop], np.int32(index), where=inside)


def color_table(colors: FloatArray) -> NDArray[np.uint32]:
    """Packed RGBA (bytes R, G, B, 255 in memory order) of each triangle's colour at each of 256 shade levels:
    entry ``256 * triangle + level`` is the colour times ``level / 255``."""
    levels = np.arange(256, dtype=np.float64) / 255.0
    table = np.full((len(colors), 256, 4), 255, dtype=np.uint8)
    table[:, :, :3] = np.floor(colors[:, None, :] * levels[None, :, None] + 0.5).astype(np.uint8)
    return table.reshape(-1, 4).view(np.uint32).ravel()


@cache
def _pixel_centers(size: int) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    rows, columns = np.indices((size, size), dtype=np.float32)
    return (columns + np.float32(0.5)).ravel(), (rows + np.float32(0.5)).ravel()


@cache
def _background(size: int, color: tuple[int, int, int]) -> NDArray[np.uint8]:
    frame = np.full((size * size, 4), 255, dtype=np.uint8)
    frame[:, :3] = color
    return frame


def compose_frame(
    ids: NDArray[np.int32],
    depth: NDArray[np.float32],
    pixel_to_material: FloatArray,
    colors: NDArray[np.uint32],
    texture: NDArray[np.uint8],
    texels_per_unit: float,
    background: tuple[int, int, int],
) -> NDArray[np.uint8]:
    """The RGB frame (``size × size × 3``): each covered pixel is its triangle's colour (a :func:`color_table`)
    at the shade level (0..255) the material texture gives at its point; the rest is ``background``."""
    size = ids.shape[0]
    frame = _background(size, background).copy()
    packed = frame.view(np.uint32).ravel()
    flat_ids = ids.ravel()
    covered = np.flatnonzero(flat_ids >= 0)
    which = flat_ids[covered]
    centers_x, centers_y = _pixel_centers(size)
    px, py = centers_x[covered], centers_y[covered]
    inverse_depth = depth.ravel()[covered]
    plane = (pixel_to_material[:, :2, :] * texels_per_unit).astype(np.float32)
    side = texture.shape[0]
    u = np.take(plane[:, 0, 0], which) * px + np.take(plane[:, 0, 1], which) * py + np.take(plane[:, 0, 2], which)
    v = np.take(plane[:, 1, 0], which) * px + np.take(plane[:, 1, 1], which) * py + np.take(plane[:, 1, 2], which)
    column = np.clip((u / inverse_depth).astype(np.int32), 0, side - 1)
    row = np.clip((v / inverse_depth).astype(np.int32), 0, side - 1)
    level = np.take(texture.ravel(), row * side + column)
    packed[covered] = np.take(colors, which * 256 + level)
    # Dropping the alpha byte through PIL is several times faster than a strided numpy copy.
    rgb = Image.frombuffer("RGBA", (size, size), frame, "raw", "RGBA", 0, 1).convert("RGB")
    return np.asarray(rgb)
