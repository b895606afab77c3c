"""The Dask backend of ``simulate`` (``--backend dask --scheduler ADDRESS``, the ``[cluster]``
extra): a ``distributed.Client`` on the scheduler given; Dask reruns the tasks of a worker
that dies (issue 31).

What this adds to the client: one deadline, :data:`CONNECT_S`, covers connecting and the
handshake (a client alone waits forever on a port that accepts and never speaks Dask, the
dashboard's for one); every failure of the cluster or of the connection is one line,
:class:`ClusterError`, naming the scheduler (a task's own error, a bad scenario say, goes
on as it is); and a batch with no worker says it is waiting, then gives up after
:data:`NO_WORKER_S` seconds with what finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sim.ai.workers import WorkersGaveUp
from sim.errors import UsageError, WastelandError

T = TypeVar("T")
R = TypeVar("R")

CONNECT_S = 10.0  # connecting and the handshake, together
NO_WORKER_S = 120.0  # how long a batch waits with no worker before it gives up
POLL_S = 1.0  # how often the batch looks for workers while it waits for results
MAX_WORDS = 200  # an error's words as shown (a garbled answer can be long)


class ClusterError(WastelandError):
    """The Dask scheduler cannot be used, or the cluster failed during the batch."""


def run_on_dask(todo: Sequence[T], scheduler: str, work: Callable[[T], R],
                done: Callable[[int, R], None] | None = None,
                warn: Callable[[str], None] | None = None,
                tally: Callable[[list[int]], str] | None = None) -> list[R]:
    """``work(task)`` for every task on the cluster: the results in task order.

    ``done(index, result)`` after each task, ``warn(words)`` while waiting for a worker,
    ``tally(finished)``: the tasks that finished, in words, for a message.

    Raises
    ------
    UsageError
        dask.distributed is not installed.
    ClusterError
        In one line: no scheduler at the address within :data:`CONNECT_S`, a service that
        is not one, no worker for :data:`NO_WORKER_S`, the cluster lost.
    WorkersGaveUp
        Dask gave up on a task that killed its worker every time it ran.
    """
    lib = _distributed()
    where = f"--scheduler {scheduler}"
    started = time.monotonic()
    _handshake(lib, scheduler, where)
    try:
        client: Any = lib.Client(scheduler,
                                 timeout=max(1.0, CONNECT_S - (time.monotonic() - started)))
    except Exception as exc:  # whatever the client meets: one line
        raise ClusterError(f"{where}: cannot connect: {_words(exc)}") from None
    results: list[R | None] = [None] * len(todo)

    def finished() -> str:
        done_ = [i for i, r in enumerate(results) if r is not None]
        return tally(done_) if tally is not None else f"{len(done_)} of {len(todo)} tasks"

    try:
        _wait_for_a_worker(client, where, warn)
        _gather(lib, client, todo, work, results, where, done, warn, finished)
    except _TaskError as failed:
        raise failed.error from None  # the game code's own error, as the local backend's
    except (WastelandError, KeyboardInterrupt):
        raise
    except Exception as exc:  # the connection, the scheduler: one line
        raise ClusterError(f"{where}: the cluster failed: {_words(exc)}; {finished()} "
                           "finished") from None
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=CONNECT_S)
    return [r for r in results if r is not None]


class _TaskError(Exception):
    """A task raised an error of its own on a worker (not the cluster's doing)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError("--backend dask needs dask.distributed: pip install "
                         "'wasteland-sim[cluster]'") from None
    return distributed  # untyped


def _handshake(lib: Any, scheduler: str, where: str) -> None:
    """Connect and read the scheduler's handshake within :data:`CONNECT_S`, else one line."""
    async def hello() -> None:
        comm = await lib.comm.connect(scheduler, timeout=CONNECT_S)
        await comm.close()

    try:
        asyncio.run(asyncio.wait_for(hello(), CONNECT_S))
    except TimeoutError as exc:
        if not _listening(scheduler):  # nothing listens, or a firewall
            raise ClusterError(f"{where}: cannot reach a Dask scheduler: {_words(exc)}"
                               ) from None
        raise ClusterError(f"{where}: no Dask scheduler answered within {CONNECT_S:g} s "
                           "(something took the connection but did not speak Dask: the "
                           "dashboard's port? a scheduler listens on 8786 by default)"
                           ) from None
    except (OSError, ValueError, TypeError) as exc:
        raise ClusterError(f"{where}: cannot reach a Dask scheduler: {_words(exc)}") from None
    except Exception as exc:  # a garbled answer: MemoryError, a decoding error...
        raise ClusterError(f"{where}: not a Dask scheduler (its answer did not decode: "
                           f"{_words(exc)})") from None


def _listening(scheduler: str) -> bool:
    """Whether something takes a TCP connection at a ``tcp://HOST:PORT`` address (other
    protocols: assumed so)."""
    if not scheduler.startswith("tcp://"):
        return True
    host, _, port = scheduler.removeprefix("tcp://").rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=1.0):
            return True
    except (OSError, ValueError):
        return False


def _workers(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))


def _wait_for_a_worker(client: Any, where: str, warn: Callable[[str], None] | None) -> None:
    if _workers(client):
        return
    if warn is not None:
        warn(f"no Dask worker at {where.split()[-1]} yet; waiting up to {NO_WORKER_S:g} s "
             "for one")
    try:
        client.wait_for_workers(1, timeout=NO_WORKER_S)
    except TimeoutError:
        raise ClusterError(f"{where}: no Dask worker joined within {NO_WORKER_S:g} s; no "
                           "game played") from None


def _gather(lib: Any, client: Any, todo: Sequence[T], work: Callable[[T], R],
            results: list[R | None], where: str, done: Callable[[int, R], None] | None,
            warn: Callable[[str], None] | None, finished: Callable[[], str]) -> None:
    futures = client.map(work, list(todo), pure=False)
    index = {f.key: i for i, f in enumerate(futures)}
    pending = list(futures)
    alone_since: float | None = None
    while pending:
        try:
            ready, left = lib.wait(pending, timeout=POLL_S, return_when="FIRST_COMPLETED")
        except TimeoutError:
            alone_since = _alone(client, alone_since, where, finished, warn)
            continue
        alone_since = None
        for fut in ready:
            if fut.status == "error":
                error = fut.exception()
                if isinstance(error, lib.KilledWorker):
                    raise WorkersGaveUp(index[fut.key], "Dask gave up on it",
                                        [i for i, r in enumerate(results) if r is not None])
                raise _TaskError(error)
            results[index[fut.key]] = part = fut.result()
            if done is not None:
                done(index[fut.key], part)
        pending = list(left)


def _alone(client: Any, since: float | None, where: str, finished: Callable[[], str],
           warn: Callable[[str], None] | None) -> float | None:
    """Waiting for results: when no worker is left, say so, and give up in time."""
    if _workers(client):
        return None
    now = time.monotonic()
    if since is None:
        if warn is not None:
            warn(f"every Dask worker at {where.split()[-1]} is gone; waiting up to "
                 f"{NO_WORKER_S:g} s for one")
        return now
    if now - since > NO_WORKER_S:
        raise ClusterError(f"{where}: no Dask worker for {NO_WORKER_S:g} s; {finished()} "
                           "finished")
    return since


def _words(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 1] + "…"
