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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sim.engine.actions
from sim.engine.actions import Action, ActionKind, action_kinds
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.plainmove import PlainMoveKind

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"


@contextmanager
def kinds(table: Mapping[str, ActionKind[Any]]) -> Iterator[None]:
    """Use ``table`` as the action kinds for a while."""
    saved = sim.engine.actions._kinds
    sim.engine.actions._kinds = dict(table)
    try:
        yield
    finally:
        sim.engine.actions._kinds = saved


def playouts(scenario: Scenario, games: int, rounds: int) -> tuple[list[list[Action]], float]:
    """Random games; returns their action lists and the seconds taken."""
    recorded: list[list[Action]] = []
    start = time.perf_counter()
    for g in range(games):
        state = GameState(scenario, seed=g, rounds=rounds)
        policy = SeededRng(10_000 + g)
        while not state.is_over:
            state.apply(policy.choice(list(state.legal_actions())))
        recorded.append(list(state.history))
    return recorded, time.perf_counter() - start


def measure(label: str, scenario: Scenario, games: int, rounds: int) -> None:
    recorded, t_play = playouts(scenario, games, rounds)
    n = sum(len(a) for a in recorded)
    best_checked = best_unchecked = float("inf")
    for _ in range(3):  # best of three, alternating, against noise
        best_unchecked = min(best_unchecked, _replay(scenario, recorded, rounds, False))
        best_checked = min(best_checked, _replay(scenario, recorded, rounds, True))
    print(f"{label}: {games} games, {n} actions")
    print(f"  playout (list + pick + apply): {n / t_play:10.0f} actions/s")
    print(f"  replay, checked:               {n / best_checked:10.0f} actions/s")
    print(f"  replay, unchecked (baseline):  {n / best_unchecked:10.0f} actions/s")
    print(f"  legality check cost: checked takes {best_checked / best_unchecked:.2f}x "
          "the unchecked time")


def _replay(scenario: Scenario, games: list[list[Action]], rounds: int, check: bool) -> float:
    start = time.perf_counter()
    for g, actions in enumerate(games):
        state = GameState(scenario, seed=g, rounds=rounds)
        for action in actions:
            state.apply(action, check=check)
    return time.perf_counter() - start


def run() -> None:
    scenario = load_scenario(SCENARIO)
    registered = dict(action_kinds())
    print(f"scenario {SCENARIO.name}: {len(scenario.models)} models; "
          f"registered kinds: {', '.join(sorted(registered))}")
    measure("registered kinds", scenario, games=6, rounds=1)
    with kinds({"move": PlainMoveKind()}):
        measure("engine plain move", scenario, games=100, rounds=2)


if __name__ == "__main__":
    run()
