"""AI players (issue 18, docs/ai.md): greedy beats random, search beats greedy, every
decision is a legal action with a one-line reason in display names (R-TURN-10 scores).

The strength test plays whole games of the default scenario (6 rounds); 200 games
each way, and search against greedy (the issue's 60% bar, not met yet: docs/ai.md),
are in tests/test_ai_slow.py (`make slow`).
"""

from __future__ import annotations

from functools import cache

from sim.ai.batch import ScenarioSource, run_games
from sim.ai.match import play_game
from sim.ai.player import Decision
from sim.ai.registry import PLAYERS, make_player
from sim.engine.actions import ModelAction
from sim.engine.gamedata import Phase
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario
from tests.conftest import SCENARIOS

SKIRMISH = ScenarioSource(path=str(SCENARIOS / "skirmish.toml"))
SIDES = ("settlers", "mutants")


@cache
def skirmish() -> Scenario:
    return load_scenario(SCENARIOS / "skirmish.toml")


def _wins(player: str, against: str, side: str, games: int, seed: int) -> int:
    other = SIDES[1] if side == SIDES[0] else SIDES[0]
    records = run_games(SKIRMISH, {side: player, other: against}, seed, games, jobs=2)
    assert len(records) == games
    return sum(1 for r in records if r.winner == side)


def test_greedy_beats_random_in_80_percent_playing_either_side() -> None:
    for side in SIDES:
        wins = _wins("greedy", "random", side, 20, seed=1000)
        assert wins >= 16, f"greedy as {side} won {wins} of 20 against random"


def _random_positions(count: int) -> list[GameState]:
    """Game states reached by random play: every phase, models moved and hurt."""
    out: list[GameState] = []
    for g in range(count):
        state = new_game(skirmish(), seed=300 + g)
        policy = make_player("random", g)
        for _ in range(25 + 11 * g):
            if state.is_over:
                break
            state.apply(policy.decide(state).action)
        if not state.is_over:
            out.append(state)
    return out


def test_every_player_decides_a_legal_action_with_a_reason_anywhere() -> None:
    """The property behind "an AI is never refused an action" (docs/ai.md)."""
    states = _random_positions(8)
    assert any(s.phase is Phase.ACTIVATION for s in states)
    for state in states:
        before = state.to_dict()
        for name in PLAYERS:
            decision = make_player(name, 1).decide(state)
            assert state.to_dict() == before, f"{name} changed the state it was given"
            assert state.why_illegal(decision.action) is None, (name, str(decision.action))
            assert decision.why and "\n" not in decision.why


def test_why_lines_use_display_names() -> None:
    seen: list[tuple[GameState, Decision]] = []

    def watch(state: GameState, decision: Decision) -> None:
        if isinstance(decision.action, ModelAction):
            seen.append((state, decision))

    players = {"settlers": make_player("greedy", 1), "mutants": make_player("greedy", 2)}
    play_game(skirmish(), players, seed=4, rounds=2, watch=watch)
    names = display_names(skirmish())
    assert seen
    for _, d in seen:
        assert isinstance(d.action, ModelAction)
        assert d.why.startswith(names.model(d.action.model)), d.why
    kinds = {d.action.keyword for _, d in seen}
    assert "move" in kinds and "shoot" in kinds, kinds
    shots = [d.why for _, d in seen if d.action.keyword == "shoot"]
    assert all("% to hit" in w and "to eliminate" in w for w in shots)
    moves = [d.why for _, d in seen if d.action.keyword == "move"]
    assert any(" moves to " in w and ("cover" in w or "sees" in w) for w in moves)


def test_search_is_deterministic_with_a_playout_budget() -> None:
    state = next(s for s in _random_positions(8) if s.phase is Phase.ACTIVATION)
    a = make_player("search", 9).decide(state)
    b = make_player("search", 9).decide(state)
    assert a == b


def test_random_player_choices_are_its_own_not_the_dice() -> None:
    """R-ALL-1: the random player draws from its own generator, never the game's."""
    state = new_game(skirmish(), seed=1)
    dice = state.rng.getstate()
    make_player("random", 5).decide(state)
    assert state.rng.getstate() == dice
    picks = [str(make_player("random", s).decide(state).action) for s in range(12)]
    assert len(set(picks)) > 1 and SeededRng(5).getstate() == 5
