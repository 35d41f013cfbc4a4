"""The built-in fold sequences: every state folds flat, and the environment actions replay them."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, compile_crease_pattern
from foldbench.crease.errors import CreasePatternError
from foldbench.crease.graph.local_checks import check_vertices
from foldbench.crease.sequences import (
    CATEGORIES,
    PAPER_SIZE,
    Crease,
    builtin_sequences,
    pattern_from_creases,
    random_simple_sequence,
    sequence_by_name,
    simple_fold_sequence,
    square_border,
)
from foldbench.origami.folded import align_fold, silhouette_of
from tests.support.shared import FLAT_FOLDER, needs_shared

# The built-in sequences by name, in catalogue order: written out so that collecting the tests does not build them
# (about 6 CPU-seconds); test_the_catalogue_is_these_sequences_in_this_order keeps the list true.
SEQUENCE_NAMES = [
    "book-quarter-corner", "diagonal-flap-behind", "cupboard", "blintz", "half-corner-behind",
    *(f"simple-grid-{index:02d}" for index in range(12)),
    *(f"simple-free-{index:02d}" for index in range(8)),
    *(f"simple-long-{index:02d}" for index in range(8)),
    "kite-base", "fish-base", "waterbomb-base", "preliminary-base", "bird-base", "frog-base",
    "pleat-horizontal", "pleat-diagonal", "square-twist",
]  # fmt: skip


def _edge_set(pattern) -> set[tuple]:
    coords = pattern.vertices_coords * pattern.scale + np.array(pattern.offset)
    edges = set()
    for (a, b), letter in zip(pattern.edges_vertices.tolist(), pattern.edges_assignment, strict=True):
        ends = sorted([tuple(np.round(coords[a], 6)), tuple(np.round(coords[b], 6))])
        edges.add((*ends, letter))
    return edges


@pytest.mark.parametrize("name", SEQUENCE_NAMES)
def test_every_state_folds_flat(name: str) -> None:
    sequence = sequence_by_name(name)
    assert len(sequence) >= 1
    for state in range(sequence.state_count):
        assert sequence.compiled(state).state_count >= 1, f"{sequence.name} state {state}"


@pytest.mark.parametrize("name", SEQUENCE_NAMES)
def test_actions_replay_crease_by_crease(name: str) -> None:
    sequence = sequence_by_name(name)
    segments: list[list[list[float]]] = []
    letters: list[str] = []
    actions = sequence.actions()
    assert len(actions) == len(sequence)
    for action in actions:
        assert action["action"] == "add_creases" and action["creases"]
        for record in action["creases"]:
            assert set(record) == {"p1", "p2", "assignment"} and record["assignment"] in ("M", "V")
            for x, y in (record["p1"], record["p2"]):
                assert -1e-9 <= x <= PAPER_SIZE + 1e-9 and -1e-9 <= y <= PAPER_SIZE + 1e-9
            segments.append([record["p1"], record["p2"]])
            letters.append(record["assignment"])
        pattern = build_crease_pattern(np.concatenate([square_border(), np.array(segments, float)]),
                                       "BBBB" + "".join(letters))
        assert compile_crease_pattern(pattern, limit=2).state_count >= 1
    assert _edge_set(pattern) == _edge_set(sequence.final_pattern)


def test_the_catalogue_is_these_sequences_in_this_order() -> None:
    assert [s.name for s in builtin_sequences()] == SEQUENCE_NAMES


def test_names_are_unique_and_categories_known() -> None:
    names = [s.name for s in builtin_sequences()]
    assert len(set(names)) == len(names)
    assert {s.category for s in builtin_sequences()} == set(CATEGORIES)
    assert {"kite-base", "fish-base", "waterbomb-base", "preliminary-base", "bird-base", "frog-base"} <= set(names)
    assert sequence_by_name("blintz").category == "simple"
    with pytest.raises(KeyError):
        sequence_by_name("no-such-sequence")


_BUILD_ONE = """
import json, sys
from foldbench.crease import sequences
built = []
make = sequences.random_simple_sequence
def counting(*args, **kwargs):
    built.append(kwargs["name"])
    return make(*args, **kwargs)
