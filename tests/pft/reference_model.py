"""An independent, slow model of the paper folding test for cross-checking the table-driven engine.

It follows the rules in their geometric form only: every triangle carries an exact affine map (Fractions) from
the flat sheet to where it lies now; a fold reflects the triangles on the moving side of the crease that halves
the bounding box of all current vertices; a rotation turns everything about the sheet's centre. A hole's
direction is a vector. Nothing here uses the engine's position tables or direction codes.
"""

from __future__ import annotations

from fractions import Fraction as Q

Vec = tuple[Q, Q]
Affine = tuple[Q, Q, Q, Q, Q, Q]  # x' = a x + b y + c ; y' = d x + e y + f

IDENTITY: Affine = (Q(1), Q(0), Q(0), Q(0), Q(1), Q(0))


def compose(outer: Affine, inner: Affine) -> Affine:
    a, b, c, d, e, f = outer
    A, B, C, D, E, F = inner
    return (a * A + b * D, a * B + b * E, a * C + b * F + c, d * A + e * D, d * B + e * E, d * C + e * F + f)


def apply(m: Affine, p: Vec) -> Vec:
    return (m[0] * p[0] + m[1] * p[1] + m[2], m[3] * p[0] + m[4] * p[1] + m[5])


def apply_linear(m: Affine, v: Vec) -> Vec:
    return (m[0] * v[0] + m[1] * v[1], m[3] * v[0] + m[4] * v[1])


def reflection(p: Vec, q: Vec) -> Affine:
    """Reflection across the line through p and q."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = dx * dx + dy * dy
    a, b = (dx * dx - dy * dy) / n, 2 * dx * dy / n
    # linear part [[a, b], [b, -a]]; fixes p
    return (a, b, p[0] - a * p[0] - b * p[1], b, -a, p[1] - b * p[0] + a * p[1])


def rotation(degrees: int) -> Affine:
    """Counter-clockwise as the viewer sees it (y down), about (2, 2)."""
    cos, sin = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}[degrees % 360]
    # screen coords: a CCW turn on screen is (x, y) -> (x cos + y sin, -x sin + y cos) about the centre
    a, b, d, e = Q(cos), Q(sin), Q(-sin), Q(cos)
    return (a, b, 2 - 2 * a - 2 * b, d, e, 2 - 2 * d - 2 * e)


def flat_triangles() -> list[tuple[Vec, Vec, Vec]]:
    """The 32 triangles, numbered from the spec's wording (not from the engine)."""
    triangles = []
    for r in range(4):
        for c in range(4):
            tl, tr, bl, br = (Q(c), Q(r)), (Q(c + 1), Q(r)), (Q(c), Q(r + 1)), (Q(c + 1), Q(r + 1))
            if (r + c) % 2 == 0:  # "\" cut: lower-left first, then upper-right
                triangles += [(tl, bl, br), (tl, tr, br)]
            else:  # "/" cut: upper-left first, then lower-right
                triangles += [(tl, tr, bl), (tr, br, bl)]
    return triangles


TRIANGLES = flat_triangles()


def centroid(tri: tuple[Vec, Vec, Vec]) -> Vec:
    return (sum((v[0] for v in tri), Q(0)) / 3, sum((v[1] for v in tri), Q(0)) / 3)


FLAT_CENTROIDS = [centroid(tri) for tri in TRIANGLES]
"""Each triangle's centroid on the flat sheet: an affine map carries a centroid to the centroid of the carried
triangle, so a triangle's centroid anywhere is its map applied to this one point."""
LOCATIONS = {point: index + 1 for index, point in enumerate(FLAT_CENTROIDS)}


def location_at(point: Vec) -> int:
    if point not in LOCATIONS:
        raise AssertionError(f"no triangle has its centroid at {point}")
    return LOCATIONS[point]


MOTION = {  # fold type -> (crease endpoints chooser, moving-side test)
    "H1": "top",
    "H2": "bottom",
    "V1": "left",
    "V2": "right",
    "D1": "top-left",
    "D4": "bottom-right",
    "D2": "top-right",
    "D3": "bottom-left",
}


