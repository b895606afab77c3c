"""Scenario loader, part two: unit and weapon cards (``[units.ID]``, ``[weapons.ID]``).

Colours are checked against the scenario's own rules data (its
``[rules_data] rulers`` included), so a card that names a ruler the
scenario removed is refused by ``check``, never found later in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from sim.scenario.format.limits import MAX_BASE_MM, MIN_BASE_MM
from sim.scenario.format.validate import Checker, is_kind, join, known, show
from sim.scenario.objects import Armor, Unit, Weapon
from sim.scenario.rules import DAMAGE_TYPES, EFFECT_DICE, RulesData

SPECIAL = ("S", "P", "E", "C", "I", "A", "L")
WEAPON_EFFECTS = ("push_back",)
UNIT_KEYS = ("name", "base", "move", "charge", "special", "skills", "health", "armor",
             "keywords", "weapons")
WEAPON_KEYS = ("name", "skill", "short", "long", "short_dice", "long_dice", "damage",
               "damage_type", "effects")


class LibraryLoader(Checker):
    """Reads the unit and weapon cards of one file into shared dictionaries."""

    def library(self, raw: Mapping[str, Any], path: str, units: dict[str, Unit],
                weapons: dict[str, Weapon]) -> None:
        """Add the cards of ``raw`` (``path``: its key prefix, "" for a file's top)."""
        for wid, table in self.table_of_tables(raw, "weapons").items():
            if wid in weapons:
                self.bad(join(join(path, "weapons"), wid), f"duplicate weapon id {wid!r}")
                continue
            weapon = self.weapon(wid, table)
            if weapon is None:
                self.broken.add(wid)
            else:
                weapons[wid] = weapon
        for uid, table in self.table_of_tables(raw, "units").items():
            if uid in units:
                self.bad(join(join(path, "units"), uid), f"duplicate unit id {uid!r}")
                continue
            unit = self.unit(uid, table)
            if unit is None:
                self.broken.add(uid)
            else:
                units[uid] = unit

    def table_of_tables(self, raw: Mapping[str, Any], name: str) -> dict[str, dict[str, Any]]:
        """``[name.ID]`` tables whose ids are valid; every other entry a problem."""
        table = raw.get(name, {})
        if not isinstance(table, dict):
            self.bad(name, f"expected a table of [{name}.ID] tables, got {show(table)}")
            return {}
        out = {}
        for k, v in table.items():
            if not self.check_id(k, join(name, k)):
                self.broken.add(k)
            elif isinstance(v, dict):
                out[k] = v
            else:
                self.bad(join(name, k), f"expected a table, got {show(v)}")
        return out

    def weapon(self, wid: str, t: dict[str, Any]) -> Weapon | None:
        path = join("weapons", wid)
        n = len(self.problems)
        self.unknown_keys(t, WEAPON_KEYS, path)
        name = self.get_name(t, path)
        skill = self.get(t, "skill", path, "a skill name")
        if skill is not None:
            self.check_id(skill, f"{path}.skill")
        short = self.colour(t, "short", path)
        long = self.colour(t, "long", path, required=False)
        short_dice = self.dice_list(t, "short_dice", path)
        long_dice = self.dice_list(t, "long_dice", path)
        if "long" not in t and long_dice:
            self.bad(f"{path}.long_dice", "long_dice given but the weapon has no long range")
        damage = self.get(t, "damage", path, "a non-negative integer")
        dtype = self.get(t, "damage_type", path, "a damage type")
        if dtype is not None and dtype not in DAMAGE_TYPES:
            self.bad(f"{path}.damage_type",
                     f"unknown damage type {show(dtype)}; known: {known(DAMAGE_TYPES)}")
        effects = self.get(t, "effects", path, "a table", required=False, default={}) or {}
        for k in effects:
            if k not in WEAPON_EFFECTS:
                self.bad(join(f"{path}.effects", k),
                         f"unknown weapon effect; known: {known(WEAPON_EFFECTS)}")
            elif k == "push_back":
                self.colour(effects, k, f"{path}.effects")
        if len(self.problems) > n:
            return None
        return Weapon(id=wid, name=str(name), skill=skill, short=str(short),
                      long=long, short_dice=short_dice, long_dice=long_dice,
                      damage=int(damage), damage_type=dtype,
                      effects=MappingProxyType(dict(effects)))

    def dice_list(self, t: Mapping[str, Any], name: str, path: str) -> tuple[str, ...]:
        dice = self.get(t, name, path, "a list of effect dice kinds", required=False,
                        default=[]) or []
        for i, kind in enumerate(dice):
            if not isinstance(kind, str) or kind not in EFFECT_DICE:
                self.bad(f"{path}.{name}[{i}]",
                         f"unknown effect die {show(kind)}; known: {known(EFFECT_DICE)}")
        return tuple(str(k) for k in dice)

    def unit(self, uid: str, t: dict[str, Any]) -> Unit | None:
        path = join("units", uid)
        n = len(self.problems)
        self.unknown_keys(t, UNIT_KEYS, path)
        name = self.get_name(t, path)
        base = self.get(t, "base", path, "a positive number (mm)")
        if base is not None and not MIN_BASE_MM <= base <= MAX_BASE_MM:
            self.bad(f"{path}.base", f"expected a base diameter from {MIN_BASE_MM:g} to "
                     f"{MAX_BASE_MM:g} mm, got {show(base)}")
        move = self.colour(t, "move", path)
        charge = self.colour(t, "charge", path)
        special = self.special(t, path)
        skills = self.skills(t, path)
        health = self.get(t, "health", path, "a positive integer")
        armor_t = self.get(t, "armor", path, "a table {physical, energy, radiation}") or {}
        for dtype in DAMAGE_TYPES:
            if not is_kind(armor_t.get(dtype), "a non-negative integer"):
                self.bad(f"{path}.armor.{dtype}", "expected a non-negative integer")
        self.unknown_keys(armor_t, DAMAGE_TYPES, f"{path}.armor")
        keywords = self.get_list_of_str(t, "keywords", path, "a list of keywords")
        weapons = self.get_list_of_str(t, "weapons", path, "a list of weapon ids")
        if len(self.problems) > n:
            return None
        return Unit(
            id=uid, name=str(name), base=float(base), move=str(move), charge=str(charge),
            special=MappingProxyType({k: int(special[k]) for k in SPECIAL}),
            skills=MappingProxyType(dict(skills)), health=int(health),
            armor=Armor(**{d: int(armor_t[d]) for d in DAMAGE_TYPES}),
            keywords=frozenset(keywords), weapons=tuple(weapons),
        )

    def special(self, t: Mapping[str, Any], path: str) -> Mapping[str, Any]:
        special: Mapping[str, Any] = self.get(t, "special", path,
                                              "a table {S, P, E, C, I, A, L}") or {}
        for letter in SPECIAL:
            if not is_kind(special.get(letter), "a positive integer"):
                self.bad(f"{path}.special.{letter}", "expected a positive integer")
        for letter in special:
            if letter not in SPECIAL:
                self.bad(join(f"{path}.special", letter),
                         f"unknown attribute; expected one of {known(SPECIAL)}")
        return special

    def skills(self, t: Mapping[str, Any], path: str) -> Mapping[str, str]:
        skills: Mapping[str, Any] = self.get(t, "skills", path,
                                             "a table skill -> attribute letter",
                                             required=False, default={}) or {}
        for skill, letter in skills.items():
            where = join(f"{path}.skills", skill)
            if self.check_id(skill, where) and (not isinstance(letter, str)
                                                or letter not in SPECIAL):
                self.bad(where, f"expected an attribute letter, one of {known(SPECIAL)}; "
                         f"got {show(letter)}")
        return skills

    def check_unit_refs(self, units: Mapping[str, Unit], weapons: Mapping[str, Weapon],
                        rules: RulesData | None = None) -> None:
        """Keyword and weapon ids are checked once all libraries are in."""
        keywords = (rules or self.rules).keywords
        for uid, unit in units.items():
            for i, kw in enumerate(sorted(unit.keywords)):
                if kw not in keywords:
                    self.bad(f"{join('units', uid)}.keywords[{i}]",
                             f"unknown keyword {kw!r}; known: {known(keywords)}")
            for i, wid in enumerate(unit.weapons):
                if wid not in weapons and wid not in self.broken:
                    self.bad(f"{join('units', uid)}.weapons[{i}]",
                             f"unknown weapon {wid!r}; known: {known(weapons)}")
