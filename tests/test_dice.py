"""Dice from rules data and the scripted-dice double (R-DICE-1, R-ARM-1, R-ALL-1)."""

from __future__ import annotations

import doctest
import importlib
import random
from collections import Counter

import pytest

from sim.resolution.dice import UnknownDieError, roll_armor, roll_effect, roll_effects, roll_skill
from sim.scenario.rules import EFFECT_DICE, default_rules, rules_with_overrides
from tests.dice_script import ScriptedRng, ScriptExhaustedError, armor_face, effect_face, skill_face

RULES = default_rules()


def test_skill_die_is_d20_from_rules_data() -> None:
    """R-DICE-1: the skill die has ``skill_sides`` faces, every one reachable."""
    rng = random.Random(1)
    seen = {roll_skill(rng, RULES) for _ in range(2000)}
    assert seen == set(range(1, 21))


def test_armor_die_faces_follow_the_public_estimate() -> None:
    """R-ARM-1: four 1s, three 2s, three 3s, two 4s (house default data)."""
    assert Counter(RULES.armor_faces) == {1: 4, 2: 3, 3: 3, 4: 2}
    rng = random.Random(2)
    assert {roll_armor(rng, RULES) for _ in range(500)} == {1, 2, 3, 4}


def test_every_effect_die_has_twelve_faces_and_rolls_a_face() -> None:
    """R-DICE-1: four d12 effect dice; a roll returns one face's symbol list."""
    rng = random.Random(3)
    for kind in EFFECT_DICE:
        assert len(RULES.effect_faces[kind]) == 12
        for _ in range(50):
            assert roll_effect(rng, RULES, kind) in RULES.effect_faces[kind]


def test_shipped_black_die_matches_public_estimate() -> None:
    """R-DICE-1: a damage symbol on 6 of 12 black faces; damage or reduction on 7."""
    faces = RULES.effect_faces["damage"]
    assert sum("damage" in f for f in faces) == 6
    assert sum("damage" in f or "armor-reduction" in f for f in faces) == 7
    assert RULES.dice_house_defaults


def test_scenario_can_replace_the_faces() -> None:
    """R-DICE-1: a scenario's [rules.dice] replaces the shipped faces."""
    rules = rules_with_overrides(
        {"dice": {"armor_faces": [4, 4], "effect": {"damage": [["nuka"]]}}}, "x.toml"
    )
    rng = random.Random(4)
    assert {roll_armor(rng, rules) for _ in range(20)} == {4}
    assert roll_effect(rng, rules, "damage") == ("nuka",)


def test_unknown_effect_die_is_refused_by_name() -> None:
    with pytest.raises(UnknownDieError, match="'purple'"):
        roll_effect(random.Random(0), RULES, "purple")


def test_same_seed_same_rolls() -> None:
    """R-ALL-1: a seeded generator replays the same dice."""
    kinds = ["accuracy", "armor-reduction", "damage"]
    a, b = random.Random(9), random.Random(9)
    assert [roll_effects(a, RULES, kinds) for _ in range(30)] == [
        roll_effects(b, RULES, kinds) for _ in range(30)
    ]


def test_scripted_rng_returns_the_scripted_faces_in_order() -> None:
    rng = ScriptedRng([
        skill_face(RULES, 7),
        effect_face(RULES, "accuracy", ("accuracy", "accuracy")),
        effect_face(RULES, "armor-reduction", ()),
        armor_face(RULES, 4),
    ])
    assert roll_skill(rng, RULES) == 7
    assert roll_effect(rng, RULES, "accuracy") == ("accuracy", "accuracy")
    assert roll_effect(rng, RULES, "armor-reduction") == ()
    assert roll_armor(rng, RULES) == 4
    assert rng.remaining == 0


def test_scripted_rng_catches_a_die_rolled_out_of_order() -> None:
    rng = ScriptedRng([armor_face(RULES, 2)])
    with pytest.raises(ScriptExhaustedError, match="d12"):
        roll_skill(rng, RULES)


def test_scripted_rng_refuses_to_run_past_its_script() -> None:
    rng = ScriptedRng([3])
    assert roll_skill(rng, RULES) == 3
    with pytest.raises(ScriptExhaustedError, match="exhausted"):
        roll_skill(rng, RULES)


def test_scripting_a_face_the_die_lacks_is_an_error() -> None:
    with pytest.raises(ValueError, match="no armor die face"):
        armor_face(RULES, 5)
    with pytest.raises(ValueError, match="no 'accuracy' face"):
        effect_face(RULES, "accuracy", ("nuka",))


@pytest.mark.parametrize("name", ["sim.resolution.dice", "sim.resolution.damage",
                                  "sim.resolution.attack", "sim.resolution.odds"])
def test_docstring_examples(name: str) -> None:
    """The examples in the combat modules' docstrings run as written."""
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
