"""The AI's boundaries that mutation testing found unguarded (issue 32).

Two deliberate bugs survived every test: the AI's "within charge" taking a base
exactly at the charge ruler (plus the touch tolerance, R-UNIT-2) as out of reach,
and the last round's weights inverted so a side ahead plays as one behind
(R-TURN-10, docs/ai.md). Each test below fails on one of them (checked by hand:
``<=`` made ``<`` in :func:`sim.ai.charge_reach.charge_within`, the two branches of
:func:`sim.ai.search.late_weights` swapped, ``lead > 0`` made ``lead >= 0``).

The expected answers come from the rules, not from the code under test: the gap
between two bases is :func:`geometry.discs.gap` (R-DIST-1), the charge ruler the
unit card's, read through the rules data.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from geometry.discs import Disc, gap
from sim.ai.charge_reach import within_charge
from sim.ai.scoring import APPROACH, AttackValue
from sim.ai.search import APPROACH as SEARCH_APPROACH
from sim.ai.search import SearchPlayer, Weights, late_weights, pressing
from sim.engine.actions import ChooseFirst
from sim.engine.gamedata import Status
from sim.engine.state import GameState, StateWriter
from sim.scenario.positions import Position
from tests.test_ai_last_round import _board

BASE = Weights(answer=1.0, counter=0.3, danger=0.3, gain=0.5)


def _place(state: GameState, model: str, x: float, y: float, z: float = 0.0) -> None:
    StateWriter(state).set_model(replace(state.model(model), position=Position(x, y, z)))


def _charge_reach(state: GameState, model: str) -> float:
    """How far a base may be for a charge: the charge ruler plus the touch tolerance."""
    return state.rules.ruler(state.scenario.unit_of(model).charge) + state.rules.touch_tolerance


def _last_x_within(state: GameState, model: str, enemy: str, y: float) -> float:
    """The largest x (a float) where the enemy's base, on the model's row, is exactly
    at the charge reach by geometry.discs.gap: the boundary, found without the AI."""
    me = state.model(model).position
    ra, rb = state.radius(model), state.radius(enemy)
    limit = _charge_reach(state, model)
    x = me.x + ra + rb + limit
    for _ in range(64):  # a few ulps either way: the float x whose gap is the limit
        g = gap(Disc(me.x, y, ra), Disc(x, y, rb))
        if g == limit:
            return x
        x = math.nextafter(x, -math.inf if g > limit else math.inf)
    pytest.fail("no float x puts the base exactly at the charge reach")


@pytest.fixture
def board(tmp_path: Path) -> GameState:
    state = _board(tmp_path, rounds=3)
    _place(state, "knight", 5.0, 15.0)
    return state


def test_a_base_exactly_at_the_charge_ruler_is_within_charge(board: GameState) -> None:
    """R-UNIT-2: a gap up to the touch tolerance past the ruler still counts; one ulp
    further does not."""
    x = _last_x_within(board, "knight", "fresh", 15.0)
    _place(board, "fresh", x, 15.0)
    assert within_charge(board, "knight", "fresh")
    _place(board, "fresh", math.nextafter(x, math.inf), 15.0)
    assert not within_charge(board, "knight", "fresh")


def test_the_touch_tolerance_counts_towards_the_charge(board: GameState) -> None:
    """Half the tolerance past the ruler is within; twice the tolerance is not."""
    tol = board.rules.touch_tolerance
    ruler = _charge_reach(board, "knight") - tol
    edge = 5.0 + board.radius("knight") + board.radius("fresh") + ruler
    _place(board, "fresh", edge + tol / 2, 15.0)
    assert within_charge(board, "knight", "fresh")
    _place(board, "fresh", edge + 2 * tol, 15.0)
    assert not within_charge(board, "knight", "fresh")


def test_within_charge_asks_from_where_the_model_would_stand(board: GameState) -> None:
    """``at`` replaces the model's own position: an enemy far away is within charge of
    a spot next to it, and the model's own spot does not count then."""
    _place(board, "fresh", 25.0, 15.0)
    assert not within_charge(board, "knight", "fresh")
    assert within_charge(board, "knight", "fresh", Position(22.0, 15.0, 0.0))


def test_an_enemy_on_another_level_is_not_within_charge(board: GameState) -> None:
    """A charge stays on the model's level: an enemy a storey up, or on a step a
    twentieth of an inch high, is out of reach even close by; heights closer than the
    AI's level step (0.01") are one level, and that step itself is another level."""
    for z in (3.0, 0.05, 0.01):
        _place(board, "fresh", 7.0, 15.0, z)
        assert not within_charge(board, "knight", "fresh"), z
    _place(board, "fresh", 7.0, 15.0, 0.005)
    assert within_charge(board, "knight", "fresh")


def _last_round_with_lead(tmp_path: Path, lead: int, rounds: int = 1) -> GameState:
    """The Mutants to act in round 1 of ``rounds``, ``lead`` models ahead (negative:
    behind): a removed model scores for the other side (R-TURN-10)."""
    state = _board(tmp_path, rounds)
    state.apply(ChooseFirst("mutants"))
    assert state.acting == "mutants"
    lost = ["spare", "knight"][:lead] if lead > 0 else ["wounded", "fresh"][:-lead]
    for model in lost:
        StateWriter(state).set_model(replace(state.model(model), status=Status.ELIMINATED))
    return state


