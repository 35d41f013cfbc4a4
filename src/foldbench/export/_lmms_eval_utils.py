"""lmms-eval hooks for foldbench tasks (written by ``foldbench export --format lmms-eval``; needs foldbench).

Each row of the exported Parquet data is one foldbench item. The prompt is the task's own rendering of it (its
text here, its pictures from ``doc_to_visual``); a reply is read and scored by the task's own ``parse`` and
``score``, so the numbers match ``foldbench eval``.
"""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

from foldbench.messages import TextPart
from foldbench.tasks import make
from foldbench.tasks.base import Item, ParseFailure, Task

#: The modality each task is asked in (filled in by the export).
MODALITIES: dict[str, str] = {}


@cache
def _task(task_id: str) -> Task:
    return make(task_id)


def item_of(doc: dict[str, Any]) -> Item:
    """The foldbench item a row holds."""
    return Item(
        id=doc["id"],
        task=doc["task"],
        seed=doc["seed"],
        engine_version=doc["engine_version"],
        inputs=json.loads(doc["inputs"]),
        target=json.loads(doc["target"]),
        metadata=json.loads(doc["metadata"]),
    )


def _modality(doc: dict[str, Any]) -> str:
    return MODALITIES.get(doc["task"]) or _task(doc["task"]).modalities[0]


def doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    """The pictures the prompt shows, in order, as RGB PIL images."""
    indexes = doc.get(f"prompt_{_modality(doc)}_images") or []
    return [doc["images"][index].convert("RGB") for index in indexes]


def doc_to_text(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> str:
    """The prompt's system text and text parts (the pictures come from :func:`doc_to_visual`)."""
    prompt = _task(doc["task"]).render(item_of(doc), _modality(doc))
    texts = [part.text for part in prompt.parts if isinstance(part, TextPart)]
    kwargs = lmms_eval_specific_kwargs or {}
    blocks = [block for block in (prompt.system, *texts) if block]
    return kwargs.get("pre_prompt", "") + "\n\n".join(blocks) + kwargs.get("post_prompt", "")


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """The task's scores for the reply ``results[0]``: a value per metric (None where it does not apply; a
    ``{"numerator", "denominator"}`` pair for pooled metrics), ``headline`` and ``parse_failed``."""
    task = _task(doc["task"])
    item = item_of(doc)
    answer = task.parse(item, results[0] if results else "")
    scores = task.score(item, answer)
    out: dict[str, Any] = {}
    for metric in task.spec.metrics:
        if metric.kind == "pooled":
            assert metric.numerator is not None and metric.denominator is not None
            out[metric.name] = {
                "numerator": int(scores.counts.get(metric.numerator, 0)),
                "denominator": int(scores.counts.get(metric.denominator, 0)),
            }
        else:
            out[metric.name] = scores.values.get(metric.name)
    out.setdefault("headline", scores.values.get(task.spec.headline))
    out.setdefault("parse_failed", float(isinstance(answer, ParseFailure)))
    return out


def aggregate_mean(values: list[float | None]) -> float:
    """The mean over the items where the metric applies (NaN when it applies to none)."""
    applicable = [float(v) for v in values if v is not None]
    return sum(applicable) / len(applicable) if applicable else math.nan


def aggregate_pooled(values: list[dict[str, int]]) -> float:
    """Σ numerator / Σ denominator (NaN when the denominators sum to 0)."""
    denominator = sum(v["denominator"] for v in values)
    return sum(v["numerator"] for v in values) / denominator if denominator else math.nan
