"""The one seeded random generator of a game (R-ALL-1).

Every die of a game comes from one generator held in the game state
(:class:`sim.engine.state.GameState`). Its whole state is one integer, so a snapshot
(undo), a state comparison and a save are cheap and exact. The algorithm is
SplitMix64, written out here rather than taken from :mod:`random` so a seed
gives the same dice on every Python version and platform.

Dice code (:mod:`sim.resolution.dice`) needs only :class:`Rng` (``randint``); the engine
also snapshots and restores the generator through :class:`GameRng`
(``getstate``/``setstate``). A scripted test double
(:class:`tests.dice_script.ScriptedRng`) implements the same protocols.

Examples
--------
>>> a, b = SeededRng(7), SeededRng(7)
>>> [a.randint(1, 20) for _ in range(3)] == [b.randint(1, 20) for _ in range(3)]
True
>>> state = a.getstate(); x = a.randint(1, 6); a.setstate(state)
>>> a.randint(1, 6) == x
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng(Protocol):
    """What dice need from a generator: an integer in ``lo..hi``, both included."""

    def randint(self, lo: int, hi: int) -> int: ...


class GameRng(Rng, Protocol):
    """A generator the game state can hold: its state can be read and restored.

    ``getstate`` returns a value that compares with ``==`` and is JSON-able
    (an int for :class:`SeededRng`); ``setstate`` puts it back exactly.
    """

    def getstate(self) -> int: ...

    def setstate(self, state: int) -> None: ...


def choice(rng: Rng, seq: Sequence[T]) -> T:
    """One element of ``seq`` chosen with ``rng.randint`` (works with any :class:`Rng`)."""
    if not seq:
        raise IndexError("cannot choose from an empty sequence")
    return seq[rng.randint(0, len(seq) - 1)]


class SeededRng:
    """SplitMix64: a small, fast, well-mixed 64-bit generator with an int state.

    ``randint`` is unbiased (rejection sampling), so every die face has exactly
    its share of the 2**64 outputs.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def _next(self) -> int:
        self._state = z = (self._state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randint(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi``, both included."""
        n = hi - lo + 1
        if n <= 0:
            raise ValueError(f"empty range {lo}..{hi}")
        limit = ((1 << 64) // n) * n
        while True:
            r = self._next()
            if r < limit:
                return lo + r % n

    def choice(self, seq: Sequence[T]) -> T:
        """One element of ``seq``."""
        return choice(self, seq)

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self._next() >> 11) * (1.0 / (1 << 53))

    def getstate(self) -> int:
        return self._state

    def setstate(self, state: int) -> None:
        self._state = state & _MASK

    def __repr__(self) -> str:
        return f"SeededRng(state={self._state:#018x})"
