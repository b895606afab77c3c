"""The Shoot action (R-SHOOT-1..2, R-RANGE-1, R-COV-2..3, R-ARM-1..2, R-CLIMB-3), seed 004."""

from __future__ import annotations

import pytest

from sim.combat.plan import AttackRefused, CloseCombat, Shoot, plan_shot
from sim.combat.situation import Situation
from sim.engine.gamedata import Status
from sim.engine.state import ActionContext
from sim.errors import IllegalActionError
from sim.game.kinds import parse_action
from tests.combat_util import armor, at_activation, face, scenario, skill, variant

PLASMA = "plasma_rifle"


def plasma_situation() -> Situation:
    return Situation.of_scenario(scenario("seed-plasma"))


# --- R-SHOOT-1: the three requirements ---------------------------------------------


def test_all_three_requirements_met_is_legal() -> None:
    """R-SHOOT-1: skill, reach and sight: the survivor may shoot mutant A."""
    plan = plan_shot(plasma_situation(), "survivor", "mutant-a", PLASMA)
    assert plan.band == "short"


def test_missing_skill_is_refused_with_the_reason() -> None:
    """R-SHOOT-1 (1): the rookie carries a plasma rifle but has no rifle skill."""
    with pytest.raises(AttackRefused, match="lacks the 'rifle' skill"):
        plan_shot(plasma_situation(), "rookie", "mutant-a", PLASMA)


def test_target_out_of_reach_is_refused_with_the_reason() -> None:
    """R-SHOOT-1 (2): mutant C lies beyond Red + Green (14 in)."""
    with pytest.raises(AttackRefused, match=r"out of reach: 15\.50 in away.*red \+ green = 14 in"):
        plan_shot(plasma_situation(), "survivor", "mutant-c", PLASMA)


def test_target_out_of_sight_is_refused_with_the_reason() -> None:
    """R-SHOOT-1 (3): the bunker hides a mutant that is in reach."""
    sit = plasma_situation()
    with pytest.raises(AttackRefused, match=r"no line of sight.*blocked by bunker"):
        plan_shot(sit, "survivor", "mutant-hidden", PLASMA)


@pytest.mark.parametrize("attacker, target, reason", [
    ("rookie", "mutant-a", "lacks the 'rifle' skill"),
    ("survivor", "mutant-c", "out of reach"),
    ("survivor", "mutant-hidden", "no line of sight"),
])
def test_engine_refuses_each_missing_requirement_and_keeps_the_state(
        attacker: str, target: str, reason: str) -> None:
    """R-SHOOT-1 through the engine: IllegalActionError with the reason, state unchanged."""
    state = at_activation(scenario("seed-plasma"), attacker)
    before = state.copy()
    action = Shoot(attacker, target, PLASMA, "long")
    assert action not in state.legal_actions()
    why = state.why_illegal(action)
    assert why is not None and reason in why.reason
    with pytest.raises(IllegalActionError, match=reason):
        state.apply(action)
    assert state == before


# --- the plasma rifle example ---------------------------------------------------------


def test_plasma_rifle_needs_seven_or_less() -> None:
    """Seed 004: the Sole Survivor (PER 7) needs a 7 or less with the plasma rifle."""
    plan = plan_shot(plasma_situation(), "survivor", "mutant-a", PLASMA)
    assert plan.profile.attribute == 7 and plan.profile.modifier == 0
    assert plan.profile.target == 7


@pytest.mark.parametrize("name", ["seed-plasma", "seed-plasma-range"])
def test_short_range_rolls_accuracy_and_armor_reduction_long_range_a_damage_die(name: str
                                                                                ) -> None:
    """Seed 004: mutant A (short) -> green + yellow dice; mutant B (long) -> black die."""
    sit = Situation.of_scenario(scenario(name))
    a = plan_shot(sit, "survivor", "mutant-a", PLASMA)
    b = plan_shot(sit, "survivor", "mutant-b", PLASMA)
    assert (a.band, a.profile.dice) == ("short", ("accuracy", "armor-reduction"))
    assert (b.band, b.profile.dice) == ("long", ("damage",))


