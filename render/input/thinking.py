"""An AI decision worked out off the frame loop (solo play, issue 18, docs/ai.md).

A :class:`Thought` asks a player to decide in a daemon thread, on a copy of
the game made on the window's thread (``state.copy()``): the window keeps
drawing the live state, and undo keeps changing it, while the player thinks.
The decision is for the position it was asked about only: :meth:`Thought.fits`
says whether the live state is still that one (the same game, the same
history), so a decision overtaken by an undo is dropped, never applied.

The thread is a daemon: closing the window while a player thinks does not
wait for it (the player's copy is all it touches, and nothing is saved from it).
Besides the copy it shares the scenario with the window, and so its prepared
per-board caches: read-through caches of immutable answers, where a race at
worst builds one answer twice.
"""

from __future__ import annotations

import threading

from sim.ai.player import Decision, Player
from sim.engine.actions import Action
from sim.engine.state import GameState


class Thought:
    """One decision being worked out in a daemon thread, on a copy of ``state``."""

    def __init__(self, player: Player, state: GameState) -> None:
        self.player = player
        self.side = state.acting
        self._asked = state  # the live state asked about (compared by identity)
        self._history: tuple[Action, ...] = state.history
        self._copy = state.copy()  # on this thread: the live state is never read there
        self._decision: Decision | None = None
        self._error: Exception | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ai-{self.side}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._decision = self.player.decide(self._copy)
        except Exception as exc:  # a player's bug: raised again on the window's thread
            self._error = exc
        finally:
            self._done.set()

    @property
    def done(self) -> bool:
        """Whether the player has decided (or failed)."""
        return self._done.is_set()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the decision; whether it is done."""
        return self._done.wait(timeout)

    def fits(self, state: GameState) -> bool:
        """Whether ``state`` is still the position asked about: the same game, and the
        same history (an undo, or an undo and other actions since, make it another)."""
        return state is self._asked and state.history == self._history

    def decision(self) -> Decision:
        """The decision, once done; the player's own error if it failed."""
        if self._error is not None:
            raise self._error
        assert self._decision is not None, "decision() asked before the player was done"
        return self._decision