def test_a_side_ahead_in_the_last_round_weighs_what_it_could_lose_more(
        tmp_path: Path) -> None:
    """docs/ai.md: ahead, the opponent's answer and threats weigh more, its own
    threats and later gains less (it wins unless it loses models)."""
    w = late_weights(_last_round_with_lead(tmp_path, 1), BASE)
    assert w.answer > BASE.answer and w.danger > BASE.danger
    assert w.counter < BASE.counter and w.gain < BASE.gain


@pytest.mark.parametrize("lead", [0, -1], ids=["level", "behind"])
def test_a_side_level_or_behind_in_the_last_round_plays_to_score(
        tmp_path: Path, lead: int) -> None:
    """docs/ai.md: behind, or level (a draw is no win), what it could lose weighs less
    and what it could gain more: only a kill now changes the result."""
    w = late_weights(_last_round_with_lead(tmp_path, lead), BASE)
    assert w.answer < BASE.answer and w.danger < BASE.danger
    assert w.counter > BASE.counter and w.gain > BASE.gain


@pytest.mark.parametrize("lead", [1, 0, -1], ids=["ahead", "level", "behind"])
def test_two_rounds_before_the_last_the_lead_changes_no_weight(tmp_path: Path,
                                                               lead: int) -> None:
    """Only the last round, and for a side that must score the round before it, are
    played for the score (R-TURN-10, docs/ai.md)."""
    state = _last_round_with_lead(tmp_path, lead, rounds=3)
    assert late_weights(state, BASE) == BASE and not pressing(state)


@pytest.mark.parametrize("lead", [0, -1], ids=["level", "behind"])
def test_a_side_level_or_behind_presses_from_the_round_before_the_last(
        tmp_path: Path, lead: int) -> None:
    """docs/ai.md (Decision): a side level or behind in the round before the last plays
    as in the last round (a model kept out of reach now has no attack then), and
    search's pull toward the enemy is greedy's again."""
    state = _last_round_with_lead(tmp_path, lead, rounds=2)
    w = late_weights(state, BASE)
    assert w.answer < BASE.answer and w.danger < BASE.danger
    assert w.counter > BASE.counter and w.gain > BASE.gain
    assert pressing(state)
    player = SearchPlayer(1, playouts=1)
    player.decide(state)
    assert player.scorer.approach == APPROACH > SEARCH_APPROACH


def test_a_side_ahead_in_the_round_before_the_last_keeps_its_weights(tmp_path: Path) -> None:
    """Ahead, a side has no reason to press before the last round (docs/ai.md)."""
    state = _last_round_with_lead(tmp_path, 1, rounds=2)
    assert late_weights(state, BASE) == BASE and not pressing(state)
    player = SearchPlayer(1, playouts=1)
    player.decide(state)
    assert player.scorer.approach == SEARCH_APPROACH


def _value(p_kill: float, share: float) -> float:
    return AttackValue("a", "t", "rifle", "short", p_hit=1.0, expected=share,
                       p_kill=p_kill, cover=0, share=share).value


def test_an_attack_is_worth_its_chance_to_eliminate_and_half_the_damage_if_it_survives(
        ) -> None:
    """docs/ai.md: p_kill + 0.5 * (1 - p_kill) * share. The score counts removed models
    only (R-TURN-10): a sure kill is worth one point and no more; damage short of a kill
    is worth half its share of the health left."""
    assert _value(1.0, 1.0) == pytest.approx(1.0)
    assert _value(0.0, 1.0) == pytest.approx(0.5)
    assert _value(0.0, 0.0) == 0.0
    assert _value(0.5, 1.0) == pytest.approx(0.75)
    assert _value(0.2, 0.5) == pytest.approx(0.4)


@pytest.mark.parametrize("left", [0, 1])
def test_a_place_is_worth_its_attack_less_its_threats_and_its_distance(
        tmp_path: Path, left: int) -> None:
    """docs/ai.md: a spot is worth its best attack (x0.9 with an action left, x0.35 when
    it waits for next turn), minus 0.2 of the enemies' attacks on it (halved while an
    action is left to move away), minus 0.03 per inch beyond striking range."""
    from sim.ai.scoring import Scorer

    state = _board(tmp_path, rounds=3)
    scorer = Scorer()
    near = scorer.spot(state, "knight", Position(9.0, 17.0, 0.0), left)
    far = scorer.spot(state, "knight", Position(1.0, 29.0, 0.0), left)
    assert near.threat > 0 and far.gap > 0  # both terms are at work
    for s in (near, far):
        attack = 0.0 if s.best is None else s.best.value * (0.9 if left else 0.35)
        expected = attack - 0.2 * s.threat * (0.5 if left else 1.0) - 0.03 * s.gap
        assert s.score == pytest.approx(expected)


# --- greedy's place value, term by term (issue 32's surviving scoring mutants) ---------

