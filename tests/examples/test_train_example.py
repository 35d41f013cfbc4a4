"""The CPU training example runs, writes its plot, and learns: on a tiny setting (fold a book from a 3 x 3
lattice in one step) the mean return of the last window of episodes beats the first."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np

from tests.support.examples import load_example


def _example() -> ModuleType:
    return load_example("train_lattice_reinforce")


def test_the_policy_learns_the_book_fold(tmp_path: Path) -> None:
    example = _example()
    out = tmp_path / "curve.png"
    means = example.main(["--target", "book", "--lattice", "3", "--budget", "1", "--episodes", "200",
                          "--window", "50", "--learning-rate", "2", "--seed", "0", "--out", str(out)])
    assert out.read_bytes().startswith(b"\x89PNG")
    assert len(means) == 4
    # the book fold raises GS from 0.5 to 1: a policy that found it returns close to 0.5 per episode
    assert means[-1] > means[0] + 0.2 and means[-1] > 0.3


def test_an_untrained_policy_does_not_improve() -> None:
    example = _example()
    config = example.TrainingConfig(target="book", lattice=3, budget=1, episodes=200, learning_rate=0.0)
    means = example.window_means(example.train(config), 50)
    assert means.max() < 0.3  # what learning adds above is not chance
    assert np.isclose(example.softmax(np.zeros(4)), 0.25).all()
