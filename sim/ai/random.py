"""The random player: uniform over the engine's listed legal actions (the baseline).

Its choices come from its own generator (:class:`sim.engine.rng.SeededRng`,
seeded when it is made), never from the game's: the dice stay the game's
alone (R-ALL-1), and a game with a random player replays from its seeds.
"""

from __future__ import annotations

from sim.ai.player import Decision
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.scenario.names import display_names


class RandomPlayer:
    """Any listed legal action, each as likely as the others."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SeededRng(seed)

    def decide(self, state: GameState) -> Decision:
        actions = list(state.legal_actions())
        action = self.rng.choice(actions)
        side = display_names(state.scenario).side(state.acting or "")
        return Decision(action, f"{side} picks {action} at random from {len(actions)} "
                                "listed actions")
