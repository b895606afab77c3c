"""Exact odds of an attack before it is made: success and damage dealt.

Computed from the dice faces in rules data, never by simulation: the effect
dice are convolved into a distribution of the three counts that matter
(accuracy, damage, armor reduction + armor breaks), each count gives the
chance of the skill test exactly (the die is uniform) and the armor die is
enumerated face by face. Probabilities are exact fractions; the same
:class:`~sim.resolution.attack.AttackProfile` drives :func:`sim.resolution.attack.resolve_attack`.

Examples
--------
>>> from sim.resolution.attack import AttackProfile
>>> from sim.scenario.rules import default_rules
>>> p = AttackProfile("rifle", "P", 7, 0, (), 3, "energy", 0)
>>> odds = attack_odds(p, default_rules())
>>> odds.p_success, dict(odds.damage)
(Fraction(7, 20), {0: Fraction(13, 20), 3: Fraction(7, 20)})
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from sim.resolution.attack import AttackProfile
from sim.resolution.damage import blocked_by_roll, count, effective_armor, needs_armor_roll
from sim.scenario.rules import RulesData

# (accuracy, damage, armor reduction + armor breaks) rolled on the effect dice.
Counts = tuple[int, int, int]


def face_counts(face: Iterable[str]) -> Counts:
    """The symbol counts of one face that change an attack."""
    syms = tuple(face)
    return (count(syms, "accuracy"), count(syms, "damage"),
            count(syms, "armor-reduction") + count(syms, "nuka"))


def effect_ways(rules: RulesData, kinds: Iterable[str]) -> tuple[dict[Counts, int], int]:
    """In how many of the equally likely face combinations each count total occurs.

    Returns the ways per (accuracy, damage, lowered) total and the number of
    combinations. Integers throughout: every die is uniform, so exact
    probabilities are ways / combinations (no fraction arithmetic in the loop).
    """
    ways: dict[Counts, int] = {(0, 0, 0): 1}
    combos = 1
    for kind in kinds:
        faces = rules.effect_faces[kind]
        one: dict[Counts, int] = defaultdict(int)
        for face in faces:
            one[face_counts(face)] += 1
        nxt: dict[Counts, int] = defaultdict(int)
        for (a, d, r), w in ways.items():
            for (a2, d2, r2), w2 in one.items():
                nxt[(a + a2, d + d2, r + r2)] += w * w2
        ways = dict(nxt)
        combos *= len(faces)
    return ways, combos


def skill_ways(target: int, accuracy: int, sides: int) -> int:
    """Faces of a die of ``sides`` that, minus ``accuracy``, are at most ``target``."""
    return min(sides, max(0, target + accuracy))


def dealt_ways(
    rules: RulesData, total: int, armor: int, lowered: int, cover_bonus: int, armor_boost: int
) -> dict[int, int]:
    """Damage dealt by one hit of ``total`` points, counted over the armor die's faces.

    Every face counts once (a hit that needs no armor roll counts all faces
    for its one result), so the weights always sum to the number of faces.
    """
    eff = effective_armor(armor, cover_bonus, lowered)
    out: dict[int, int] = defaultdict(int)
    roll = needs_armor_roll(total, eff)
    for face in rules.armor_faces:
        left = total - (blocked_by_roll(face, eff, total) if roll else 0)
        out[left - min(armor_boost, left)] += 1
    return dict(out)


@dataclass(frozen=True)
class AttackOdds:
    """Exact chances of one attack: success, and damage dealt (0 includes misses)."""

    p_success: Fraction
    damage: Mapping[int, Fraction]

    @property
    def expected_damage(self) -> Fraction:
        return sum((k * p for k, p in self.damage.items()), Fraction(0))

    def p_at_least(self, points: int) -> Fraction:
        """Chance of dealing at least ``points`` damage (with ``health`` points: elimination)."""
        return sum((p for k, p in self.damage.items() if k >= points), Fraction(0))

    def to_json(self, health: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "p_success": float(self.p_success),
            "expected_damage": float(self.expected_damage),
            "damage_dealt": {str(k): float(p) for k, p in sorted(self.damage.items())},
        }
        if health is not None:
            out["p_eliminate"] = float(self.p_at_least(health))
        return out

    def lines(self, health: int | None = None) -> tuple[str, ...]:
        out = [f"success {_pct(self.p_success)}",
               f"expected damage {float(self.expected_damage):.2f}"]
        dist = ", ".join(f"{k}: {_pct(p)}" for k, p in sorted(self.damage.items()))
        out.append(f"damage dealt {dist}")
        if health is not None:
            out.append(f"eliminates (health {health}) {_pct(self.p_at_least(health))}")
        return tuple(out)


def _pct(p: Fraction) -> str:
    """A chance as a percentage; a small non-zero chance never prints as 0.0%."""
    if 0 < p < Fraction(1, 2000):
        return "<0.1%"
    return f"{float(p):.1%}"


def attack_odds(profile: AttackProfile, rules: RulesData) -> AttackOdds:
    """Exact odds of ``profile`` under ``rules`` (R-SHOOT-2, R-DMG-1, R-ARM-1..2)."""
    sides, faces = rules.skill_sides, len(rules.armor_faces)
    ways, combos = effect_ways(rules, profile.dice)
    # Integer weights out of combos * sides * faces equally likely outcomes.
    hits = 0
    dealt: dict[int, int] = defaultdict(int)
    cache: dict[tuple[int, int], dict[int, int]] = {}
    for (acc, dmg, lowered), w in ways.items():
        hit = w * skill_ways(profile.target, acc, sides)
        hits += hit
        dealt[0] += (w * sides - hit) * faces
        if hit == 0:
            continue
        key = (dmg, lowered)
        if key not in cache:
            cache[key] = dealt_ways(rules, profile.damage + dmg, profile.armor, lowered,
                                    profile.cover_bonus, profile.armor_boost)
        for points, v in cache[key].items():
            dealt[points] += hit * v
    total = combos * sides * faces
    return AttackOdds(Fraction(hits, combos * sides),
                      MappingProxyType({k: Fraction(v, total) for k, v in dealt.items() if v}))
