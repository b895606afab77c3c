"""Rounds and turns, R-TURN-1..10, in both rule sets (scenarios/seed-activation.toml)."""

from __future__ import annotations

import pytest

from sim.engine.gamedata import Phase
from sim.errors import IllegalActionError
from tests.dice_script import ScriptedRng
from tests.engine_util import (
    MUTANTS,
    SETTLERS,
    engine_kinds,
    listed,
    new_game,
    play,
    readiness,
    variant,
)

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

THREE_EACH = ("settler-4",)  # dropping it leaves 3 settlers against 3 mutants


def events(state, kind):
    return [e for e in state.events if e.kind == kind]


def step_passively(state):
    """One step of a simple policy: holder first, ready the first model, option A."""
    phase = state.phase
    if phase is Phase.CHOOSE_FIRST:
        play(state, f"first {state.acting}")
    elif phase is Phase.READY:
        play(state, listed(state, "ready")[0])
    elif phase is Phase.CHOOSE_OPTION:
        play(state, "option-a")
    elif phase is Phase.ACTIVATE:
        acts = listed(state, "activate")
        play(state, acts[0] if acts else "end-turn")
    else:
        play(state, "end-activation")


def ready_and_activate(state, model):
    """Ready ``model``, choose B unless it is forced, activate it and end at once."""
    play(state, f"ready {model}")
    if state.phase is Phase.CHOOSE_OPTION:
        play(state, "option-b")
    return play(state, f"activate {model}", "end-activation")


def finish_round(state):
    """Play passively until the round ends (or the game)."""
    n = state.round
    while state.round == n and not state.is_over:
        step_passively(state)
    return state


def finish_round_with_option_a(state, first):
    """Choose ``first``, then play the round out passively."""
    return finish_round(play(state, f"first {first}"))


# --- advantage (R-TURN-2, R-TURN-3) ------------------------------------------------

def test_round_one_advantage_goes_to_the_side_with_fewest_models() -> None:
    state = new_game()  # 4 settlers, 3 mutants
    assert state.round == 1 and state.advantage == "mutants"
    assert state.phase is Phase.CHOOSE_FIRST and state.acting == "mutants"
    assert sorted(listed(state)) == ["first mutants", "first settlers"]


def test_the_scenario_can_name_the_round_one_holder() -> None:
    state = new_game(variant(advantage="settlers"))
    assert state.advantage == "settlers" and state.acting == "settlers"


def test_round_one_tie_is_decided_by_the_game_generator() -> None:
    """A tie goes either way, chosen by the seeded generator (R-ALL-1)."""
    three_each = variant(THREE_EACH)
    assert new_game(three_each, rng=ScriptedRng([0])).advantage == "settlers"
    assert new_game(three_each, rng=ScriptedRng([1])).advantage == "mutants"
    holders = {new_game(three_each, seed=s).advantage for s in range(40)}
    assert holders == {"settlers", "mutants"}
    for s in range(10):  # the same seed always gives the same holder
        assert new_game(three_each, seed=s).advantage == new_game(three_each, seed=s).advantage


def test_the_holder_chooses_who_goes_first() -> None:
    for first in ("settlers", "mutants"):
        state = play(new_game(), f"first {first}")
        assert state.acting == first and state.turn.first == first
        assert state.phase is Phase.READY
    with pytest.raises(IllegalActionError, match="unknown side"):
        play(new_game(), "first raiders")


def test_later_round_tie_passes_the_marker_both_ways() -> None:
    """R-TURN-2: on a tie at the start of a later round the holder passes it."""
    state = new_game(variant(THREE_EACH), rng=ScriptedRng([1]))
    assert state.advantage == "mutants"
    finish_round_with_option_a(state, "mutants")
    assert state.round == 2 and state.advantage == "settlers" and state.acting == "settlers"
    passed = events(state, "advantage-passed")[-1]
    assert (passed.data["frm"], passed.data["to"]) == ("mutants", "settlers")
    finish_round_with_option_a(state, "settlers")
    assert state.round == 3 and state.advantage == "mutants"


def test_later_round_advantage_goes_to_fewest_remaining() -> None:
    """R-TURN-2 / R-TURN-10: removed models leave the count."""
    state = play(new_game(), "first mutants", "ready mutant-a", "option-b",
                 "activate mutant-a", "zap mutant-a settler-1 9", "zap mutant-a settler-2 9")
    finish_round(state)
    assert state.round == 2
    assert state.advantage == "settlers"  # 2 settlers left against 3 mutants
    assert not events(state, "advantage-passed")


# --- turns (R-TURN-4..8) -------------------------------------------------------------

