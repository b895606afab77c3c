"""Actions as text, legality, refusals that leave the state untouched, undo/redo."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sim.game.kinds
from sim.engine.actions import (
    TURN_ACTIONS,
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    OptionA,
    OptionB,
    ReadyModel,
)
from sim.engine.rng import SeededRng
from sim.errors import IllegalActionError, WastelandError
from sim.game.kinds import parse_action
from tests.engine_util import Exit, Zap, engine_kinds, listed, new_game, play, variant
from tests.plainmove import PlainMove

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

ids = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")),
              min_size=1, max_size=12).filter(lambda t: not any(c.isspace() for c in t))
coords = st.floats(allow_nan=False, allow_infinity=False, width=64)


# --- text round trip -------------------------------------------------------------------

@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ids, ids, coords, coords, st.integers(0, 99))
def test_every_action_kind_round_trips_through_text(side, model, x, y, n) -> None:
    actions = [ChooseFirst(side), ReadyModel(model), OptionA(), OptionB(), Activate(model),
               EndActivation(), EndTurn(), PlainMove(model, x, y), Zap(model, side, n), Exit(model)]
    for action in actions:
        text = str(action)
        assert parse_action(text) == action
        assert str(parse_action(text)) == text


def test_every_registered_kind_and_turn_action_has_a_round_trip_test() -> None:
    """A new kind needs a case in the test above (keeps this file honest)."""
    tested = {"first", "ready", "option-a", "option-b", "activate", "end-activation",
              "end-turn", "move", "zap", "exit"}
    assert {t.keyword for t in TURN_ACTIONS} | set(sim.game.kinds.GAME_KINDS) <= tested


def test_texts_are_canonical_words() -> None:
    assert str(ChooseFirst("mutants")) == "first mutants"
    assert str(PlainMove("settler-1", 10.5, 3)) == "move settler-1 10.5 3.0"
    assert parse_action("  move   settler-1  10.5   3 ") == PlainMove("settler-1", 10.5, 3.0)
    third = 1 / 3
    back = parse_action(str(PlainMove("m", third, -0.0)))
    assert isinstance(back, PlainMove) and back.x == third  # exact, not rounded


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty action text"),
    ("dance settler-1", "unknown action 'dance'; known: first, ready"),
    ("ready", "expected 'ready MODEL'"),
    ("ready a b", "expected 'ready MODEL'"),
    ("option-a now", "expected 'option-a'"),
    ("move settler-1 4", "expected 'move MODEL X Y'"),
    ("zap settler-1 mutant-a x", "expected 'zap MODEL TARGET POINTS'"),
    ("move settler-1 four 4", "X must be a number, got 'four'"),
    ("move settler-1 4 nan", "Y must be a finite number, got 'nan'"),
])
def test_text_that_is_not_an_action_is_refused_with_the_expected_form(text, message) -> None:
    with pytest.raises(IllegalActionError) as err:
        parse_action(text)
    assert message in str(err.value)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, WastelandError)


# --- refusals --------------------------------------------------------------------------

def _activation():
    """Settler-1's activation in progress (at (4, 3), Move ruler yellow = 4 in)."""
    return play(new_game(), "first settlers", "ready settler-1", "option-b",
                "activate settler-1")


@pytest.mark.parametrize(("setup", "text", "model", "reason"), [
    (lambda: play(new_game(), "first settlers"), "ready mutant-a", "mutant-a",
     "the turn is settlers's and the model belongs to mutants"),
    (lambda: play(new_game(), "first settlers"), "ready settler-9", None,
     "unknown model 'settler-9'"),
    (lambda: play(new_game(), "first settlers"), "option-b", None,
     "not possible in phase ready"),
    (lambda: new_game(), "ready settler-1", "settler-1", "not possible in phase choose-first"),
    (lambda: play(new_game(), "first settlers", "ready settler-1"), "activate settler-1",
     "settler-1", "not possible in phase choose-option"),
    (lambda: play(new_game(), "first settlers", "ready settler-1", "option-b"),
     "activate settler-2", "settler-2", "only a Ready model can be activated"),
    (_activation, "end-turn", None, "not possible in phase activation"),
    (_activation, "move settler-2 8.0 5.0", "settler-2",
     "the model being activated is 'settler-1'"),
    (_activation, "move settler-1 9.0 3.0", "settler-1",
     "the target is 5.00 in away; the Move ruler is 4 in"),
    (_activation, "move settler-1 4.0 0.2", "settler-1", "wholly on the board"),
    (_activation, "move settler-1 7.5 3.0", "settler-1", "overlapping 'settler-2'"),
    (lambda: play(new_game(variant(rules="vts-1.5")), "first settlers"), "option-a", None,
     "option A does not exist in vts-1.5"),
])
def test_an_illegal_action_is_refused_naming_action_model_and_reason(
        setup, text, model, reason) -> None:
    state = setup()
    before = state.copy()
    action = parse_action(text)
    assert action not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply(action)
    assert err.value.model == model
    assert reason in err.value.reason
    assert repr(text) in str(err.value)
    assert state == before


