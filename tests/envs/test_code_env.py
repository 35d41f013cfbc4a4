"""The crease-pattern code environment: Gymnasium conformance, seeding, reward shaping, bad answers, the text
interface and vector environments."""

from __future__ import annotations

import json
import math

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.crease.render import ASSIGNMENT_COLOURS
from foldbench.envs import CODE_ENV_ID, CodeTextInterface, CreasePatternCodeEnv, RewardShaping
from foldbench.origami.instances import simple_fold_instance

INSTANCE = simple_fold_instance(np.random.default_rng(3), 3, 200)
SQUARE = {"vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1]], "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0]],
          "edges_assignment": ["B", "B", "B", "B"]}
BOOK = {"vertices_coords": [[0, 0], [0.5, 0], [1, 0], [1, 1], [0.5, 1], [0, 1]],
        "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [1, 4]],
        "edges_assignment": ["B", "B", "B", "B", "B", "B", "V"]}


def _env(**options) -> CreasePatternCodeEnv:
    env = CreasePatternCodeEnv(observation_mode="text", **options)
    env.reset(seed=0, options={"instance": INSTANCE})
    return env


def test_registered_and_check_env_passes() -> None:
    assert CODE_ENV_ID in gymnasium.registry
    check_env(gymnasium.make(CODE_ENV_ID, image_size=64).unwrapped)
    check_env(CreasePatternCodeEnv(observation_mode="text", folds=(2,)), skip_render_check=True)


def test_v1_is_registered_and_v0_is_deprecated_in_its_favour() -> None:
    """The observation changed (``flat_pattern`` replaced ``crease_pattern``), so the id moved to v1; asking for
    v0 gets Gymnasium's own error naming v1, not an environment with the new observation under the old id."""
    assert CODE_ENV_ID == "foldbench/CreasePatternCode-v1"
    assert "foldbench/CreasePatternCode-v0" not in gymnasium.registry
    with pytest.warns(DeprecationWarning), pytest.raises(gymnasium.error.DeprecatedEnv, match="CreasePatternCode-v1"):
        gymnasium.make("foldbench/CreasePatternCode-v0")
    env = gymnasium.make(CODE_ENV_ID, image_size=32)
    observation, _ = env.reset(seed=0)
    assert set(observation) == {"flat_pattern", "folded", "text"}
    env.close()


def test_observation_shows_the_reference_pictures_and_the_name() -> None:
    env = CreasePatternCodeEnv(image_size=64, render_mode="rgb_array")
    observation, info = env.reset(seed=0, options={"instance": INSTANCE})
    assert env.observation_space.contains(observation)
    assert "crease_pattern" not in observation and observation["flat_pattern"].shape == (64, 64, 3)
    # the pictures are drawn: more than one colour; the flat pattern is grey (layers) and black (lines), and
    # shows no red or blue crease as a crease-pattern drawing would
    assert len(np.unique(observation["folded"].reshape(-1, 3), axis=0)) > 1
    flat = observation["flat_pattern"].reshape(-1, 3).astype(int)
    assert len(np.unique(flat, axis=0)) > 2
    for letter in "MV":
        colour = [int(ASSIGNMENT_COLOURS[letter][i:i + 2], 16) for i in (1, 3, 5)]
        assert not (flat == colour).all(axis=1).any()
    assert json.loads(observation["text"])["model_name"] == INSTANCE.name == info["model_name"]
    assert env.render().shape == (64, 128, 3)


def test_seeded_resets_draw_the_same_reference() -> None:
    first, second = CreasePatternCodeEnv(observation_mode="text"), CreasePatternCodeEnv(observation_mode="text")
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.instance.fold_document() == second.instance.fold_document()
    documents = set()
    for seed in range(4):
        first.reset(seed=seed)
        documents.add(json.dumps(first.instance.fold_document()))
    assert len(documents) > 1


def test_reward_terms_follow_the_shaping() -> None:
    shaping = RewardShaping()
    env = _env()
    _, reward, terminated, truncated, info = env.step("I would fold it in half.")
    assert reward == pytest.approx(-shaping.step_penalty - shaping.failure_penalty)
    assert info["error_class"] == "CSE" and not (terminated or truncated)
    _, reward, _, _, info = env.step(json.dumps(SQUARE))
    square = info["answer_partial_score"]
    assert 0 < square < 1
    assert reward == pytest.approx(square + shaping.compile_bonus - shaping.step_penalty, abs=1e-6)
    _, reward, _, _, info = env.step("{broken")   # a failure leaves the previous partial score in place
    _, reward, _, _, info = env.step(SQUARE)
    assert reward == pytest.approx(shaping.compile_bonus - shaping.step_penalty)
    _, reward, terminated, _, info = env.step("```json\n" + json.dumps(INSTANCE.fold_document()) + "\n```")
    assert terminated and info["final_score"]["total"] == pytest.approx(1.0)
    assert reward == pytest.approx((1 - square) + shaping.compile_bonus - shaping.step_penalty + 1.0, abs=1e-6)