def test_option_a_then_a_later_option_b_activates_every_ready_model() -> None:
    state = play(new_game(), "first settlers", "ready settler-1", "option-a")
    assert readiness(state)["settler-1"] == "ready" and state.acting == "mutants"
    play(state, "ready mutant-a", "option-a", "ready settler-2", "option-b")
    assert sorted(listed(state, "activate")) == ["activate settler-1", "activate settler-2"]
    play(state, "activate settler-2", "move settler-2 8.0 6.0", "end-activation")
    assert readiness(state)["settler-2"] == "used"
    assert listed(state, "activate") == ["activate settler-1"]
    play(state, "activate settler-1", "end-activation")
    assert state.acting == "mutants"  # no Ready model left: the turn ended
    assert readiness(state)["settler-1"] == "used"


def test_an_activation_has_two_actions_then_ends() -> None:
    """R-TURN-7 (rules data actions_per_activation) and R-TURN-6."""
    state = play(new_game(), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1")
    assert state.activation is not None and state.activation.actions_left == 2
    play(state, "move settler-1 4.0 5.0")
    assert state.activation.actions_left == 1
    play(state, "move settler-1 4.0 7.0")
    assert state.activation is None and readiness(state)["settler-1"] == "used"
    assert state.acting == "mutants"
    with pytest.raises(IllegalActionError, match="no activation is in progress"):
        play(state, "move settler-1 4.0 9.0")


def test_a_model_that_ended_early_cannot_be_activated_again() -> None:
    """R-TURN-6: Used even with actions left, and never readied again this round."""
    state = play(new_game(), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1", "end-activation")
    assert readiness(state)["settler-1"] == "used"
    play(state, "ready mutant-a", "option-a")
    assert "ready settler-1" not in listed(state)
    with pytest.raises(IllegalActionError, match="Unready"):
        play(state, "ready settler-1")


def test_ending_the_turn_forfeits_the_ready_models() -> None:
    """R-TURN-6: Ready models left unactivated turn Used."""
    state = play(new_game(), "first settlers", "ready settler-1", "option-a",
                 "ready mutant-a", "option-a", "ready settler-2", "option-b",
                 "activate settler-1", "end-activation", "end-turn")
    marks = readiness(state)
    assert marks["settler-1"] == "used" and marks["settler-2"] == "used"
    assert [e.models for e in events(state, "forfeited")] == [("settler-2",)]
    assert state.acting == "mutants"


def test_b_is_forced_when_every_model_has_a_marker() -> None:
    state = play(new_game(), "first mutants", "ready mutant-a", "option-a",
                 "ready settler-1", "option-a", "ready mutant-b", "option-a",
                 "ready settler-2", "option-a", "ready mutant-c")
    assert state.phase is Phase.ACTIVATE  # no option A: straight to activations
    assert sorted(listed(state, "activate")) == [f"activate {m}" for m in MUTANTS]


def test_a_side_with_every_model_used_sits_out() -> None:
    """R-TURN-8: the other side keeps taking turns until its models are Used too."""
    state = play(new_game(), "first mutants")
    for m, s in zip(MUTANTS, SETTLERS, strict=False):  # alternate, one model each
        ready_and_activate(state, m)
        ready_and_activate(state, s)
    assert all(readiness(state)[m] == "used" for m in MUTANTS)
    assert state.acting == "settlers" and state.round == 1
    assert [e.data["side"] for e in events(state, "sits-out")] == ["mutants"]
    play(state, "ready settler-4", "end-turn")  # the last Unready one: B forced
    assert state.round == 2  # that was the last model: the round ended


def test_the_other_side_plays_on_alone() -> None:
    state = play(new_game(), "first mutants", "ready mutant-a", "option-b",
                 "activate mutant-a", "end-activation",
                 "ready settler-1", "option-a",
                 "ready mutant-b", "option-b", "activate mutant-b", "end-activation",
                 "ready settler-2", "option-a",
                 "ready mutant-c", "activate mutant-c", "end-activation")
    # mutants are all Used; settlers keep the turn for every remaining step
    assert state.acting == "settlers"
    play(state, "ready settler-3", "option-a")
    assert state.acting == "settlers"
    assert [e.data["side"] for e in events(state, "sits-out")] == ["mutants"]
    play(state, "ready settler-4")  # the last Unready one: B forced
    assert state.phase is Phase.ACTIVATE
    play(state, "end-turn")
    assert state.round == 2


def test_round_end_removes_every_marker() -> None:
    """R-TURN-1/R-TURN-8: all Used ends the round; the next starts all Unready."""
    state = finish_round_with_option_a(new_game(), "settlers")
    ended = events(state, "round-ended")
    assert len(ended) == 1 and set(ended[0].data["readiness"].values()) == {"used"}
    assert state.round == 2
    assert set(readiness(state).values()) == {"unready"}
    assert state.phase is Phase.CHOOSE_FIRST


def test_no_unready_but_ready_models_means_option_b_without_readying() -> None:
    """R-TURN-5: only Ready models left at turn start: B without readying."""
    state = play(new_game(), "first mutants", "ready mutant-a", "option-a",
                 "ready settler-1", "option-a",
                 "ready mutant-b", "option-b",
                 "activate mutant-a", "zap mutant-a settler-2 9", "zap mutant-a settler-3 9",
                 "activate mutant-b", "zap mutant-b settler-4 9", "end-activation")
    assert state.acting == "settlers" and state.phase is Phase.ACTIVATE
    assert readiness(state)["settler-1"] == "ready"
    assert "ready" not in {a.keyword for a in state.legal_actions()}
    assert sorted(listed(state)) == ["activate settler-1", "end-turn"]


# --- vts-1.5 (R-TURN-9) --------------------------------------------------------------

def test_vts_readying_activates_at_once_and_there_is_no_option_a() -> None:
    state = play(new_game(variant(rules="vts-1.5")), "first settlers", "ready settler-2")
    assert state.phase is Phase.ACTIVATION
    assert state.activation is not None and state.activation.model == "settler-2"
    assert state.activation.actions_left == 2
    assert "option-a" not in listed(state) and "option-b" not in listed(state)
    with pytest.raises(IllegalActionError, match=r"vts-1\.5"):
        play(state, "option-a")
    play(state, "move settler-2 8.0 5.0", "move settler-2 8.0 7.0")
    assert readiness(state)["settler-2"] == "used" and state.acting == "mutants"
    assert listed(state) == [f"ready {m}" for m in MUTANTS]


def test_vts_round_is_one_model_per_turn_until_all_used() -> None:
    state = play(new_game(variant(rules="vts-1.5")), "first mutants")
    order = []
    while state.round == 1:
        assert state.phase is Phase.READY
        text = listed(state)[0]
        order.append((state.acting, text.split()[1]))
        play(state, text, "end-activation")
    sides = [s for s, _ in order]
    assert sides == ["mutants", "settlers"] * 3 + ["settlers"]
    assert sorted(m for _, m in order) == sorted(MUTANTS + SETTLERS)


# --- end of game (R-TURN-10, R-EDGE-2) -------------------------------------------------

def test_the_game_ends_after_the_last_round_with_a_draw_on_equal_scores() -> None:
    state = finish_round_with_option_a(new_game(rounds=1), "settlers")
    assert state.is_over and state.phase is Phase.OVER
    assert state.result is not None
    assert state.result.winner is None and dict(state.result.scores) == {
        "settlers": 0, "mutants": 0}
    assert "last round (1)" in state.result.reason
    assert list(state.legal_actions()) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        play(state, "first settlers")


def test_the_game_ends_when_a_side_has_no_models() -> None:
    state = play(new_game(variant(("mutant-b", "mutant-c"))), "first settlers",
                 "ready settler-1", "option-b", "activate settler-1",
                 "zap settler-1 mutant-a 3")
    assert not state.is_over and state.model("mutant-a").health == 1
    play(state, "zap settler-1 mutant-a 3")
    assert state.is_over and state.result is not None
    assert state.result.winner == "settlers"
    assert dict(state.result.scores) == {"settlers": 1, "mutants": 0}
    assert "Super Mutants has no models in play" in state.result.reason  # display names


def test_leaving_the_board_scores_as_eliminated() -> None:
    """R-EDGE-2: a model that left by choice is eliminated for scoring, out of play."""
    state = play(new_game(rounds=1), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1", "exit settler-1")
    assert str(state.model("settler-1").status) == "left"
    assert "settler-1" not in state.positions()
    assert state.acting == "mutants"  # its activation ended; no Ready model left
    finish_round(state)
    assert state.result is not None
    assert dict(state.result.scores) == {"settlers": 0, "mutants": 1}
    assert state.result.winner == "mutants"


def test_removing_the_active_model_ends_its_activation() -> None:
    state = play(new_game(), "first settlers", "ready settler-1", "option-a",
                 "ready mutant-a", "option-a", "ready settler-2", "option-b",
                 "activate settler-2", "zap settler-2 settler-2 5")
    assert str(state.model("settler-2").status) == "eliminated"
    assert state.phase is Phase.ACTIVATE  # settler-1 is still Ready
    assert listed(state, "activate") == ["activate settler-1"]
    assert [e.kind for e in state.events[-2:]] == ["damage", "removed"]


def test_the_log_tells_an_elimination_from_leaving_the_board() -> None:
    """R-TURN-10 and R-EDGE-2 score both alike, but the event log says which it was."""
    state = play(new_game(variant(("mutant-b", "mutant-c"))), "first settlers",
                 "ready settler-1", "option-b", "activate settler-1",
                 "zap settler-1 mutant-a 3", "zap settler-1 mutant-a 3")
    [gone] = events(state, "removed")
    assert "is eliminated" in gone.text and "leaves the board" not in gone.text
    state = play(new_game(rounds=1), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1", "exit settler-1")
    [left] = events(state, "removed")
    assert "leaves the board" in left.text and "eliminated" not in left.text
