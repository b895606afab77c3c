"""The dice of one attack as a typed record, read back from the engine's events.

:func:`sim.combat.plan.roll_attack` logs an attack as an ``attack`` event (the
skill value it rolls against), a ``dice`` event (the skill die and the effect
dice) and a ``hit`` or ``missed`` event (the armor roll and the damage), each
with its values in ``Event.data``. :func:`attack_rolls` gathers them into one
:class:`AttackRoll` per attack, so a picture of the dice (the window's dice
card, issue 16) reads numbers, never the sentences (R-SHOOT-2, R-DMG-1,
R-ARM-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sim.engine.gamedata import Event


@dataclass(frozen=True)
class AttackRoll:
    """What one attack rolled: the d20 against its target number, the effect
    dice with their symbols, the armor roll and the damage dealt."""

    round: int
    attacker: str
    target: str
    weapon: str
    target_number: int  # succeed on a result at most this (R-SHOOT-2)
    skill_roll: int  # the d20 as rolled
    accuracy: int  # accuracy symbols: each lowers the result by 1
    result: int  # the d20 after accuracy
    effects: tuple[tuple[str, tuple[str, ...]], ...]  # (die kind, face symbols)
    hit: bool
    damage_total: int = 0  # damage before armor (R-DMG-1); 0 on a miss
    armor_roll: int | None = None  # None: no roll was needed, or a miss
    effective_armor: int = 0
    dealt: int = 0


def _effects(data: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((str(kind), tuple(str(s) for s in face)) for kind, face in data["effects"])


def attack_rolls(events: Iterable[Event]) -> tuple[AttackRoll, ...]:
    """One :class:`AttackRoll` per attack logged in ``events``, in order.

    An attack whose events are cut off (``events`` a slice ending mid-attack)
    is left out.
    """
    return tuple(rolls_by_event(events).values())


def rolls_by_event(events: Iterable[Event]) -> dict[int, AttackRoll]:
    """Each attack's :class:`AttackRoll`, keyed by the index of its last event (hit or missed)."""
    out: dict[int, AttackRoll] = {}
    attack: Event | None = None
    dice: Event | None = None
    for i, e in enumerate(events):
        if e.kind == "attack":
            attack, dice = e, None
        elif e.kind == "dice" and attack is not None:
            dice = e
        elif e.kind in ("hit", "missed") and attack is not None and dice is not None:
            out[i] = _record(attack, dice, e)
            attack = dice = None
    return out


def _record(attack: Event, dice: Event, end: Event) -> AttackRoll:
    a, d, h = attack.data, dice.data, end.data
    hit = end.kind == "hit"
    return AttackRoll(
        round=attack.round, attacker=attack.models[0], target=attack.models[1],
        weapon=str(a["weapon"]), target_number=int(a["target_number"]),
        skill_roll=int(d["skill_roll"]), accuracy=int(d["accuracy"]), result=int(d["result"]),
        effects=_effects(d), hit=hit,
        damage_total=int(h["total"]) if hit else 0,
        armor_roll=None if not hit or h["armor_roll"] is None else int(h["armor_roll"]),
        effective_armor=int(h["effective_armor"]) if hit else 0,
        dealt=int(h["dealt"]) if hit else 0)
