"""What an evaluation runs (:class:`EvalConfig`) and how its runs are made (:class:`RunOptions`), in one frozen
record that ``foldbench eval``, ``foldbench suite`` and :func:`foldbench.harness.evaluation.run_dataset` share.

The options are checked when the record is built, so a bad value is one line naming the option before anything
is read, built or sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from foldbench.errors import UsageError

__all__ = ["EXECUTORS", "EvalConfig", "ExecutorName", "RunOptions"]

ExecutorName = Literal["local", "ray"]

#: Where a run's model calls can be made: in this process, or by Ray workers (``foldbench[ray]``).
EXECUTORS: tuple[ExecutorName, ...] = ("local", "ray")


def _at_least(name: str, value: float | None, low: float) -> None:
    if value is not None and value < low:
        raise UsageError(f"{name} must be at least {low:g}, got {value:g}")


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOptions:
    """How every run of an evaluation is made: the endpoint, the generation parameters, the pace and the executor.

    Attributes:
        base_url: the OpenAI-compatible server of ``openai:`` models (None: the OpenAI API).
        api_key_env: the environment variable holding the API key.
        concurrency: requests in flight at once (with the Ray executor: per endpoint, over every worker).
        repeats: how many times each item is asked (each asking stored on its own).
        seed: the random baseline's seed (and the jitter seed of API retries).
        temperature: the sampling temperature (None: the server's default).
        max_tokens: the completion token limit (None: the server's default).
        timeout_s: seconds per request attempt (None: the adapter's default).
        executor: ``"local"`` (this process) or ``"ray"`` (``workers`` Ray actors send the requests).
        workers: with the Ray executor, how many Ray actors send requests.
        ray_address: with the Ray executor, a running cluster's ``HOST:PORT`` or ``auto`` (None: a local one).
    """

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 8
    repeats: int = 1
    seed: int = 0
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float | None = None
    executor: ExecutorName = "local"
    workers: int = 2
    ray_address: str | None = None

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise UsageError(f"--executor must be local or ray, got {self.executor!r}")
        _at_least("--concurrency", self.concurrency, 1)
        _at_least("--repeats", self.repeats, 1)
        _at_least("--workers", self.workers, 1)
        _at_least("--seed", self.seed, 0)
        _at_least("--temperature", self.temperature, 0)
        _at_least("--max-tokens", self.max_tokens, 1)
        if self.timeout_s is not None and self.timeout_s <= 0:
            raise UsageError(f"--timeout must be more than 0 seconds, got {self.timeout_s:g}")

    @property
    def params(self) -> dict[str, Any]:
        """The generation parameters that were given, as the model adapters take them.

        >>> RunOptions(temperature=0.0, timeout_s=30.0).params
        {'temperature': 0.0, 'timeout_s': 30.0}
        >>> RunOptions().params
        {}
        """
        given = {"temperature": self.temperature, "max_tokens": self.max_tokens, "timeout_s": self.timeout_s}
        return {name: value for name, value in given.items() if value is not None}


@dataclass(frozen=True, slots=True, kw_only=True)
class EvalConfig:
    """One model on one dataset directory: what is evaluated, where it is stored, and how (:class:`RunOptions`).

    Attributes:
        task: the task name (``family/name``, with or without its version).
        data: the dataset directory (``foldbench generate``).
        model: the model spec: ``random``, ``oracle``, ``openai:NAME`` or ``transformers:PATH``.
        db: the SQLite run store.
        run_name: the run's name (None: ``<task name>-<modality>-<model>``).
        modality: the modality to ask in (None: the dataset's first).
        limit: only the first ``limit`` items (None: all).
        options: how the run is made.
    """

    task: str
    data: Path
    model: str
    db: Path
    run_name: str | None = None
    modality: str | None = None
    limit: int | None = None
    options: RunOptions = field(default_factory=RunOptions)

    def __post_init__(self) -> None:
        _at_least("--limit", self.limit, 1)
        object.__setattr__(self, "data", Path(self.data))
        object.__setattr__(self, "db", Path(self.db))
