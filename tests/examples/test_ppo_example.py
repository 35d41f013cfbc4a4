"""The PPO example's parts that need no RL library: its environments, the held-out evaluation, the random
baseline, the plot, and the one-line message when Stable-Baselines3 is missing."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from foldbench.envs import simple_fold_target
from tests.support.examples import load_example


def _example() -> ModuleType:
    return load_example("train_lattice_ppo")


def _crease_index(env, target) -> int:
    """The action of the target's one crease (its two ends in either order)."""
    crease = target.actions[0]["creases"][0]
    ends = tuple(tuple(float(round(v, 6)) + 0.0 for v in crease[end]) for end in ("p1", "p2"))
    pair = ends if ends in env.pairs else ends[::-1]
    return 2 * env.pairs.index(pair) + "MV".index(crease["assignment"])


def test_held_out_evaluation_scores_the_policy_on_every_target() -> None:
    example = _example()
    config = example.PPOConfig(folds=(1,), held_out=4, budget=1)
    env = example.make_env(config)
    targets = env.held_out_targets()
    assert len(targets) == 4
    assert example.held_out_gs(env, lambda _observation, e: _crease_index(e, e.unwrapped.target), targets) == 1.0
    blank = float(np.mean([example._blank_gs(env, target) for target in targets]))
    stay = example.held_out_gs(env, lambda _observation, _e: 0, targets)  # one fixed crease for every target
    assert blank < 1.0 and stay < 1.0
    random = example.random_baseline_gs(config, targets)
    assert 0.0 < random < 1.0 and random == example.random_baseline_gs(config, targets)


def test_the_ceiling_folds_every_default_target_and_counts_the_unreachable() -> None:
    example = _example()
    env = example.make_env(example.PPOConfig())
    assert example.oracle_gs(env, env.held_out_targets()) == (1.0, 0)
    assert example.oracle_gs(env, env.validation_targets()) == (1.0, 0)
    two_layers = simple_fold_target("book, then in half", [((0.5, 0.0), (0.0, 1.0)), ((0.0, 0.5), (1.0, 0.0))])
    gs, unreachable = example.oracle_gs(env, [two_layers])  # budget 1: the book fold only
    assert unreachable == 1 and 0.0 < gs < 1.0


def test_environments_of_one_process_share_the_target_distribution() -> None:
    example = _example()
    config = example.PPOConfig(held_out=3)
    first = example.make_env(config)
    second = example.make_env(config, first.targets)
    # 7 horizontal, 7 vertical and 2 x 15 diagonal creases across the 9 x 9 lattice, each mountain or valley
    assert second.targets is first.targets and first.action_space.n == 2 * (7 + 7 + 15 + 15)
    assert first.unwrapped.step_cache_size == example.STEP_CACHE


def test_the_plot_is_written(tmp_path: Path) -> None:
    example = _example()
    curve = example.Curve([0, 512, 1024], [0.0, 0.1, 0.2], [0.3, 0.4, 0.5])
    summary = {"random_gs": 0.3, "blank_gs": 0.35}
    out = example.plot(curve, summary, example.PPOConfig(), tmp_path / "curve.png")
    assert out.read_bytes().startswith(b"\x89PNG")


def test_a_missing_rl_library_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    example = _example()
    monkeypatch.setitem(sys.modules, "stable_baselines3", None)  # import fails as when it is not installed
    with pytest.raises(SystemExit) as stopped:
        example.main(["--timesteps", "64"])
    assert str(stopped.value) == "this example needs Stable-Baselines3 and torch: pip install 'foldbench[rl]'"
