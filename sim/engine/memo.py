"""Answers derived from the models' current states, held by the game state
(:attr:`sim.engine.state.GameState.memo`): the one owner of the per-position caches.

What a moving model meets at a height, say, depends on where every model
stands; the state drops every answer whenever a model changes (a write through
the engine) or an action is taken back, so an answer is never stale and nothing
is keyed by ``id()``. Turn writes keep it: no answer depends on the turn. The
state drops its memo by taking a new one, never by emptying it, so a memo lent to
other states of the same position (the search's playouts, sim.ai.seen) stays whole.

Examples
--------
>>> memo = Memo()
>>> memo.get(("double", 2), lambda: 2 * 2), memo.get(("double", 2), lambda: 0)
(4, 4)
>>> memo.clear(); memo.get(("double", 2), lambda: 0)
0
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

T = TypeVar("T")


class Memo:
    """Answers by key, built on first use and dropped together by :meth:`clear`."""

    def __init__(self) -> None:
        self._answers: dict[Hashable, Any] = {}

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The answer for ``key``, built by ``build`` if there is none yet."""
        if key not in self._answers:
            self._answers[key] = build()
        return cast(T, self._answers[key])

    def put(self, key: Hashable, answer: object) -> None:
        """Keep ``answer`` for ``key`` (worked out in bulk by the caller)."""
        self._answers[key] = answer

    def peek(self, key: Hashable) -> Any:
        """The answer for ``key`` if it is built, else None (nothing built)."""
        return self._answers.get(key)

    def has(self, key: Hashable) -> bool:
        """Whether the answer for ``key`` is built."""
        return key in self._answers

    def clear(self) -> None:
        self._answers.clear()

    def update(self, other: Memo) -> None:
        """Take every answer ``other`` holds (both must be for the same models' states)."""
        self._answers.update(other._answers)

    def __len__(self) -> int:
        return len(self._answers)
