"""One frozen evaluation config: checked when built, shared by ``eval``, ``suite`` and the library call; the
harness builds models only through the executor it is handed."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from foldbench.errors import UsageError
from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.executors import Executor, LocalExecutor
from foldbench.harness.store import Store
from foldbench.harness.suite import plan_suite, run_suite
from foldbench.models.base import Model
from foldbench.testing.fake_openai import always, reply
from tests.export.conftest import run_cli


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"concurrency": 0}, "--concurrency must be at least 1, got 0"),
        ({"repeats": 0}, "--repeats must be at least 1, got 0"),
        ({"workers": 0}, "--workers must be at least 1, got 0"),
        ({"temperature": -0.5}, "--temperature must be at least 0, got -0.5"),
        ({"max_tokens": 0}, "--max-tokens must be at least 1, got 0"),
        ({"timeout_s": 0.0}, "--timeout must be more than 0 seconds"),
        ({"executor": "dask"}, "--executor must be local or ray, got 'dask'"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(options: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError) as error:
        RunOptions(**options)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_config_is_frozen_and_takes_paths_as_strings(tmp_path: Path) -> None:
    config = EvalConfig(task="mentalblackboard/prediction", data=str(tmp_path), model="random", db="runs.db")  # type: ignore[arg-type]
    assert (config.data, config.db) == (tmp_path, Path("runs.db"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.options.concurrency = 3  # type: ignore[misc]
    with pytest.raises(UsageError, match="--limit must be at least 1"):
        dataclasses.replace(config, limit=0)


def test_only_the_generation_parameters_given_reach_the_adapter() -> None:
    assert RunOptions(max_tokens=7).params == {"max_tokens": 7}
    model = LocalExecutor().build_model("openai:m", RunOptions(base_url="http://127.0.0.1:1/v1", temperature=0.25))
    assert (model.params["temperature"], model.params["max_tokens"]) == (0.25, None)  # None: the server's limit


class _CountingExecutor:
    """Builds local models and counts them (an executor the harness knows nothing about)."""

    def __init__(self) -> None:
        self.built: list[str] = []
        self.closed = False

    def build_model(self, spec: str, options: RunOptions) -> Model:
        self.built.append(spec)
        return LocalExecutor().build_model(spec, options)

    def close(self) -> None:
        self.closed = True


def test_the_harness_builds_the_model_through_the_executor_it_is_handed(
    prediction_dataset: Path, tmp_path: Path
) -> None:
    executor = _CountingExecutor()
    assert isinstance(executor, Executor) and isinstance(LocalExecutor(), Executor)
    config = EvalConfig(task="mentalblackboard/prediction", data=prediction_dataset, model="oracle",
                        db=tmp_path / "runs.db", limit=3)  # fmt: skip
    name, summary = run_dataset(config, executor=executor)
    assert executor.built == ["oracle"] and not executor.closed  # the caller owns the executor
    assert (name, summary.scored) == ("prediction-v1-text-oracle", 3)


def test_an_executor_named_but_not_handed_over_is_refused(prediction_dataset: Path, tmp_path: Path) -> None:
    on_ray = RunOptions(executor="ray")
    config = EvalConfig(task="mentalblackboard/prediction", data=prediction_dataset, model="openai:m",
                        db=tmp_path / "runs.db", options=on_ray)  # fmt: skip
    with pytest.raises(UsageError, match="executor_for"):
        run_dataset(config)
    with pytest.raises(UsageError, match="executor_for"):
        run_suite(tmp_path / "suite", plan_suite(1, tasks=["mentalblackboard/prediction"], modalities=["text"]),
                  options=on_ray)  # fmt: skip
    assert not (tmp_path / "runs.db").exists()


def test_the_suite_sends_its_generation_parameters_and_runs_the_baselines_without_them(
    tmp_path: Path, fake_openai_server: Any
) -> None:
    server = fake_openai_server(always(reply("no idea")))
    out = tmp_path / "suite"
    args = ["suite", "--out", str(out), "-n", "2", "--tasks", "mentalblackboard/prediction", "--modality", "text",
            "-m", "openai:fake", "--base-url", server.base_url, "--temperature", "0.25", "--max-tokens", "9",
            "--repeats", "2"]  # fmt: skip
    assert run_cli(*args) == 0
    sent = [request.json for request in server.requests]
    assert len(sent) == 2 * 2  # two items, each asked twice
    assert all(body is not None and (body["temperature"], body["max_tokens"]) == (0.25, 9) for body in sent)
    with Store(out / "runs.db") as store:
        runs = {run.name: run.params for run in store.runs()}
    assert runs["prediction-v1-text-openai-fake"]["temperature"] == 0.25
    baselines = [runs["prediction-v1-text-random"], runs["prediction-v1-text-oracle"]]
    assert all(not {"temperature", "max_tokens"} & set(params) for params in baselines)
