"""AI players by name: ``random``, ``greedy``, ``greedy-blind`` (objectives ignored),
``search`` (``--ai SIDE=PLAYER``).

A player is made fresh for each game from its name and a seed, so a game's
result depends only on its seed (docs/ai.md).

Each player's module is imported when a player is made, not when this one
is: ``wasteland --help`` lists the names without loading the engine and its
compiled kernels (issue 30, quick start-up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sim.errors import UsageError

if TYPE_CHECKING:
    from sim.ai.player import Player


def _random(seed: int, seconds: float | None) -> Player:
    from sim.ai.random import RandomPlayer

    return RandomPlayer(seed)


def _greedy(seed: int, seconds: float | None) -> Player:
    from sim.ai.greedy import GreedyPlayer

    return GreedyPlayer(seed)


def _greedy_blind(seed: int, seconds: float | None) -> Player:
    """Greedy that ignores the scenario's objectives: the measure's opponent (docs/ai.md)."""
    from sim.ai.greedy import GreedyPlayer

    player = GreedyPlayer(seed, objectives=False)
    player.name = "greedy-blind"
    return player


def _search(seed: int, seconds: float | None) -> Player:
    """Search, with a time budget per decision when given (the window's solo play)."""
    from sim.ai.search import SearchPlayer

    return SearchPlayer(seed) if seconds is None else SearchPlayer(seed, seconds=seconds)


#: Player name -> its maker (seed, time budget per decision or None).
PLAYERS: dict[str, Callable[[int, float | None], Player]] = {
    "random": _random,
    "greedy": _greedy,
    "greedy-blind": _greedy_blind,
    "search": _search,
}

DEFAULT = "greedy"


def make_player(name: str, seed: int = 0, seconds: float | None = None) -> Player:
    """A new player called ``name``; UsageError naming the known players otherwise.

    ``seconds``: a time budget per decision for search (the window's solo play);
    the quick players (random, greedy) have none."""
    maker = PLAYERS.get(name)
    if maker is None:
        raise UsageError(f"unknown AI player {name!r}; known players: {', '.join(PLAYERS)}")
    return maker(seed, seconds)
