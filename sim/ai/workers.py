"""Local worker processes for a batch (``simulate --jobs J``) that lose nothing (issue 31).

Each worker is a process of its own with a pipe to this one; it is handed one task at a
time, so the parent always knows which task a worker holds. A worker that dies (killed,
out of memory, a crash in compiled code) is replaced and its task handed out again, first:
results are placed by task index, so a batch gives what one process gives. A task whose
worker dies :data:`MAX_TRIES` times is given up: :class:`WorkersGaveUp` says which, and
what finished.

The workers die with their parent: on Linux the kernel kills a worker when the parent
dies (``prctl(PR_SET_PDEATHSIG)``), and everywhere a thread in the worker ends it once its
parent is gone (its parent process id changes). They ignore Ctrl+C, which the terminal
sends to the whole process group: the parent stops them at once instead of waiting for
the tasks they hold (a Ctrl+C stops the batch within a second).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from sim.errors import WastelandError

T = TypeVar("T")
R = TypeVar("R")

MAX_TRIES = 3  # a task whose worker died this many times is given up
PARENT_POLL_S = 0.5  # how often a worker looks for its parent, where the kernel cannot
STOP_S = 1.0  # how long a worker asked to stop may take before it is killed
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class WorkersGaveUp(WastelandError):
    """A task killed its worker :data:`MAX_TRIES` times; the tasks that finished before."""

    def __init__(self, task: int, how: str, finished: Sequence[int]) -> None:
        self.task, self.how, self.finished = task, how, tuple(finished)
        super().__init__(f"task {task}: its worker died {MAX_TRIES} times ({how})")


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: int | None = None


@dataclass
class _Batch(Generic[T, R]):
    """The tasks, what came back, and what is left to hand out."""

    todo: Sequence[T]
    results: list[R | None] = field(init=False)
    left: deque[int] = field(init=False)
    tries: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.results = [None] * len(self.todo)
        self.left = deque(range(len(self.todo)))
        self.tries = [0] * len(self.todo)

    def finished(self) -> list[int]:
        return [i for i, r in enumerate(self.results) if r is not None]


def run_on_processes(todo: Sequence[T], jobs: int, work: Callable[[T], R],
                     done: Callable[[int, R], None] | None = None,
                     died: Callable[[str], None] | None = None) -> list[R]:
    """``work(task)`` for every task on up to ``jobs`` processes: the results in task order.

    ``done(index, result)`` after each task; ``died(words)`` when a worker died and its task
    is handed out again. An exception raised by ``work`` is raised here.

    Raises
    ------
    WorkersGaveUp
        A task killed its worker :data:`MAX_TRIES` times.
    """
    batch: _Batch[T, R] = _Batch(todo)
    workers: list[_Worker] = []
    context = multiprocessing.get_context()
    try:
        while batch.left or any(w.task is not None for w in workers):
            _hand_out(batch, workers, jobs, context, work)
            for w in _ready(workers):
                _collect(batch, workers, w, done, died)
        _stop(workers, gently=True)
    finally:
        _stop(workers, gently=False)  # an error, Ctrl+C: at once
    return [r for r in batch.results if r is not None]


def _hand_out(batch: _Batch[T, R], workers: list[_Worker], jobs: int, context: Any,
              work: Callable[[T], R]) -> None:
    busy = sum(w.task is not None for w in workers)
    while len(workers) < jobs and len(workers) < busy + len(batch.left):
        workers.append(_start(context, work))
    for w in workers:
        if w.task is None and batch.left:
            w.task = batch.left.popleft()
            w.conn.send(batch.todo[w.task])


def _ready(workers: list[_Worker]) -> list[_Worker]:
    """The busy workers with an answer, or dead."""
    busy = [w for w in workers if w.task is not None]
    waiting: dict[Any, _Worker] = {}
    for w in busy:
        waiting[w.conn] = w
        waiting[w.process.sentinel] = w
    ready = {waiting[r].process.pid for r in wait(list(waiting), timeout=PARENT_POLL_S)}
    return [w for w in busy if w.process.pid in ready]


def _collect(batch: _Batch[T, R], workers: list[_Worker], w: _Worker,
             done: Callable[[int, R], None] | None, died: Callable[[str], None] | None) -> None:
    task = w.task
    assert task is not None  # only busy workers are waited for
    try:
        reply: tuple[str, Any] = w.conn.recv() if w.conn.poll() else ("dead", None)
    except (EOFError, OSError):
        reply = ("dead", None)
    status, value = reply
    if status == "ok":
        w.task = None
        batch.results[task] = value
        if done is not None:
            done(task, value)
        return
    if status == "error" and isinstance(value, BaseException):
        raise value
    workers.remove(w)  # dead: its task goes first to the next worker
    how = _death(w)
    batch.tries[task] += 1
    if batch.tries[task] >= MAX_TRIES:
        raise WorkersGaveUp(task, how, batch.finished())
    batch.left.appendleft(task)
    if died is not None:
        died(how)


def _death(w: _Worker) -> str:
    """How a worker died, in words."""
    w.process.join(STOP_S)
    w.conn.close()
    code = w.process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _start(context: Any, work: Callable[[T], R]) -> _Worker:
    mine, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(theirs, os.getpid(), work), daemon=True)
    with _ctrl_c_held():  # the worker is born deaf to Ctrl+C, not after a first instant
        process.start()
    theirs.close()
    return _Worker(process, mine)


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile (a child inherits the mask; one that came
    meanwhile is delivered here after)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _stop(workers: list[_Worker], gently: bool) -> None:
    """End every worker: asked to (``gently``), or killed."""
    for w in workers:
        if w.process.is_alive():
            if gently:
                try:
                    w.conn.send(None)
                except OSError:
                    w.process.kill()
            else:
                w.process.kill()
    deadline = time.monotonic() + STOP_S
    for w in workers:
        w.process.join(max(0.0, deadline - time.monotonic()))
        if w.process.is_alive():
            w.process.kill()
            w.process.join(STOP_S)
        w.conn.close()
    workers.clear()


# --- in the worker -------------------------------------------------------------------------

def _serve(conn: Connection, parent: int, work: Callable[[Any], Any]) -> None:
    """A worker's life: tasks in, results out, until told to stop or its parent is gone."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl+C and ends us
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", work(task))
        except Exception as exc:  # raised again in the parent
            reply = ("error", exc)
        conn.send(_portable(reply))


def _portable(reply: tuple[str, Any]) -> tuple[str, Any]:
    """``reply`` as it can be sent: an exception that does not pickle, as its words."""
    try:
        pickle.dumps(reply)
    except Exception:  # pickling raises all kinds
        value = reply[1]
        return reply[0], RuntimeError(f"{type(value).__name__}: {value}")
    return reply


def die_with_parent(parent: int) -> None:
    """End this process when process ``parent`` ends: by the kernel on Linux, and by a
    watching thread everywhere (which also covers a parent gone before this ran)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the thread below does it
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="parent-watch").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)
