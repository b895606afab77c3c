"""Scripted dice for tests: a generator double that answers from a script.

:class:`ScriptedRng` implements the game generator's protocols
(:class:`sim.engine.rng.GameRng`), so a whole game can run on it; ``skill_face``,
``effect_face`` and ``armor_face`` script a die by what it shows, from the rules data
(R-DICE-1). Test code only: it moved out of sim/ (issue 15).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sim.resolution.dice import effect_faces
from sim.scenario.rules import RulesData


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
    faces = effect_faces(rules, kind)
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


