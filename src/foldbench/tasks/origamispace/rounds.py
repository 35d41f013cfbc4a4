"""Scores per feedback round of ``origamispace/codegen-feedback-v1`` runs, and their plot (after OrigamiSpace's
figure 3: how the score grows as the model reads the compiler's feedback).

Each turn's feedback starts with a ``round scores: {...}`` line (see
:func:`foldbench.tasks.origamispace.codegen.feedback_text`); a conversation that ends early (solved) keeps its
last score for the remaining rounds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

__all__ = ["ROUND_PREFIX", "StoredTurn", "plot_round_scores", "read_round_scores", "round_scores"]

ROUND_PREFIX = "round scores: "


class StoredTurn(Protocol):
    """What is read of a stored turn (the run store's turn rows have these fields)."""

    @property
    def turn(self) -> int: ...

    @property
    def feedback(self) -> str | None: ...


def read_round_scores(feedback: str | None) -> dict[str, float] | None:
    """The scores a turn's feedback records: the headline ``score``, ``paper_total``, the dimensions it names,
    and ``pass_rate`` (1 when the answer compiled with no error); None when the feedback has no ``round scores``
    line (a failed request).

    >>> read_round_scores('round scores: {"round": 2, "score": 0.5, "topology": 0.9, "error": null}')
    {'score': 0.5, 'topology': 0.9, 'pass_rate': 1.0}
    >>> read_round_scores('round scores: {"round": 1, "score": 0.0, "error": "CSE"}')
    {'score': 0.0, 'pass_rate': 0.0}
    >>> read_round_scores(None) is None
    True
    """
    first = (feedback or "").split("\n", 1)[0]
    if not first.startswith(ROUND_PREFIX):
        return None
    try:
        record = json.loads(first.removeprefix(ROUND_PREFIX))
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    scores = {name: float(value) for name, value in record.items()
              if name not in ("round", "error") and isinstance(value, int | float) and not isinstance(value, bool)}
    scores["pass_rate"] = float(record.get("error", "") is None)
    return scores


def _turn_score(turn: StoredTurn) -> float:
    scores = read_round_scores(turn.feedback)
    if scores is None:  # a failed request, no answer this round
        return 0.0
    return scores.get("score", scores.get("total", 0.0))  # runs before the headline score recorded "total"


def round_scores(turns: Mapping[str, Sequence[StoredTurn]], rounds: int) -> list[float]:
    """The mean headline score after each round, over the items of a run (an item that stopped early keeps its
    last score).

    >>> from types import SimpleNamespace
    >>> row = SimpleNamespace(turn=0, feedback='round scores: {"round": 1, "score": 0.5}')
    >>> round_scores({"a": [row]}, 2)
    [0.5, 0.5]
    >>> round_scores({}, 2)
    [0.0, 0.0]
    """
    if not turns:
        return [0.0] * rounds
    sums = [0.0] * rounds
    for conversation in turns.values():
        scores = [_turn_score(turn) for turn in sorted(conversation, key=lambda t: t.turn)][:rounds]
        scores += [scores[-1] if scores else 0.0] * (rounds - len(scores))
        sums = [total + score for total, score in zip(sums, scores, strict=True)]
    return [total / len(turns) for total in sums]


def plot_round_scores(series: Mapping[str, Sequence[float]], path: str | Path) -> Path:
    """Draw the mean score per round of one or more runs (run name -> scores) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 4))
    for name, scores in series.items():
        axes.plot(range(1, len(scores) + 1), scores, marker="o", label=name)
    axes.set_xlabel("feedback round")
    axes.set_ylabel("mean score")
    axes.set_ylim(0, 1.02)
    axes.set_title("Crease-pattern code generation with compiler feedback")
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    path = Path(path)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