def test_attacker_chooses_when_the_base_straddles_both_bands() -> None:
    """R-RANGE-1: a base in both bands lets the attacker choose; no choice is refused."""
    sit = plasma_situation()
    with pytest.raises(AttackRefused, match="both range bands; choose"):
        plan_shot(sit, "survivor", "mutant-straddle", PLASMA)
    short = plan_shot(sit, "survivor", "mutant-straddle", PLASMA, "short")
    long = plan_shot(sit, "survivor", "mutant-straddle", PLASMA, "long")
    assert short.bands == long.bands == ("short", "long")
    assert short.profile.dice == ("accuracy", "armor-reduction")
    assert long.profile.dice == ("damage",)
    state = at_activation(scenario("seed-plasma"), "survivor")
    listed = {a for a in state.legal_actions() if isinstance(a, Shoot)
              and a.target == "mutant-straddle"}
    assert listed == {Shoot("survivor", "mutant-straddle", PLASMA, "short"),
                      Shoot("survivor", "mutant-straddle", PLASMA, "long")}


def test_band_the_target_is_not_in_is_refused() -> None:
    with pytest.raises(AttackRefused, match="not in the long band; it lies in short"):
        plan_shot(plasma_situation(), "survivor", "mutant-a", PLASMA, "long")


def test_scripted_plasma_hit_at_short_range() -> None:
    """R-SHOOT-2 + house accuracy: 8 - 1 accuracy = 7 <= 7 hits; the yellow die's
    armor reduction takes the mutant's energy armor 1 to 0 (no armor roll): 3 damage."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(8), face("accuracy", "accuracy"), face("armor-reduction", "armor-reduction")])
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    assert state.model("mutant-a").health == 1
    kinds = [e.kind for e in state.events[-5:]]
    assert kinds[-4:] == ["attack", "dice", "hit", "damage"]
    dice = next(e for e in reversed(state.events) if e.kind == "dice")
    assert dice.data["skill_roll"] == 8 and dice.data["result"] == 7 and dice.data["success"]
    assert "skill die 8 -1 accuracy = 7 vs 7: success" in dice.text
    hit = next(e for e in reversed(state.events) if e.kind == "hit")
    assert hit.data["armor_roll"] is None and hit.data["dealt"] == 3


def test_scripted_plasma_miss_logs_why() -> None:
    """A 9 with one accuracy is 8 > 7: a miss, no damage, no armor die rolled."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(9), face("accuracy", "accuracy"), face("armor-reduction", "damage")])
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    assert state.model("mutant-a").health == 4
    assert state.events[-1].kind == "missed"
    assert "8 vs 7: failure" in state.events[-2].text
    assert state.rng.getstate() == 3  # exactly three dice rolled


def test_undo_restores_the_shot_and_the_dice() -> None:
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(1), face("accuracy"), face("armor-reduction"), armor(4)])
    before = state.copy()
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    assert state.model("mutant-a").health < 4
    state.undo()
    assert state == before


# --- cover example 1, both directions, both rule sets ----------------------------


@pytest.mark.parametrize("rules", ["rulebook", "vts-1.5"])
def test_cover_example_1_knight_shoots_mutant(rules: str) -> None:
    """Seed 004 example 1: the crate counts (-2), the building touching the knight does not.

    Knight PER 6 - 2 = 4; laser rifle at long range (Blue): damage 2 + 1 symbol =
    3, energy armor 1. Armor roll 2: rulebook armor 1 + 1 = 2 blocks 2 (1 dealt);
    vts-1.5 armor 1 blocks nothing, the Armor Boost blocks 1 (2 dealt).
    """
    s = variant(scenario("seed-cover-1"), rules=rules)
    plan = plan_shot(Situation.of_scenario(s), "knight", "mutant", "laser_rifle")
    assert plan.profile.target == 4 and plan.profile.modifier == -2
    assert (plan.profile.cover_bonus, plan.profile.armor_boost) == (
        (1, 0) if rules == "rulebook" else (0, 1))
    state = at_activation(s, "knight", [skill(4), face("damage", "damage"), armor(2)])
    state.apply(parse_action("shoot knight mutant laser_rifle long"))
    assert state.model("mutant").health == 4 - (1 if rules == "rulebook" else 2)
    attack = next(e for e in state.events if e.kind == "attack")
    assert attack.data["cover"] == ["crate"] and attack.data["modifier"] == -2


