"""Dice from rules data: the d20 skill die, the d12 effect dice, the armor die.

R-DICE-1, R-ARM-1, R-ALL-1. The faces are rules data (``[dice]`` in
``sim/data/rules.toml``, replaceable by a scenario's ``[rules_data.dice]``); the
shipped faces are house defaults. Every roll asks one seeded generator for
``randint(1, faces)`` and maps the result to a face, so a game replays
exactly from its seed, and a test can script the dice with
:class:`ScriptedRng`.

Examples
--------
>>> from sim.scenario.rules import default_rules
>>> rules = default_rules()
>>> rng = ScriptedRng([skill_face(rules, 7), effect_face(rules, "damage", ("damage",)),
...                    armor_face(rules, 2)])
>>> roll_skill(rng, rules), roll_effect(rng, rules, "damage"), roll_armor(rng, rules)
(7, ('damage',), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sim.engine.rng import Rng
from sim.errors import WastelandError
from sim.scenario.rules import RulesData

#: What dice need from a generator: ``randint(lo, hi)``, both included
#: (:class:`sim.engine.rng.Rng`).
DiceRng = Rng


class UnknownDieError(WastelandError):
    """An effect die kind that the rules data does not define."""


def _effect_faces(rules: RulesData, kind: str) -> tuple[tuple[str, ...], ...]:
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
    faces = _effect_faces(rules, kind)
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


# --- scripted dice for tests -------------------------------------------------


@dataclass(frozen=True)
class ScriptedRoll:
    """One scripted generator answer: ``value`` out of ``1..sides``, with a label."""

    value: int
    sides: int
    label: str


class ScriptExhaustedError(AssertionError):
    """A scripted generator was asked for more rolls than scripted, or the wrong die."""


def skill_face(rules: RulesData, value: int) -> ScriptedRoll:
    """Script a skill die showing ``value``."""
    if not 1 <= value <= rules.skill_sides:
        raise ValueError(f"skill die shows 1..{rules.skill_sides}, not {value!r}")
    return ScriptedRoll(value, rules.skill_sides, f"skill {value}")


def effect_face(rules: RulesData, kind: str, symbols: Sequence[str]) -> ScriptedRoll:
    """Script an effect die of ``kind`` landing on the first face showing ``symbols``.

    Symbols compare as a multiset, so ``("damage", "nuka")`` matches a face
    listed as ``["nuka", "damage"]``; ``()`` is a blank face.
    """
    faces = _effect_faces(rules, kind)
    want = sorted(symbols)
    for i, face in enumerate(faces):
        if sorted(face) == want:
            return ScriptedRoll(i + 1, len(faces), f"{kind} {list(symbols)}")
    raise ValueError(f"no {kind!r} face shows {list(symbols)!r}")


def armor_face(rules: RulesData, value: int) -> ScriptedRoll:
    """Script the armor die landing on a face showing ``value``."""
    for i, face in enumerate(rules.armor_faces):
        if face == value:
            return ScriptedRoll(i + 1, len(rules.armor_faces), f"armor {value}")
    raise ValueError(f"no armor die face shows {value!r}")


class ScriptedRng:
    """A generator double that answers from a script, in order (tests only).

    Each answer is a plain int or a :class:`ScriptedRoll`; a ScriptedRoll also
    checks that the code asked for a die with that many sides, so a script
    written in the wrong order fails loudly instead of silently misreading.
    It implements the game generator's protocols (:class:`sim.engine.rng.GameRng`:
    ``randint``, ``getstate``, ``setstate``), so a whole game can run on it
    and undo restores the script position.
    """

    def __init__(self, script: Iterable[int | ScriptedRoll]) -> None:
        self._script: tuple[int | ScriptedRoll, ...] = tuple(script)
        self._next = 0

    @property
    def used(self) -> int:
        """How many scripted answers have been consumed."""
        return self._next

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next

    def randint(self, lo: int, hi: int) -> int:
        if self._next >= len(self._script):
            raise ScriptExhaustedError(
                f"script exhausted after {len(self._script)} rolls; asked for {lo}..{hi}"
            )
        item = self._script[self._next]
        self._next += 1
        if isinstance(item, ScriptedRoll):
            if hi - lo + 1 != item.sides:
                raise ScriptExhaustedError(
                    f"roll {self._next}: scripted {item.label!r} (d{item.sides}) "
                    f"but the code rolled {lo}..{hi}"
                )
            return lo + item.value - 1
        if not lo <= item <= hi:
            raise ScriptExhaustedError(f"roll {self._next}: scripted {item} outside {lo}..{hi}")
        return item

    def getstate(self) -> int:
        return self._next

    def setstate(self, state: int) -> None:
        self._next = state


