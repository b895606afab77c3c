"""Random playouts on the climbing, jumping, landing and push-at-height scenarios
(R-CLIMB-*, R-JUMP-1, R-FALL-*, R-EDGE-3, R-ALL-1): every listed action is legal,
undo restores the state exactly (dice included), and replaying the actions from
the seed gives the same game."""

from __future__ import annotations

import random

import pytest

from sim.game.kinds import new_game
from tests.movement_util import RULE_SETS, scenario


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("name", ["move-climb", "move-jump", "seed-fall", "move-landing",
                                  "move-push-height"])
def test_random_games_climb_undo_and_replay(name: str, rules: str) -> None:
    vertical = 0
    fell = 0
    for seed in range(6):
        pick = random.Random(seed)
        state = new_game(scenario(name, rules), seed=seed, rounds=2)
        for _ in range(60):
            if state.is_over:
                break
            listed = list(state.legal_actions())
            # Prefer movement so the models actually climb and jump.
            moves = [a for a in listed if a.keyword == "move"]
            action = pick.choice(moves if moves and pick.random() < 0.8 else listed)
            before = state.to_dict()
            state.apply(action)
            after = state.to_dict()
            state.undo()
            assert state.to_dict() == before, str(action)
            state.apply(action)
            assert state.to_dict() == after, str(action)
            vertical += " climb " in str(action) or " jump " in str(action)
        fell += sum(e.kind == "landed" for e in state.events)
        replay = new_game(scenario(name, rules), seed=seed, rounds=2)
        for action in state.history:
            replay.apply(action)
        assert replay.to_dict() == state.to_dict()
    if name != "move-push-height" and (rules == "rulebook" or name == "move-climb"):
        # (vts-1.5 has no jumps, and its climbs down from these roofs are too long.)
        assert vertical > 0
    if name == "move-push-height":
        assert fell > 0  # pushes over the edges of the tops
