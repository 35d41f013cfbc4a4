"""Every registered foldbench environment passes Gymnasium's checker and replays the same episode from a seed."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.env_match import check_environments_match

import foldbench.envs  # noqa: F401  (registers the environments)
from foldbench.envs.wrappers import GYMNASIUM_WRAPPERS, LatticeActions

ENV_IDS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("foldbench/"))


def test_both_environments_are_registered() -> None:
    assert {"foldbench/CreasePatternCode-v1", "foldbench/OrigamiSynthesis-v0"} <= set(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_and_seeded_replay(env_id: str) -> None:
    check_env(gymnasium.make(env_id, observation_mode="text").unwrapped, skip_render_check=True)
    first = gymnasium.make(env_id, observation_mode="text", image_size=32)
    second = gymnasium.make(env_id, observation_mode="text", image_size=32)
    check_environments_match(first, second, num_steps=4, seed=3, skip_render=True)


@pytest.mark.parametrize("wrapper", GYMNASIUM_WRAPPERS, ids=lambda w: w.__name__)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_wrapper_of_every_registered_id_passes_the_checker(env_id: str, wrapper: type) -> None:
    """A wrapper of ``gymnasium.make(...)`` passes ``check_env`` as it is (the checker also rebuilds it from its
    spec, which needs the recorded constructor arguments); one that does not drive an id refuses it plainly."""
    if env_id not in wrapper.env_ids:
        with pytest.raises(TypeError, match=wrapper.__name__):
            wrapper(gymnasium.make(env_id, observation_mode="text"))
        return
    wrapped = wrapper(gymnasium.make(env_id, observation_mode="text"))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version.*")
        check_env(wrapped, skip_render_check=True)
    rebuilt = gymnasium.make(wrapped.spec)
    assert isinstance(rebuilt, wrapper) and rebuilt.action_space == wrapped.action_space
    check_environments_match(wrapper(gymnasium.make(env_id, observation_mode="text")),
                             wrapper(gymnasium.make(env_id, observation_mode="text")),
                             num_steps=3, seed=5, skip_render=True)


def test_the_lattice_wrapper_records_its_size() -> None:
    wrapped = LatticeActions(gymnasium.make("foldbench/OrigamiSynthesis-v0", observation_mode="text"), size=3)
    rebuilt = gymnasium.make(wrapped.spec)
    assert rebuilt.action_space.n == 2 * 36 == wrapped.action_space.n