@pytest.mark.parametrize("rules", ["rulebook", "vts-1.5"])
def test_cover_example_1_mutant_shoots_back(rules: str) -> None:
    """Seed 004 example 1 reversed: building and crate both count (-4), armor +1 once.

    Mutant PER 4 - 4 = 0, never below 1 (R-SHOOT-2): a 1 hits, a 2 misses.
    Assault rifle long: 2 + 1 damage symbol = 3 vs physical armor 3. Armor roll
    4: rulebook 3 + 1 = 4 blocks everything; vts-1.5: 4 > 3 blocks nothing and
    the Armor Boost blocks 1 (2 dealt).
    """
    s = variant(scenario("seed-cover-1"), rules=rules)
    plan = plan_shot(Situation.of_scenario(s), "mutant", "knight", "assault_rifle")
    assert plan.profile.modifier == -4 and plan.profile.target == 1
    assert plan.profile.cover_bonus + plan.profile.armor_boost == 1
    state = at_activation(s, "mutant", [skill(1), face("damage", "damage"), armor(4)])
    state.apply(parse_action("shoot mutant knight assault_rifle long"))
    assert state.model("knight").health == (4 if rules == "rulebook" else 2)
    state = at_activation(s, "mutant", [skill(2), face("damage", "damage")])
    state.apply(parse_action("shoot mutant knight assault_rifle long"))
    assert state.model("knight").health == 4 and state.events[-1].kind == "missed"


# --- climbing, sides, weapons ------------------------------------------------------


def test_climbing_model_cannot_shoot_but_can_be_shot() -> None:
    """R-CLIMB-3: while climbing a model cannot attack; it can be shot."""
    state = at_activation(scenario("seed-plasma"), "survivor")
    ActionContext(state).set_climbing("survivor", True)
    why = state.why_illegal(Shoot("survivor", "mutant-a", PLASMA, "short"))
    assert why is not None and "climbing and cannot attack" in why.reason
    sit = Situation.of_scenario(scenario("seed-plasma"))
    sit = Situation(sit.scenario, sit.positions, sit.sides, frozenset({"mutant-a"}))
    assert plan_shot(sit, "survivor", "mutant-a", PLASMA).band == "short"


def test_a_climbing_model_gives_no_cover_to_a_shot_past_it() -> None:
    """R-CLIMB-3 with R-COV-5: settler B, off the table while it climbs, no longer
    gives knight patrol 1 a cover modifier (seed 004, example 2, reversed)."""
    sit = Situation.of_scenario(scenario("seed-cover-2"))
    assert plan_shot(sit, "knight-1", "settler-a", "laser_rifle").profile.modifier == -2
    climbing = Situation(sit.scenario, sit.positions, sit.sides, frozenset({"settler-b"}))
    assert plan_shot(climbing, "knight-1", "settler-a", "laser_rifle").profile.modifier == 0


@pytest.mark.parametrize("target, weapon, reason", [
    ("rookie", PLASMA, "own side"),
    ("survivor", PLASMA, "cannot attack itself"),
    ("mutant-a", "board", "close-combat weapon"),
    ("mutant-a", "minigun", "does not carry 'minigun'"),
])
def test_other_refusals(target: str, weapon: str, reason: str) -> None:
    with pytest.raises(AttackRefused, match=reason):
        plan_shot(plasma_situation(), "survivor", target, weapon)


def test_eliminated_target_cannot_be_shot_again() -> None:
    """R-DMG-1: at 0 health the model is removed; it is no longer a target."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(1), face("damage", "damage", "damage"), armor(4)])
    state.apply(parse_action("shoot survivor mutant-b plasma_rifle long"))
    assert state.model("mutant-b").health == 0  # 3 + 2 damage symbols vs energy armor 1, roll 4
    assert state.model("mutant-b").status is Status.ELIMINATED
    assert "removed" in [e.kind for e in state.events]
    why = state.why_illegal(Shoot("survivor", "mutant-b", PLASMA, "long"))
    assert why is not None and "not in play" in why.reason


@pytest.mark.parametrize("text", [
    "shoot survivor mutant-a plasma_rifle short",
    "close-combat knight mutant power_fist",
])
def test_actions_round_trip_through_text(text: str) -> None:
    action = parse_action(text)
    assert isinstance(action, Shoot | CloseCombat)
    assert str(action) == text and parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["shoot survivor mutant-a plasma_rifle",
                                  "shoot survivor mutant-a plasma_rifle medium",
                                  "close-combat knight mutant"])
def test_malformed_actions_are_refused_with_the_usage(text: str) -> None:
    with pytest.raises(IllegalActionError, match="expected"):
        parse_action(text)
