"""Random playouts on the default scenario (OpenSpiel style), R-TURN-1..10, R-ALL-1.

Hundreds of seeded games with random legal actions, checking at every step
that listed actions are legal and round-trip through text, that undo then
redo gives an equal state, and over each game that it ends, that no model
is activated twice in a round, that no round ends with an Unready model and
that save then load gives an equal state.

The many games use the engine's own kinds (the plain move, fast); a few
games use the kinds the game really registers (movement, combat), so the
engine and its plug-ins are checked together.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from sim.engine.gamedata import Readiness
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.game.kinds import new_game, parse_action
from sim.game.save import load_game, save_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.conftest import SCENARIOS
from tests.engine_util import engine_kinds

__all__ = ["engine_kinds"]  # the fixture, used through usefixtures

GAMES = 200
ROUNDS = 2
MAX_STEPS = 3000  # far above any 2-round game; reaching it means the game never ends


@cache
def skirmish() -> Scenario:
    return load_scenario(SCENARIOS / "skirmish.toml")


def playout(state: GameState, policy_seed: int, *, undo_every: int = 1) -> GameState:
    """Play random listed actions to the end, checking every step."""
    policy = SeededRng(policy_seed)
    activated: Counter[tuple[int, str]] = Counter()
    for step in range(MAX_STEPS):
        if state.is_over:
            break
        actions = list(state.legal_actions())
        assert actions, f"no legal action listed in phase {state.phase}"
        action = policy.choice(actions)
        assert action in state.legal_actions()
        assert parse_action(str(action)) == action
        before = state.copy()
        n_events = len(state.events)
        state.apply(action)
        if step % undo_every == 0:
            after = state.copy()
            assert state.undo() == action
            assert state == before
            state.apply(action)
            assert state == after
        for event in state.events[n_events:]:
            if event.kind == "activated":
                activated[(event.round, event.models[0])] += 1
            if event.kind == "round-ended":
                # R-TURN-8: a round ends only when every model has been used:
                # just before the last action no model still in play was Unready...
                assert all(m.readiness is not Readiness.UNREADY
                           for m in before.models.values()
                           if state.model(m.id).in_play and m.side in before.sides)
                # ...and after it every one of them is Used.
                assert set(event.data["readiness"].values()) == {"used"}
    assert state.is_over, f"the game did not end in {MAX_STEPS} steps"
    twice = [key for key, n in activated.items() if n > 1]
    assert not twice, f"activated twice in a round: {twice}"
    return state


@pytest.mark.usefixtures("engine_kinds")
def test_hundreds_of_random_games_end_and_undo_redo_round_trips(tmp_path: Path) -> None:
    vts = replace(skirmish(), rules="vts-1.5")
    for game in range(GAMES):
        scenario = vts if game % 2 else skirmish()
        state = playout(new_game(scenario, seed=game, rounds=ROUNDS), 7919 * game + 1)
        assert state.result is not None
        assert state.round == ROUNDS  # nobody is removed by plain moves
        if scenario is skirmish() and game % 20 == 0:
            save = tmp_path / f"game-{game}.json"
            save_game(state, save)
            assert load_game(save) == state


@pytest.mark.usefixtures("engine_kinds")
def test_save_then_load_mid_game_is_equal(tmp_path: Path) -> None:
    for game in range(5):
        state = new_game(skirmish(), seed=100 + game, rounds=ROUNDS)
        policy = SeededRng(game)
        for _ in range(20 + 7 * game):
            state.apply(policy.choice(list(state.legal_actions())))
        save = tmp_path / f"mid-{game}.json"
        save_game(state, save)
        loaded = load_game(save)
        assert loaded == state
        assert list(map(str, loaded.legal_actions())) == list(map(str, state.legal_actions()))


def test_random_games_with_the_registered_action_kinds(tmp_path: Path) -> None:
    """The real movement/combat kinds plug into the engine: listed actions are legal,
    round-trip through text, undo/redo and save/load stay exact."""
    for game in range(4):
        state = playout(new_game(skirmish(), seed=500 + game, rounds=1), game,
                        undo_every=3)
        save = tmp_path / f"real-{game}.json"
        save_game(state, save)
        assert load_game(save) == state
