"""The search player's answers by position (sim.ai.seen): shared by copies of one
position, never by two positions (docs/ai.md; the answers must be those of a fresh
computation, so that search's decisions stay a function of the seed, R-DICE-1)."""

from __future__ import annotations

from sim.ai.seen import Seen
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS


def _state() -> GameState:
    return new_game(load_scenario(SCENARIOS / "skirmish.toml"), seed=3)


def test_a_copy_of_a_position_gets_the_answer_worked_out_for_the_original() -> None:
    state, seen = _state(), Seen()
    built: list[str] = []

    def build(answer: str) -> str:
        built.append(answer)
        return answer

    assert seen.get(state, "q", lambda: build("first")) == "first"
    assert seen.get(state.copy(), "q", lambda: build("again")) == "first"
    assert built == ["first"]


def test_another_position_or_question_is_worked_out_afresh() -> None:
    state, seen = _state(), Seen()
    seen.get(state, "q", lambda: "before")
    assert seen.get(state, "other", lambda: "other") == "other"
    state.apply(next(iter(state.legal_actions())))  # the turn moves on
    assert state.phase is not Phase.CHOOSE_FIRST
    assert seen.get(state, "q", lambda: "after") == "after"


def test_another_scenario_starts_afresh_and_the_answers_are_bounded() -> None:
    seen = Seen(limit=2)
    seen.get(_state(), "q", lambda: "a")
    assert seen.get(_state(), "q", lambda: "b") == "b"  # a new scenario object
    state = _state()
    for k in range(5):
        seen.get(state, k, lambda: k)  # noqa: B023 (called at once)
    assert len(seen) == 2


def test_a_copy_met_in_a_seen_position_checks_no_move_twice() -> None:
    """The playouts apply the action found on a position's first visit: the movement
    plan that checked it there (R-MOV-1) is lent to the copy, not worked out again,
    and a move on one state never empties the answers lent to another."""
    state, seen = _state(), Seen()
    while state.phase is not Phase.ACTIVATION:
        state.apply(next(iter(state.legal_actions())))
    move = next(a for a in state.legal_actions() if a.keyword == "move")
    seen.get(state, "q", lambda: move)
    assert state.is_legal(move)  # plans the move into the first visit's memo
    worked = len(state.memo)
    again = state.copy()
    assert len(again.memo) == 0
    seen.get(again, "q", lambda: move)
    assert again.memo is state.memo and len(again.memo) == worked
    again.apply(move)  # the model moves: the copy takes a memo of its own
    assert again.memo is not state.memo and len(state.memo) == worked
