"""Damage and armor (R-DMG-1, R-ARM-1, R-ARM-2, R-COV-3, R-FALL-2)."""

from __future__ import annotations

import pytest

from sim.resolution.damage import resolve_damage, roll_damage, roll_fall_damage
from sim.scenario.rules import default_rules
from tests.dice_script import ScriptedRng, armor_face, effect_face

RULES = default_rules()


def test_seed_armor_example() -> None:
    """R-ARM-1 seed check: 5 damage, armor 3, armor roll 2 -> 3 damage."""
    r = resolve_damage(5, (), armor=3, armor_roll=2)
    assert (r.total, r.blocked, r.dealt) == (5, 2, 3)


def test_seed_fall_example_with_black_die() -> None:
    """R-FALL-2: fall within Red (4) + 1 damage symbol = 5; armor 3, roll 2: 3 damage."""
    rng = ScriptedRng([effect_face(RULES, "damage", ("damage",)), armor_face(RULES, 2)])
    fall = roll_fall_damage(rng, RULES, 4, 3)
    assert fall.damage.total == 5
    assert fall.damage.dealt == 3
    assert rng.remaining == 0


def test_fall_ignores_armor_reduction_but_counts_nuka() -> None:
    """R-FALL-2: Nuka-Cola is an armor break; other symbols are ignored."""
    rng = ScriptedRng([effect_face(RULES, "damage", ("armor-reduction",)), armor_face(RULES, 3)])
    assert roll_fall_damage(rng, RULES, 4, 3).damage.dealt == 1  # roll 3 <= armor 3
    rng = ScriptedRng([effect_face(RULES, "damage", ("nuka",)), armor_face(RULES, 3)])
    assert roll_fall_damage(rng, RULES, 4, 3).damage.dealt == 4  # roll 3 > armor 3-1


@pytest.mark.parametrize("roll, dealt", [(1, 4), (2, 3), (3, 2), (4, 5)])
def test_armor_roll_blocks_its_value_or_nothing(roll: int, dealt: int) -> None:
    """R-ARM-1: a roll at most the armor value blocks that many, otherwise none."""
    assert resolve_damage(5, (), armor=3, armor_roll=roll).dealt == dealt


def test_reduction_and_breaks_lower_armor() -> None:
    """R-ARM-1: armor-reduction and Nuka-Cola symbols lower the armor value for the roll."""
    r = resolve_damage(3, ("armor-reduction", "nuka"), armor=3, armor_roll=2)
    assert r.effective_armor == 1
    assert r.dealt == 3  # roll 2 > armor 1


def test_rulebook_cover_raises_armor_by_one() -> None:
    """R-COV-3 rulebook: +1 armor, so a roll of 4 now blocks against armor 3."""
    assert resolve_damage(5, (), armor=3, armor_roll=4).dealt == 5
    assert resolve_damage(5, (), armor=3, armor_roll=4, cover_bonus=1).dealt == 1


def test_vts_armor_boost_blocks_one_more_whatever_the_roll() -> None:
    """R-ARM-2: an Armor Boost blocks one more point after the roll."""
    assert resolve_damage(5, (), armor=3, armor_roll=4, armor_boost=1).dealt == 4
    assert resolve_damage(5, (), armor=3, armor_roll=2, armor_boost=1).dealt == 2


def test_damage_symbols_add_one_each() -> None:
    """R-DMG-1: base damage + 1 per damage symbol."""
    r = resolve_damage(2, ("damage", "damage", "accuracy", "special"), armor=0, armor_roll=None)
    assert r.total == 4 and r.dealt == 4


def test_blocking_never_heals() -> None:
    """Armor blocks at most the damage there is."""
    r = resolve_damage(1, (), armor=4, armor_roll=3, armor_boost=1)
    assert r.dealt == 0 and r.blocked == 1 and r.boosted == 0


def test_no_armor_roll_without_armor_or_damage() -> None:
    """Decision: no armor roll when the armor value is 0 or there is no damage."""
    rng = ScriptedRng([])
    assert roll_damage(rng, RULES, 3, ("nuka",), armor=1).dealt == 3
    assert roll_damage(rng, RULES, 0, (), armor=3).armor_roll is None


def test_explanation_names_every_step() -> None:
    text = str(resolve_damage(4, ("damage",), armor=3, armor_roll=2, cover_bonus=1,
                              damage_type="energy"))
    assert "energy armor 3 +1 cover = 4" in text
    assert "armor roll 2 <= 4: blocks 2" in text
    assert "3 damage dealt" in text
