"""The work of ``foldbench env run`` (imported only when the command runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np
from PIL import Image

from foldbench.cli._common import console
from foldbench.envs import OrigamiSynthesisEnv, random_simple_fold_target
from foldbench.errors import UsageError
from foldbench.origami.policies import oracle_action, random_valid_action
from foldbench.origami.targets import Target, target_from_file

__all__ = ["run_episodes"]


class PolicyError(UsageError, ValueError):
    """A policy that cannot play the chosen target."""


def run_episodes(target_file: Path | None, policy: Literal["random", "oracle"], episodes: int, budget: int,
                 folds: int, seed: int, out: Path | None) -> None:
    """Play ``episodes`` episodes and print one line of final metrics for each."""
    fixed: Target | None = target_from_file(target_file) if target_file is not None else None
    if policy == "oracle" and fixed is not None and not fixed.actions:
        raise PolicyError(f"{target_file}: the oracle needs the target's fold steps; a pattern file has none")
    rng = np.random.default_rng(seed)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    for episode in range(episodes):
        target = fixed or random_simple_fold_target(rng, folds, name=f"random-{seed}-{episode}")
        env = OrigamiSynthesisEnv(target=target, budget=budget, image_size=160)
        env.reset(seed=seed + episode)
        frames = [env.pictures()["target"], env.pictures()["current_front"]]
        done, step = False, 0
        info: dict[str, Any] = {}
        while not done:
            if policy == "oracle":
                action = oracle_action(target, sum(s.accepted for s in env.history))
            else:
                action = random_valid_action(env.sheet, rng).model_dump(mode="json")
            _, _, terminated, truncated, info = env.step(action)
            if info["accepted"]:
                frames.append(env.pictures()["current_front"])
            step += 1
            done = terminated or truncated
        metrics = info["final_metrics"]
        kept = sum(s.accepted for s in env.history)
        console.print(f"episode {episode}: {target.name} ({target.tier}, {target.category}): GS {metrics['gs']:.3f}, "
                      f"raster GS {metrics['gs_raster']:.3f}, SS {metrics['ss']:.3f}, QE {metrics['qe']:.3f} "
                      f"in {step} steps ({kept} kept)")
        if out is not None:
            (out / f"episode-{episode:03d}.fold").write_text(env.fold_text(), encoding="utf-8")
            strip = Image.new("RGB", (160 * len(frames), 160), "white")
            for index, frame in enumerate(frames):
                strip.paste(frame, (160 * index, 0))
            strip.save(out / f"episode-{episode:03d}.png")
