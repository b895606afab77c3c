"""AI players by name: ``random``, ``greedy``, ``search`` (``--ai SIDE=PLAYER``).

A player is made fresh for each game from its name and a seed, so a game's
result depends only on its seed (docs/ai.md).
"""

from __future__ import annotations

from collections.abc import Callable

from sim.ai.greedy import GreedyPlayer
from sim.ai.player import Player
from sim.ai.random import RandomPlayer
from sim.ai.search import SearchPlayer
from sim.errors import UsageError

PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "search": SearchPlayer,
}

DEFAULT = "greedy"


def make_player(name: str, seed: int = 0, seconds: float | None = None) -> Player:
    """A new player called ``name``; UsageError naming the known players otherwise.

    ``seconds``: a time budget per decision for search (the window's solo play);
    the quick players (random, greedy) have none."""
    factory = PLAYERS.get(name)
    if factory is None:
        raise UsageError(f"unknown AI player {name!r}; known players: {', '.join(PLAYERS)}")
    if seconds is not None and factory is SearchPlayer:
        return SearchPlayer(seed, seconds=seconds)
    return factory(seed)
