"""Two runs read together, item by item.

* **Perception beside reasoning**: a perception-probe run (items with ``metadata["source_item"]``) and a reasoning
  run on the configurations those probes ask about: the probes' accuracy and the reasoning headline over the
  configurations both runs scored, overall and per question type ("sees the holes: 92 %, predicts the unfolding:
  14 %"). The pairing is refused unless every probe's source item in the reasoning run's dataset has the seed and
  the configuration hash the probe records (same item ids over another seed are other configurations).
* **Per-item agreement**: two runs of the same task (people and a model, two models, two participants): how often
  both solve or both miss an item, and the items one finds hard that the other finds easy.

Each value comes with its 95 % interval (from :func:`foldbench.harness.metrics.aggregate`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from foldbench.errors import FoldbenchError
from foldbench.harness.metrics import aggregate
from foldbench.harness.stats import Estimate, wilson
from foldbench.harness.store import ScoreRow, Store
from foldbench.tasks.choice_question import ChoiceQuestion
from foldbench.tasks.spec import TaskSpec

__all__ = ["Agreement", "PerceptionPairing", "item_agreement", "pair_runs", "perception_pairing", "pairing_markdown"]


@dataclass(frozen=True, slots=True)
class PerceptionPairing:
    """Probe accuracy beside reasoning accuracy over the configurations both runs scored."""

    perception_run: str
    reasoning_run: str
    modality: str
    configurations: int
    perception: Estimate
    reasoning: Estimate
    reasoning_metric: str
    by_question: dict[str, tuple[int, Estimate]]


@dataclass(frozen=True, slots=True)
class Agreement:
    """Item-by-item agreement of two runs of one task on the items both scored (headline solved or not)."""

    first: str
    second: str
    items: int
    agree: Estimate
    first_only: list[str]
    """Items the first run solved and the second did not."""
    second_only: list[str]


def _spec(task_id: str) -> TaskSpec:
    from foldbench.tasks import make

    return make(task_id).spec


def _solved(row: ScoreRow, spec: TaskSpec) -> bool:
    return (row.values.get(spec.headline) or 0.0) >= 1.0


def perception_pairing(store: Store, perception_run: str, reasoning_run: str) -> PerceptionPairing:
    """Probe accuracy and reasoning accuracy over the configurations both runs scored (see the module)."""
    probe_info, reason_info = store.run(perception_run), store.run(reasoning_run)
    if probe_info is None or reason_info is None:
        raise FoldbenchError(f"no run named '{perception_run if probe_info is None else reasoning_run}'")
    probe_spec, reason_spec = _spec(probe_info.task), _spec(reason_info.task)
    reasoning = {row.item_id: row for row in store.scores(reasoning_run)}
    probes = [row for row in store.scores(perception_run) if row.metadata.get("source_item") in reasoning]
    if not probes:
        raise FoldbenchError(
            f"runs '{perception_run}' and '{reasoning_run}' share no configuration: generate the probes with the "
            "reasoning dataset's seed and knobs"
        )
    _check_same_configurations(probes, perception_run, reasoning_run, reason_info.dataset)
    sources = sorted({row.metadata["source_item"] for row in probes})
    by_kind: dict[str, list[ScoreRow]] = defaultdict(list)
    for row in probes:
        by_kind[str(ChoiceQuestion.question_kind_in(row.metadata))].append(row)
    return PerceptionPairing(
        perception_run=perception_run,
        reasoning_run=reasoning_run,
        modality=probe_info.modality
        if probe_info.modality == reason_info.modality
        else f"{probe_info.modality} / {reason_info.modality}",
        configurations=len(sources),
        perception=aggregate(probes, probe_spec).estimates[probe_spec.headline],
        reasoning=aggregate([reasoning[s] for s in sources], reason_spec).estimates[reason_spec.headline],
        reasoning_metric=reason_spec.headline,
        by_question={
            kind: (len(rows), aggregate(rows, probe_spec).estimates[probe_spec.headline])
            for kind, rows in sorted(by_kind.items())
        },
    )


def _check_same_configurations(
    probes: Sequence[ScoreRow], perception_run: str, reasoning_run: str, dataset: str
) -> None:
    """Refuse (one line) unless each probe's source item in the reasoning dataset has the probe's recorded seed and
    configuration hash."""
    from pathlib import Path

    from foldbench.tasks.dataset import read_items
    from foldbench.tasks.probes import configuration_hash

    if any("configuration" not in row.metadata or "source_seed" not in row.metadata for row in probes):
        raise FoldbenchError(
            f"run '{perception_run}' has probes without a configuration hash (made by an older probe task): "
            "regenerate the probes to pair them"
        )
    try:
        items = {item.id: item for item in read_items(Path(dataset))}
    except (FoldbenchError, OSError) as error:
        raise FoldbenchError(
            f"cannot check that runs '{perception_run}' and '{reasoning_run}' share configurations: the dataset of "
            f"'{reasoning_run}' ({dataset}) cannot be read ({' '.join(str(error).split())[:120]})"
        ) from None
    for row in probes:
        item = items.get(row.metadata["source_item"])
        if (
            item is None
            or item.seed != row.metadata["source_seed"]
            or configuration_hash(item.inputs) != row.metadata["configuration"]
        ):
            raise FoldbenchError(
                f"runs '{perception_run}' and '{reasoning_run}' do not share configurations: probe {row.item_id} asks "
                f"about {row.metadata['source_item']} as generated with another seed or knobs than the dataset of "
                f"'{reasoning_run}'; generate both with the same seed and knobs"
            )


def item_agreement(store: Store, first: str, second: str) -> Agreement:
    """How two runs of one task agree item by item (see the module)."""
    infos = [store.run(first), store.run(second)]
    if infos[0] is None or infos[1] is None:
        raise FoldbenchError(f"no run named '{first if infos[0] is None else second}'")
    if infos[0].task != infos[1].task:
        raise FoldbenchError(f"runs '{first}' ({infos[0].task}) and '{second}' ({infos[1].task}) are of two tasks")
    spec = _spec(infos[0].task)
    a = {row.item_id: _solved(row, spec) for row in store.scores(first)}
    b = {row.item_id: _solved(row, spec) for row in store.scores(second)}
    common = sorted(set(a) & set(b))
    if not common:
        raise FoldbenchError(f"runs '{first}' and '{second}' scored no item in common")
    same = sum(a[i] == b[i] for i in common)
    return Agreement(
        first=first,
        second=second,
        items=len(common),
        agree=Estimate(same / len(common), *wilson(same, len(common)), len(common)),
        first_only=[i for i in common if a[i] and not b[i]],
        second_only=[i for i in common if b[i] and not a[i]],
    )


def pair_runs(store: Store, run: str, other: str) -> PerceptionPairing | Agreement:
    """Perception beside reasoning when exactly one of the runs holds perception probes, else item agreement."""
    first, second = store.run(run), store.run(other)
    if first is None or second is None:
        known = ", ".join(r.name for r in store.runs()) or "none"
        raise FoldbenchError(f"no run named '{run if first is None else other}' in {store.path} (runs: {known})")
    probes = ["perception" in info.task.split("/")[-1] for info in (first, second)]
    if probes[0] and not probes[1]:
        return perception_pairing(store, run, other)
    if probes[1] and not probes[0]:
        return perception_pairing(store, other, run)
    return item_agreement(store, run, other)


def _pct(estimate: Estimate) -> str:
    if estimate.value is None:
        return "—"
    interval = ""
    if estimate.low is not None and estimate.high is not None:
        interval = f" ({100 * estimate.low:.0f}–{100 * estimate.high:.0f})"
    return f"{100 * estimate.value:.0f} %{interval}"


def pairing_markdown(results: Sequence[PerceptionPairing | Agreement]) -> str:
    """The pairings as Markdown (a section for each)."""
    lines: list[str] = []
    for result in results:
        if isinstance(result, PerceptionPairing):
            lines += [
                f"## Perception beside reasoning: {result.perception_run} and {result.reasoning_run}",
                "",
                f"Over the {result.configurations} configurations both runs scored ({result.modality}): "
                f"**sees: {_pct(result.perception)}**, **reasons ({result.reasoning_metric}): "
                f"{_pct(result.reasoning)}**.",
                "",
                "| question type | questions | correct, % (95 % CI) |",
                "|---|---|---|",
                *[f"| {kind} | {n} | {_pct(est)} |" for kind, (n, est) in result.by_question.items()],
                "",
            ]
        else:
            lines += [
                f"## Item agreement: {result.first} and {result.second}",
                "",
                f"{result.items} items scored by both; both solve or both miss: {_pct(result.agree)}.",
                "",
                f"- solved by {result.first} only ({len(result.first_only)}): "
                + (", ".join(result.first_only[:40]) or "none"),
                f"- solved by {result.second} only ({len(result.second_only)}): "
                + (", ".join(result.second_only[:40]) or "none"),
                "",
            ]
    return "\n".join(lines)
