"""Exact shot odds against exhaustive enumeration and seeded simulation (R-SHOOT-2, R-DMG-1)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from sim.engine.rng import SeededRng
from sim.resolution.attack import AttackProfile, resolve_attack
from sim.resolution.odds import attack_odds
from sim.scenario.rules import default_rules, rules_with_overrides
from tests.dice_script import ScriptedRng

RULES = default_rules()

# Several set-ups: the seed's plasma rifle at short and long range, a heavily
# covered shot (skill floored at 1), rulebook cover bonus, vts armor boost,
# a melee blow with three dice.
SETUPS = {
    "plasma-short": AttackProfile("rifle", "P", 7, 0, ("accuracy", "armor-reduction"), 3,
                                  "energy", 2),
    "plasma-long": AttackProfile("rifle", "P", 7, 0, ("damage",), 3, "energy", 2),
    "deep-cover": AttackProfile("rifle", "P", 4, -6, ("accuracy",), 2, "physical", 3,
                                cover_bonus=1),
    "vts-boost": AttackProfile("pistol", "A", 9, -2, ("damage", "armor-reduction"), 2,
                               "physical", 3, armor_boost=1),
    "melee-3": AttackProfile("melee", "S", 12, 0, ("damage", "damage", "accuracy"), 4,
                             "physical", 4),
}


def test_no_dice_is_plain_fraction() -> None:
    """R-SHOOT-2: with no effect dice the chance is target/20 (hand computed)."""
    p = AttackProfile("rifle", "P", 7, 0, (), 3, "energy", 0)
    odds = attack_odds(p, RULES)
    assert odds.p_success == Fraction(7, 20)
    assert dict(odds.damage) == {0: Fraction(13, 20), 3: Fraction(7, 20)}


def test_armor_roll_by_hand() -> None:
    """R-ARM-1: 5 damage vs armor 3 on the 4/3/3/2 die: blocks 1 (4/12), 2 (3/12), 3 (3/12)."""
    p = AttackProfile("rifle", "P", 20, 0, (), 5, "physical", 3)
    odds = attack_odds(p, RULES)
    assert odds.p_success == 1
    assert dict(odds.damage) == {4: Fraction(4, 12), 3: Fraction(3, 12), 2: Fraction(3, 12),
                                 5: Fraction(2, 12)}


def test_modified_skill_never_below_one() -> None:
    """R-SHOOT-2: -8 cover on PER 4 still succeeds on a natural 1 (no dice)."""
    p = AttackProfile("rifle", "P", 4, -8, (), 1, "physical", 0)
    assert p.target == 1
    assert attack_odds(p, RULES).p_success == Fraction(1, 20)


def test_accuracy_lowers_the_die_by_hand() -> None:
    """House default: each accuracy symbol lowers the skill die result by 1."""
    rules = rules_with_overrides({"dice": {"effect": {"accuracy": [["accuracy"], []]}}}, "t")
    p = AttackProfile("rifle", "P", 7, 0, ("accuracy",), 1, "physical", 0)
    assert attack_odds(p, rules).p_success == Fraction(1, 2) * Fraction(8, 20) + Fraction(
        1, 2) * Fraction(7, 20)


@pytest.mark.parametrize("name", ["plasma-short", "plasma-long", "deep-cover", "vts-boost"])
def test_odds_equal_exhaustive_enumeration_of_the_real_resolution(name: str) -> None:
    """Every combination of faces, resolved by the game's own code, weighs the same."""
    profile = SETUPS[name]
    sides = [RULES.skill_sides] + [len(RULES.effect_faces[k]) for k in profile.dice] + [
        len(RULES.armor_faces)]
    total = math.prod(sides)
    hits, dealt = 0, Counter[int]()
    for combo in itertools.product(*(range(1, s + 1) for s in sides)):
        out = resolve_attack(ScriptedRng(combo), RULES, profile)
        hits += out.success
        dealt[out.dealt] += 1
    odds = attack_odds(profile, RULES)
    assert odds.p_success == Fraction(hits, total)
    assert dict(odds.damage) == {k: Fraction(v, total) for k, v in dealt.items()}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_odds_match_100k_seeded_shots(name: str) -> None:
    """The preview equals the frequency over 100,000 seeded shots within 3 standard errors."""
    profile = SETUPS[name]
    odds = attack_odds(profile, RULES)
    rng = SeededRng(20261130)  # the game's own generator (R-ALL-1)
    n = 100_000
    hits, dealt = 0, Counter[int]()
    for _ in range(n):
        out = resolve_attack(rng, RULES, profile)
        hits += out.success
        dealt[out.dealt] += 1
    p = float(odds.p_success)
    assert abs(hits / n - p) <= 3 * math.sqrt(p * (1 - p) / n) + 1e-12
    # Expected damage, too: the sample mean within 3 standard errors.
    mean = float(odds.expected_damage)
    var = sum(float(q) * (k - mean) ** 2 for k, q in odds.damage.items())
    sample = sum(k * v for k, v in dealt.items()) / n
    assert abs(sample - mean) <= 3 * math.sqrt(var / n) + 1e-12
    assert set(dealt) <= set(odds.damage)


def test_more_cover_never_raises_the_odds() -> None:
    """R-COV-2/3: each cover step lowers success and expected damage."""
    prev = None
    for mod in range(0, -10, -2):
        p = AttackProfile("rifle", "P", 8, mod, ("accuracy",), 3, "physical", 2,
                          cover_bonus=1 if mod else 0)
        odds = attack_odds(p, RULES)
        if prev is not None:
            assert odds.p_success <= prev.p_success
            assert odds.expected_damage <= prev.expected_damage
        prev = odds
