"""foldbench tasks as inspect_ai tasks: ``inspect eval foldbench/mentalblackboard_prediction``.

Every registered foldbench task becomes one ``@task`` (named after it: ``family_name``, ``-`` as ``_``), built as

* a dataset: each item as a :class:`~inspect_ai.dataset.Sample` whose input is the rendered prompt (the system
  text, then the user turn with its text and images), whose target is the item's ground truth (JSON) and whose
  metadata carries the item;
* a solver: ``generate()``, or, for tasks with feedback (``spec.max_turns > 1``), a loop that adds the task's
  feedback after each reply until it is done or the turn budget is spent;
* a scorer: foldbench's own ``parse`` and ``score``. Every metric of the task is a key of the score's value
  (NaN where it does not apply, so inspect leaves it out), aggregated as foldbench does: proportions and means
  by their mean, pooled metrics as Σ numerator / Σ denominator. Beside each value the log carries foldbench's
  95 % interval (``ci_low`` / ``ci_high``: Wilson for right/wrong proportions, the percentile bootstrap of
  :mod:`foldbench.harness.stats` otherwise, the same numbers ``foldbench report`` prints) and, for means,
  inspect's own ``stderr``. A reply that cannot be parsed is scored as wrong and reported as such
  (``parse_failed`` and the failure kind in the score's metadata).

Task arguments (``-T name=value``): ``data`` (a dataset directory or an ``--format hf`` export; default: generate
``n`` items with ``seed`` into the foldbench cache), ``modality`` (default: the task's first), ``n``, ``seed``.
The tasks are registered through the ``inspect_ai`` entry point of the package, so ``inspect eval`` finds them
once ``foldbench[inspect]`` is installed.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from foldbench.errors import FoldbenchError, MissingDependencyError

try:
    from inspect_ai import Task as InspectTask
    from inspect_ai import task as inspect_task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import (
        ChatMessage,
        ChatMessageSystem,
        ChatMessageUser,
        Content,
        ContentImage,
        ContentText,
        ContentVideo,
    )
    from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, mean, metric, scorer, stderr
    from inspect_ai.solver import Generate, Solver, TaskState, generate, solver
except ImportError:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError("inspect_ai", "inspect", "foldbench's inspect_ai tasks") from None

from foldbench.messages import ImagePart, Part, TextPart, VideoPart
from foldbench.tasks import make, task_ids
from foldbench.tasks.base import Item, MultiTurnTask, ParseFailure
from foldbench.tasks.base import Task as FoldbenchTask

__all__ = ["PARSE_FAILED", "foldbench_dataset", "foldbench_scorer", "foldbench_solver", "foldbench_task", "task_name"]

#: The score key that says whether a reply could not be parsed (1.0) or could (0.0).
PARSE_FAILED = "parse_failed"


def task_name(task_id: str) -> str:
    """The inspect task name of a foldbench task id (without the ``foldbench/`` namespace).

    >>> task_name("pfp/folding-3d-v2")
    'pfp_folding_3d'
    """
    return task_id.rsplit("-v", 1)[0].replace("/", "_").replace("-", "_")


def _content(part: Part, dataset_dir: Path) -> Content:
    if isinstance(part, TextPart):
        return ContentText(text=part.text)
    if isinstance(part, ImagePart):
        if part.data is not None:
            return ContentImage(image="data:image/png;base64," + base64.b64encode(part.data).decode("ascii"))
        return ContentImage(image=str((dataset_dir / str(part.path)).resolve()))
    assert isinstance(part, VideoPart)
    video_format: Literal["mp4", "mov"] = "mov" if part.path.lower().endswith(".mov") else "mp4"
    return ContentVideo(video=str((dataset_dir / part.path).resolve()), format=video_format)


def _sample(task: FoldbenchTask, item: Item, dataset_dir: Path, modality: str) -> Sample:
    prompt = task.render(item, modality)
    messages: list[ChatMessage] = []
    if prompt.system:
        messages.append(ChatMessageSystem(content=prompt.system))
    messages.append(ChatMessageUser(content=[_content(p, dataset_dir) for p in prompt.parts]))
    return Sample(
        input=messages,
        target=json.dumps(item.target, sort_keys=True),
        id=item.id,
        metadata={"foldbench_item": item.model_dump_json(), "foldbench_dataset": str(dataset_dir)},
    )


def _dataset_dir(task_id: str, data: str | None, n: int, seed: int, modality: str) -> Path:
    from foldbench.export.hf_read import _cache_root, dataset_directory
    from foldbench.tasks.dataset import MANIFEST_FILE, write_dataset

    if data is not None:
        return dataset_directory(Path(data), task_id)
    out = _cache_root() / "inspect" / f"{task_id.replace('/', '_')}-{modality}-n{n}-seed{seed}"
    if not (out / MANIFEST_FILE).exists() or not json.loads((out / MANIFEST_FILE).read_text()).get("complete"):
        write_dataset(task_id, out, n=n, seed=seed, modalities=(modality,), overwrite=True)
    return out


def foldbench_dataset(task: FoldbenchTask, items: Sequence[Item], dataset_dir: Path, modality: str) -> MemoryDataset:
    """Items (whose files are under ``dataset_dir``) as inspect samples in ``modality``."""
    return MemoryDataset([_sample(task, item, dataset_dir, modality) for item in items], name=task.id)


def _item(state_metadata: dict[str, Any]) -> Item:
    return Item.model_validate_json(state_metadata["foldbench_item"])


@solver
def foldbench_solver(task: FoldbenchTask) -> Solver:
    """``generate()`` for one-shot tasks; for tasks with feedback, reply -> feedback turns up to the budget."""
    one_shot = generate()
    if task.spec.max_turns == 1 or not isinstance(task, MultiTurnTask):
        return one_shot

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        item = _item(state.metadata)
        dataset_dir = Path(state.metadata["foldbench_dataset"])
        for turn in range(task.spec.max_turns):
            state = await generate(state)
            feedback = task.step(item, state.output.completion, turn)
            if feedback.done or turn + 1 == task.spec.max_turns:
                break
            state.messages.append(ChatMessageUser(content=[_content(p, dataset_dir) for p in feedback.parts]))
        return state

    return solve


@metric
def pooled(numerator: str, denominator: str) -> Metric:
    """Σ numerator / Σ denominator over the items (foldbench's pooled aggregation); NaN when Σ denominator is 0."""

    def compute(scores: list[SampleScore]) -> float:
        top = bottom = 0
        for sample in scores:
            counts = (sample.score.metadata or {}).get("counts", {})
            top += int(counts.get(numerator, 0))
            bottom += int(counts.get(denominator, 0))
        return top / bottom if bottom else math.nan

    return compute


def _interval(scores: list[SampleScore], kind: str, numerator: str, denominator: str) -> tuple[float, float]:
    """foldbench's 95 % interval of a metric over the scored samples (as ``foldbench.harness.metrics`` computes
    it); NaN bounds when it does not apply to any sample."""
    import numpy as np

    from foldbench.harness.stats import bootstrap_indices, mean_interval, ratio_interval, wilson

    if kind == "pooled":
        counts = [(sample.score.metadata or {}).get("counts", {}) for sample in scores]
        present = [c for c in counts if denominator in c]
        tops = np.array([float(c.get(numerator, 0)) for c in present])
        bottoms = np.array([float(c[denominator]) for c in present])
        if not present or bottoms.sum() <= 0:
            return math.nan, math.nan
        return ratio_interval(tops, bottoms, bootstrap_indices(len(present)))
    values = np.array([float(s.score.as_float()) for s in scores])
    values = values[~np.isnan(values)]
    if values.size == 0:
        return math.nan, math.nan
    if kind == "proportion" and np.all((values == 0) | (values == 1)):
        return wilson(int(values.sum()), int(values.size))
    return mean_interval(values, bootstrap_indices(int(values.size)))


@metric
def ci_low(kind: str = "mean", numerator: str = "", denominator: str = "") -> Metric:
    """The lower end of foldbench's 95 % interval of the metric (see :func:`_interval`)."""

    def compute(scores: list[SampleScore]) -> float:
        return _interval(scores, kind, numerator, denominator)[0]

    return compute


@metric
def ci_high(kind: str = "mean", numerator: str = "", denominator: str = "") -> Metric:
    """The upper end of foldbench's 95 % interval of the metric (see :func:`_interval`)."""

    def compute(scores: list[SampleScore]) -> float:
        return _interval(scores, kind, numerator, denominator)[1]

    return compute


def _metrics(task: FoldbenchTask) -> dict[str, list[Metric]]:
    metrics: dict[str, list[Metric]] = {}
    for declared in task.spec.metrics:
        bounds = (declared.kind, declared.numerator or "", declared.denominator or "")
        if declared.kind == "pooled":
            assert declared.numerator is not None and declared.denominator is not None
            metrics[declared.name] = [
                pooled(declared.numerator, declared.denominator),
                ci_low(*bounds),
                ci_high(*bounds),
            ]
        else:
            metrics[declared.name] = [mean(), stderr(), ci_low(*bounds), ci_high(*bounds)]
    metrics.setdefault(PARSE_FAILED, [mean(), stderr(), ci_low("proportion"), ci_high("proportion")])
    return metrics


def foldbench_scorer(task: FoldbenchTask) -> Scorer:
    """foldbench's parse and score for ``task``: every metric a key of the value (see the module docstring)."""

    @scorer(metrics=_metrics(task), name=f"foldbench_{task_name(task.id)}")
    def build() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            item = _item(state.metadata)
            reply = state.output.completion
            answer = task.parse(item, reply)
            scores = task.score(item, answer)
            values: dict[str, float] = {
                name: math.nan if value is None else float(value) for name, value in scores.values.items()
            }
            failure = answer if isinstance(answer, ParseFailure) else None
            values.setdefault(PARSE_FAILED, float(failure is not None))
            explanation = f"{failure.kind}: {failure.message}" if failure else answer.model_dump_json()  # type: ignore[union-attr]
            return Score(
                value=values,
                answer=reply[-2000:],
                explanation=explanation,
                metadata={
                    "counts": dict(scores.counts),
                    "parse_failure": failure.kind if failure else None,
                    "notes": list(scores.notes),
                },
            )

        return score

    return build()


def foldbench_task(
    task_id: str, data: str | None = None, modality: str | None = None, n: int = 20, seed: int = 0
) -> InspectTask:
    """The inspect task for a foldbench task id (see the module docstring for the arguments)."""
    from foldbench.harness.evaluation import load_dataset

    chosen = make(task_id)
    modality = modality or chosen.modalities[0]
    dataset_dir = _dataset_dir(chosen.id, data, n, seed, modality)
    _task, items, manifest = load_dataset(chosen.id, dataset_dir)
    if modality not in manifest["modalities"]:
        raise FoldbenchError(f"{dataset_dir} has modalities {', '.join(manifest['modalities'])}, not {modality!r}")
    return InspectTask(
        dataset=foldbench_dataset(chosen, items, dataset_dir, modality),
        solver=foldbench_solver(chosen),
        scorer=foldbench_scorer(chosen),
        name=task_name(chosen.id),
    )


def _register(task_id: str) -> None:
    name = task_name(task_id)

    def factory(data: str | None = None, modality: str | None = None, n: int = 20, seed: int = 0) -> InspectTask:
        return foldbench_task(task_id, data=data, modality=modality, n=n, seed=seed)

    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = f"foldbench's {task_id} (arguments: data, modality, n, seed)."
    globals()[name] = inspect_task(name=name)(factory)


for _task_id in task_ids():
    _register(_task_id)
