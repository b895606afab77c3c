"""Random-playout throughput of the game engine on the default scenario.

Three figures, each for the action kinds the game registers (movement,
combat) and for the engine's own plain move:

- playout: list the legal actions, pick one at random, apply it (checked);
- replay checked: re-apply recorded games with ``apply(action)``;
- replay unchecked: the same with ``apply(action, check=False)`` (the
  baseline; the checked/unchecked ratio is the cost of the legality check).
"""

from __future__ import annotations

import time
from pathlib import Path

from sim.engine.actions import Action
from sim.engine.kinds import KindRegistry
from sim.engine.rng import SeededRng
from sim.game.kinds import GAME_KINDS, new_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.plainmove import PlainMoveKind

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"


def playouts(scenario: Scenario, games: int, rounds: int, kinds: KindRegistry
             ) -> tuple[list[list[Action]], float]:
    """Random games; returns their action lists and the seconds taken."""
    recorded: list[list[Action]] = []
    start = time.perf_counter()
    for g in range(games):
        state = new_game(scenario, seed=g, rounds=rounds, kinds=kinds)
        policy = SeededRng(10_000 + g)
        while not state.is_over:
            state.apply(policy.choice(list(state.legal_actions())))
        recorded.append(list(state.history))
    return recorded, time.perf_counter() - start


def measure(label: str, scenario: Scenario, games: int, rounds: int, kinds: KindRegistry) -> None:
    recorded, t_play = playouts(scenario, games, rounds, kinds)
    n = sum(len(a) for a in recorded)
    best_checked = best_unchecked = float("inf")
    for _ in range(3):  # best of three, alternating, against noise
        best_unchecked = min(best_unchecked, _replay(scenario, recorded, rounds, False, kinds))
        best_checked = min(best_checked, _replay(scenario, recorded, rounds, True, kinds))
    print(f"{label}: {games} games, {n} actions")
    print(f"  playout (list + pick + apply): {n / t_play:10.0f} actions/s")
    print(f"  replay, checked:               {n / best_checked:10.0f} actions/s")
    print(f"  replay, unchecked (baseline):  {n / best_unchecked:10.0f} actions/s")
    print(f"  legality check cost: checked takes {best_checked / best_unchecked:.2f}x "
          "the unchecked time")


def _replay(scenario: Scenario, games: list[list[Action]], rounds: int, check: bool,
            kinds: KindRegistry) -> float:
    start = time.perf_counter()
    for g, actions in enumerate(games):
        state = new_game(scenario, seed=g, rounds=rounds, kinds=kinds)
        for action in actions:
            state.apply(action, check=check)
    return time.perf_counter() - start


def run() -> None:
    scenario = load_scenario(SCENARIO)
    print(f"scenario {SCENARIO.name}: {len(scenario.models)} models; "
          f"registered kinds: {', '.join(sorted(GAME_KINDS))}")
    measure("registered kinds", scenario, games=6, rounds=1, kinds=GAME_KINDS)
    measure("engine plain move", scenario, games=100, rounds=2,
            kinds=KindRegistry((PlainMoveKind(),)))


if __name__ == "__main__":
    run()
