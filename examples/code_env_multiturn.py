"""Drive the crease-pattern code environment the way a multi-turn RL trainer does, with a scripted policy.

Trainers in the VAGEN style hold a batch of environments behind a text interface
(:class:`foldbench.envs.CodeTextInterface`: ``system_prompt()``, ``reset(seed) -> (obs, info)``,
``step(text) -> (obs, reward, done, info)``), send every unfinished episode's observation to the model, and
step each with the model's raw reply. Here the "model" is a script that knows how each reference was folded: its
first reply is prose with no pattern (a scored failure, as malformed model text is), then each reply writes the
crease pattern of one more fold step, in a fenced JSON block, until the whole reference is written. The per-turn
rewards are printed as a table (one column per environment).

    python examples/code_env_multiturn.py --envs 3 --folds 3
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from foldbench.crease.graph.pattern import build_crease_pattern
from foldbench.crease.simple_folds import random_simple_folds, simple_fold_pattern
from foldbench.crease.summary import compile_with_summary
from foldbench.envs import CodeTextInterface
from foldbench.origami.instances import Instance

FoldLine = tuple[tuple[float, float], tuple[float, float]]
OPENING_REPLY = "Let me look at the pictures first: the model seems to be folded a few times."
"""The scripted first reply: no crease pattern in it."""


def _fold_document(lines: Sequence[FoldLine]) -> dict[str, Any]:
    """The FOLD fields of the square folded along ``lines`` in turn (as the reference instances write them)."""
    simple = simple_fold_pattern(list(lines))
    fields = build_crease_pattern(simple.segments, "".join(simple.assignments)).to_fold_fields()
    del fields["edges_foldAngle"]
    return fields


def folded_instance(rng: np.random.Generator, folds: int, tries: int = 50) -> tuple[Instance, tuple[FoldLine, ...]]:
    """A reference of ``folds`` random simple folds that compiles, and its fold lines (what the script knows).

    Raises:
        RuntimeError: no such reference in ``tries`` draws.
    """
    for _ in range(tries):
        simple = random_simple_folds(rng, folds)
        pattern = build_crease_pattern(simple.segments, "".join(simple.assignments))
        summary, compiled = compile_with_summary(pattern)
        if compiled is not None and not summary["stopped"]:
            lines = tuple(simple.fold_lines)
            return Instance(f"simple-fold model of {len(lines)} steps", pattern, compiled, len(lines),
                            "simple-folds"), lines
    raise RuntimeError(f"no {folds}-fold reference compiled in {tries} draws")


@dataclass
class ScriptedFolder:
    """The scripted policy of one episode: prose first, then one more of the reference's fold steps per reply;
    after a reply that did not fold flat it writes the same step again."""

    lines: tuple[FoldLine, ...]
    written: int = 0
    replies: list[str] = field(default_factory=list)

    def reply(self, observation: dict[str, Any]) -> str:
        """The next reply, given the environment's last observation."""
        text = observation["obs_str"]
        if not self.replies:
            reply = OPENING_REPLY
        else:
            if "does not fold flat" not in text or self.replies[-1] == OPENING_REPLY:
                self.written = min(self.written + 1, len(self.lines))
            document = _fold_document(self.lines[: self.written])
            reply = (f"Fold step {self.written} of {len(self.lines)}:\n```json\n"
                     f"{json.dumps(document)}\n```")
        self.replies.append(reply)
        return reply


@dataclass
class Rollout:
    """What the loop saw, per environment: each turn's reward, whether the reply was a readable pattern, the
    partial score of the replies that compiled (-1 for the others), and whether the episode succeeded."""

    rewards: list[list[float]]
    valid: list[list[bool]]
    partial: list[list[float]]
    success: list[bool]


def rollout(envs: int = 3, folds: int = 3, seed: int = 0, budget: int = 10) -> Rollout:
    """Run one batch of episodes, turn by turn, as a trainer's multi-turn loop does."""
    rng = np.random.default_rng(seed)
    interfaces = [CodeTextInterface(budget=budget, images=False) for _ in range(envs)]
    prompt = interfaces[0].system_prompt()
    references = [folded_instance(rng, folds) for _ in range(envs)]
    policies = [ScriptedFolder(lines) for _, lines in references]
    observations = [interface.reset(seed=seed + index, instance=instance)[0]
                    for index, (interface, (instance, _)) in enumerate(zip(interfaces, references, strict=True))]
    conversations: list[list[dict[str, str]]] = [
        [{"role": "system", "content": prompt}, {"role": "user", "content": observation["obs_str"]}]
        for observation in observations]
    result = Rollout([[] for _ in range(envs)], [[] for _ in range(envs)], [[] for _ in range(envs)],
                     [False] * envs)
    active = list(range(envs))
    while active:
        replies = {index: policies[index].reply(observations[index]) for index in active}  # one batched "generate"
        for index, reply in replies.items():
            observation, reward, done, info = interfaces[index].step(reply)
            conversations[index] += [{"role": "assistant", "content": reply},
                                     {"role": "user", "content": observation["obs_str"]}]
            observations[index] = observation
            result.rewards[index].append(reward)
            result.valid[index].append(bool(info["metrics"]["turn_metrics"]["action_is_valid"]))
            result.partial[index].append(float(info["answer_partial_score"]))
            if done:
                result.success[index] = bool(info["metrics"]["traj_metrics"]["success"])
        active = [index for index in active if not _finished(result, index, budget, interfaces[index])]
    for interface in interfaces:
        interface.close()
    return result


def _finished(result: Rollout, index: int, budget: int, interface: CodeTextInterface) -> bool:
    return result.success[index] or len(result.rewards[index]) >= budget or interface.env.steps >= budget


def format_table(result: Rollout) -> str:
    """The per-turn rewards, one row per turn and one column per environment ('-' once an episode ended)."""
    turns = max(len(rewards) for rewards in result.rewards)
    header = "turn " + " ".join(f"{'env ' + str(index):>9}" for index in range(len(result.rewards)))
    rows = [header]
    for turn in range(turns):
        cells = [f"{rewards[turn]:+9.3f}" if turn < len(rewards) else f"{'-':>9}" for rewards in result.rewards]
        rows.append(f"{turn + 1:>4} " + " ".join(cells))
    rows.append("done " + " ".join(f"{'solved' if ok else 'unsolved':>9}" for ok in result.success))
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> Rollout:
    """Parse the options, run the loop, print the per-turn rewards."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--envs", type=int, default=3, help="environments in the batch")
    parser.add_argument("--folds", type=int, default=3, help="fold steps of each reference")
    parser.add_argument("--budget", type=int, default=10, help="replies per episode")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = rollout(args.envs, args.folds, args.seed, args.budget)
    print(format_table(result))
    return result


if __name__ == "__main__":
    main()
