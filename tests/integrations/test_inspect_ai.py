"""foldbench tasks run by the real inspect_ai: mock models, the oracle, multi-turn feedback, entry points."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from foldbench.tasks import make
from foldbench.tasks.base import Item
from foldbench.testing.toy_task import GuessTask, bisect_reply

if TYPE_CHECKING:  # bound at run time by _inspect_ai_names, below
    from inspect_ai import Task as InspectTask
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log
    from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage

    from foldbench.integrations.inspect_ai import (
        PARSE_FAILED,
        foldbench_dataset,
        foldbench_scorer,
        foldbench_solver,
        foldbench_task,
        task_name,
    )

Answer = Callable[[list["ChatMessage"]], str]

_INSPECT_NAMES = {
    "inspect_ai": ("Task as InspectTask", "eval as inspect_eval"),
    "inspect_ai.log": ("read_eval_log",),
    "inspect_ai.model": ("ChatMessage", "ModelOutput", "ModelUsage"),
    "foldbench.integrations.inspect_ai": ("PARSE_FAILED", "foldbench_dataset", "foldbench_scorer", "foldbench_solver",
                                          "foldbench_task", "task_name"),
}  # fmt: skip


@pytest.fixture(autouse=True, scope="module")
def _inspect_ai_names() -> None:
    """Bind the names of :data:`_INSPECT_NAMES` in this module when its first test runs: importing inspect_ai
    takes about 2 s of CPU, which every collection of the suite (once per worker) would otherwise pay."""
    pytest.importorskip("inspect_ai", reason="the 'inspect' extra (inspect_ai) is not installed")
    import importlib

    for module_name, names in _INSPECT_NAMES.items():
        module = importlib.import_module(module_name)
        for spec in names:
            name, _, alias = spec.partition(" as ")
            globals()[alias or name] = getattr(module, name)


_DISPLAY = "log"
"""inspect's progress display for every eval of this module: ``log`` (progress through ``logging``, captured by
pytest). The quiet ``none`` still lays out rich's tables, which cost about a third of the CPU of an eval over every
task (28-32 s against 19-21 s, measured with the oracle's eval; inspect keeps the first display a process uses)."""


def _mock(answer: Answer) -> Callable[..., ModelOutput]:
    """A ``mockllm`` output function replying ``answer(messages)`` (with usage, so no tokenizer is needed)."""

    def output(messages: list[ChatMessage], *_args: Any) -> ModelOutput:
        reply = ModelOutput.from_content("mockllm/model", answer(messages))
        reply.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return reply

    return output


def _key(messages: list[Any]) -> str:
    """The texts and image contents of a conversation (pictures by the sha256 of their bytes, however held)."""
    parts = []
    for message in messages:
        content = message.content if not isinstance(message.content, str) else [message.content]
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif getattr(part, "type", "") == "image":
                image = part.image
                data = (
                    base64.b64decode(image.split(",", 1)[1]) if image.startswith("data:") else Path(image).read_bytes()
                )
                parts.append(hashlib.sha256(data).hexdigest())
            elif getattr(part, "type", "") == "text":
                parts.append(part.text)
    return "\n".join(parts)


def _evaluate_all(tasks: list[InspectTask], answer: Answer, log_dir: Path) -> list[Any]:
    """Several tasks (of different names) in one inspect eval, one model answering them all; their logs, in the
    order of ``tasks``."""
    logs = inspect_eval(
        tasks, model="mockllm/model", model_args={"custom_outputs": _mock(answer)}, log_dir=str(log_dir),
        display=_DISPLAY,
    )  # fmt: skip
    assert [log.status for log in logs] == ["success"] * len(tasks), [log.error for log in logs]
    by_task = {log.eval.task: log for log in logs}
    assert len(by_task) == len(tasks)
    return [read_eval_log(by_task[task.name].location) for task in tasks]


def _evaluate(task: InspectTask, answer: Answer, log_dir: Path) -> Any:
    return _evaluate_all([task], answer, log_dir)[0]


def _metrics(log: Any) -> dict[str, float]:
    return {score.name: next(iter(score.metrics.values())).value for score in log.results.scores}


def _opening(messages: list[Any]) -> list[Any]:
    """The conversation up to its first user message (what the first turn shows)."""
    first_user = next(i for i, message in enumerate(messages) if message.role == "user")
    return messages[: first_user + 1]


def test_the_oracle_scores_100_percent_on_every_task(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    # One inspect eval runs every task (one log each): the mock model finds a sample's task and item by what the
    # first turn shows, so no two samples, of one task or of two, may look the same to it.
    tasks: list[tuple[str, Any, InspectTask]] = []
    chosen_of: dict[str, Any] = {}
    item_of: dict[str, Item] = {}
    for task_id, directory in every_task_dataset.items():
        chosen = make(task_id)
        modality = [m for m in chosen.modalities if m != "video"][-1]
        task = foldbench_task(task_id, data=str(directory), modality=modality)
        for sample in task.dataset:
            key = _key(_opening(list(sample.input)))
            assert key not in item_of, f"{task_id}: two samples look the same to a model"
            item_of[key] = Item.model_validate_json(sample.metadata["foldbench_item"])
            chosen_of[key] = chosen
        tasks.append((task_id, chosen, task))

    def oracle(messages: list[ChatMessage]) -> str:
        # A multi-turn task's oracle answers from the episode so far: replay the earlier replies first.
        key = _key(_opening(messages))
        chosen, item = chosen_of[key], item_of[key]
        replies = [m.text for m in messages if m.role == "assistant"]
        for turn, reply in enumerate(replies):
            chosen.step(item, reply, turn)
        return chosen.oracle(item).model_dump_json()

    logs = _evaluate_all([task for _, _, task in tasks], oracle, tmp_path / "logs")
    assert len(logs) == len(tasks) == len(every_task_dataset)
    for (task_id, chosen, _task), log in zip(tasks, logs, strict=True):
        metrics = _metrics(log)
        assert metrics[chosen.spec.headline] == 1.0, (task_id, metrics)
        assert metrics[PARSE_FAILED] == 0.0
        assert {m.name for m in chosen.spec.metrics} <= set(metrics), task_id
        assert log.results.completed_samples == 3


def test_mockllm_replies_are_parse_failures_reported_as_such(
    every_task_dataset: dict[str, Path], tmp_path: Path
) -> None:
    task_id = "mentalblackboard/prediction-v1"
    task = foldbench_task(task_id, data=str(every_task_dataset[task_id]), modality="text")
    log = _evaluate(task, lambda _messages: "Default output from mockllm/model", tmp_path / "logs")
    metrics = _metrics(log)
    assert metrics[PARSE_FAILED] == 1.0 and metrics["exact_match"] == 0.0
    assert metrics["partial_accuracy"] == 0.0  # pooled over the items' counts
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        assert score.metadata["parse_failure"] in ("no_json", "invalid_json", "schema", "empty", "too_long")
        assert score.explanation.startswith(score.metadata["parse_failure"])


def _metric_value(metrics: dict[str, float], name: str) -> float:
    """The value of foldbench's metric ``name`` in one score's logged metrics. inspect names a package's metric
    ``foldbench/name`` when it finds foldbench installed, and plain ``name`` when an ``egg-info`` folder of a
    source checkout comes first on the path (pytest puts ``src`` there to import the doctests)."""
    keys = [key for key in metrics if key in (name, f"foldbench/{name}")]
    assert len(keys) == 1, sorted(metrics)
    return metrics[keys[0]]


def test_pooled_metrics_aggregate_like_foldbench(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    from foldbench.harness.config import EvalConfig, RunOptions
    from foldbench.harness.evaluation import run_dataset
    from foldbench.harness.metrics import aggregate
    from foldbench.harness.store import Store

    task_id = "mentalblackboard/prediction-v1"
    directory = every_task_dataset[task_id]
    db = tmp_path / "runs.db"
    options = RunOptions(seed=4)
    run_dataset(EvalConfig(task=task_id, data=directory, model="random", run_name="r", db=db, modality="text",
                           options=options))  # fmt: skip
    with Store(db) as store:
        replies = {row.item_id: row.text for row in store.scores("r")}
        expected = aggregate(store.scores("r"), make(task_id).spec)
    task = foldbench_task(task_id, data=str(directory), modality="text")
    by_prompt = {_key(s.input): replies[str(s.id)] for s in task.dataset}
    log = _evaluate(task, lambda messages: by_prompt[_key(messages)], tmp_path / "logs")
    metrics = _metrics(log)
    for name, estimate in expected.estimates.items():
        if estimate.value is not None:
            assert metrics[name] == pytest.approx(estimate.value), name
    # foldbench's 95 % intervals reach the log beside each value, as `foldbench report` prints them
    logged = {score.name: {k: m.value for k, m in score.metrics.items()} for score in log.results.scores}
    checked = 0
    for name, estimate in expected.estimates.items():
        if estimate.low is not None and estimate.high is not None:
            assert _metric_value(logged[name], "ci_low") == pytest.approx(estimate.low), name
            assert _metric_value(logged[name], "ci_high") == pytest.approx(estimate.high), name
            checked += 1
    assert checked >= 2
    assert "stderr" in logged["exact_match"] and "stderr" not in logged["partial_accuracy"]


def test_the_inspect_extra_installs_the_openai_client() -> None:
    """``inspect eval ... --model openai/...`` needs the ``openai`` package: the extra brings it."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    extra = pyproject["project"]["optional-dependencies"]["inspect"]
    assert any(requirement.split(">")[0].split("=")[0].strip() == "openai" for requirement in extra)


def test_feedback_turns_follow_the_task(tmp_path: Path) -> None:
    toy = GuessTask()
    items = list(toy.generate(4, seed=2))
    task = InspectTask(
        dataset=foldbench_dataset(toy, items, tmp_path, "text"),
        solver=foldbench_solver(toy),
        scorer=foldbench_scorer(toy),
    )
    log = _evaluate(task, lambda messages: bisect_reply(_key(messages)), tmp_path / "logs")
    assert _metrics(log)["accuracy"] == 1.0
    turns = [sum(m.role == "assistant" for m in sample.messages) for sample in log.samples]
    assert max(turns) > 1 and all(t <= toy.spec.max_turns for t in turns)


def test_inspect_finds_every_task_through_the_entry_point(every_task_dataset: dict[str, Path]) -> None:
    from foldbench.tasks import task_ids

    names = [f"foldbench/{task_name(t)}" for t in task_ids()]
    script = (
        "import json, sys\n"
        "from inspect_ai._util.registry import registry_lookup\n"
        "print(json.dumps([registry_lookup('task', n) is not None for n in sys.argv[1:]]))\n"
    )
    found = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=120)
    assert json.loads(found.stdout.strip().splitlines()[-1]) == [True] * len(names), found.stderr


def test_a_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from foldbench.errors import MissingDependencyError

    monkeypatch.setitem(sys.modules, "inspect_ai", None)
    monkeypatch.delitem(sys.modules, "foldbench.integrations.inspect_ai")
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[inspect\]'"):
        importlib.import_module("foldbench.integrations.inspect_ai")
