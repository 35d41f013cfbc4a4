"""Every registered foldbench environment passes Gymnasium's checker and replays the same episode from a seed."""

from __future__ import annotations

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.env_match import check_environments_match

import foldbench.envs  # noqa: F401  (registers the environments)

ENV_IDS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("foldbench/"))


def test_both_environments_are_registered() -> None:
    assert {"foldbench/CreasePatternCode-v0", "foldbench/OrigamiSynthesis-v0"} <= set(ENV_IDS)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_and_seeded_replay(env_id: str) -> None:
    check_env(gymnasium.make(env_id, observation_mode="text").unwrapped, skip_render_check=True)
    first = gymnasium.make(env_id, observation_mode="text", image_size=32)
    second = gymnasium.make(env_id, observation_mode="text", image_size=32)
    check_environments_match(first, second, num_steps=4, seed=3, skip_render=True)
