"""What an AI player is: a function from a game state to a decision (docs/ai.md).

A :class:`Decision` is a legal action and one line saying why, in display
names ("Super Mutant (mutant-2) moves to crates-1: cover -2 from Knight, ...").
Players never change the state they are given; a player that searches works
on copies (``state.copy()``, ``apply``, ``undo``: the engine's forward model).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from sim.engine.actions import Action
from sim.engine.state import GameState


@dataclass(frozen=True)
class Decision:
    """An action to apply now and why it was chosen (one line, a player's words);
    ``debug``: the player's own figures, for the window's debug view."""

    action: Action
    why: str
    debug: str = ""


class Player(Protocol):
    """An AI player: ``decide`` is called only when the game is not over."""

    name: str

    def decide(self, state: GameState) -> Decision: ...
