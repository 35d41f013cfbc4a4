"""Run results as one table (Parquet or CSV), one row per item and run, and back into a run store.

Columns: the run's settings (``run``, ``task``, ``model``, ``modality``, ``dataset``, versions, ``params``), the
item (``item_id``, ``metadata`` as JSON and flat metadata as typed ``meta_*`` columns), the outcome (``status``:
``scored``, ``parse_failure`` or ``request_failed``; ``parse_failure_kind``, ``answer``, ``reply``, ``error``),
every per-item metric of the task (``metric_<name>``) and count (``count_<name>``), and the cost (``latency_s``,
``attempts``, ``prompt_tokens``, ``completion_tokens``, ``cached``). ``score_values``, ``score_counts`` and
``notes`` keep the scores exactly as stored, so :func:`store_from_table` rebuilds runs a report can be written
from.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from foldbench.errors import FoldbenchError
from foldbench.export._columns import ARROW_TYPES, column_kind
from foldbench.export._output import ExportError, destination
from foldbench.harness.store import RunInfo, Store, TurnRecord

__all__ = ["run_table", "export_runs", "read_run_table", "store_from_table"]

_SUFFIXES = (".parquet", ".csv")
_FIXED: list[tuple[str, pa.DataType]] = [
    ("run", pa.string()),
    ("task", pa.string()),
    ("model", pa.string()),
    ("modality", pa.string()),
    ("dataset", pa.string()),
    ("engine_version", pa.string()),
    ("template_version", pa.string()),
    ("foldbench_version", pa.string()),
    ("created", pa.string()),
    ("params", pa.string()),
    ("item_id", pa.string()),
    ("status", pa.string()),
    ("headline", pa.string()),
    ("parse_failure_kind", pa.string()),
    ("parse_failure", pa.string()),
    ("answer", pa.string()),
    ("reply", pa.string()),
    ("error_kind", pa.string()),
    ("error", pa.string()),
    ("latency_s", pa.float64()),
    ("attempts", pa.int64()),
    ("prompt_tokens", pa.int64()),
    ("completion_tokens", pa.int64()),
    ("cached", pa.bool_()),
    ("score_values", pa.string()),
    ("score_counts", pa.string()),
    ("notes", pa.string()),
    ("metadata", pa.string()),
]


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)


def run_table(store: Store, runs: Sequence[str]) -> pa.Table:
    """The runs' items as one table (see the module docstring)."""
    from foldbench.tasks import make

    rows: list[dict[str, Any]] = []
    metrics: list[str] = []
    counts: list[str] = []
    for run in runs:
        info = store.run(run)
        if info is None:
            known = ", ".join(r.name for r in store.runs()) or "none"
            raise FoldbenchError(f"no run named '{run}' in {store.path} (runs: {known})")
        spec = make(info.task).spec
        metrics += [m.name for m in spec.metrics if m.name not in metrics]
        base = {
            "run": info.name,
            "task": info.task,
            "model": info.model,
            "modality": info.modality,
            "dataset": info.dataset,
            "engine_version": info.engine_version,
            "template_version": info.template_version,
            "foldbench_version": info.foldbench_version,
            "created": info.created,
            "params": _json(info.params),
            "headline": spec.headline,
        }
        for score in store.scores(run):
            failure = score.parse_failure
            row = {
                **base,
                "item_id": score.item_id,
                "status": "parse_failure" if failure else "scored",
                "parse_failure_kind": failure.get("kind") if failure else None,
                "parse_failure": _json(failure),
                "answer": _json(score.answer),
                "reply": score.text,
                "latency_s": score.latency_s,
                "attempts": score.attempts,
                "prompt_tokens": score.prompt_tokens,
                "completion_tokens": score.completion_tokens,
                "cached": score.cached,
                "score_values": _json(score.values),
                "score_counts": _json(score.counts),
                "notes": _json(score.notes),
                "metadata": _json(score.metadata),
                **{f"metric_{k}": v for k, v in score.values.items()},
                **{f"count_{k}": v for k, v in score.counts.items()},
                **{f"meta_{k}": v for k, v in score.metadata.items()},
            }
            counts += [k for k in score.counts if k not in counts]
            rows.append(row)
        for item_id, error_kind, error in store.failures(run):
            rows.append(
                {**base, "item_id": item_id, "status": "request_failed", "error_kind": error_kind, "error": error}
            )
    fields = list(_FIXED)
    fields += [(f"metric_{m}", pa.float64()) for m in metrics]
    fields += [(f"count_{c}", pa.int64()) for c in counts]
    meta_keys = list(dict.fromkeys(k[5:] for row in rows for k in row if k.startswith("meta_")))
    for key in meta_keys:
        column = column_kind(row.get(f"meta_{key}") for row in rows)
        if column is not None:
            fields.append((f"meta_{key}", ARROW_TYPES[column]))
    schema = pa.schema(fields)
    names = set(schema.names)
    cleaned = [{k: v for k, v in row.items() if k in names} for row in rows]
    for row in cleaned:
        for name in row:
            if name.startswith("metric_") and row[name] is not None:
                row[name] = float(row[name])
            elif name.startswith("meta_") and schema.field(name).type == pa.float64() and row[name] is not None:
                row[name] = float(row[name])
    return pa.Table.from_pylist(cleaned, schema=schema)


