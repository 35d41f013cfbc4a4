"""Scale-out on Ray (``foldbench[ray]``): the same work as the local process pool, spread over a Ray cluster.

``generate --executor ray`` cuts the item indexes into ranges; each range is a Ray task that generates its items
and their files; the driver writes them in index order as they come back, so the dataset is byte-identical to a
local one. At most a few ranges per worker are in flight, so memory stays bounded however large the dataset.

Ray is started locally (``num_cpus`` = the workers asked for) unless an address is given (``--ray-address``:
``host:port`` of a running cluster's head, or ``auto``). An address that does not answer is refused at once
instead of waiting on it.
"""

from __future__ import annotations

import socket
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from foldbench.errors import FoldbenchError, MissingDependencyError, UsageError

__all__ = ["RayUnavailableError", "connect", "ray_map_ordered"]

_CONNECT_TIMEOUT_S = 5.0
_IN_FLIGHT_PER_WORKER = 4
_CANCEL_WAIT_S = 60.0


class RayUnavailableError(FoldbenchError):
    """The Ray cluster named by ``--ray-address`` cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingDependencyError("ray", "ray", "--executor ray") from None
    return ray


def _check_reachable(address: str) -> None:
    host, _, port = address.rpartition(":")
    if address == "auto" or address.startswith("ray://") and not (port.isascii() and port.isdigit()):
        return
    host = host.removeprefix("ray://")
    if not host or not (port.isascii() and port.isdigit()):
        raise UsageError(f"--ray-address must be HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=_CONNECT_TIMEOUT_S):
            pass
    except OSError as error:
        raise RayUnavailableError(f"cannot reach the Ray cluster at {address}: {error.strerror or error}") from None


def connect(workers: int, address: str | None = None) -> Callable[[], None]:
    """Start (or join) Ray; returns the function that leaves it again (a no-op when Ray was already running)."""
    ray = _ray()
    if address:
        _check_reachable(address)
    if ray.is_initialized():
        return lambda: None
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    return ray.shutdown


def ray_map_ordered(function: Callable[[Any], Any], arguments: list[Any], *, workers: int) -> Iterator[Any]:
    """``function`` applied to each argument as Ray tasks, results yielded in the arguments' order, with at most
    ``4 × workers`` tasks in flight (Ray must be connected). Closing the iteration early cancels the tasks still
    in flight and waits (up to a minute) until they have stopped."""
    ray = _ray()
    remote = ray.remote(function)
    pending: deque[Any] = deque()
    window = max(1, workers) * _IN_FLIGHT_PER_WORKER
    try:
        for argument in arguments:
            pending.append(remote.remote(argument))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:  # stopped early (an error, or the caller closed the iteration): no task outlives it
        for reference in pending:
            ray.cancel(reference)
        if pending:
            ray.wait(list(pending), num_returns=len(pending), timeout=_CANCEL_WAIT_S)