sequences.random_simple_sequence = counting
sequence = sequences.sequence_by_name(sys.argv[1])
steps = [step.description for step in sequence.steps]
print(json.dumps({"built": built, "steps": steps, "actions": sequence.actions()}))
"""


@pytest.mark.parametrize("name", ["simple-long-03", "simple-free-05", "frog-base"])
def test_a_sequence_asked_by_name_is_built_alone_and_as_in_the_catalogue(name: str) -> None:
    # Scoring one item needs one sequence; building all of them takes seconds (the long random ones). In a fresh
    # process only the named one is built, and it is the catalogue's sequence, crease for crease.
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _BUILD_ONE, name], capture_output=True, text=True, check=True)
    alone = json.loads(run.stdout)
    assert alone["built"] == ([name] if name.startswith("simple-") else [])
    catalogue = next(s for s in builtin_sequences() if s.name == name)
    assert alone["steps"] == [step.description for step in catalogue.steps]
    assert alone["actions"] == json.loads(json.dumps(catalogue.actions()))  # every crease's coordinates, to the bit


def test_second_fold_of_all_layers_reverses_on_the_flipped_layer() -> None:
    sequence = simple_fold_sequence("quarter", [((5, 0), (0, 1), "valley"), ((0, 5), (1, 0), "valley")])
    second = sequence.steps[1].creases
    assert sorted(c.assignment for c in second) == ["M", "V"]
    # the crease on the half that did not move is a valley, the one on the flipped half a mountain
    by_side = {c.p1[0] + c.p2[0] > 10: c.assignment for c in second}
    assert by_side == {True: "V", False: "M"}


def test_top_flap_fold_creases_one_layer_only() -> None:
    sequence = simple_fold_sequence(
        "corner", [((5, 0), (0, 1), "valley"), ((0, 5), (1, 0), "valley"), ((10, 2.5), (-1, -1), "flap")])
    assert len(sequence.steps[2].creases) == 1
    all_layers = simple_fold_sequence(
        "corner-all", [((5, 0), (0, 1), "valley"), ((0, 5), (1, 0), "valley"), ((10, 2.5), (-1, -1), "valley")])
    assert len(all_layers.steps[2].creases) == 4


def test_a_fold_along_an_earlier_crease_is_refused() -> None:
    with pytest.raises(ValueError, match="not a simple fold"):
        simple_fold_sequence("twice", [((5, 0), (0, 1), "valley"), ((5, 0), (0, 1), "valley")])


def test_crease_records_round_trip() -> None:
    crease = Crease((1.0, 2.0), (3.0, 4.5), "M")
    assert Crease.from_action(crease.to_action()) == crease


_GRID_POINT = st.tuples(st.integers(0, 8), st.integers(0, 8)).map(lambda p: (p[0] * 1.25, p[1] * 1.25))


def _triangle(points: tuple[tuple[float, float], ...]) -> np.ndarray | None:
    (ax, ay), (bx, by), (cx, cy) = points
    return np.array(points, float) if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) != 0 else None


@st.composite
def _triangle_pairs(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Two triangles on the 1/8 grid of the square; half the time the second has an edge on the line of one of
    the first's edges, from points of that line (so they may share a piece of it, touch at a point, or not)."""
    first = draw(st.tuples(_GRID_POINT, _GRID_POINT, _GRID_POINT).map(_triangle).filter(lambda t: t is not None))
    if draw(st.booleans()):
        second = draw(st.tuples(_GRID_POINT, _GRID_POINT, _GRID_POINT).map(_triangle).filter(lambda t: t is not None))
        return first, second
    i = draw(st.integers(0, 2))
    p, q = first[i], first[(i + 1) % 3]
    s, t = draw(st.integers(-4, 8)) / 4, draw(st.integers(-4, 8)) / 4
    third = draw(_GRID_POINT)
    second = _triangle((tuple(p + s * (q - p)), tuple(p + t * (q - p)), third))
    return first, second if second is not None else first[::-1].copy()


