"""One attack as a skill test with effect dice, then damage (R-SHOOT-2, R-DMG-1, R-ARM-1..2).

Shooting and close combat both reduce to an :class:`AttackProfile` (who
rolls what against which armor) resolved by :func:`resolve_attack`; the shot
preview (:mod:`sim.resolution.odds`) reads the same profile, so the odds and the game
can never disagree about the rules. Nothing here knows positions or the
game state.

Order of the dice (fixed, so scripted tests and replays agree): the skill
die, then the effect dice in the order the weapon lists them, then, on a
hit, the armor die (only when it can matter, :func:`sim.resolution.damage.needs_armor_roll`).

Examples
--------
The seed's plasma rifle: PER 7, no cover, short band (accuracy + armor reduction).

>>> from sim.scenario.rules import default_rules
>>> from tests.dice_script import ScriptedRng, skill_face, effect_face, armor_face
>>> rules = default_rules()
>>> p = AttackProfile("rifle", "P", 7, 0, ("accuracy", "armor-reduction"), 3, "energy", 2)
>>> p.target
7
>>> rng = ScriptedRng([skill_face(rules, 8), effect_face(rules, "accuracy", ("accuracy",)),
...                    effect_face(rules, "armor-reduction", ()), armor_face(rules, 2)])
>>> out = resolve_attack(rng, rules, p)
>>> out.result, out.success, out.damage.dealt if out.damage else None
(7, True, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.resolution.damage import DamageResult, count, roll_damage
from sim.resolution.dice import DiceRng, roll_effects, roll_skill
from sim.scenario.rules import RulesData


@dataclass(frozen=True)
class AttackProfile:
    """Everything a skill-test attack rolls and what it rolls against.

    ``modifier`` is the sum of skill modifiers (cover: -2 per object,
    R-COV-2); ``cover_bonus`` and ``armor_boost`` are the cover's armor
    effect for the rule set (R-COV-3).
    """

    skill: str
    attribute_letter: str
    attribute: int
    modifier: int
    dice: tuple[str, ...]
    damage: int
    damage_type: str
    armor: int
    cover_bonus: int = 0
    armor_boost: int = 0
    min_value: int = 1  # rules data min_skill_value (R-SHOOT-2)

    @property
    def target(self) -> int:
        """Modified skill value: succeed on a result at most this (R-SHOOT-2)."""
        return max(self.min_value, self.attribute + self.modifier)

    def describe(self) -> str:
        """One line: the skill value with its modifiers, the dice and the damage."""
        value = f"{self.skill} ({self.attribute_letter} {self.attribute}"
        if self.modifier:
            value += f" {self.modifier:+d}"
            if self.attribute + self.modifier < self.min_value:
                value += f", never below {self.min_value}"
        value += f") needs {self.target} or less"
        dice = ", ".join(self.dice) or "no effect dice"
        armor = f"{self.damage_type} armor {self.armor}"
        if self.cover_bonus:
            armor += f" +{self.cover_bonus} cover"
        if self.armor_boost:
            armor += f", {self.armor_boost} armor boost"
        return f"{value}; dice: {dice}; damage {self.damage} vs {armor}"


@dataclass(frozen=True)
class AttackOutcome:
    """What one attack rolled and did."""

    profile: AttackProfile
    skill_roll: int
    effects: tuple[tuple[str, tuple[str, ...]], ...]  # (die kind, face symbols)
    damage: DamageResult | None  # None on a miss

    @property
    def symbols(self) -> tuple[str, ...]:
        return tuple(s for _, face in self.effects for s in face)

    @property
    def accuracy(self) -> int:
        """Accuracy symbols rolled: each lowers the skill die result by 1 (house default)."""
        return count(self.symbols, "accuracy")

    @property
    def result(self) -> int:
        """The skill die result after accuracy."""
        return self.skill_roll - self.accuracy

    @property
    def success(self) -> bool:
        return skill_succeeds(self.skill_roll, self.accuracy, self.profile.target)

    @property
    def dealt(self) -> int:
        return 0 if self.damage is None else self.damage.dealt

    def lines(self) -> tuple[str, ...]:
        """Human-readable log lines: every roll, modifier and the outcome."""
        p = self.profile
        out = [p.describe()]
        roll = f"skill die {self.skill_roll}"
        if self.accuracy:
            roll += f" -{self.accuracy} accuracy = {self.result}"
        roll += f" vs {p.target}: {'success' if self.success else 'failure'}"
        out.append(roll)
        for kind, face in self.effects:
            out.append(f"{kind} die: {', '.join(face) or 'blank'}")
        if self.damage is not None:
            out.append(str(self.damage))
        return tuple(out)


def skill_succeeds(roll: int, accuracy: int, target: int) -> bool:
    """A skill test succeeds when the die minus accuracy is at most the value (R-SHOOT-2)."""
    return roll - accuracy <= target


def resolve_attack(rng: DiceRng, rules: RulesData, profile: AttackProfile) -> AttackOutcome:
    """Roll the skill die and the effect dice; on success, the damage (R-SHOOT-2, R-DMG-1)."""
    skill = roll_skill(rng, rules)
    faces = roll_effects(rng, rules, profile.dice)
    effects = tuple(zip(profile.dice, faces, strict=True))
    symbols = tuple(s for face in faces for s in face)
    damage = None
    if skill_succeeds(skill, count(symbols, "accuracy"), profile.target):
        damage = roll_damage(
            rng, rules, profile.damage, symbols, profile.armor,
            damage_type=profile.damage_type, cover_bonus=profile.cover_bonus,
            armor_boost=profile.armor_boost,
        )
    return AttackOutcome(profile, skill, effects, damage)
