"""Moves and charges over terrain in a game, both rule sets (R-MOV-1..5, R-TER-2,
R-EDGE-1..3), on the shipped movement scenarios."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sim.engine.gamedata import Status
from sim.engine.state import ActionContext
from sim.errors import IllegalActionError
from sim.game.kinds import GAME_KINDS, new_game, parse_action
from sim.movement.falls import push_model
from sim.movement.kinds import Charge, plan_movement, walk
from tests.dice_script import ScriptedRng
from tests.movement_util import RULE_SETS, activated, do, scenario, why

R_SETTLER = 15 / 25.4
R_LARGE = 20 / 25.4


# --- seed 003: the mutant hound (R-MOV-1, R-MOV-2) ----------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
def test_hound_blue_charge_over_rubble_uses_green(rules: str) -> None:
    state = activated("seed-hound", "hound", rules)
    reason = why(state, "charge hound settler-far 13.5 4.0")
    assert reason is not None and "green" in reason and "8 in" in reason
    plan = plan_movement(state, "hound", walk((13.5, 4.0)), ruler="charge")
    assert plan.ruler == "green" and plan.difficult == ("rubble",)
    assert plan.length == pytest.approx(9.5)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_hound_charge_within_green_is_legal(rules: str) -> None:
    state = activated("seed-hound", "hound-2", rules)
    assert why(state, "charge hound-2 settler-near 11.5 8.0") is None
    # Half an inch short of base contact is no charge.
    reason = why(state, "charge hound-2 settler-near 11.0 8.0")
    assert reason is not None and "base contact" in reason


@pytest.mark.parametrize("rules", RULE_SETS)
def test_unhindered_deathclaw_keeps_blue(rules: str) -> None:
    state = activated("seed-hound", "deathclaw", rules)
    plan = plan_movement(state, "deathclaw", walk((13.5, 12.0)), ruler="charge")
    assert plan.legal and plan.ruler == "blue" and plan.difficult == ()
    assert why(state, "charge deathclaw settler-claw 13.5 12.0") is None


def test_charge_calls_the_close_combat_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Charge] = []
    monkeypatch.setattr(GAME_KINDS["charge"], "after_contact",
                        lambda ctx, action: calls.append(action))
    state = activated("seed-hound", "hound-2")
    do(state, "charge hound-2 settler-near 11.5 8.0")
    assert [str(c) for c in calls] == ["charge hound-2 settler-near 11.5 8.0"]
    assert state.model("hound-2").position.xy == (11.5, 8.0)
    assert [e.kind for e in state.events][-2:] == ["moved", "charged"]


def test_charge_needs_an_enemy() -> None:
    state = activated("seed-hound", "hound-2")
    assert "not an enemy" in (why(state, "charge hound-2 hound 5.0 4.0") or "")
    assert "unknown target" in (why(state, "charge hound-2 nobody 5.0 4.0") or "")


def test_action_text_round_trips() -> None:
    for text in ("move a 1.5 2.0 climb 3.0 4.0 5.0", "charge a b 1.0 2.0 jump 0.0",
                 "leave a -1.0 3.0 -2.0 4.0"):
        assert str(parse_action(text)) == text


# --- R-TER-2: the deathclaw wades ---------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
def test_deathclaw_through_water_is_normal(rules: str) -> None:
    state = activated("move-deathclaw-water", "deathclaw", rules)
    water = state.scenario.piece("shallow-water")
    unit = state.scenario.unit_of("deathclaw")
    assert water.props_for(unit.id, unit.keywords, "large").movement == "normal"
    plan = plan_movement(state, "deathclaw", walk((14.5, 4.0)))
    assert plan.legal and plan.ruler == "red" and plan.difficult == ()


@pytest.mark.parametrize("rules", RULE_SETS)
def test_other_unit_through_water_is_difficult(rules: str) -> None:
    state = activated("move-deathclaw-water", "hound-a", rules)
    reason = why(state, "move hound-a 14.5 10.0")
    assert reason is not None and "yellow" in reason
    plan = plan_movement(state, "hound-a", walk((12.5, 10.0)))
    assert plan.legal and plan.ruler == "yellow" and plan.difficult == ("shallow-water",)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_size_class_and_keyword_overrides(rules: str) -> None:
    """Huge models wade (size class); a hovering robot floats over deep water (keyword)."""
    state = activated("move-deathclaw-water", "behemoth", rules)
    plan = plan_movement(state, "behemoth", walk((14.5, 16.0)))
    assert plan.legal and plan.ruler == "red"
    handy = activated("move-deathclaw-water", "handy", rules)
    assert why(handy, "move handy 23.5 7.0") is None
    hound = activated("move-deathclaw-water", "hound-b", rules)
    reason = why(hound, "move hound-b 23.5 13.0")
    assert reason is not None and "'deep-water'" in reason


# --- R-MOV-3 and R-UNIT-2: walls and the squeeze -----------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
def test_wall_refused_with_the_piece_named(rules: str) -> None:
    state = activated("move-squeeze", "exact", rules)
    reason = why(state, "move exact 12.0 7.0")
    assert reason is not None and "'block-a'" in reason
    before = state.to_dict()
    with pytest.raises(ValueError, match="block-a"):
        do(state, "move exact 12.0 7.0")
    assert state.to_dict() == before


# The middle of each gap of scenarios/move-squeeze.toml, which opens at y = 9: one
# 30 mm base wide; 0.019 in narrower (0.0095 in overlap each side, within the 0.01 in
# touch tolerance, R-UNIT-2); 0.025 in narrower (0.0125 in each side, beyond it).
BASE = 30 / 25.4
MID_EXACT, MID_WITHIN, MID_NARROW = 9 + BASE / 2, 9 + (BASE - 0.019) / 2, 9 + (BASE - 0.025) / 2


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize(("model", "target", "legal"), [
    ("exact", f"12.5 {MID_EXACT!r}", True),
    ("within", f"22.5 {MID_WITHIN!r}", True),
    ("narrow", f"32.5 {MID_NARROW!r}", False),
])
def test_squeeze(rules: str, model: str, target: str, legal: bool) -> None:
    state = activated("move-squeeze", model, rules)
    reason = why(state, f"move {model} {target}")
    assert (reason is None) is legal, reason
    if not legal:
        assert reason is not None and "'block-e'" in reason and "'block-f'" in reason


# --- R-MOV-4: bases -------------------------------------------------------------------

def test_enemy_bases_block_friends_do_not() -> None:
    state = activated("seed-hound", "hound")
    # Through hound-2 (a friend) to open ground beyond: fine.
    assert why(state, "move hound 4.0 9.9") is None
    # Onto hound-2: refused.
    assert "'hound-2'" in (why(state, "move hound 4.0 8.5") or "")


# --- the board edge (R-EDGE-1..3) -------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS)
def test_move_off_the_board_is_refused(rules: str) -> None:
    state = activated("move-board-edge", "leaver", rules)
    reason = why(state, "move leaver -1.0 3.0")
    assert reason is not None and "board edge" in reason and "leave" in reason


@pytest.mark.parametrize("rules", RULE_SETS)
def test_leaving_on_purpose(rules: str) -> None:
    """R-EDGE-2: out of play and eliminated for scoring, but not eliminated."""
    base = scenario("move-board-edge", rules)
    alone = replace(base, models=tuple(m for m in base.models if m.id != "knight"))
    state = activated(alone, "leaver")
    assert why(state, "leave leaver 2.0 5.0") == "the path does not reach the board edge"
    do(state, "leave leaver -1.0 3.0")
    leaver = state.model("leaver")
    assert leaver.status is Status.LEFT and leaver.health == 4
    assert "leaver" not in state.positions()
    assert state.result is not None
    assert state.result.winner == "mutants" and state.result.scores["mutants"] == 1


def test_leaving_needs_the_ruler() -> None:
    state = activated("move-board-edge", "brute")
    # Straight up: the base crosses the edge after 8 - (0.79 - 0.01) = 7.22 in.
    far = why(state, "leave brute 3.5 -1.0")
    assert far is not None and "7.22 in" in far and "yellow ruler is 4 in" in far


def test_leaving_over_difficult_ground_uses_the_shorter_ruler() -> None:
    """R-MOV-1 on the way off the board: straight up, the base crosses the edge after
    3 - (0.59 - 0.01) = 2.42 in, within Yellow but over the rubble, so Orange (2 in)."""
    state = activated("move-board-edge", "leaver")
    up = why(state, "leave leaver 2 -1.0")
    assert up is not None and "2.42 in" in up and "orange ruler" in up
    assert "difficult" in up and "rubble" in up
    # Left, clear of the rubble: 2 - 0.58 = 1.42 in fits Yellow.
    assert why(state, "leave leaver -1.0 3") is None


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pushed_into_the_edge_twice(rules: str) -> None:
    """R-EDGE-3: a hard edge: 1 damage each time, no armor roll, still on the table."""
    state = new_game(scenario("move-board-edge", rules), seed=1, rng=ScriptedRng([]))
    ctx = ActionContext(state)
    brute = state.model("brute").position.xy
    first = push_model(ctx, "knight", brute, "orange", by="brute")
    assert first.into_edge and first.end[0] == pytest.approx(R_LARGE)
    second = push_model(ctx, "knight", brute, "orange", by="brute")
    assert second.into_edge and second.travelled == pytest.approx(0.0)
    knight = state.model("knight")
    assert knight.health == 4 - 2 and knight.in_play
    assert knight.position.x == pytest.approx(R_LARGE)
    assert [e.data["cause"] for e in state.events if e.kind == "damage"] == [
        "pushed against the board edge"] * 2


def test_push_stops_at_another_base() -> None:
    state = new_game(scenario("move-board-edge"), seed=1, rng=ScriptedRng([]))
    ctx = ActionContext(state)
    # The knight pushes the brute away, to the right, by Orange: nothing is in the way.
    res = push_model(ctx, "brute", state.model("knight").position.xy, "orange", by="knight")
    assert res.travelled == pytest.approx(2.0) and not res.into_edge
    # Pushed back by Red towards the knight it stops in base contact.
    back = push_model(ctx, "brute", (30.0, 8.0), "red", by="knight")
    gap = state.model("brute").position.x - 1.5 - 2 * R_LARGE
    assert back.stopped_by == ("knight",) and gap == pytest.approx(0.0, abs=1e-8)


def test_plan_names_the_blocking_pieces() -> None:
    state = activated("move-squeeze", "narrow")
    plan = plan_movement(state, "narrow", walk((32.5, MID_NARROW)))
    assert not plan.legal and set(plan.blocked_by) == {"block-e", "block-f"}


@pytest.mark.parametrize(("text", "expected"), [
    ("move settler", "expected 'move MODEL"),
    ("move settler 1.0", "a waypoint needs X and Y"),
    ("move settler 1.0 two", "Y must be a number, got 'two'"),
    ("move settler climb", "'climb' needs a height"),
    ("move settler jump nan", "Z must be a finite number"),
    ("charge settler hound", "expected 'charge MODEL TARGET"),
    ("leave settler 1.0 2.0 3.0", "expected 'leave MODEL X Y"),
])
def test_bad_action_text_is_refused_clearly(text: str, expected: str) -> None:
    with pytest.raises(IllegalActionError) as err:
        parse_action(text)
    assert expected in str(err.value) and repr(text) in str(err.value)
