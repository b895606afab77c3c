"""Dice from rules data: the d20 skill die, the d12 effect dice, the armor die.

R-DICE-1, R-ARM-1, R-ALL-1. The faces are rules data (``[dice]`` in
``sim/data/rules.toml``, replaceable by a scenario's ``[rules_data.dice]``); the
shipped faces are house defaults. Every roll asks one seeded generator for
``randint(1, faces)`` and maps the result to a face, so a game replays
exactly from its seed, and a test can script the dice with
:class:`tests.dice_script.ScriptedRng`.

Examples
--------
>>> from sim.scenario.rules import default_rules
>>> from tests.dice_script import ScriptedRng, armor_face, effect_face, skill_face
>>> rules = default_rules()
>>> rng = ScriptedRng([skill_face(rules, 7), effect_face(rules, "damage", ("damage",)),
...                    armor_face(rules, 2)])
>>> roll_skill(rng, rules), roll_effect(rng, rules, "damage"), roll_armor(rng, rules)
(7, ('damage',), 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.engine.rng import Rng
from sim.errors import WastelandError
from sim.scenario.rules import RulesData

#: What dice need from a generator: ``randint(lo, hi)``, both included
#: (:class:`sim.engine.rng.Rng`).
DiceRng = Rng


class UnknownDieError(WastelandError):
    """An effect die kind that the rules data does not define."""


def effect_faces(rules: RulesData, kind: str) -> tuple[tuple[str, ...], ...]:
    """The faces of one effect die kind (UnknownDieError when the rules lack it)."""
    faces = rules.effect_faces.get(kind)
    if faces is None:
        raise UnknownDieError(
            f"unknown effect die {kind!r}; known: {', '.join(sorted(rules.effect_faces))}"
        )
    return faces


def roll_skill(rng: DiceRng, rules: RulesData) -> int:
    """Roll the skill die (a d20 in the shipped rules data) (R-SHOOT-2)."""
    return rng.randint(1, rules.skill_sides)


def roll_effect(rng: DiceRng, rules: RulesData, kind: str) -> tuple[str, ...]:
    """Roll one effect die of ``kind`` and return the symbols on its face (R-DICE-1)."""
    faces = effect_faces(rules, kind)
    return faces[rng.randint(1, len(faces)) - 1]


def roll_effects(
    rng: DiceRng, rules: RulesData, kinds: Iterable[str]
) -> tuple[tuple[str, ...], ...]:
    """Roll several effect dice in the given order; one face (symbol tuple) each."""
    return tuple(roll_effect(rng, rules, k) for k in kinds)


def roll_armor(rng: DiceRng, rules: RulesData) -> int:
    """Roll the armor die and return the number it shows (R-ARM-1)."""
    faces = rules.armor_faces
    return faces[rng.randint(1, len(faces)) - 1]
