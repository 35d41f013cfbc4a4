"""``eval --executor ray``: a model's requests fanned out over Ray workers, with one shared limit per endpoint.

:class:`RayExecutor` is the harness's executor for Ray: it joins (or starts) Ray when it builds its first model
and leaves it when closed. The model it builds, a :class:`RayModel`, is a model adapter like any other, so the
runner is unchanged: it renders, keys, stores and scores in the driver, committing each reply to the run store as
it arrives, and a killed run resumes exactly as a local one. Each request goes to one of ``workers`` Ray actors
that hold the real adapter (built from the same spec and settings); before sending it, the actor takes a slot from
the endpoint's limiter, a named Ray actor shared by every process evaluating against that endpoint, so no more
than ``concurrency`` requests are in flight there however many drivers and workers there are. The limiter
outlives a run (it is detached); each run sets its size to its own ``concurrency`` when it starts, so the latest
run's limit holds for the endpoint, and frees the slots of workers that died with a killed run, so a resumed run
is not held up by them. The API key variable is passed to the workers' environment.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import itertools
import os
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from foldbench.errors import FoldbenchError
from foldbench.harness.config import RunOptions
from foldbench.harness.executors import ClosingExecutor
from foldbench.integrations.ray import _ray, connect
from foldbench.models.base import ModelReply, ModelRequest

__all__ = ["RayExecutor", "RayModel", "limiter_name"]

_NAMESPACE = "foldbench"
_PING_TIMEOUT_S = 10.0
_RECHECK_S = 5.0
"""How long a request waits for a slot before the holders are looked at again for dead ones."""


class _EndpointLimit:
    """A semaphore shared through Ray whose size the latest run sets: ``acquire`` waits until fewer than
    ``slots`` requests hold a slot, ``release`` frees one, ``resize`` changes ``slots`` (waiters re-check).

    Slots are counted per holder (a worker actor). A run killed outright never releases its slots, so ``resize``,
    called as each run starts, first frees the slots of holders that are no longer alive; and since Ray ends a
    killed run's workers some time after the run, possibly after the next run started, a request that waits for a
    slot longer than ``recheck_s`` looks again for holders that died (one look at a time, at most one per
    ``recheck_s``).
    """

    def __init__(self, slots: int, recheck_s: float = _RECHECK_S) -> None:
        self._slots = slots
        self._held: Counter[str] = Counter()
        self._holders: dict[str, Any] = {}
        self._changed = asyncio.Condition()
        self._recheck_s = recheck_s
        self._last_look = float("-inf")
        self._looking = False

    async def resize(self, slots: int) -> int:
        """Set the number of slots (requests already holding one keep it); returns the slots now free."""
        await self._forget_dead()
        async with self._changed:
            self._slots = slots
            self._changed.notify_all()
            return self._slots - self._held.total()

    async def acquire(self, key: str, holder: Any) -> None:
        while True:
            async with self._changed:
                try:
                    await asyncio.wait_for(self._changed.wait_for(lambda: self._held.total() < self._slots),
                                           self._recheck_s)
                except TimeoutError:
                    pass
                else:
                    self._held[key] += 1
                    self._holders[key] = holder
                    return
            loop = asyncio.get_running_loop()
            if not self._looking and loop.time() - self._last_look >= self._recheck_s:
                await self._forget_dead()

    async def release(self, key: str) -> None:
        async with self._changed:
            self._held[key] -= 1
            if self._held[key] <= 0:
                self._held.pop(key, None)
                self._holders.pop(key, None)
            self._changed.notify_all()

    async def _forget_dead(self) -> None:
        """Free the slots of holders that no longer answer."""
        self._looking = True
        try:
            dead = [key for key, holder in list(self._holders.items()) if not await _alive(holder)]
            async with self._changed:
                for key in dead:
                    self._held.pop(key, None)
                    self._holders.pop(key, None)
                self._changed.notify_all()
        finally:
            self._looking = False
            self._last_look = asyncio.get_running_loop().time()


async def _alive(actor: Any) -> bool:
    """Whether a Ray actor still answers (one that is merely busy for ``_PING_TIMEOUT_S`` counts as alive)."""
    ray = _ray()
    try:
        await asyncio.wait_for(actor.__ray_ready__.remote(), timeout=_PING_TIMEOUT_S)
    except ray.exceptions.RayActorError:
        return False
    except TimeoutError:
        return True
    return True


class _ModelWorker:
    """One Ray actor holding a model adapter; serves many requests at once."""

    def __init__(self, spec: str, settings: dict[str, Any], limiter: Any) -> None:
        from foldbench.models.registry import make_model

        ray = _ray()
        self._model = make_model(spec, **settings)
        self._limiter = limiter
        context = ray.get_runtime_context()
        self._key, self._me = context.get_actor_id(), context.current_actor

    async def complete(self, request: ModelRequest) -> ModelReply:
        await self._limiter.acquire.remote(self._key, self._me)
        try:
            return await self._model.complete(request)
        finally:
            await self._limiter.release.remote(self._key)

    async def aclose(self) -> None:
        await self._model.aclose()


def limiter_name(spec: str, base_url: str | None) -> str:
    """The name of the limiter shared by every run against an endpoint (its URL, or the model spec without one).

    >>> limiter_name("openai:m", "http://h:1/v1") == limiter_name("openai:other", "http://h:1/v1")
    True
    """
    endpoint = base_url or spec
    return "foldbench-limit-" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


class RayModel:
    """The model ``spec`` served by ``workers`` Ray actors (Ray must be connected; see the module docstring)."""

    def __init__(
        self,
        spec: str,
        *,
        workers: int,
        concurrency: int,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        seed: int = 0,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        from foldbench.models.baselines import BaselineModel
        from foldbench.models.registry import make_model

        ray = _ray()
        probe = make_model(spec, base_url=base_url, api_key_env=api_key_env, seed=seed, **dict(params or {}))
        if isinstance(probe, BaselineModel):
            raise FoldbenchError(f"--executor ray sends requests to a model; the baseline {spec!r} runs locally")
        self.name: str = probe.name
        self.params: Mapping[str, Any] = dict(probe.params)
        self._probe = probe
        settings = {"base_url": base_url, "api_key_env": api_key_env, "seed": seed, **dict(params or {})}
        environment = {api_key_env: os.environ[api_key_env]} if api_key_env in os.environ else {}
        self._limiter = (
            ray.remote(_EndpointLimit)
            .options(name=limiter_name(spec, base_url), namespace=_NAMESPACE, get_if_exists=True, lifetime="detached")
            .remote(concurrency)
        )
        ray.get(self._limiter.resize.remote(concurrency))  # a limiter left by an earlier run takes this run's limit
        worker = ray.remote(_ModelWorker).options(runtime_env={"env_vars": environment}, max_concurrency=1000)
        self._workers = [worker.remote(spec, settings, self._limiter) for _ in range(max(1, workers))]
        self._next = itertools.cycle(self._workers)

    async def complete(self, request: ModelRequest) -> ModelReply:
        """Send the request through the next worker (round robin); a relative dataset path is made absolute,
        as the workers do not share the driver's working directory."""
        if request.dataset_dir is not None and not request.dataset_dir.is_absolute():
            request = dataclasses.replace(request, dataset_dir=request.dataset_dir.absolute())
        return await next(self._next).complete.remote(request)

    async def aclose(self) -> None:
        """Close the workers' adapters and end the workers."""
        ray = _ray()
        await self._probe.aclose()
        await asyncio.gather(*(w.aclose.remote() for w in self._workers))
        for worker in self._workers:
            ray.kill(worker)


class RayExecutor(ClosingExecutor):
    """The harness's Ray executor: each model it builds is a :class:`RayModel` with ``workers`` actors.

    Ray is started locally (``num_cpus`` = ``workers``) or joined at ``address`` when the first model is built;
    ``close`` leaves it again (unless it was running before).
    """

    def __init__(self, *, workers: int = 2, address: str | None = None) -> None:
        self.workers = workers
        self.address = address
        self._leave: Callable[[], None] | None = None

    def connect(self) -> None:
        """Join (or start) Ray now: an unreachable address or a missing extra fails here, before any run."""
        if self._leave is None:
            self._leave = connect(self.workers, self.address)

    def build_model(self, spec: str, options: RunOptions) -> RayModel:
        """A :class:`RayModel` of ``spec`` sending ``options.concurrency`` requests at most per endpoint."""
        self.connect()
        return RayModel(
            spec, workers=self.workers, concurrency=options.concurrency, base_url=options.base_url,
            api_key_env=options.api_key_env, seed=options.seed, params=options.params,
        )  # fmt: skip

    def close(self) -> None:
        """Leave Ray (a no-op when Ray was running before this executor joined it, or was never joined)."""
        leave, self._leave = self._leave, None
        if leave is not None:
            leave()
