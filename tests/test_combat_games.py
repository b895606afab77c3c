"""Whole games with shooting and close combat (issue 7; R-TURN-10, R-DMG-1, R-ALL-1).

Seeded random playouts on the combat arena in both rule sets, with a policy
that prefers attacks when one is listed, so models really shoot, charge,
fight and die. Every game must end, with a side wiped out (a winner) or
after the last round; at every step the listed actions are legal and
round-trip through text, undo then redo gives an equal state; a save then a
load gives an equal state.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from sim.engine.actions import Action
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.game.kinds import new_game, parse_action
from sim.game.save import load_game, save_game
from tests.combat_util import scenario

ATTACKS = ("shoot", "close-combat", "charge")
MAX_STEPS = 2000


def pick(policy: SeededRng, actions: list[Action]) -> Action:
    """A random listed action; an attack three times in four when one is listed."""
    attacks = [a for a in actions if a.keyword in ATTACKS]
    if attacks and policy.randint(1, 4) > 1:
        return policy.choice(attacks)
    return policy.choice(actions)


def playout(state: GameState, policy_seed: int, undo_every: int) -> Counter[str]:
    policy = SeededRng(policy_seed)
    seen: Counter[str] = Counter()
    for step in range(MAX_STEPS):
        if state.is_over:
            break
        actions = list(state.legal_actions())
        assert actions, f"nothing listed in phase {state.phase}"
        action = pick(policy, actions)
        assert action in state.legal_actions()
        assert parse_action(str(action)) == action
        before = state.copy() if step % undo_every == 0 else None
        n = len(state.events)
        state.apply(action)
        seen[action.keyword] += 1
        seen.update(e.kind for e in state.events[n:])
        if before is not None:
            after = state.copy()
            assert state.undo() == action and state == before
            state.apply(action)
            assert state == after
    assert state.is_over, f"no end after {MAX_STEPS} steps"
    return seen


@pytest.mark.parametrize("rules", ["rulebook", "vts-1.5"])
def test_random_games_with_combat_end_and_round_trip(rules: str, tmp_path: Path) -> None:
    arena = scenario("combat-arena")
    arena = arena if rules == "rulebook" else replace(arena, rules="vts-1.5")
    seen: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    # Six games with the scenario's 4 rounds, three long ones (25 rounds) that
    # are fought to the end.
    for game in range(9):
        rounds = None if game < 6 else 25
        state = new_game(arena, seed=1000 + game, rounds=rounds)
        seen += playout(state, 17 * game + 3, undo_every=1 if game in (0, 6) else 5)
        result = state.result
        assert result is not None
        wiped = [s for s in state.sides if not state.side_models(s)]
        if wiped:
            assert result.winner == state.opponent(wiped[0])
            assert "no models in play" in result.reason
            endings["wiped out"] += 1
        else:
            assert state.rounds is not None and state.round == state.rounds
            assert "last round" in result.reason
            endings["last round"] += 1
        if rules == "rulebook":  # the save points at the scenario file
            save = tmp_path / f"game-{game}.json"
            save_game(state, save)
            assert load_game(save) == state
    # Combat really happened: shots, close combat, hits, misses and eliminations,
    # and games ended both ways.
    for kind in ("shoot", "close-combat", "charge", "hit", "missed", "damage", "removed"):
        assert seen[kind] > 0, (kind, seen)
    assert endings["wiped out"] > 0 and endings["last round"] > 0, endings
