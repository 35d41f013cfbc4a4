"""Train PPO (Stable-Baselines3) on the CPU over a distribution of synthesis targets, scored on held-out ones.

Each training episode folds toward a new random one-fold target (a fold line through multiples of 1/8;
:class:`foldbench.envs.wrappers.RandomFoldTargets`) with one crease between two points of a 9 x 9 lattice, so
every target is one action away (its own crease: the ceiling, GS 1); the observation is the target's and the
current folded silhouette as coverage grids, the reward the environment's (the change of GS). Along training the
greedy policy folds each validation target and each held-out target (shapes never drawn for training); the
checkpoint with the best validation GS is the one reported, so the held-out set never chooses anything. The
random-crease baseline (the environment's ``random`` policy) is scored on the same targets. The learning curve
is written as a PNG.

    pip install 'foldbench[rl]'
    python examples/train_lattice_ppo.py --out docs/train_lattice_ppo.png
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from foldbench.envs import OrigamiSynthesisEnv, Target
from foldbench.envs.target_split import SimpleFoldTargets
from foldbench.envs.wrappers import RandomFoldTargets
from foldbench.origami.policies import random_valid_action

INSTALL_HINT = "this example needs Stable-Baselines3 and torch: pip install 'foldbench[rl]'"
STEP_CACHE = 20000
"""Steps whose outcome each environment remembers (every episode starts from the blank square)."""


@dataclass(frozen=True)
class PPOConfig:
    """What to train on and how."""

    timesteps: int = 6144
    envs: int = 2
    budget: int = 1
    folds: tuple[int, ...] = (1,)
    grid: int = 8
    lattice: int = 9
    held_out: int = 8
    validation: int = 8
    eval_every: int = 512
    learning_rate: float = 1e-3
    n_steps: int = 128
    batch_size: int = 64
    epochs: int = 10
    seed: int = 0


@dataclass
class Curve:
    """The learning curve: training return, validation GS and held-out GS at each evaluation."""

    timesteps: list[int] = field(default_factory=list)
    train_return: list[float] = field(default_factory=list)
    held_out_gs: list[float] = field(default_factory=list)
    validation_gs: list[float] = field(default_factory=list)


def make_env(config: PPOConfig, targets: SimpleFoldTargets | None = None) -> RandomFoldTargets:
    """One training environment: the synthesis environment (text mode, no final metrics) over random targets
    (``targets`` shares one distribution, and the targets it compiled, between environments)."""
    base = OrigamiSynthesisEnv(budget=config.budget, observation_mode="text", final_metrics=False,
                               step_cache=STEP_CACHE)
    return RandomFoldTargets(base, folds=config.folds, grid=config.grid, seed=config.seed,
                             held_out=config.held_out, validation=config.validation, lattice=config.lattice,
                             targets=targets)


def held_out_gs(env: RandomFoldTargets, act: Callable[[np.ndarray, RandomFoldTargets], Any],
                targets: Sequence[Target]) -> float:
    """Mean final GS over ``targets``: one episode each, ``act(observation, env)`` choosing every step."""
    finals = []
    for target in targets:
        observation, info = env.reset(seed=0, options={"target": target})
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(act(observation, env))
            done = terminated or truncated
        finals.append(float(info["gs"]))
    return float(np.mean(finals))


def oracle_gs(env: RandomFoldTargets, targets: Sequence[Target]) -> tuple[float, int]:
    """The ceiling: mean final GS when each target is folded by its own creases, one action per fold, and how
    many targets that cannot reach (a fold of several creases, a crease that is no action, more folds than the
    budget; they count with the GS of the steps played before)."""
    finals, unreachable = [], 0
    for target in targets:
        actions = env.own_crease_actions(target)
        budget = env.unwrapped.budget
        if actions is None or len(actions) > budget:
            unreachable += 1
            actions = (actions or [])[:budget]
        env.reset(seed=0, options={"target": target})
        gs = float(env.unwrapped.gs)
        for action in actions:
            _, _, terminated, _, info = env.step(action)
            gs = float(info["gs"])
            if terminated:
                break
        finals.append(gs)
    return float(np.mean(finals)), unreachable


def random_baseline_gs(config: PPOConfig, targets: Sequence[Target]) -> float:
    """Mean final GS of the environment's ``random`` policy (random accepted creases on the 9 x 9 lattice)."""
    env = OrigamiSynthesisEnv(budget=config.budget, observation_mode="text", final_metrics=False)
    rng = np.random.default_rng(config.seed)
    finals = []
    for target in targets:
        env.reset(seed=0, options={"target": target})
        for _ in range(config.budget):
            _, _, terminated, _, info = env.step(random_valid_action(env.sheet, rng).model_dump(mode="json"))
            if terminated:
                break
        finals.append(env.gs)
    env.close()
    return float(np.mean(finals))


