"""Close combat and the Charge attack (house default melee test, R-CLIMB-3, R-EDGE-3, R-DMG-1)."""

from __future__ import annotations

import math

import pytest

from sim.combat.plan import AttackRefused, CloseCombat, close_combat_contact, plan_close_combat
from sim.combat.situation import Situation
from sim.engine.state import ActionContext
from sim.game.kinds import parse_action
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from tests.combat_util import armor, at_activation, face, scenario, skill, variant

# Both bases are 40 mm: centres 40/25.4 in apart are in base contact.
CONTACT = 40 / 25.4


def duel(mutant_x: float, rules: str = "rulebook") -> Scenario:
    """Seed cover 1 on an empty board: knight at (5, 10), the mutant on the same row."""
    return variant(scenario("seed-cover-1"), at={"mutant": (mutant_x, 10.0)},
                   drop_terrain=True, rules=rules)


def test_close_combat_is_a_melee_test_with_the_weapon_dice() -> None:
    """House default: melee skill (STR 6), the power fist's dice and damage, no cover."""
    plan = plan_close_combat(Situation.of_scenario(duel(5 + CONTACT)), "knight", "mutant",
                             "power_fist")
    p = plan.profile
    assert (p.skill, p.attribute_letter, p.target) == ("melee", "S", 6)
    assert p.dice == ("damage", "armor-reduction") and p.damage == 3
    assert (p.modifier, p.cover_bonus, p.armor_boost) == (0, 0, 0)


def test_scripted_blow_deals_damage_and_pushes_back() -> None:
    """A hit: 3 damage vs physical armor 1, roll 1 blocks 1: 2 dealt; then the
    power fist pushes the mutant back Orange (2 in) straight away (R-EDGE-3)."""
    state = at_activation(duel(5 + CONTACT), "knight", [
        skill(6), face("damage"), face("armor-reduction"), armor(1)])
    state.apply(parse_action("close-combat knight mutant power_fist"))
    assert state.model("mutant").health == 2
    pos = state.model("mutant").position
    assert math.isclose(pos.x, 5 + CONTACT + 2.0, abs_tol=1e-6) and math.isclose(pos.y, 10.0)
    kinds = [e.kind for e in state.events]
    assert kinds[-5:] == ["attack", "dice", "hit", "damage", "pushed"]


def test_missed_blow_does_nothing() -> None:
    state = at_activation(duel(5 + CONTACT), "knight", [
        skill(7), face("damage", "damage"), face("armor-reduction")])
    state.apply(parse_action("close-combat knight mutant power_fist"))
    assert state.model("mutant").health == 4
    assert state.model("mutant").position == Position(5 + CONTACT, 10.0, 0.0)
    assert state.events[-1].kind == "missed"


@pytest.mark.parametrize("weapon, reason", [
    ("laser_rifle", "not a close-combat weapon"),
    ("claws", "does not carry 'claws'"),
])
def test_weapon_refusals(weapon: str, reason: str) -> None:
    with pytest.raises(AttackRefused, match=reason):
        plan_close_combat(Situation.of_scenario(duel(5 + CONTACT)), "knight", "mutant", weapon)


def test_close_combat_needs_base_contact() -> None:
    state = at_activation(duel(5 + CONTACT + 0.05), "knight")
    why = state.why_illegal(CloseCombat("knight", "mutant", "power_fist"))
    assert why is not None and "not in base contact" in why.reason
    assert "the gap is 0.050 in" in why.reason


def test_contact_within_the_touch_tolerance_counts() -> None:
    """R-UNIT-2: a gap of at most 0.01 in is base contact."""
    sit = Situation.of_scenario(duel(5 + CONTACT + 0.009))
    assert close_combat_contact(sit, "knight", "mutant") is None


def test_climbing_target_within_orange_above_can_be_fought() -> None:
    """R-CLIMB-3: a climbing model can be attacked by an enemy within Orange above or below."""
    base = Situation.of_scenario(duel(5 + CONTACT))
    raised = dict(base.positions)
    raised["mutant"] = Position(5 + CONTACT, 10.0, 1.5)
    sit = Situation(base.scenario, raised, base.sides, frozenset({"mutant"}))
    assert close_combat_contact(sit, "knight", "mutant") is None
    not_climbing = Situation(base.scenario, raised, base.sides)
    assert "same height" in (close_combat_contact(not_climbing, "knight", "mutant") or "")
    raised["mutant"] = Position(5 + CONTACT, 10.0, 2.5)
    far = Situation(base.scenario, raised, base.sides, frozenset({"mutant"}))
    assert "at most Orange" in (close_combat_contact(far, "knight", "mutant") or "")


def test_climbing_model_cannot_fight() -> None:
    """R-CLIMB-3: no attacks while climbing."""
    state = at_activation(duel(5 + CONTACT), "knight")
    ActionContext(state).set_climbing("knight", True)
    why = state.why_illegal(CloseCombat("knight", "mutant", "power_fist"))
    assert why is not None and "climbing" in why.reason


def test_charge_ends_with_a_close_combat_attack() -> None:
    """A charge that reaches its target attacks with the first close-combat weapon."""
    end_x = 10.0 - CONTACT
    state = at_activation(duel(10.0), "knight", [
        skill(2), face("damage", "damage", "damage"), face("armor-reduction", "armor-reduction"),
    ])
    state.apply(parse_action(f"charge knight mutant {end_x!r} 10.0"))
    kinds = [e.kind for e in state.events]
    i = kinds.index("charged")
    assert kinds[i + 1:i + 4] == ["attack", "dice", "hit"]
    attack = state.events[i + 1]
    assert attack.data["weapon"] == "power_fist"
    # 3 + 2 damage symbols, armor 1 - 1 = 0: no armor roll, 5 damage: eliminated.
    assert state.model("mutant").health == 0
    assert state.result is not None and state.result.winner == "bos"


def test_sample_close_combat_actions_are_listed_in_contact() -> None:
    state = at_activation(duel(5 + CONTACT), "knight")
    listed = [str(a) for a in state.legal_actions() if isinstance(a, CloseCombat)]
    assert listed == ["close-combat knight mutant power_fist"]
