"""The endpoint limiter shared by Ray workers, driven directly (no Ray needed): the slots of holders that die
are freed, also when they die after the next run has started, and live holders keep theirs."""

from __future__ import annotations

import asyncio

import pytest

from foldbench.integrations import ray_eval


@pytest.fixture
def dead(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The holders that no longer answer (a holder here is its name)."""
    gone: set[str] = set()

    async def alive(holder: str) -> bool:
        return holder not in gone

    monkeypatch.setattr(ray_eval, "_alive", alive)
    return gone


def test_a_holder_that_dies_after_the_next_run_started_gives_its_slots_back(dead: set[str]) -> None:
    async def scenario() -> None:
        limit = ray_eval._EndpointLimit(2, recheck_s=0.05)
        await limit.acquire("killed", "killed")
        await limit.acquire("killed", "killed")
        assert await limit.resize(2) == 0  # the killed run's worker is still alive when the next run starts
        waiting = asyncio.create_task(limit.acquire("next", "next"))
        await asyncio.sleep(0)
        assert not waiting.done()
        dead.add("killed")  # Ray ends it later
        await asyncio.wait_for(waiting, timeout=30)  # before the fix: waited forever

    asyncio.run(scenario())


def test_live_holders_keep_their_slots_and_a_release_lets_the_waiter_in(dead: set[str]) -> None:
    async def scenario() -> None:
        limit = ray_eval._EndpointLimit(1, recheck_s=0.01)
        await limit.acquire("busy", "busy")
        waiting = asyncio.create_task(limit.acquire("next", "next"))
        for _ in range(20):  # many looks at the holders: the live one keeps its slot
            await asyncio.sleep(0.01)
        assert not waiting.done()
        await limit.release("busy")
        await asyncio.wait_for(waiting, timeout=30)
        assert await limit.resize(1) == 0  # the waiter now holds the one slot

    asyncio.run(scenario())


def test_resize_frees_the_slots_of_holders_already_dead(dead: set[str]) -> None:
    async def scenario() -> int:
        limit = ray_eval._EndpointLimit(3)
        await limit.acquire("a", "a")
        await limit.acquire("b", "b")
        dead.add("a")
        return await limit.resize(3)

    assert asyncio.run(scenario()) == 2