def test_an_enemy_charge_threatens_a_place_exactly_when_it_is_within_charge(
        board: GameState) -> None:
    """An enemy's close combat counts against a place only when its charge reaches the
    base there: the hound (no ranged weapon, so its whole threat is the charge) with the
    bases' gap its charge ruler plus half the touch tolerance (R-UNIT-2) counts; at twice
    the tolerance it does not. The same answer as ``within_charge``: one owner."""
    from sim.ai.scoring import Scorer
    from sim.combat.situation import Situation

    _place(board, "fresh", 5.0, 15.0)
    _place(board, "knight", 25.0, 25.0)
    tol = board.rules.touch_tolerance
    edge = 5.0 + board.radius("fresh") + board.radius("knight") + _charge_reach(
        board, "fresh") - tol  # the knight's x where the gap is the hound's charge ruler
    inside, outside = Position(edge + tol / 2, 15.0, 0.0), Position(edge + 2 * tol, 15.0, 0.0)
    scorer = Scorer()
    threat_in = scorer.spot(board, "knight", inside, 0).threat
    threat_out = scorer.spot(board, "knight", outside, 0).threat
    melee = scorer.melee(Situation.of_state(board), "fresh", "knight")
    assert melee is not None and melee.value > 0
    assert threat_in - threat_out == pytest.approx(melee.value)


def test_a_target_with_one_health_left_is_worth_more_than_with_two(board: GameState) -> None:
    """A wounded target is easier to eliminate: the same shot's chance to eliminate the
    super mutant grows as its health drops from 2 to 1 (any damage then removes it)."""
    from sim.ai.scoring import Scorer
    from sim.combat.situation import Situation

    _place(board, "knight", 9.0, 17.0)
    values = {}
    for health in (2, 1):
        StateWriter(board).set_model(replace(board.model("wounded"), health=health))
        shot = Scorer().best_shot(Situation.of_state(board), "knight", "wounded")
        assert shot is not None
        values[health] = shot
    assert values[1].p_kill > values[2].p_kill


def test_a_place_far_away_counts_the_base_gap_beyond_striking_range(board: GameState) -> None:
    """docs/ai.md: the approach term's inches are the gap between the bases (R-DIST-1) to
    the nearest enemy, less the model's striking range (its best short band)."""
    from sim.ai.scoring import Scorer

    at = Position(1.0, 29.0, 0.0)
    scenario = board.scenario
    rules = scenario.rules_data
    short = max(rules.ruler(scenario.weapons[w].short) for w in scenario.unit_of("knight").weapons
                if scenario.weapons[w].short is not None)
    nearest = min(gap(Disc(at.x, at.y, board.radius("knight")),
                      Disc(p.x, p.y, board.radius(e)))
                  for e in ("wounded", "fresh") for p in [board.model(e).position])
    assert nearest > short  # the term is at work
    assert Scorer().spot(board, "knight", at, 0).gap == pytest.approx(nearest - short)


def test_within_striking_range_the_approach_term_is_zero(board: GameState) -> None:
    """docs/ai.md: no pull toward the enemy once it is within the model's short band."""
    from sim.ai.scoring import Scorer

    spot = Scorer().spot(board, "knight", Position(9.0, 17.0, 0.0), 0)
    assert spot.best is not None and spot.gap == 0.0


@pytest.mark.parametrize("z", [3.0, 0.01])
def test_a_model_that_only_charges_approaches_the_enemies_on_its_own_level(
        board: GameState, z: float) -> None:
    """The hound has no ranged weapon: an enemy on a roof close by (or a level step, 0.01",
    up) is not what it closes on (its charge stays on its level), the one on the ground
    further away is."""
    from sim.ai.scoring import Scorer

    _place(board, "knight", 12.0, 15.0, z)
    _place(board, "spare", 28.0, 15.0, 0.0)
    at = Position(10.0, 15.0, 0.0)
    blue = board.rules.ruler(board.scenario.unit_of("fresh").charge)
    ground = gap(Disc(at.x, at.y, board.radius("fresh")), Disc(28.0, 15.0, board.radius("spare")))
    assert Scorer().spot(board, "fresh", at, 0).gap == pytest.approx(ground - blue)


def test_a_target_at_the_far_edge_of_the_long_band_can_be_shot(board: GameState) -> None:
    """R-RANGE-1: a base just inside the weapon's longest band is a shot the AI sees (the
    quick distance bound before planning counts both bases)."""
    from sim.ai.scoring import Scorer
    from sim.combat.situation import Situation
    from sim.shooting.weapon_range import reach

    _place(board, "fresh", 28.0, 2.0)
    _place(board, "knight", 2.0, 25.0)
    laser = board.scenario.weapons["laser_rifle"]
    x = 2.0 + board.radius("knight") + board.radius("wounded") + reach(
        board.rules, laser) - 0.001
    _place(board, "wounded", x, 25.0)
    assert x < 30 - board.radius("wounded")
    shot = Scorer().best_shot(Situation.of_state(board), "knight", "wounded")
    assert shot is not None and shot.band == "long"