def export_runs(db: Path, runs: Sequence[str], out: str | Path) -> int:
    """Write the runs of the store ``db`` to ``out`` (``.parquet`` or ``.csv``; a path or a filesystem URI);
    returns the number of rows. ``out`` must not exist; it appears only when complete."""
    text = str(out)
    if not text.endswith(_SUFFIXES):
        raise ExportError(f"--out must end in .parquet or .csv, got {text}")
    if not Path(db).exists():
        raise FoldbenchError(f"no run store at {db}; run 'foldbench eval' first or pass --db")
    with Store(Path(db)) as store:
        table = run_table(store, runs)
    target = destination(out)
    if target.exists():
        raise ExportError(f"{target.label} already exists; choose another --out or remove it first")
    parent = posixpath.dirname(target.path)
    target.filesystem.create_dir(parent, recursive=True)
    temporary = posixpath.join(parent, f".{posixpath.basename(target.path)}.part")
    try:
        if text.endswith(".parquet"):
            pq.write_table(table, temporary, filesystem=target.filesystem, compression="zstd")
        else:
            with target.filesystem.open_output_stream(temporary) as stream:
                pacsv.write_csv(table, stream)
        target.filesystem.move(temporary, target.path)
    finally:
        if target.filesystem.get_file_info(temporary).type != 0:  # FileType.NotFound
            target.filesystem.delete_file(temporary)
    return table.num_rows


def read_run_table(path: str | Path) -> pa.Table:
    """A table written by :func:`export_runs` (Parquet or CSV, by its suffix)."""
    text = str(path)
    target = destination(path)
    if not target.exists():
        raise ExportError(f"{text} does not exist")
    try:
        if text.endswith(".csv"):
            with target.filesystem.open_input_stream(target.path) as stream:
                options = pacsv.ConvertOptions(column_types=dict(_FIXED), strings_can_be_null=True)
                table = pacsv.read_csv(stream, convert_options=options)
        else:
            table = pq.read_table(target.path, filesystem=target.filesystem)
    except (OSError, ValueError) as error:
        raise ExportError(f"{text}: cannot read it as a run table: {error}") from None
    missing = [name for name, _ in _FIXED if name not in table.column_names]
    if missing:
        raise ExportError(f"{text} is not a foldbench run table (no column {missing[0]!r})")
    return table


def store_from_table(table: pa.Table, db: Path) -> list[str]:
    """Rebuild the runs of a run table in a new store at ``db`` (for reports and comparisons); returns the run
    names in the table's order."""
    from foldbench.models.base import ModelReply
    from foldbench.tasks.base import Scores

    runs: list[str] = []
    with Store(db) as store:
        for row in table.to_pylist():
            name = row["run"]
            if name not in runs:
                runs.append(name)
                store.open_run(
                    RunInfo(
                        name=name,
                        task=row["task"],
                        dataset=row["dataset"],
                        engine_version=row["engine_version"],
                        model=row["model"],
                        params=json.loads(row["params"] or "{}"),
                        modality=row["modality"],
                        template_version=row["template_version"],
                        foldbench_version=row["foldbench_version"],
                        created=row["created"],
                    )
                )
            failed = row["status"] == "request_failed"
            reply = ModelReply(
                row["reply"] or "",
                error=row["error"] if failed else None,
                error_kind=row["error_kind"] if failed else None,
                latency_s=row["latency_s"] or 0.0,
                attempts=row["attempts"] or 1,
                prompt_tokens=row["prompt_tokens"],
                completion_tokens=row["completion_tokens"],
            )
            key = f"table:{name}:{row['item_id']}"
            turn = TurnRecord(0, key, {"from_table": True})
            response_id = store.record_turn(
                run=name, item_id=row["item_id"], turn=turn, model=row["model"], params={}, reply=reply
            )
            if failed:
                store.record_failure(run=name, item_id=row["item_id"], response_id=response_id)
                continue
            store.record_score(
                run=name,
                item_id=row["item_id"],
                key=key,
                response_id=response_id,
                cached=bool(row["cached"]),
                scores=Scores(
                    json.loads(row["score_values"]), json.loads(row["score_counts"]), tuple(json.loads(row["notes"]))
                ),
                answer=row["answer"],
                parse_failure=row["parse_failure"],
                metadata=json.loads(row["metadata"]),
            )
    return runs
