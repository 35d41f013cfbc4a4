"""Scores per round of multi-turn runs, for the per-round plots a task declares (:class:`RoundPlot`): the mean
over items of each score after each round, with its 95 % bootstrap interval, read from the stored turns by the
task's own reader (the harness knows no score names)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import numpy as np

from foldbench.harness.stats import Estimate, bootstrap_indices, mean_interval
from foldbench.harness.store import TurnRow
from foldbench.tasks.spec import RoundPlot

__all__ = ["round_estimates", "round_matrix", "round_plot_png"]


def round_matrix(turns: Sequence[TurnRow], plot: RoundPlot, rounds: int) -> np.ndarray:
    """One conversation's scores, ``rounds × len(plot.scores)``: a turn without scores counts 0, and the rounds
    after the conversation's last turn keep that turn's scores.

    >>> from foldbench.tasks.spec import RoundPlot
    >>> plot = RoundPlot("t", ("s",), lambda text: None if text is None else {"s": float(text)}, "t.png")
    >>> rows = [TurnRow(0, "", None, "0.5", False, False), TurnRow(1, "", "timeout", None, False, False)]
    >>> round_matrix(rows, plot, 3)[:, 0].tolist()
    [0.5, 0.0, 0.0]
    >>> round_matrix([], plot, 2).tolist()
    [[0.0], [0.0]]
    """
    matrix = np.zeros((rounds, len(plot.scores)))
    ordered = sorted(turns, key=lambda row: row.turn)[:rounds]
    for index, row in enumerate(ordered):
        values = plot.read(row.feedback) or {}
        matrix[index] = [float(values.get(name, 0.0)) for name in plot.scores]
    if ordered:
        matrix[len(ordered):] = matrix[len(ordered) - 1]
    return matrix


def round_estimates(turns: Mapping[str, Sequence[TurnRow]], plot: RoundPlot,
                    rounds: int) -> dict[str, list[Estimate]]:
    """For each score of the plot, its mean over the conversations after each round with a 95 % bootstrap
    interval over items (empty lists when there is no conversation)."""
    if not turns:
        return {name: [] for name in plot.scores}
    stacked = np.stack([round_matrix(conversation, plot, rounds) for conversation in turns.values()])
    indices = bootstrap_indices(len(stacked))
    result: dict[str, list[Estimate]] = {}
    for column, name in enumerate(plot.scores):
        series = []
        for round_index in range(rounds):
            values = stacked[:, round_index, column]
            low, high = mean_interval(values, indices)
            series.append(Estimate(float(values.mean()), low, high, len(values)))
        result[name] = series
    return result


def round_plot_png(plot: RoundPlot, estimates: Mapping[str, Sequence[Estimate]]) -> bytes:
    """The plot: each score's mean per round (in %) as a line, its 95 % interval as a band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6.5, 3.2), dpi=110)
    rounds = max((len(series) for series in estimates.values()), default=0)
    for name, series in estimates.items():
        if not series:
            continue
        xs = np.arange(1, len(series) + 1)
        values = np.array([e.value for e in series], dtype=float)
        low = np.array([e.low if e.low is not None else e.value for e in series], dtype=float)
        high = np.array([e.high if e.high is not None else e.value for e in series], dtype=float)
        (line,) = axis.plot(xs, 100 * values, marker="o", label=name)
        axis.fill_between(xs, 100 * low, 100 * high, color=line.get_color(), alpha=0.15, linewidth=0)
    axis.set_xlabel(plot.x_label)
    axis.set_ylabel("%")
    axis.set_ylim(-2, 102)
    axis.set_xticks(range(1, rounds + 1))
    axis.set_title(plot.title, fontsize=9)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()
