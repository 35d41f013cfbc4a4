"""The lattice action wrapper, vectorised environments and the text interface."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.envs import ENV_ID, OrigamiSynthesisEnv, simple_fold_target
from foldbench.envs.wrappers import LatticeActions, TextInterface, lattice_pairs

BOOK = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])


def _index_of(wrapper: LatticeActions, p1, p2, letter: str) -> int:
    return 2 * wrapper.pairs.index((p1, p2)) + "MV".index(letter)


def test_lattice_actions_cover_the_9_by_9_grid() -> None:
    wrapper = LatticeActions(OrigamiSynthesisEnv(target=BOOK, observation_mode="text"))
    assert wrapper.action_space.n == 2 * 81 * 80 // 2 == 2 * len(lattice_pairs(9))
    check_env(wrapper.unwrapped)
    wrapper.reset(seed=0)
    _, reward, terminated, _, info = wrapper.step(_index_of(wrapper, (5.0, 0.0), (5.0, 10.0), "V"))
    assert info["accepted"] and terminated and reward == 0.5
    assert wrapper.action(_index_of(wrapper, (0.0, 0.0), (10.0, 10.0), "M"))["assignment"] == "M"


def test_a_sync_vector_env_of_two_runs_and_autoresets() -> None:
    def make() -> gymnasium.Env:
        return LatticeActions(gymnasium.make(ENV_ID, target=BOOK, observation_mode="text", budget=2))

    vector = gymnasium.vector.SyncVectorEnv([make, make])
    observations, _ = vector.reset(seed=[1, 2])
    assert len(observations["text"]) == 2
    index = _index_of(make(), (5.0, 0.0), (5.0, 10.0), "V")
    _, rewards, terminated, _, _ = vector.step(np.array([index, 0]))
    assert terminated.tolist() == [True, False] and rewards[0] == 0.5 and rewards[1] == 0.0
    vector.step(np.array([0, 0]))
    vector.close()


def test_text_interface_round_trip() -> None:
    interface = TextInterface(target=BOOK, images=True, image_size=64)
    assert '"add_crease"' in interface.system_prompt() and "Picture 1" in interface.system_prompt()
    observation, _ = interface.reset(seed=0)
    assert observation["obs_str"].count("<image>") == len(observation["multi_modal_data"]["<image>"]) == 4
    observation, reward, done, info = interface.step("I think a valley fold down the middle.")
    assert not done and reward == 0.0 and not info["metrics"]["turn_metrics"]["action_is_valid"]
    observation, reward, done, info = interface.step(
        '{"action": "add_crease", "p1": [5, 0], "p2": [5, 10], "assignment": "V"}')
    assert done and reward == 0.5 and info["metrics"]["traj_metrics"]["success"]
    assert info["final_metrics"]["gs"] == 1.0
    text_only = TextInterface(target=BOOK, images=False)
    observation, _ = text_only.reset(seed=0)
    assert observation["multi_modal_data"]["<image>"] == [] and "Picture 1" not in text_only.system_prompt()
    assert json.loads(observation["obs_str"].removeprefix("State: "))["budget"] == 10


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=100).map(lambda b: b.decode("latin-1")))
def test_text_interface_never_raises_on_model_text(text: str) -> None:
    interface = TextInterface(target=BOOK, images=False)
    interface.reset(seed=0)
    before = interface.env.fold_text()
    _, reward, _, info = interface.step(text)
    if not info["accepted"]:
        assert interface.env.fold_text() == before and reward == 0.0