def _sb3() -> Any:
    try:
        import stable_baselines3
    except ImportError:
        raise SystemExit(INSTALL_HINT) from None
    return stable_baselines3


def train(config: PPOConfig) -> tuple[Curve, dict[str, float]]:
    """Train PPO; returns the learning curve and the summary figures (held-out GS before/after, random's)."""
    sb3 = _sb3()
    import torch
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    evaluator = make_env(config)
    targets = evaluator.held_out_targets()
    validation = evaluator.validation_targets()
    vector = make_vec_env(lambda: make_env(config, evaluator.targets), n_envs=config.envs, seed=config.seed)
    def learning_rate(progress_remaining: float) -> float:  # decays linearly to 0: no late collapse
        return config.learning_rate * progress_remaining

    model = sb3.PPO("MlpPolicy", vector, learning_rate=learning_rate, n_steps=config.n_steps,
                    batch_size=config.batch_size, n_epochs=config.epochs, gamma=1.0, ent_coef=0.01,
                    seed=config.seed, device="cpu", policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    curve = Curve()
    best: dict[str, Any] = {"validation_gs": -1.0}

    def greedy(observation: np.ndarray, _env: RandomFoldTargets) -> int:
        return int(model.predict(observation, deterministic=True)[0])

    def record(timesteps: int) -> None:
        returns = [episode["r"] for episode in model.ep_info_buffer] if model.ep_info_buffer else [0.0]
        curve.timesteps.append(timesteps)
        curve.train_return.append(float(np.mean(returns)))
        curve.validation_gs.append(held_out_gs(evaluator, greedy, validation) if validation else 0.0)
        curve.held_out_gs.append(held_out_gs(evaluator, greedy, targets))
        if curve.validation_gs[-1] > best["validation_gs"]:  # chosen on validation only, never on held-out
            best.update(validation_gs=curve.validation_gs[-1], timesteps=timesteps,
                        held_out_gs=curve.held_out_gs[-1])
        print(f"  {timesteps:6d} steps: training return {curve.train_return[-1]:+.3f}, validation GS "
              f"{curve.validation_gs[-1]:.3f}, held-out GS {curve.held_out_gs[-1]:.3f}", flush=True)

    class Evaluate(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if self.num_timesteps - (curve.timesteps[-1] if curve.timesteps else 0) >= config.eval_every:
                record(self.num_timesteps)
            return True

    blank = float(np.mean([_blank_gs(evaluator, target) for target in targets]))
    record(0)
    before = curve.held_out_gs[0]
    started = time.perf_counter()
    model.learn(total_timesteps=config.timesteps, callback=Evaluate())
    seconds = time.perf_counter() - started
    if curve.timesteps[-1] != model.num_timesteps:
        record(model.num_timesteps)
    vector.close()
    oracle, unreachable = oracle_gs(evaluator, targets)
    summary = {"blank_gs": blank, "held_out_gs_before": before, "held_out_gs_after": curve.held_out_gs[-1],
               "held_out_gs_chosen": best["held_out_gs"], "chosen_timesteps": float(best["timesteps"]),
               "validation_gs_chosen": best["validation_gs"], "oracle_gs": oracle,
               "oracle_unreachable": float(unreachable), "random_gs": random_baseline_gs(config, targets),
               "train_seconds": seconds, "timesteps": float(model.num_timesteps)}
    return curve, summary


def _blank_gs(env: RandomFoldTargets, target: Target) -> float:
    """GS of the blank square against ``target`` (where every episode starts)."""
    env.reset(seed=0, options={"target": target})
    return float(env.unwrapped.gs)


def plot(curve: Curve, summary: dict[str, float], config: PPOConfig, path: Path) -> Path:
    """Draw the training return and the held-out GS against timesteps, with the random baseline, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4), dpi=110)
    left.plot(curve.timesteps, curve.train_return, marker="o", markersize=3)
    left.axhline(0.0, color="grey", linewidth=0.8)
    left.set_xlabel("timesteps")
    left.set_ylabel("mean training episode return (GS gained)")
    right.plot(curve.timesteps, curve.held_out_gs, marker="o", markersize=3, label="PPO, held-out")
    if curve.validation_gs and any(curve.validation_gs):
        right.plot(curve.timesteps, curve.validation_gs, marker=".", markersize=3, linewidth=0.8,
                   color="tab:green", alpha=0.7, label="PPO, validation")
    if "oracle_gs" in summary:
        right.axhline(summary["oracle_gs"], color="black", linewidth=0.8, label="own creases (ceiling)")
    right.axhline(summary["random_gs"], color="tab:red", linestyle="--", label="random policy")
    right.axhline(summary["blank_gs"], color="grey", linestyle=":", label="blank square")
    right.set_xlabel("timesteps")
    right.set_ylabel(f"mean final GS, {config.held_out} held-out targets")
    right.legend(fontsize=8, loc="lower right")
    for axis in (left, right):
        axis.grid(alpha=0.3)
    figure.suptitle(f"PPO on OrigamiSynthesis-v0: random {'/'.join(map(str, config.folds))}-fold targets on a "
                    f"1/{config.grid} grid, {config.lattice}x{config.lattice} lattice, {config.budget} steps, "
                    f"{config.envs} envs", fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})
    plt.close(figure)
    return path


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Parse the options, train, print the figures, write the plot."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=PPOConfig.timesteps)
    parser.add_argument("--envs", type=int, default=PPOConfig.envs, help="vectorised environments")
    parser.add_argument("--budget", type=int, default=PPOConfig.budget, help="steps per episode")
    parser.add_argument("--folds", type=int, nargs="+", default=list(PPOConfig.folds),
                        help="fold counts a target may have")
    parser.add_argument("--grid", type=int, default=PPOConfig.grid, help="fold lines on multiples of 1/grid")
    parser.add_argument("--lattice", type=int, default=PPOConfig.lattice, help="lattice points per side")
    parser.add_argument("--held-out", type=int, default=PPOConfig.held_out, help="held-out targets")
    parser.add_argument("--validation", type=int, default=PPOConfig.validation,
                        help="validation targets (for the checkpoint choice; 0: none)")
    parser.add_argument("--eval-every", type=int, default=PPOConfig.eval_every, help="timesteps between evaluations")
    parser.add_argument("--learning-rate", type=float, default=PPOConfig.learning_rate,
                        help="at the start (it decays linearly to 0)")
    parser.add_argument("--n-steps", type=int, default=PPOConfig.n_steps, help="steps per environment per update")
    parser.add_argument("--epochs", type=int, default=PPOConfig.epochs, help="passes over each batch of steps")
    parser.add_argument("--seed", type=int, default=PPOConfig.seed)
    parser.add_argument("--out", type=Path, default=Path("train_lattice_ppo.png"))
    args = parser.parse_args(argv)
    config = PPOConfig(timesteps=args.timesteps, envs=args.envs, budget=args.budget, folds=tuple(args.folds),
                       grid=args.grid,
                       lattice=args.lattice, held_out=args.held_out, validation=args.validation,
                       eval_every=args.eval_every,
                       learning_rate=args.learning_rate, n_steps=args.n_steps, epochs=args.epochs, seed=args.seed)
    curve, summary = train(config)
    print(f"{int(summary['timesteps'])} timesteps in {summary['train_seconds']:.0f} s; held-out mean final GS: "
          f"blank {summary['blank_gs']:.3f}, random {summary['random_gs']:.3f}, PPO before "
          f"{summary['held_out_gs_before']:.3f}, after {summary['held_out_gs_after']:.3f}, at the checkpoint "
          f"chosen on validation ({int(summary['chosen_timesteps'])} timesteps) {summary['held_out_gs_chosen']:.3f}; "
          f"own creases (ceiling) {summary['oracle_gs']:.3f}, {int(summary['oracle_unreachable'])} out of reach")
    print(f"plot: {plot(curve, summary, config, args.out)}")
    return summary


if __name__ == "__main__":
    sys.exit(main() and None)
