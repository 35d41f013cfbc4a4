"""The synthesis episode without Gymnasium: the environment plays the same episode, and the engine page's example
runs as written."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.envs import OrigamiSynthesisEnv
from foldbench.origami.episode import SynthesisEpisode
from foldbench.origami.policies import oracle_action, random_valid_action
from foldbench.origami.sheet import Sheet
from foldbench.origami.targets import Target, random_simple_fold_target, simple_fold_target

ENGINE_PAGE = Path(__file__).resolve().parents[2] / "docs" / "engines" / "origami.md"


def _actions(seed: int, target: Target, sheet_of: Callable[[], Sheet]) -> list[Callable[[], Any]]:
    """A mix of what a model sends: the target's own steps, random lattice creases and text that is no action."""
    rng = np.random.default_rng(seed)
    picks: list[Callable[[], Any]] = []
    for index in range(4):
        kind = int(rng.integers(0, 3))
        if kind == 0:
            picks.append(lambda index=index: oracle_action(target, index))
        elif kind == 1:
            picks.append(lambda draw=int(rng.integers(0, 2**31)): random_valid_action(
                sheet_of(), np.random.default_rng(draw)).model_dump(mode="json"))
        else:
            picks.append(lambda: "fold it in half please")
    return picks


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16))
def test_the_environment_plays_the_episode_the_task_plays(seed: int) -> None:
    target = random_simple_fold_target(np.random.default_rng(seed), 2, grid=8)
    env = OrigamiSynthesisEnv(target=target, budget=3, observation_mode="text")
    episode = SynthesisEpisode(budget=3, observation_mode="text")
    assert env.reset(seed=seed) == episode.begin(target)
    for pick in _actions(seed, target, lambda: episode.sheet):
        action = pick()
        from_env, from_episode = env.step(action), episode.step(action)
        assert from_env == from_episode
        if from_env[2] or from_env[3]:
            assert "final_metrics" in from_episode[4]
            break
    assert [s.gs for s in env.history] == [s.gs for s in episode.history]


def test_a_step_before_the_start_is_refused_by_both() -> None:
    with pytest.raises(RuntimeError, match="begin"):
        SynthesisEpisode().step("{}")
    with pytest.raises(gymnasium.error.ResetNeeded):
        OrigamiSynthesisEnv().step("{}")


def test_a_spent_budget_truncates_and_refuses_more_steps() -> None:
    book = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])
    episode = SynthesisEpisode(budget=1, observation_mode="text")
    episode.begin(book)
    _, reward, terminated, truncated, info = episode.step("not an action")
    assert (reward, terminated, truncated, info["accepted"]) == (0.0, False, True, False)
    assert set(info["final_metrics"]) == {"gs", "gs_raster", "ss", "qe"}
    _, _, _, truncated, info = episode.step(book.actions[0])
    assert truncated and info["feedback"]["code"] == "E_BUDGET_SPENT" and episode.gs < 1.0


def test_the_engine_page_example_folds_the_book_in_one_step() -> None:
    (block,) = re.findall(r"^```python\n(.*?)^```$", ENGINE_PAGE.read_text(encoding="utf-8"), re.M | re.S)
    names: dict[str, Any] = {}
    exec(compile(block, str(ENGINE_PAGE), "exec"), names)  # the page's own code, not a reply
    assert names["terminated"] and names["info"]["final_metrics"]["gs"] == 1.0
    assert names["reward"] > 0 and names["episode"].budget == 10