def test_a_truncated_episode_ends_with_the_score_of_its_last_answer() -> None:
    shaping = RewardShaping(failure_penalty=0.5, step_penalty=0.0, final_weight=2.0)
    env = _env(budget=2, shaping=shaping)
    env.step(BOOK)
    _, reward, terminated, truncated, info = env.step([1, 2, 3])
    assert truncated and not terminated
    assert info["final_score"]["error_class"] == "CSE" and info["final_score"]["total"] == 0.0
    assert reward == pytest.approx(-0.5)
    env = _env(budget=2, shaping=shaping)
    env.step("nothing")
    _, reward, _, truncated, info = env.step(BOOK)
    final = info["final_score"]["total"]
    assert truncated and 0 < final < 1
    assert reward == pytest.approx(info["answer_partial_score"] + 0.01 + 2 * final, abs=1e-6)
    _, reward, terminated, truncated, info = env.step(BOOK)   # past the budget: refused, never raised
    assert reward == 0.0 and truncated and info["error_code"] == "E_BUDGET_SPENT"


def test_reset_options() -> None:
    env = CreasePatternCodeEnv(observation_mode="text")
    _, info = env.reset(seed=1, options={"folds": 2, "budget": 3})
    assert info["fold_count"] <= 2 and info["budget"] == 3
    _, info = env.reset(seed=1, options={"difficulty": "easy"})
    assert 1 <= info["fold_count"] <= 9
    pool = CreasePatternCodeEnv(instances=[INSTANCE], observation_mode="text")
    assert pool.reset(seed=5)[1]["model_name"] == INSTANCE.name
    for level, (low, high) in (("medium", (10, 19)), ("hard", (20, 30))):
        _, info = env.reset(seed=2, options={"difficulty": level})
        assert low <= info["fold_count"] <= high
        # a pleated model of n steps has 2n faces and folds flat in one way
        assert env.instance.pattern.face_count == 2 * info["fold_count"] and env.instance.compiled.state_count == 1
    with pytest.raises(ValueError, match="difficulty 'extreme'"):
        env.reset(options={"difficulty": "extreme"})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"target": INSTANCE})
    with pytest.raises(gymnasium.error.ResetNeeded):
        CreasePatternCodeEnv(observation_mode="text").step("{}")


NUMBER = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30),
                   st.sampled_from([0, 0.5, 1, 1e308]))
JSON = st.recursive(st.none() | st.booleans() | NUMBER | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                               max_size=3), max_leaves=12)
FOLD_LIKE = st.fixed_dictionaries({
    "vertices_coords": st.lists(st.lists(NUMBER, min_size=0, max_size=3) | JSON, max_size=6),
    "edges_vertices": st.lists(st.lists(st.integers(-3, 8), max_size=3) | JSON, max_size=8),
}, optional={"edges_assignment": st.lists(st.sampled_from(["B", "M", "V", "F", "U", "X", 1]), max_size=8) | JSON,
             "faces_vertices": JSON})
ACTION = (FOLD_LIKE | FOLD_LIKE.map(json.dumps) | JSON | JSON.map(lambda v: json.dumps(v, allow_nan=True))
          | st.text(max_size=80) | st.binary(max_size=20) | st.integers())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, min_size=1, max_size=3))
def test_step_never_raises_on_junk(actions) -> None:
    env = _env(budget=3)
    for action in actions:
        observation, reward, _, _, info = env.step(action)
        assert env.observation_space.contains(observation)
        assert math.isfinite(reward)
        if not info["compiled"]:
            assert info["error_code"]


def test_huge_answers_are_refused_at_once() -> None:
    env = _env()
    edges = {"vertices_coords": [[0, 0], [1, 1]], "edges_vertices": [[0, 1]] * 1_000_000}
    _, _, _, _, info = env.step(edges)
    assert info["error_code"] == "E_CP_TOO_LARGE"
    _, _, _, _, info = env.step("{" + " " * 1_000_001 + "}")
    assert info["error_class"] == "CSE"


def test_text_interface_round_trip() -> None:
    interface = CodeTextInterface(budget=4, image_size=48)
    assert "FOLD JSON" in interface.system_prompt() and "4 answers" in interface.system_prompt()
    observation, _ = interface.reset(seed=0, instance=INSTANCE)
    assert observation["obs_str"].count("<image>") == len(observation["multi_modal_data"]["<image>"]) == 2
    observation, reward, done, info = interface.step("no idea")
    assert not done and reward < 0 and not info["metrics"]["turn_metrics"]["action_is_valid"]
    assert "does not fold flat" in observation["obs_str"] and not observation["multi_modal_data"]["<image>"]
    _, _, done, info = interface.step(json.dumps(SQUARE))
    assert info["metrics"]["turn_metrics"] == {"action_is_valid": True, "action_is_effective": True}
    _, reward, done, info = interface.step(json.dumps(INSTANCE.fold_document()))
    assert done and info["metrics"]["traj_metrics"]["success"] and reward > 1


def test_a_sync_vector_env_of_two_runs() -> None:
    envs = gymnasium.vector.SyncVectorEnv([lambda: CreasePatternCodeEnv(observation_mode="text", folds=(2,),
                                                                        budget=2)] * 2)
    envs.reset(seed=[0, 1])
    _, rewards, terminated, truncated, _ = envs.step((json.dumps(SQUARE), "junk"))
    assert rewards[1] == pytest.approx(-0.12) and rewards[0] > rewards[1]
    _, _, terminated, truncated, _ = envs.step(("junk", "junk"))
    assert truncated.all()
    envs.close()