@settings(max_examples=300, deadline=None)
@given(pair=_triangle_pairs())
def test_two_faces_share_an_edge_when_their_boundaries_overlap_along_a_segment(
        pair: tuple[np.ndarray, np.ndarray]) -> None:
    from shapely.geometry import Polygon

    from foldbench.crease.sequences import _boxes_meet, _Face, _shared_edge

    first, second = pair
    overlap = Polygon(first).boundary.intersection(Polygon(second).boundary).length
    shared = _shared_edge(first, second)
    assert shared == (overlap > 1e-6)
    # the folding skips the edge test for faces whose widened boxes are apart: they never share an edge
    boxes = [_Face(polygon, np.eye(2), np.zeros(2), 0).box for polygon in pair]
    assert _boxes_meet(*boxes) or not shared


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), grid=st.booleans())
def test_random_sequences_fold_flat_at_every_state(seed: int, grid: bool) -> None:
    sequence = random_simple_sequence(np.random.default_rng(seed), 4, grid=grid)
    assert len(sequence) >= 1
    for state in range(sequence.state_count):
        assert sequence.compiled(state).state_count >= 1


@pytest.mark.parametrize("name", SEQUENCE_NAMES)
def test_environment_accepts_every_step_and_ends_at_gs_one(name: str) -> None:
    sequence = sequence_by_name(name)
    from foldbench.envs import OrigamiSynthesisEnv, target_from_sequence

    target = target_from_sequence(sequence)
    env = OrigamiSynthesisEnv(target=target, budget=len(target.actions) + 1, observation_mode="text")
    env.reset(seed=0)
    for index, action in enumerate(target.actions):
        _, _, _, _, info = env.step(action)
        assert info["accepted"], (index, info["feedback"])
    assert env.final_metrics()["gs"] == 1.0


# ---- the bases' crease patterns and their flat sub-patterns -----------------------------------------------------

CORPUS = FLAT_FOLDER / "instagram"


def _rays_at_interior_vertices(creases) -> list[list[tuple[int, float, str]]]:
    """For each interior vertex (endpoints rounded to 10⁻⁶), the creases leaving it: index, direction, letter."""
    rays: dict[tuple, list[tuple[int, float, str]]] = {}
    for index, crease in enumerate(creases):
        for a, b in ((crease.p1, crease.p2), (crease.p2, crease.p1)):
            key = (round(a[0], 6), round(a[1], 6))
            rays.setdefault(key, []).append((index, math.atan2(b[1] - a[1], b[0] - a[0]), crease.assignment))
    return [around for (x, y), around in rays.items() if min(x, y, PAPER_SIZE - x, PAPER_SIZE - y) >= 1e-6]


def _vertex_flat(around: list[tuple[int, float, str]]) -> bool:
    """Maekawa and Kawasaki at one interior vertex, given the creases leaving it."""
    mountains = sum(letter == "M" for _, _, letter in around)
    if abs(2 * mountains - len(around)) != 2:
        return False
    angles = sorted(angle for _, angle, _ in around)
    sectors = [(angles[(i + 1) % len(angles)] - angles[i]) % (2 * math.pi) for i in range(len(angles))]
    return abs(sum(sectors[::2]) - math.pi) <= 1e-6


def _folds(creases) -> bool:
    try:
        return compile_crease_pattern(pattern_from_creases(creases), limit=1).state_count >= 1
    except CreasePatternError:
        return False