def simulate(codes: list[str], holes: list[tuple[str, int, int]]) -> list[tuple[int, Vec]]:
    """Fold by ``codes`` and punch ``holes`` (shape, direction degrees, location); returns, for every layer
    punched, the final location and the direction vector on the unfolded (still rotated) sheet."""
    maps = [IDENTITY] * 32
    turn = 0
    for code in codes:
        if code.startswith("R"):
            degrees = int(code[1:])
            turn += degrees
            maps = [compose(rotation(degrees), m) for m in maps]
            continue
        kind = code[:2]
        all_vertices = [apply(maps[t], v) for t in range(32) for v in TRIANGLES[t]]
        xmin = min(p[0] for p in all_vertices)
        xmax = max(p[0] for p in all_vertices)
        ymin = min(p[1] for p in all_vertices)
        ymax = max(p[1] for p in all_vertices)
        if kind[0] == "H":
            mid = (ymin + ymax) / 2
            p, q = (xmin, mid), (xmax, mid)
        elif kind[0] == "V":
            mid = (xmin + xmax) / 2
            p, q = (mid, ymin), (mid, ymax)
        elif kind in ("D1", "D4"):
            p, q = (xmax, ymin), (xmin, ymax)
        else:
            p, q = (xmin, ymin), (xmax, ymax)
        side = MOTION[kind]
        reflect = reflection(p, q)
        new_maps = []
        for t in range(32):
            cx, cy = apply(maps[t], FLAT_CENTROIDS[t])
            # signed side of the crease line: cross product of (q - p) and (c - p)
            cross = (q[0] - p[0]) * (cy - p[1]) - (q[1] - p[1]) * (cx - p[0])
            moving = {
                "top": cy < p[1],
                "bottom": cy > p[1],
                "left": cx < p[0],
                "right": cx > p[0],
            }.get(side)
            if moving is None:
                # the diagonal runs p -> q; decide by which corner of the box the centroid is nearer to
                corner = {
                    "top-left": (xmin, ymin),
                    "bottom-right": (xmax, ymax),
                    "top-right": (xmax, ymin),
                    "bottom-left": (xmin, ymax),
                }[side]
                corner_cross = (q[0] - p[0]) * (corner[1] - p[1]) - (q[1] - p[1]) * (corner[0] - p[0])
                moving = cross != 0 and (cross > 0) == (corner_cross > 0)
            new_maps.append(compose(reflect, maps[t]) if moving else maps[t])
        maps = new_maps
    final_turn = rotation(turn)
    folded_centroids = [apply(maps[t], FLAT_CENTROIDS[t]) for t in range(32)]
    results = []
    for _shape, direction, location in holes:
        punched = FLAT_CENTROIDS[location - 1]
        radians_vector = {0: (Q(0), Q(-1)), 90: (Q(-1), Q(0)), 180: (Q(0), Q(1)), 270: (Q(1), Q(0))}[direction % 360]
        for t in range(32):
            if folded_centroids[t] != punched:
                continue
            inverse = _invert(maps[t])
            flat_vector = apply_linear(inverse, radians_vector)
            final_vector = apply_linear(final_turn, flat_vector)
            final_location = location_at(apply(final_turn, FLAT_CENTROIDS[t]))
            results.append((final_location, final_vector))
    return results


def _invert(m: Affine) -> Affine:
    a, b, c, d, e, f = m
    det = a * e - b * d
    ia, ib, id_, ie = e / det, -b / det, -d / det, a / det
    return (ia, ib, -(ia * c + ib * f), id_, ie, -(id_ * c + ie * f))


def vector_to_degrees(vector: Vec) -> int:
    """Screen vector -> direction in degrees counter-clockwise from 'up'."""
    return {(0, -1): 0, (-1, 0): 90, (0, 1): 180, (1, 0): 270}[(int(vector[0]), int(vector[1]))]
