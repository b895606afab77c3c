"""One damage resolution for shots, close combat and falls (R-DMG-1, R-ARM-1..2, R-FALL-2).

A hit deals base damage plus 1 per damage symbol. The armor value of the
damage type is lowered by 1 per armor-reduction symbol and per Nuka-Cola
symbol (armor break), raised by the rulebook cover bonus (R-COV-3), never
below 0. The armor roll blocks as many points as it shows when it shows at
most that value, otherwise none (R-ARM-1). In ``vts-1.5`` an Armor Boost
then blocks one more point each, whatever the roll (R-ARM-2, house default).

Examples
--------
The seed's fall example (R-FALL-2): 4 + 1 damage symbol, armor 3, roll 2.

>>> r = resolve_damage(4, ("damage",), armor=3, armor_roll=2)
>>> r.total, r.blocked, r.dealt
(5, 2, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sim.resolution.dice import DiceRng, roll_armor, roll_effect
from sim.scenario.rules import RulesData

# Symbols a fall counts (R-FALL-2: "all other symbols are ignored").
FALL_SYMBOLS = frozenset({"damage", "nuka"})


def count(symbols: Iterable[str], symbol: str) -> int:
    """How many times ``symbol`` appears among rolled symbols."""
    return sum(1 for s in symbols if s == symbol)


@dataclass(frozen=True)
class DamageResult:
    """How much damage one hit dealt and why (a value; ``str()`` explains it)."""

    base: int
    damage_symbols: int
    armor: int  # the target's armor value for the damage type
    damage_type: str
    cover_bonus: int  # rulebook cover, +1 once (R-COV-3)
    reductions: int  # armor-reduction symbols
    breaks: int  # Nuka-Cola symbols (armor breaks)
    armor_roll: int | None  # None: no roll was needed
    blocked: int  # points the armor roll blocked
    armor_boost: int  # vts-1.5 cover (R-ARM-2)
    boosted: int  # points the armor boost blocked
    dealt: int

    @property
    def total(self) -> int:
        """Damage before armor (R-DMG-1)."""
        return self.base + self.damage_symbols

    @property
    def effective_armor(self) -> int:
        """The armor value the roll is compared with (R-ARM-1)."""
        return effective_armor(self.armor, self.cover_bonus, self.reductions, self.breaks)

    def __str__(self) -> str:
        parts = [f"damage {self.base}"]
        if self.damage_symbols:
            parts.append(f"+{self.damage_symbols} damage symbol(s) = {self.total}")
        arm = f"{self.damage_type} armor {self.armor}"
        if self.cover_bonus:
            arm += f" +{self.cover_bonus} cover"
        if self.reductions:
            arm += f" -{self.reductions} armor reduction"
        if self.breaks:
            arm += f" -{self.breaks} armor break"
        if self.cover_bonus or self.reductions or self.breaks:
            arm += f" = {self.effective_armor}"
        parts.append(arm)
        if self.armor_roll is None:
            parts.append("no armor roll")
        elif self.blocked:
            parts.append(f"armor roll {self.armor_roll} <= {self.effective_armor}: "
                         f"blocks {self.blocked}")
        else:
            parts.append(f"armor roll {self.armor_roll} > {self.effective_armor}: blocks nothing")
        if self.armor_boost:
            parts.append(f"armor boost blocks {self.boosted}")
        parts.append(f"{self.dealt} damage dealt")
        return ", ".join(parts)


def effective_armor(armor: int, cover_bonus: int = 0, reductions: int = 0, breaks: int = 0) -> int:
    """Armor value for the armor roll, never below 0 (R-ARM-1, R-COV-3)."""
    return max(0, armor + cover_bonus - reductions - breaks)


def needs_armor_roll(total: int, effective: int) -> bool:
    """An armor roll is made only when there is damage and armor to block it.

    Decision: with no damage or an armor value of 0 no roll could change the
    result, so none is made (a player would not pick up the die).
    """
    return total > 0 and effective > 0


def blocked_by_roll(roll: int, effective: int, total: int) -> int:
    """Points an armor roll blocks: the roll if at most the armor value, else 0 (R-ARM-1)."""
    return min(roll, total) if roll <= effective else 0


def resolve_damage(
    base: int,
    symbols: Iterable[str],
    armor: int,
    armor_roll: int | None,
    *,
    damage_type: str = "physical",
    cover_bonus: int = 0,
    armor_boost: int = 0,
) -> DamageResult:
    """Resolve one hit with a known armor roll (pure; see :func:`roll_damage`).

    ``symbols`` are every effect symbol that counts for this hit; accuracy
    and special symbols are ignored here. ``armor_roll`` is ignored (and
    reported as None) when :func:`needs_armor_roll` is false.
    """
    syms = tuple(symbols)
    dmg = count(syms, "damage")
    red = count(syms, "armor-reduction")
    brk = count(syms, "nuka")
    total = base + dmg
    eff = effective_armor(armor, cover_bonus, red, brk)
    roll = armor_roll if needs_armor_roll(total, eff) else None
    blocked = 0 if roll is None else blocked_by_roll(roll, eff, total)
    boosted = min(armor_boost, total - blocked)
    return DamageResult(
        base=base, damage_symbols=dmg, armor=armor, damage_type=damage_type,
        cover_bonus=cover_bonus, reductions=red, breaks=brk, armor_roll=roll,
        blocked=blocked, armor_boost=armor_boost, boosted=boosted,
        dealt=total - blocked - boosted,
    )


def roll_damage(
    rng: DiceRng,
    rules: RulesData,
    base: int,
    symbols: Iterable[str],
    armor: int,
    *,
    damage_type: str = "physical",
    cover_bonus: int = 0,
    armor_boost: int = 0,
) -> DamageResult:
    """Resolve one hit, rolling the armor die only when it can matter (R-ARM-1)."""
    syms = tuple(symbols)
    total = base + count(syms, "damage")
    eff = effective_armor(armor, cover_bonus, count(syms, "armor-reduction"), count(syms, "nuka"))
    roll = roll_armor(rng, rules) if needs_armor_roll(total, eff) else None
    return resolve_damage(base, syms, armor, roll, damage_type=damage_type,
                          cover_bonus=cover_bonus, armor_boost=armor_boost)


@dataclass(frozen=True)
class FallDamage:
    """A fall's black die and damage (R-FALL-2)."""

    black_die: tuple[str, ...]  # the face rolled, all symbols
    damage: DamageResult

    def __str__(self) -> str:
        face = ", ".join(self.black_die) or "blank"
        return f"black die [{face}]; {self.damage}"


def roll_fall_damage(rng: DiceRng, rules: RulesData, base: int, physical_armor: int) -> FallDamage:
    """Fall damage: roll one black (damage) die, then the armor roll (R-FALL-2).

    ``base`` is the fall table's value (R-FALL-1, R-JUMP-1); damage symbols
    add 1, Nuka-Cola symbols are armor breaks, other symbols are ignored; the
    armor is physical. Power armor and removal above Black are the caller's.

    Examples
    --------
    >>> from sim.scenario.rules import default_rules
    >>> from tests.dice_script import ScriptedRng, effect_face, armor_face
    >>> rules = default_rules()
    >>> rng = ScriptedRng([effect_face(rules, "damage", ("damage",)), armor_face(rules, 2)])
    >>> roll_fall_damage(rng, rules, 4, 3).damage.dealt
    3
    """
    face = roll_effect(rng, rules, "damage")
    counted = tuple(s for s in face if s in FALL_SYMBOLS)
    return FallDamage(face, roll_damage(rng, rules, base, counted, physical_armor))
