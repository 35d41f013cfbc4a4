"""Run a model on a task's items: render -> solve -> score, with bounded concurrency, every turn stored as it
arrives (committed at the end of that pass of the event loop), resumable.

``concurrency`` workers take the pending askings one after another, each playing one item's conversation at a
time, so at most that many requests are in flight.

Items that already have a score in the store are skipped; a request whose reply is already stored is answered
from the store without calling the model, so a killed multi-turn conversation resumes at its first unanswered
turn. A failed request (after the adapter's retries) is recorded as a failure, not a score, and is tried again
the next time the run is started. With ``repeats`` N, each item is asked N times; the first asking's request key
is the one a run without repeats uses, the others' keys also name their repeat, so each asking is its own stored
request, answered from the store when a resumed run reaches it again. Failures that no retry can fix (a
wrong API key, an unreachable endpoint, an unknown model) stop the run early with :class:`RunAborted`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from foldbench import __version__
from foldbench.errors import FoldbenchError
from foldbench.harness.baselines import for_item
from foldbench.harness.solvers import MultiTurnSolver, OneShotSolver, Solver, StepFunction, TurnOutcome
from foldbench.harness.store import RunInfo, Store, TurnRecord
from foldbench.messages import Conversation, Prompt
from foldbench.models._files import PromptFiles
from foldbench.models.base import Model, ModelReply, ModelRequest
from foldbench.models.fingerprint import conversation_record, keyed_record
from foldbench.tasks.base import Item, MultiTurnTask, ParseFailure, Task
from foldbench.text import valid_text

__all__ = ["RunSummary", "RunAborted", "default_solver", "evaluate", "summary_line", "FATAL_ERROR_KINDS"]

#: Errors that mean every further request would fail the same way.
FATAL_ERROR_KINDS = frozenset({"auth", "connection", "not_found"})


class RunAborted(FoldbenchError):
    """The run stopped because the model cannot be reached or refuses the credentials."""


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one invocation of a run did (``already_scored``, ``scored``, ``failed`` and ``parse_failures`` count
    askings: items × repeats)."""

    run: str
    items: int
    already_scored: int
    scored: int
    from_store: int
    requested: int
    failed: int
    parse_failures: int
    elapsed_s: float
    repeats: int = 1


def _failure_json(failure: ParseFailure) -> str:
    return json.dumps({"kind": failure.kind, "message": failure.message, "excerpt": failure.raw_excerpt})


class _Stopped(Exception):
    """A fatal failure elsewhere stopped the run before this request was sent."""


def _clean(reply: ModelReply) -> ModelReply:
    """The reply as the harness keeps it: text any adapter or solver hands in made valid UTF-8 (lone surrogates
    replaced), so parsing, feedback and the store all see the same text."""
    text = valid_text(reply.text)
    return reply if text is reply.text else replace(reply, text=text)


def default_solver(task: Task, item: Item) -> Solver:
    """One-shot for tasks that declare one turn; otherwise feedback from ``task.step`` up to the turn budget."""
    max_turns = task.spec.max_turns
    if max_turns == 1:
        return _ONE_SHOT
    if not isinstance(task, MultiTurnTask):
        raise TypeError(f"{task.id} declares {max_turns} turns but gives no step(item, reply, turn)")
    return MultiTurnSolver(lambda text, turn: task.step(item, text, turn), max_turns)


_ONE_SHOT = OneShotSolver()


