"""Train a small policy on ``foldbench/OrigamiSynthesis-v0`` with REINFORCE, on the CPU, with numpy only.

The policy is a softmax over the discrete lattice actions (:class:`foldbench.envs.wrappers.LatticeActions`: a
crease between two points of an ``n`` x ``n`` lattice, mountain or valley), one table of logits per step of the
episode. The reward is the environment's: the change of the geometric similarity (GS) to the target, so an
episode's return is how much closer to the target its creases fold the paper. After training, the mean return
per window of episodes is drawn as a PNG.

    python examples/train_lattice_reinforce.py --out docs/train_lattice_reinforce.png   # about 4 minutes

Targets: ``book`` (one fold in half), ``cupboard`` (both sides folded to the middle: two creases to find, one
per step) and ``triangle`` (a diagonal fold).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from foldbench.envs import OrigamiSynthesisEnv, Target, simple_fold_target
from foldbench.envs.wrappers import LatticeActions

TARGETS: dict[str, Target] = {
    "book": simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))]),
    "cupboard": simple_fold_target("cupboard", [((0.25, 0.0), (0.0, 1.0)), ((0.75, 0.0), (0.0, -1.0))]),
    "triangle": simple_fold_target("triangle", [((0.0, 0.0), (1.0, 1.0))]),
}


@dataclass(frozen=True)
class TrainingConfig:
    """What to train on and how."""

    target: str = "cupboard"
    lattice: int = 9
    budget: int = 2
    episodes: int = 12000
    learning_rate: float = 3.0
    baseline_decay: float = 0.95
    seed: int = 0


def make_env(config: TrainingConfig) -> LatticeActions:
    """The synthesis environment toward the chosen target, with lattice actions and no rendering."""
    env = OrigamiSynthesisEnv(target=TARGETS[config.target], budget=config.budget, observation_mode="text",
                              final_metrics=False)
    return LatticeActions(env, size=config.lattice)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Softmax of a vector (shifted for stability)."""
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def train(config: TrainingConfig) -> np.ndarray:
    """Train the policy; returns each episode's return (sum of rewards), in order."""
    env = make_env(config)
    rng = np.random.default_rng(config.seed)
    actions = int(env.action_space.n)
    logits = np.zeros((config.budget, actions))
    baselines = np.zeros(config.budget)
    returns = np.zeros(config.episodes)
    env.reset(seed=config.seed)
    for episode in range(config.episodes):
        env.reset()
        chosen, rewards = [], []
        for step in range(config.budget):
            action = int(rng.choice(actions, p=softmax(logits[step])))
            _, reward, terminated, truncated, _ = env.step(action)
            chosen.append(action)
            rewards.append(float(reward))
            if terminated or truncated:
                break
        to_go = np.cumsum(rewards[::-1])[::-1]
        for step, (action, value) in enumerate(zip(chosen, to_go, strict=True)):
            advantage = value - baselines[step]
            gradient = -softmax(logits[step])
            gradient[action] += 1.0
            logits[step] += config.learning_rate * advantage * gradient
            baselines[step] = config.baseline_decay * baselines[step] + (1 - config.baseline_decay) * value
        returns[episode] = float(sum(rewards))
    env.close()
    return returns


def window_means(returns: np.ndarray, window: int) -> np.ndarray:
    """The mean return of each full window of ``window`` episodes."""
    count = len(returns) // window
    return returns[: count * window].reshape(count, window).mean(axis=1)


def plot(means: np.ndarray, window: int, config: TrainingConfig, path: Path) -> Path:
    """Draw the mean return per window of episodes as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.4), dpi=110)
    axis.plot(window * (np.arange(len(means)) + 1), means, marker="o", markersize=3)
    axis.set_xlabel("episode")
    axis.set_ylabel(f"mean return over {window} episodes")
    axis.set_title(f"REINFORCE on OrigamiSynthesis-v0: target {config.target}, {config.lattice}x{config.lattice} "
                   f"lattice, {config.budget} steps", fontsize=9)
    axis.grid(alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})
    plt.close(figure)
    return path


def main(argv: Sequence[str] | None = None) -> np.ndarray:
    """Parse the options, train, print the mean return of the first and last windows, write the plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=sorted(TARGETS), default="cupboard")
    parser.add_argument("--lattice", type=int, default=9, help="lattice points per side (default 9: 6,480 actions)")
    parser.add_argument("--budget", type=int, default=2, help="steps per episode (default 2)")
    parser.add_argument("--episodes", type=int, default=12000)
    parser.add_argument("--learning-rate", type=float, default=3.0)
    parser.add_argument("--window", type=int, default=250, help="episodes per point of the plot")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("train_lattice_reinforce.png"))
    args = parser.parse_args(argv)
    config = TrainingConfig(args.target, args.lattice, args.budget, args.episodes, args.learning_rate,
                            seed=args.seed)
    started = time.perf_counter()
    returns = train(config)
    means = window_means(returns, args.window)
    print(f"{config.episodes} episodes in {time.perf_counter() - started:.0f} s; mean return per {args.window} "
          f"episodes: first {means[0]:.3f}, last {means[-1]:.3f}")
    print(f"plot: {plot(means, args.window, config, args.out)}")
    return means


if __name__ == "__main__":
    main()
