"""``foldbench export --format lmms-eval``: a task folder lmms-eval runs with ``--include_path``.

Layout of the output directory::

    data/                      the ``--format hf`` export (Parquet shards and dataset card)
    foldbench_<name>.yaml      one lmms-eval task per dataset (name as in the inspect_ai tasks)
    _foldbench.yaml            the group ``foldbench``: every task, with the mean headline over them
    utils.py                   doc_to_visual / doc_to_text / process_results / aggregations, calling foldbench

``process_results`` rebuilds the item from its row and calls the task's own ``parse`` and ``score``: every metric
the task declares is reported, aggregated as foldbench aggregates it (proportions and means over the items where
the metric applies, pooled metrics as Σ numerator / Σ denominator), plus ``headline`` (the task's headline metric,
for the group) and ``parse_failed``. The task files name the Parquet shards relative to the folder (a folder
on the local disk can be moved or copied anywhere; one in a bucket names them by URI). Run it from the folder::

    cd <out> && python -m lmms_eval --model <model> --model_args <args> --include_path . --tasks foldbench
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from foldbench.export._output import ExportError, destination, staged
from foldbench.export._source import Source, open_source
from foldbench.export.hf import config_name, write_shards

__all__ = ["GROUP", "export_lmms_eval", "lmms_task_name", "task_yaml", "group_yaml"]

GROUP = "foldbench"
_UTILS = Path(__file__).with_name("_lmms_eval_utils.py")
#: Metrics that count mistakes (task specs do not declare a direction; every other metric counts successes).
_LOWER_IS_BETTER = frozenset({"parse_failure", "parse_failed", "extra_holes", "missing_holes"})


def lmms_task_name(task_id: str) -> str:
    """The lmms-eval task name of a foldbench task id.

    >>> lmms_task_name("pfp/folding-3d-v2")
    'foldbench_pfp_folding_3d'
    """
    return "foldbench_" + task_id.rsplit("-v", 1)[0].replace("/", "_").replace("-", "_")


def _q(text: str) -> str:
    return json.dumps(text)


def task_yaml(source: Source, data_files: str, split: str, modality: str) -> str:
    """The YAML of one lmms-eval task over the Parquet shards ``data_files`` (a glob)."""
    spec = source.task.spec
    lines = [
        f"task: {_q(lmms_task_name(source.manifest['task']))}",
        "dataset_path: parquet",
        "dataset_kwargs:",
        "  data_files:",
        f"    {split}: {_q(data_files)}",
        f"test_split: {_q(split)}",
        "output_type: generate_until",
        "doc_to_visual: !function utils.doc_to_visual",
        "doc_to_text: !function utils.doc_to_text",
        "doc_to_target: target",
        "process_results: !function utils.process_results",
        "generation_kwargs:",
        "  max_new_tokens: 2048",
        "  temperature: 0",
        "  do_sample: false",
        "metric_list:",
    ]
    for metric in [*spec.metrics]:
        aggregation = "utils.aggregate_pooled" if metric.kind == "pooled" else "utils.aggregate_mean"
        lower_is_better = metric.name in _LOWER_IS_BETTER
        lines += [
            f"  - metric: {_q(metric.name)}",
            f"    aggregation: !function {aggregation}",
            f"    higher_is_better: {'false' if lower_is_better else 'true'}",
        ]
    for name, better in (("headline", "true"), ("parse_failed", "false")):
        if name not in {m.name for m in spec.metrics}:
            lines += [
                f"  - metric: {name}",
                "    aggregation: !function utils.aggregate_mean",
                f"    higher_is_better: {better}",
            ]
    lines += [
        "metadata:",
        "  version: 1",
        f"  foldbench_task: {_q(source.manifest['task'])}",
        f"  modality: {_q(modality)}",
        "",
    ]
    return "\n".join(lines)


def group_yaml(task_names: Sequence[str]) -> str:
    """The YAML of the group holding every exported task, with the mean headline over them."""
    lines = [f"group: {GROUP}", "task:"]
    lines += [f"  - {_q(name)}" for name in task_names]
    lines += [
        "aggregate_metric_list:",
        "  - metric: headline",
        "    aggregation: mean",
        "    weight_by_size: true",
        "metadata:",
        "  version: 1",
        "",
    ]
    return "\n".join(lines)


def export_lmms_eval(
    datasets: Sequence[Path],
    out: str | Path,
    *,
    split: str = "test",
    license: str = "mit",
    modality: str | None = None,
    on_start: Callable[[str, int], Callable[[], None] | None] | None = None,
) -> list[dict[str, Any]]:
    """Write the lmms-eval task folder for ``datasets`` into the new directory ``out``; returns each config's
    record. The tasks use each dataset's first picture modality (or ``modality``)."""
    from foldbench.export.card import dataset_card
    from foldbench.export.hf import check_split

    check_split(split)
    sources = [open_source(Path(d)) for d in datasets]
    conversations = [source for source in sources if source.task.spec.max_turns > 1]
    if conversations:
        raise ExportError(
            f"{conversations[0].manifest['task']} gives feedback after each reply (a conversation of up to "
            f"{conversations[0].task.spec.max_turns} turns), which an lmms-eval task cannot hold; "
            "run it with foldbench eval or inspect_ai"
        )
    target = destination(out)
    records = []
    names = []
    modalities_by_task: dict[str, str] = {}
    with staged(target) as stage:
        for source in sources:
            task_id = source.manifest["task"]
            folder = f"data/{config_name(task_id)}"
            advance = on_start(f"exporting {task_id}", source.count) if on_start else None
            record = write_shards(source, stage, folder, split=split, on_item=advance)
            record["config"] = config_name(task_id)
            records.append(record)
            modalities = source.manifest["modalities"]
            chosen = modality or next((m for m in modalities if m in ("image", "frames")), modalities[0])
            name = lmms_task_name(task_id)
            names.append(name)
            modalities_by_task[task_id] = chosen
            pattern = f"{split}-*.parquet"
            files = f"{folder}/{pattern}" if target.is_local else target.location(folder, pattern)
            stage.write_bytes(f"{name}.yaml", task_yaml(source, files, split, chosen).encode())
        stage.write_bytes(f"_{GROUP}.yaml", group_yaml(names).encode())
        utils = _UTILS.read_text(encoding="utf-8").replace(
            "MODALITIES: dict[str, str] = {}", f"MODALITIES: dict[str, str] = {json.dumps(modalities_by_task)}"
        )
        stage.write_bytes("utils.py", utils.encode())
        card = dataset_card(list(zip(sources, records, strict=True)), license=license)
        stage.write_bytes("data/README.md", card.encode())
    return records