def _one_shot(task: Task, item: Item) -> Solver:
    return _ONE_SHOT


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
    solver_for: Callable[[Task, Item], Solver] = default_solver,
    repeats: int = 1,
    prompts: Sequence[Prompt] | None = None,
) -> RunSummary:
    """Evaluate ``model`` on ``items``, each asked ``repeats`` times: render, solve (``solver_for(task, item)``),
    score; see the module docstring.

    ``prompts``, when given, are the items' prompts already rendered in ``modality`` (one per item, in order;
    :func:`~foldbench.tasks.dataset.check_items` returns them), so no item is rendered twice.

    Returns what this invocation did (``requested`` and ``from_store`` count turns, one per asking when one-shot).
    """
    if repeats < 1:
        raise FoldbenchError(f"repeats must be at least 1, got {repeats}")
    if prompts is not None and len(prompts) != len(items):
        raise ValueError(f"{len(prompts)} prompts for {len(items)} items")
    started = time.perf_counter()
    dataset_dir = Path(dataset_dir)
    rendered: dict[int, Prompt] = {}
    if prompts is not None:
        rendered = {id(item): prompt for item, prompt in zip(items, prompts, strict=True)}

    def prompt_of(item: Item) -> Prompt:
        prompt = rendered.get(id(item))
        return prompt if prompt is not None else task.render(item, modality)

    template_version = prompt_of(items[0]).template_version if items else ""
    resumed = store.open_run(
        RunInfo(
            name=run_name,
            task=task.id,
            dataset=str(dataset_dir.resolve()),
            engine_version=items[0].engine_version if items else "",
            model=model.name,
            params=dict(model.params),
            modality=modality,
            template_version=template_version,
            foldbench_version=__version__,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
    )
    done = store.scored_askings(run_name)
    pending = [(item, repeat) for item in items for repeat in range(repeats) if (item.id, repeat) not in done]
    counters = {"scored": 0, "from_store": 0, "requested": 0, "failed": 0, "parse_failures": 0}
    fatal: list[ModelReply] = []
    digests = PromptFiles(max_bytes=0)  # file digests, shared by the request keys and the stored records
    semaphore = asyncio.Semaphore(max(1, concurrency))
    in_modality = getattr(task, "score_in_modality", None)  # a task whose rules differ by modality
    if solver_for is default_solver and task.spec.max_turns == 1:
        solver_for = _one_shot  # the spec is read once, not once per item
    loop = asyncio.get_running_loop()
    commit_due: list[bool] = []

    def stored() -> None:
        """Have what was just written committed at the end of this pass of the event loop: the replies that
        arrive in one pass share one commit, and none waits longer than the pass."""
        if not commit_due:
            commit_due.append(True)
            loop.call_soon(commit)

    def commit() -> None:
        commit_due.clear()
        store.commit()

    async def run_item(item: Item, repeat: int) -> None:
        prompt = prompt_of(item)
        item_model = for_item(model, task, item, repeat)
        last: list[tuple[str, int, bool, int]] = []  # (key, response id, from the store, turn) of the last turn

        async def generate(
            conversation: Conversation, *, step: StepFunction | None = None, params: Mapping[str, Any] | None = None
        ) -> TurnOutcome:
            record = conversation_record(conversation, dataset_dir, digests)
            if repeat:
                record = {"repeat": repeat, **record}
            key, record_json = keyed_record(model.name, model.params, record, request_params=params)
            cached = store.cached_response(key)
            if cached is not None:
                cached_id, reply = cached
                counters["from_store"] += 1
            else:
                cached_id = None
                async with semaphore:
                    if fatal:
                        raise _Stopped
                    reply = await item_model.complete(ModelRequest(conversation, dataset_dir, dict(params or {})))
                reply = _clean(reply)
                counters["requested"] += 1
                if reply.error_kind in FATAL_ERROR_KINDS:
                    fatal.append(reply)
            turn = conversation.turn
            feedback = step(reply.text, turn) if step is not None and reply.error is None else None
            said = TurnRecord(
                turn, key, record, feedback.text if feedback else None, feedback is None or feedback.done, record_json
            )
            response_id = store.record_turn(
                run=run_name,
                item_id=item.id,
                turn=said,
                model=model.name,
                params=model.params,
                reply=reply,
                cached_id=cached_id,
                repeat=repeat,
                commit=False,
            )
            stored()
            last[:] = [(key, response_id, cached_id is not None, turn)]
            return TurnOutcome(reply, feedback)

        reply = await solver_for(task, item).solve(prompt, generate)
        key, response_id, cached, turn = last[0]
        if reply.error is not None:
            counters["failed"] += 1
            store.record_failure(run=run_name, item_id=item.id, response_id=response_id, repeat=repeat, commit=False)
        else:
            answer = task.parse(item, reply.text)
            scores = in_modality(item, answer, modality) if in_modality else task.score(item, answer)
            answer_json = failure_json = None
            if isinstance(answer, ParseFailure):
                failure_json = _failure_json(answer)
                counters["parse_failures"] += 1
            else:
                answer_json = answer.model_dump_json()
            counters["scored"] += 1
            store.record_score(
                run=run_name,
                item_id=item.id,
                key=key,
                response_id=response_id,
                cached=cached,
                scores=scores,
                answer=answer_json,
                parse_failure=failure_json,
                metadata=item.metadata,
                last_turn=turn,
                repeat=repeat,
                commit=False,
                first_attempt=not resumed,
            )
        stored()
        if on_item is not None:
            on_item()

    queue = iter(pending)

    async def worker() -> None:
        """Take the next pending asking until none is left (or a fatal failure stops the run)."""
        for item, repeat in queue:
            if fatal:
                return
            try:
                await run_item(item, repeat)
            except _Stopped:
                return

    try:
        if pending:
            await asyncio.gather(*(worker() for _ in range(min(max(1, concurrency), len(pending)))))
    finally:
        store.commit()  # also when the run stops on an error or is cancelled: what arrived is kept
    if fatal:
        reply = fatal[0]
        raise RunAborted(f"{model.name}: {reply.error} (stopped the run; what was stored is kept)")
    return RunSummary(
        run=run_name,
        items=len(items),
        already_scored=len(items) * repeats - len(pending),
        elapsed_s=time.perf_counter() - started,
        repeats=repeats,
        **counters,
    )


def summary_line(summary: RunSummary) -> str:
    """A one-line description of a run invocation."""
    scored = f"{summary.scored + summary.already_scored}/{summary.items * summary.repeats}"
    asked = "items scored" if summary.repeats == 1 else f"askings scored ({summary.items} items × {summary.repeats})"
    parts = [
        f"run {summary.run}: {scored} {asked}",
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
