"""Run a model on a task's items: bounded concurrency, every reply stored and scored as it arrives, resumable.

Items that already have a score in the store are skipped; a request whose reply is already stored is answered
from the store without calling the model. A failed request (after the adapter's retries) is recorded as a
failure, not a score, and is tried again the next time the run is started. Failures that no retry can fix (a
wrong API key, an unreachable endpoint, an unknown model) stop the run early with :class:`RunAborted`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from foldbench import __version__
from foldbench.errors import FoldbenchError
from foldbench.harness.store import RunInfo, Store
from foldbench.models._files import PromptFiles
from foldbench.models.base import Model, ModelReply, ModelRequest
from foldbench.models.fingerprint import prompt_record, request_fingerprint
from foldbench.tasks.base import Item, ParseFailure, Prompt, Task

__all__ = ["RunSummary", "RunAborted", "evaluate", "summary_line", "FATAL_ERROR_KINDS"]

#: Errors that mean every further request would fail the same way.
FATAL_ERROR_KINDS = frozenset({"auth", "connection", "not_found"})


class RunAborted(FoldbenchError):
    """The run stopped because the model cannot be reached or refuses the credentials."""


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one invocation of a run did."""

    run: str
    items: int
    already_scored: int
    scored: int
    from_store: int
    requested: int
    failed: int
    parse_failures: int
    elapsed_s: float


def _failure_json(failure: ParseFailure) -> str:
    return json.dumps({"kind": failure.kind, "message": failure.message, "excerpt": failure.raw_excerpt})


async def evaluate(
    *,
    store: Store,
    run_name: str,
    task: Task,
    dataset_dir: Path,
    items: Sequence[Item],
    model: Model,
    modality: str,
    concurrency: int = 8,
    on_item: Callable[[], None] | None = None,
) -> RunSummary:
    """Evaluate ``model`` on ``items`` (see the module docstring); returns what this invocation did."""
    started = time.perf_counter()
    template_version = task.render(items[0], modality).template_version if items else ""
    store.open_run(
        RunInfo(
            name=run_name,
            task=task.id,
            dataset=str(Path(dataset_dir).resolve()),
            engine_version=items[0].engine_version if items else "",
            model=model.name,
            params=dict(model.params),
            modality=modality,
            template_version=template_version,
            foldbench_version=__version__,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
    )
    done = store.scored_items(run_name)
    pending = [item for item in items if item.id not in done]
    counters = {"scored": 0, "from_store": 0, "requested": 0, "failed": 0, "parse_failures": 0}
    fatal: list[ModelReply] = []
    digests = PromptFiles(max_bytes=0)  # file digests, shared by the fingerprint and the stored prompt record

    def finish(item: Item, prompt: Prompt, key: str, reply: ModelReply, cached_id: int | None) -> None:
        scores = answer_json = failure_json = None
        if reply.error is None:
            answer = task.parse(item, reply.text)
            scores = task.score(item, answer)
            if isinstance(answer, ParseFailure):
                failure_json = _failure_json(answer)
                counters["parse_failures"] += 1
            else:
                answer_json = answer.model_dump_json()
            counters["scored"] += 1
        else:
            counters["failed"] += 1
        store.record(
            run=run_name,
            item_id=item.id,
            key=key,
            model=model.name,
            params=model.params,
            prompt=prompt_record(prompt, dataset_dir, digests),
            reply=reply,
            scores=scores,
            answer=answer_json,
            parse_failure=failure_json,
            metadata=item.metadata,
            cached_id=cached_id,
        )
        if on_item is not None:
            on_item()

    semaphore = asyncio.Semaphore(max(1, concurrency))

    async def ask(item: Item, prompt: Prompt, key: str) -> None:
        async with semaphore:
            if fatal:
                return
            reply = await model.complete(ModelRequest(prompt, Path(dataset_dir), item, task))
        counters["requested"] += 1
        if reply.error_kind in FATAL_ERROR_KINDS:
            fatal.append(reply)
        finish(item, prompt, key, reply, None)

    waiting = []
    for item in pending:
        prompt = task.render(item, modality)
        key = request_fingerprint(model.name, model.params, prompt, dataset_dir, files=digests)
        cached = store.cached_response(key)
        if cached is not None:
            counters["from_store"] += 1
            finish(item, prompt, key, cached[1], cached[0])
        else:
            waiting.append(ask(item, prompt, key))
    if waiting:
        await asyncio.gather(*waiting)
    if fatal:
        reply = fatal[0]
        raise RunAborted(f"{model.name}: {reply.error} (stopped the run; what was stored is kept)")
    return RunSummary(
        run=run_name,
        items=len(items),
        already_scored=len(items) - len(pending),
        elapsed_s=time.perf_counter() - started,
        **counters,
    )


def summary_line(summary: RunSummary) -> str:
    """A one-line description of a run invocation."""
    parts = [
        f"run {summary.run}: {summary.scored + summary.already_scored}/{summary.items} items scored",
        f"{summary.requested} requests sent",
        f"{summary.from_store} answered from the store",
    ]
    if summary.already_scored:
        parts.append(f"{summary.already_scored} already done")
    if summary.failed:
        parts.append(f"{summary.failed} failed (run again to retry them)")
    if summary.parse_failures:
        parts.append(f"{summary.parse_failures} unparseable replies (scored as wrong)")
    return ", ".join(parts) + f" in {summary.elapsed_s:.1f} s"
