"""The simulator against an independent exact-geometry model, the paper's own examples, and published records."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.pft import Hole, configurations, parse_actions, solve
from foldbench.pft.encoders.text import encode_steps
from foldbench.pft.holes import Shape, canonical_direction
from tests.pft import reference_model


@functools.cache
def _all_configurations() -> list[tuple]:
    """Every configuration of groups 1-9, enumerated when first drawn from (not while the tests are collected)."""
    return [c for group in range(1, 10) for c in configurations(group)]


@st.composite
def configurations_with_holes(draw: st.DrawFn) -> tuple[tuple, list[Hole]]:
    every = _all_configurations()
    actions = every[draw(st.integers(0, len(every) - 1))]
    folded = solve(actions, []).folded
    positions = draw(st.lists(st.sampled_from(folded.occupied()), min_size=1, max_size=3, unique=True))
    holes = [
        Hole(
            draw(st.sampled_from(list(Shape))),
            draw(st.sampled_from(["small", "large"])),
            draw(st.sampled_from([0, 90, 180, 270])),
            p + 1,
        )  # type: ignore[arg-type]
        for p in positions
    ]
    return actions, holes


@settings(max_examples=150, deadline=None)
@given(configurations_with_holes())
def test_result_holes_match_the_exact_geometry_model(case: tuple[tuple, list[Hole]]) -> None:
    actions, holes = case
    solution = solve(actions, holes)
    expected = reference_model.simulate(
        [a.code.split("-")[0] if a.code.startswith(("H", "V", "D")) else a.code for a in actions],
        [(h.shape.value, h.direction, h.location) for h in holes],
    )
    # pair each model result with its hole's shape to compare canonical directions
    model = []
    index = 0
    for hole in holes:
        layers = len(solution.folded.stacks[hole.location - 1])
        for location, vector in expected[index : index + layers]:
            model.append(
                (location, hole.shape, canonical_direction(hole.shape, reference_model.vector_to_degrees(vector)))
            )
        index += layers
    assert index == len(expected)
    ours = sorted((h.location, h.shape, h.direction) for h in solution.result_holes)
    assert ours == sorted(model)


@settings(max_examples=100, deadline=None)
@given(configurations_with_holes())
def test_fold_sides_change_layer_order_but_not_holes(case: tuple[tuple, list[Hole]]) -> None:
    actions, holes = case
    flipped = tuple(
        type(a)(a.type, not a.front) if hasattr(a, "front") else a  # type: ignore[call-arg, union-attr]
        for a in actions
    )
    one, other = solve(actions, holes), solve(flipped, holes)
    assert sorted(one.result_holes, key=Hole.sort_key) == sorted(other.result_holes, key=Hole.sort_key)
    assert [f.front for f in one.unfolding] == [not f.front for f in other.unfolding]
    for a, b in zip(one.folded.stacks, other.folded.stacks, strict=True):
        assert sorted(a) == sorted(b)


@settings(max_examples=100, deadline=None)
@given(configurations_with_holes())
def test_every_triangle_lies_somewhere_exactly_once(case: tuple[tuple, list[Hole]]) -> None:
    actions, holes = case
    solution = solve(actions, holes)
    for paper in solution.states:
        layers = [t for stack in paper.stacks for t in stack]
        assert sorted(layers) == list(range(32))
    # one result hole per layer punched, and the unfolded result covers distinct locations
    assert len(solution.result_holes) == sum(len(solution.folded.stacks[h.location - 1]) for h in holes)
    assert len({h.location for h in solution.result_holes}) == len(solution.result_holes)


def test_the_papers_text_encoding_example() -> None:
    # Appendix G, prompt 1: one diagonal fold, holes T (large letter), t (small letter), A (large triangle).
    solution = solve(
        parse_actions("D1-F"),
        [Hole("letter", "large", 0, 16), Hole("letter", "small", 0, 20), Hole("triangle", "large", 0, 31)],
    )
    assert encode_steps(solution) == [
        "11, 11, 11, 11,\n11, 11, 11, 11,\n11, 11, 11, 11,\n11, 11, 11, 11,",
        "00, 00, 00, 01,\n00, 00, 01, 11,\n00, 01, 11, 11,\n01, 11, 11, 11,",
        "00, 00, 00, 01,\n00, 00, 01, 1T,\n00, 0t, 11, 11,\n01, 11, 11, A1,",
    ]


PUBLISHED = [  # (actions, initial holes, unfolding, result (location, direction)) from published backward records
    (
        "D3-B R90 V2-B R270 H2-B R270",
        [("ellipse", "small", 90, 16), ("triangle", "large", 180, 15)],
        "V2-B V2-B D4-B",
        [(16, 90), (15, 180), (14, 180), (6, 0), (5, 90), (13, 90)],
    ),
    (
        "D3-B R90 H1-B R90 H2-B R90",
        [("rectangle", "large", 0, 3)],
        "V1-B H1-B D4-B",
        [(27, 0), (30, 0), (17, 90), (9, 90)],
    ),
    (
        "D2-B R180 H1-B R90 H1-B R180",
        [("text", "small", 90, 1)],
        "H1-B V1-B D4-B",
        [(8, 270), (32, 270), (7, 0), (2, 0)],
    ),
    (
        "D1-B R180 V2-B R180 V1-B R180",
        [("triangle", "small", 0, 25), ("letter", "large", 0, 18)],
        "V1-B V1-B D1-B",
        [(25, 0), (18, 0), (19, 0), (26, 270), (28, 270), (20, 270)],
    ),
]


def test_published_records_are_reproduced() -> None:
    for codes, holes, unfolding, results in PUBLISHED:
        solution = solve(parse_actions(codes), [Hole(*h) for h in holes])  # type: ignore[arg-type]
        assert " ".join(f.code for f in solution.unfolding) == unfolding
        assert sorted((h.location, h.direction) for h in solution.result_holes) == sorted(results)
