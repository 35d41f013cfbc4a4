"""The synthesis environment: Gymnasium conformance, seeding, refused actions, oracle replay, FOLD export."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import foldbench.envs  # registers the environment
from foldbench.crease.io.fold_format import pattern_from_fold
from foldbench.envs import ENV_ID, OrigamiSynthesisEnv, random_simple_fold_target, simple_fold_target

BOOK = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])
DIAGONAL = simple_fold_target("diagonal", [((0.0, 0.0), (1.0, 1.0))])
TWO_FOLDS = simple_fold_target("triangle in half", [((0.0, 0.0), (1.0, 1.0)), ((1.0, 0.0), (-1.0, 1.0))])


def test_registered_and_check_env_passes() -> None:
    assert ENV_ID in gymnasium.registry
    check_env(gymnasium.make(ENV_ID).unwrapped)
    check_env(OrigamiSynthesisEnv(observation_mode="text"), skip_render_check=True)


def test_rgb_array_render_shows_the_four_pictures() -> None:
    env = gymnasium.make(ENV_ID, render_mode="rgb_array", image_size=48, target=BOOK)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (48, 4 * 48, 3) and frame.dtype == np.uint8
    without = gymnasium.make(ENV_ID, target=BOOK)
    without.reset(seed=0)
    assert without.render() is None


def test_seeded_resets_draw_the_same_random_target() -> None:
    first, second = OrigamiSynthesisEnv(observation_mode="text"), OrigamiSynthesisEnv(observation_mode="text")
    assert first.reset(seed=7)[0]["text"] == second.reset(seed=7)[0]["text"]
    names = {json.dumps(OrigamiSynthesisEnv(observation_mode="text").reset(seed=s)[0]["text"]) for s in range(6)}
    assert len(names) > 1


@pytest.mark.parametrize("target", [BOOK, DIAGONAL, TWO_FOLDS], ids=lambda t: t.name)
def test_replaying_the_target_actions_reaches_gs_one(target) -> None:
    env = OrigamiSynthesisEnv(target=target)
    _, info = env.reset(seed=0)
    assert info["gs"] < 1.0
    total = 0.0
    for action in target.actions:
        _, reward, terminated, _, info = env.step(action)
        total += reward
    assert terminated and info["final_metrics"]["gs"] == 1.0 and info["final_metrics"]["qe"] == 1.0
    assert total == pytest.approx(1.0 - OrigamiSynthesisEnv(target=target).reset()[1]["gs"])


def test_book_fold_halves_the_similarity_of_the_blank_square() -> None:
    _, info = OrigamiSynthesisEnv(target=BOOK).reset()
    assert info["gs"] == pytest.approx(0.5)


def test_a_refused_action_says_why_and_changes_nothing() -> None:
    env = OrigamiSynthesisEnv(target=BOOK, budget=3)
    env.reset(seed=0)
    before = env.fold_text()
    _, reward, _, _, info = env.step({"action": "add_crease", "p1": [0, 5], "p2": [5, 5], "assignment": "V"})
    assert reward == 0.0 and not info["accepted"]
    assert info["feedback"]["stage"] == "compiler" and info["feedback"]["class"] == "GIF"
    assert info["feedback"]["where"]["coordinates"] == [5.0, 5.0]
    assert env.fold_text() == before
    _, _, _, _, info = env.step('{"action": "add_crease", "p1": [3, 3], "p2": [3.02, 3.01], "assignment": "M"}')
    assert info["feedback"]["code"] == "E_ACTION_DEGENERATE"
    _, _, _, truncated, info = env.step("fold the top corner down")
    assert info["feedback"]["stage"] == "schema" and truncated and info["final_metrics"]["qe"] == 0.0


def test_endpoints_snap_to_vertices_within_the_tolerance() -> None:
    env = OrigamiSynthesisEnv(target=BOOK)
    env.reset()
    _, _, terminated, _, info = env.step({"action": "add_crease", "p1": [5, 0.02], "p2": [5, 9.97],
                                          "assignment": "V"})
    assert info["accepted"] and terminated
    assert env.sheet.crease_list() == [{"p1": [5.0, 0.0], "p2": [5.0, 10.0], "assignment": "V"}]
    env = OrigamiSynthesisEnv(target=DIAGONAL)
    env.reset()
    _, _, terminated, _, info = env.step({"action": "add_crease", "p1": [0.03, -0.02], "p2": [9.97, 10.04],
                                          "assignment": "V"})
    assert info["accepted"] and terminated
    assert env.sheet.crease_list()[0]["p1"] == [0.0, 0.0] and env.sheet.crease_list()[0]["p2"] == [10.0, 10.0]


def test_state_exports_as_a_fold_file_that_reads_back() -> None:
    env = OrigamiSynthesisEnv(target=TWO_FOLDS)
    env.reset()
    for action in TWO_FOLDS.actions:
        env.step(action)
    pattern = pattern_from_fold(json.loads(env.fold_text()))
    folded = [a for a in pattern.edges_assignment if a in "MV"]
    assert len(folded) == 4 and sorted(folded) == sorted(a for a in TWO_FOLDS.pattern.edges_assignment if a in "MV")


def test_observation_pictures_and_text() -> None:
    env = OrigamiSynthesisEnv(target=DIAGONAL, image_size=64)
    observation, _ = env.reset()
    assert observation["target"].shape == (64, 64, 3)
    assert not np.array_equal(observation["target"], observation["current_front"])
    state = json.loads(observation["text"])
    assert state["steps_left"] == 10 and state["previous_action"] is None and len(state["target_outline"]) == 1
    assert env.observation_space.contains(observation)


JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
NUMBER = st.floats(-20, 30, allow_nan=False) | st.integers(-5, 15)
CREASE = st.fixed_dictionaries({"p1": st.tuples(NUMBER, NUMBER), "p2": st.tuples(NUMBER, NUMBER),
                                "assignment": st.sampled_from(["M", "V", "B", "x"])})
ACTION = (
    JSON
    | st.text(max_size=60)
    | CREASE.map(lambda c: {"action": "add_crease", **c})
    | st.lists(CREASE, max_size=4).map(lambda cs: {"action": "add_creases", "creases": cs})
    | st.builds(lambda c: json.dumps({"action": "add_crease", **c}), CREASE)
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, min_size=1, max_size=4))
def test_step_never_raises_and_refusals_leave_the_state(actions) -> None:
    env = OrigamiSynthesisEnv(target=BOOK, budget=25, observation_mode="text")
    env.reset(seed=0)
    for action in actions:
        before_text, before_gs = env.fold_text(), env.gs
        observation, reward, _, _, info = env.step(action)
        assert env.observation_space.contains(observation)
        if not info["accepted"]:
            assert env.fold_text() == before_text and env.gs == before_gs and reward == 0.0
            assert info["feedback"]["code"]


def test_random_targets_compile_and_replay() -> None:
    rng = np.random.default_rng(11)
    for grid in (8, None):
        target = random_simple_fold_target(rng, 3, grid=grid)
        env = OrigamiSynthesisEnv(target=target, observation_mode="text")
        env.reset()
        for action in target.actions:
            _, _, terminated, _, info = env.step(action)
            assert info["accepted"]
        assert terminated


class _KiteLikeSequence:
    """A fold sequence as the family's collections expose it (name, category, final_pattern, actions())."""

    name = "two-step sequence"
    category = "bases"

    def __init__(self) -> None:
        self._made = simple_fold_target("made", [((0.0, 0.0), (1.0, 1.0)), ((1.0, 0.0), (-1.0, 1.0))])

    @property
    def final_pattern(self):
        return self._made.pattern

    def actions(self) -> list[dict]:
        return [dict(action) for action in self._made.actions]


def test_a_fold_sequence_becomes_a_target_the_oracle_can_replay() -> None:
    target = foldbench.envs.target_from_sequence(_KiteLikeSequence())
    assert target.name == "two-step sequence" and target.category == "bases" and len(target.actions) == 2
    env = OrigamiSynthesisEnv(target=target, observation_mode="text")
    env.reset(seed=0)
    for action in target.actions:
        _, _, terminated, _, info = env.step(action)
    assert terminated and info["final_metrics"]["gs"] == 1.0