def _flat_subsets(creases) -> list[frozenset[int]]:
    """Every non-empty subset of the creases that folds flat on its own (by index).

    A subset passes the quick filter (Maekawa and Kawasaki at every interior vertex it reaches) when, at each
    vertex, the creases it keeps there form a flat-foldable vertex; those local verdicts are worked out once per
    vertex and subset of its creases, so the 2ⁿ subsets are only looked up, and the survivors are compiled."""
    vertices = []
    for around in _rays_at_interior_vertices(creases):
        flat_here = {0}
        for pick in range(1, 1 << len(around)):
            kept = [ray for j, ray in enumerate(around) if pick >> j & 1]
            if _vertex_flat(kept):
                flat_here.add(sum(1 << index for index, _, _ in kept))
        vertices.append((sum(1 << index for index, _, _ in around), flat_here))
    found = []
    for mask in range(1, 1 << len(creases)):
        if all(mask & incident in flat_here for incident, flat_here in vertices):
            chosen = [c for i, c in enumerate(creases) if mask >> i & 1]
            if _folds(chosen):
                found.append(frozenset(i for i in range(len(creases)) if mask >> i & 1))
    return found


def _on_the_22_5_degree_grid(segments: list[Crease]) -> bool:
    """Whether every segment runs at a multiple of 22.5°."""
    angles = [math.degrees(math.atan2(c.p2[1] - c.p1[1], c.p2[0] - c.p1[0])) % 180 for c in segments]
    return all(min(abs(angle - 22.5 * k) for k in range(9)) < 1e-9 for angle in angles)


def _letters_at_vertices(segments: list[Crease]) -> dict[tuple, str]:
    """The letters of the creases meeting at each vertex (rounded to 10⁻⁶), for Maekawa by hand."""
    letters: dict[tuple, str] = {}
    for crease in segments:
        for point in (crease.p1, crease.p2):
            key = (round(point[0], 6), round(point[1], 6))
            letters[key] = letters.get(key, "") + crease.assignment
    return letters


def test_bird_base_is_the_known_22_5_degree_pattern() -> None:
    bird = sequence_by_name("bird-base")
    assert bird.category == "base" and bird.compiled(len(bird)).state_count >= 1
    report = check_vertices(bird.final_pattern)
    assert report.checked_vertices == 5 and max(report.kawasaki_errors.values()) < 1e-9  # centre + 4 petal points
    segments = bird.final_segments()
    assert len(segments) == 16 and _on_the_22_5_degree_grid(segments)
    # Maekawa by hand at the centre (4 mountains, 2 valleys) and at each petal point (3 and 1)
    degrees = _letters_at_vertices(segments)
    u = round(5 * math.tan(math.radians(22.5)), 6)
    assert sorted(degrees[(5.0, 5.0)]) == list("MMMMVV")
    for point in ((u, 5.0), (5.0, u), (10 - u, 5.0), (5.0, 10 - u)):
        assert sorted(degrees[point]) == list("MMMV")


@needs_shared
def test_bird_base_matches_the_traditional_oripa_tile() -> None:
    """The lower left quarter of the corpus's '4 Birdbase' (four bird bases on one sheet) is our bird base."""
    path = CORPUS / "082_traditionaloripa_4_Birdbase.fold"
    document = json.loads(path.read_text())
    coords = np.array(document["vertices_coords"], float) * 2 * PAPER_SIZE
    tile = set()
    for (a, b), letter in zip(document["edges_vertices"], document["edges_assignment"], strict=True):
        p, q = coords[a], coords[b]
        inside = max(p.max(), q.max()) <= PAPER_SIZE + 1e-6
        on_tile_border = (abs(p - PAPER_SIZE) < 1e-6) & (abs(q - PAPER_SIZE) < 1e-6)
        if letter in "MV" and inside and not on_tile_border.any():
            tile.add((*sorted([tuple(np.round(p, 4)), tuple(np.round(q, 4))]), letter))
    ours = {(*sorted([tuple(np.round(c.p1, 4)), tuple(np.round(c.p2, 4))]), c.assignment)
            for c in sequence_by_name("bird-base").final_segments()}
    assert ours == tile


