"""Issue 37: what the search player weighs (sim.ai.leaf, sim.ai.search).

A player looks at each of its own models and asks what could hit it (its
*exposure*), not only at what each enemy would pick; and a playout plays the
opponent's next DEPTH turns, counted as the rules count turns (R-TURN-4, R-TURN-8),
not as changes of the side to act; and a model hemmed in by difficult ground
still has moves across it (R-MOV-1).

Boards of tests/test_ai_silly.py: Settler Riflemen (hunting rifle), Mutant Hounds,
a Behemoth (close combat only).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.ai.leaf import threats
from sim.ai.registry import make_player
from sim.ai.scoring import Scorer
from sim.ai.search import DEPTH, SearchPlayer, Weights
from sim.combat.situation import Situation
from sim.engine.actions import Action
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from tests.test_ai_silly import _game, _model, _two_hounds


def test_exposure_counts_every_model_an_enemy_can_shoot(tmp_path: Path) -> None:
    """One Rifleman sees two hounds in the open (R-LOS-1): its firepower is its one
    best shot, but both hounds are exposed to it, and the hounds' exposure counts
    each one's worst shot taken: a second hound in sight is not free."""
    state = _game(tmp_path, _model("rifle", "settler_rifle", "settlers", 15, 3)
                  + _model("hound-1", "mutant_hound", "mutants", 12, 15)
                  + _model("hound-2", "mutant_hound", "mutants", 18, 15), seed=3)
    scorer = Scorer()
    sit = Situation.of_state(state)
    shots = [scorer.best_shot(sit, "rifle", h) for h in ("hound-1", "hound-2")]
    values = [s.value for s in shots if s is not None]
    assert len(values) == 2 and min(values) > 0.0
    rifle = threats(state, scorer, "settlers")
    assert rifle.firepower == pytest.approx(max(values))
    assert rifle.exposure == pytest.approx(sum(values))


def test_a_playout_ends_after_the_opponents_next_turns_across_a_round(
        tmp_path: Path) -> None:
    """R-TURN-8 and R-TURN-3: when the Mutants' models are all Used the Settlers take
    the round's last turns, and may take the next round's first too, so a side can
    take turns in a row. A playout still ends after the opponent's next DEPTH turns
    (each begun by readying a model, R-TURN-4), at this player's own next choice;
    counting changes of the side to act instead let playouts run on for rounds."""
    state = _two_hounds(tmp_path)  # hound 2 acts last of the Mutants this round
    readied: list[list[str]] = []

    class Counting(SearchPlayer):
        def _playout(self, state: GameState, actions: tuple[Action, ...], seed: int,
                     weights: Weights, target: str | None = None) -> tuple[float, bool]:
            readied.append([])
            return super()._playout(state, actions, seed, weights, target)

        def _policy(self, sim: GameState) -> Action:
            if sim.phase is Phase.READY:
                assert sim.acting is not None
                readied[-1].append(sim.acting)
            return super()._policy(sim)

    Counting(1).decide(state)
    assert readied
    for sides in readied:
        assert sides.count("settlers") <= DEPTH, sides


def test_search_walks_a_model_across_difficult_ground_toward_the_enemy(
        tmp_path: Path) -> None:
    """R-MOV-1: a move may cross difficult ground on the shorter ruler. Water runs
    across the board between the Behemoth and the Settler; the reachable area's
    points avoid it, so greedy only walks to its edge. Found in a mutant game (seed
    20002): the Behemoth, between a dense forest and shallow water, walked back and
    forth beside them for four rounds and never charged. Search weighs straight
    walks too and crosses the water toward the Settler, out of its pistol's reach."""
    water = ('[[terrain]]\nid = "water"\npolygon = [[0, 20], [30, 20], [30, 23], [0, 23]]\n'
             'movement = "difficult"\n')
    state = _game(tmp_path, water + _model("settler", "settler", "settlers", 15, 3)
                  + _model("behemoth", "behemoth", "mutants", 15, 25.5), seed=3)
    greedy = make_player("greedy", 1)
    while state.phase is not Phase.ACTIVATION:  # the Mutants, fewer, take the first turn
        state.apply(greedy.decide(state).action)
    ends = {}
    for name in ("greedy", "search"):
        sim = state.copy()
        player = make_player(name, 1)
        while sim.activation is not None and sim.activation.model == "behemoth":
            sim.apply(player.decide(sim).action)
        ends[name] = sim.model("behemoth").position.y
    assert ends["greedy"] > 20.0  # on the water's far side still (the gap it leaves)
    assert ends["search"] < 20.0  # across it, nearer the Settler
