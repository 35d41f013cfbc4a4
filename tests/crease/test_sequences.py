"""The built-in fold sequences: every state folds flat, and the environment actions replay them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.crease import build_crease_pattern, compile_crease_pattern
from foldbench.crease.sequences import (
    CATEGORIES,
    PAPER_SIZE,
    Crease,
    builtin_sequences,
    random_simple_sequence,
    sequence_by_name,
    simple_fold_sequence,
    square_border,
)

SEQUENCES = builtin_sequences()


def _edge_set(pattern) -> set[tuple]:
    coords = pattern.vertices_coords * pattern.scale + np.array(pattern.offset)
    edges = set()
    for (a, b), letter in zip(pattern.edges_vertices.tolist(), pattern.edges_assignment, strict=True):
        ends = sorted([tuple(np.round(coords[a], 6)), tuple(np.round(coords[b], 6))])
        edges.add((*ends, letter))
    return edges


@pytest.mark.parametrize("sequence", SEQUENCES, ids=lambda s: s.name)
def test_every_state_folds_flat(sequence) -> None:
    assert len(sequence) >= 1
    for state in range(sequence.state_count):
        assert sequence.compiled(state).state_count >= 1, f"{sequence.name} state {state}"


@pytest.mark.parametrize("sequence", SEQUENCES, ids=lambda s: s.name)
def test_actions_replay_crease_by_crease(sequence) -> None:
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


def test_names_are_unique_and_categories_known() -> None:
    names = [s.name for s in SEQUENCES]
    assert len(set(names)) == len(names)
    assert {s.category for s in SEQUENCES} == set(CATEGORIES)
    assert {"kite-base", "fish-base", "waterbomb-base", "preliminary-base"} <= set(names)
    assert sequence_by_name("blintz").category == "simple"
    with pytest.raises(KeyError):
        sequence_by_name("no-such-sequence")


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


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), grid=st.booleans())
def test_random_sequences_fold_flat_at_every_state(seed: int, grid: bool) -> None:
    sequence = random_simple_sequence(np.random.default_rng(seed), 4, grid=grid)
    assert len(sequence) >= 1
    for state in range(sequence.state_count):
        assert sequence.compiled(state).state_count >= 1


@pytest.mark.parametrize("sequence", SEQUENCES, ids=lambda s: s.name)
def test_environment_accepts_every_step_and_ends_at_gs_one(sequence) -> None:
    from foldbench.envs import OrigamiSynthesisEnv, target_from_sequence

    target = target_from_sequence(sequence)
    env = OrigamiSynthesisEnv(target=target, budget=len(target.actions) + 1, observation_mode="text")
    env.reset(seed=0)
    for index, action in enumerate(target.actions):
        _, _, _, _, info = env.step(action)
        assert info["accepted"], (index, info["feedback"])
    assert env.final_metrics()["gs"] == 1.0