def test_frog_base_is_a_22_5_degree_pattern_flat_at_every_vertex() -> None:
    frog = sequence_by_name("frog-base")
    assert frog.category == "base" and len(frog) == 4
    report = check_vertices(frog.final_pattern)
    assert report.checked_vertices == 9 and max(report.kawasaki_errors.values()) < 1e-9  # centre + 8 kite vertices
    segments = frog.final_segments()
    assert _on_the_22_5_degree_grid(segments)
    letters = _letters_at_vertices(segments)
    # Maekawa by hand: 14 creases at the centre (8 mountains to the kite vertices, one diagonal and both middle
    # lines as valleys), three mountains and a valley at each kite vertex
    assert sorted(letters[(5.0, 5.0)]) == list("M" * 8 + "V" * 6)
    kite_vertices = [key for key in letters if 0 < key[0] < 10 and 0 < key[1] < 10 and key != (5.0, 5.0)]
    assert len(kite_vertices) == 8 and all(sorted(letters[key]) == list("MMMV") for key in kite_vertices)


def test_frog_base_folds_into_a_long_diamond_with_the_corners_at_one_tip_and_the_centre_at_the_other() -> None:
    """The frog base's known form: a rhombus with 45° tips, all four corners of the square at one tip and its
    centre at the other, so the rhombus is as long as half the square's diagonal."""
    compiled = sequence_by_name("frog-base").compiled(4)
    aligned = align_fold(compiled)
    outline = silhouette_of(aligned).simplify(1e-9)
    corners = np.array(outline.exterior.coords)[:-1]
    assert len(corners) == 4
    sides = [np.linalg.norm(corners[i] - corners[i - 1]) for i in range(4)]
    assert max(sides) - min(sides) < 1e-9
    pattern = compiled.pattern
    coords = pattern.vertices_coords * pattern.scale + np.array(pattern.offset)
    folded = aligned.transform(compiled.folded.vertices_coords_folded)

    def image(point: tuple[float, float]) -> np.ndarray:
        return folded[int(np.argmin(np.linalg.norm(coords - np.array(point), axis=1)))]

    tips = [image(p) for p in ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))]
    assert all(np.linalg.norm(t - tips[0]) < 1e-9 for t in tips)
    centre = image((5.0, 5.0))
    assert abs(np.linalg.norm(centre - tips[0]) - 5 * math.sqrt(2)) < 1e-9
    for tip, other in ((tips[0], centre), (centre, tips[0])):
        assert min(np.linalg.norm(corners - tip, axis=1)) < 1e-9
        neighbours = [c for c in corners if 1e-9 < np.linalg.norm(c - tip) and np.linalg.norm(c - other) > 1e-9]
        a, b = (neighbours[0] - tip), (neighbours[1] - tip)
        assert math.degrees(math.acos(a @ b / np.linalg.norm(a) / np.linalg.norm(b))) == pytest.approx(45, abs=1e-7)


@pytest.mark.parametrize(("name", "chain"), [
    ("bird-base", True),      # the diagonal alone, then everything
    ("fish-base", False),     # the diagonal, then either rabbit ear, then both
    ("square-twist", True),   # nothing but the whole twist
])
def test_states_are_the_flat_sub_patterns(name: str, chain: bool) -> None:
    """Every state is a sub-pattern that folds flat, and (for a chain) no other sub-pattern does, so the
    sequence has as many steps as the geometry allows."""
    sequence = sequence_by_name(name)
    segments = sequence.final_segments()
    flat = _flat_subsets(segments)
    state_sets = []
    for state in range(1, sequence.state_count):
        added = sequence.creases_until(state)
        state_sets.append(frozenset(i for i, c in enumerate(segments) if any(a.covers(c) for a in added)))
    assert all(s in flat for s in state_sets)
    assert all(a < b for a, b in zip(state_sets, state_sets[1:], strict=False))
    if chain:
        assert sorted(flat, key=len) == state_sets
    else:
        assert len(flat) == len(state_sets) + 1
