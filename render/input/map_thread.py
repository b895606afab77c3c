"""Every F5 map worked out off the frame loop (issue 34, bug 1; docs/window.md).

A threat map plans a shot per cell and takes seconds. Planned a few
milliseconds per frame it took twice as long as from the command line and,
since the window redraws only on a change, could sit at "computing" until the
pointer moved; a seen map, made at once, held one frame for 0.1-0.5 s.
:class:`MapThread` makes a :class:`~sim.maps.visibility.MapWork` and works it
to its end in a daemon thread (as an AI decision is, render.input.thinking)
and publishes the map so far after each chunk: the window draws it as it
fills in, and :attr:`MapThread.shown` changes with each chunk, so the view's
key changes and the frame is redrawn whatever the pointer is over.

Only the thread touches the work while it runs; the window reads
:attr:`MapThread.partial` (a new, finished value each time, assigned whole) and
:attr:`MapThread.progress`. The work reads the scenario's prepared caches, as
a thinking AI does (read-through caches of immutable answers). A map no longer
wanted (a model moved, the map turned off) is cancelled: the thread stops
after its chunk and its map is dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sim.maps.visibility import Map, MapWork

CHUNK_S = 0.2  # seconds of work between two pictures of the map so far


class MapThread:
    """The work ``make`` returns, made and done in a daemon thread; the map so far
    after each chunk (a seen or sees map is whole after the first)."""

    def __init__(self, make: Callable[[], MapWork]) -> None:
        self._make = make
        self.work: MapWork | None = None  # made by the thread
        self.partial: Map | None = None  # the map so far (None before the first chunk)
        self.shown = 0  # chunks published: part of the view's key
        self.error: Exception | None = None
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="map", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            work = self.work = self._make()  # a seen map's sight grids: 0.1-0.5 s
            while not self._cancel.is_set():
                finished = work.step(CHUNK_S) is not None
                self.partial = work.result or work.partial()
                self.shown += 1
                if finished:
                    break
        except Exception as exc:  # a bug in the map: raised again on the window's thread
            self.error = exc
        finally:
            self._done.set()

    @property
    def progress(self) -> float:
        """The part of the work done, 0..1."""
        return 0.0 if self.work is None else self.work.progress

    @property
    def result(self) -> Map | None:
        """The whole map once done (the map's own error if it failed)."""
        if self.error is not None:
            raise self.error
        return self.work.result if self._done.is_set() and self.work is not None else None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: to the end); whether it is done."""
        return self._done.wait(timeout)

    def cancel(self) -> None:
        """Stop after the chunk being worked on; the map is dropped."""
        self._cancel.set()