def test_a_failing_application_restores_the_state(monkeypatch) -> None:
    """An action kind that raises part-way leaves nothing behind (snapshot restore)."""
    state = play(new_game(), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1")
    before = state.copy()

    def broken_damage(*args, **kwargs):
        raise IllegalActionError("zap", "the zapper jammed")

    monkeypatch.setattr("sim.engine.turns.damage", broken_damage)
    with pytest.raises(IllegalActionError, match="jammed"):
        state.apply(Zap("settler-1", "mutant-a", 1))  # rolls a die, then fails
    assert state == before
    assert state.rng.getstate() == before.rng.getstate()


# --- the legal-actions view -----------------------------------------------------------

def test_the_view_answers_for_any_point_not_only_the_listed_samples() -> None:
    state = _activation()
    legal = state.legal_actions()
    odd = PlainMove("settler-1", 4.0 + math.pi / 2, 3.0 + 1.1)
    assert odd not in list(legal)
    assert odd in legal
    assert all(a in legal for a in legal)
    assert EndActivation() in legal and "end-activation" in listed(state)
    assert 1 <= len(listed(state, "move")) <= 8


# --- undo / redo ---------------------------------------------------------------------

def test_undo_restores_the_exact_state_dice_included() -> None:
    state = play(new_game(), "first settlers", "ready settler-1", "option-b",
                 "activate settler-1")
    before = state.copy()
    action = Zap("settler-1", "mutant-a", 4)
    state.apply(action)  # rolls a die and eliminates mutant-a
    after = state.copy()
    assert str(state.model("mutant-a").status) == "eliminated"
    assert state.rng.getstate() != before.rng.getstate()
    assert state.undo() == action
    assert state == before
    assert state.model("mutant-a").health == 4 and state.model("mutant-a").in_play
    state.apply(action)  # redo: the same die, the same result
    assert state == after


def test_undo_walks_back_to_the_start() -> None:
    state = new_game()
    start = state.copy()
    texts = ["first settlers", "ready settler-1", "option-b", "activate settler-1",
             "move settler-1 4.0 6.0", "move settler-1 4.0 9.0"]
    play(state, *texts)
    for text in reversed(texts):
        assert str(state.undo()) == text
    assert state == start
    with pytest.raises(IllegalActionError, match="no action to take back"):
        state.undo()


def test_equality_sees_every_difference() -> None:
    a, b = new_game(seed=4), new_game(seed=4)
    assert a == b
    assert new_game(seed=4) != new_game(seed=5)  # generator state differs
    play(a, "first settlers")
    assert a != b
    play(b, "first mutants")
    assert a != b


def test_seeded_generator_is_deterministic_and_unbiased_in_range() -> None:
    """R-ALL-1: one seed, one sequence; every face of a d12 comes up."""
    g, h = SeededRng(99), SeededRng(99)
    rolls = [g.randint(1, 12) for _ in range(1200)]
    assert rolls == [h.randint(1, 12) for _ in range(1200)]
    assert set(rolls) == set(range(1, 13))
    assert max(rolls.count(f) for f in range(1, 13)) < 150  # ~100 each
    state = g.getstate()
    nxt = g.randint(1, 6)
    g.setstate(state)
    assert g.randint(1, 6) == nxt
    assert SeededRng(1).choice(["only"]) == "only"
    with pytest.raises(IndexError):
        SeededRng(1).choice([])
