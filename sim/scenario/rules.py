"""Rules data: rulers, base sizes, fall table, dice faces (docs/rules.md).

The numbers live in ``sim/data/rules.toml``; this module reads them into an
immutable :class:`RulesData` and merges a scenario's ``[rules]`` overrides.
Nothing else in the code base holds a rules number.

Examples
--------
>>> rules = default_rules()
>>> rules.ruler("orange")
2.0
>>> rules.shorter("blue")
'green'
>>> rules.size_class(40.0)
'large'
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from sim.errors import ScenarioError
from sim.scenario.format.ids import id_problem, show
from sim.scenario.format.limits import (
    MAX_BASE_MM,
    MAX_RULER_INCHES,
    MAX_SMALL_COUNT,
    MAX_TOUCH_TOLERANCE,
    MIN_TOUCH_TOLERANCE,
)
from sim.scenario.format.table_checker import TableChecker

SIZE_CLASSES = ("normal", "large", "huge")
EFFECT_DICE = ("damage", "accuracy", "armor-reduction", "special")
SYMBOLS = ("damage", "nuka", "armor-reduction", "accuracy", "special")
RULE_SETS = ("rulebook", "vts-1.5")
DAMAGE_TYPES = ("physical", "energy", "radiation")
RULES_KEYS = ("mm_per_inch", "touch_tolerance", "actions_per_activation", "cover_modifier",
              "cover_armor_bonus", "cover_armor_boost", "min_skill_value", "keywords",
              "rulers", "base_sizes", "fall_damage", "dice")
DICE_KEYS = ("house_defaults", "skill_sides", "armor_faces", "effect")


@dataclass(frozen=True)
class RulesData:
    """Every number of the rules, read from rules data (never hard-coded)."""

    mm_per_inch: float
    touch_tolerance: float
    actions_per_activation: int
    cover_modifier: int
    cover_armor_bonus: int
    cover_armor_boost: int
    min_skill_value: int
    rulers: tuple[tuple[str, float], ...]
    large_mm: float
    huge_mm: float
    fall_damage: Mapping[str, int]
    skill_sides: int
    armor_faces: tuple[int, ...]
    effect_faces: Mapping[str, tuple[tuple[str, ...], ...]]
    dice_house_defaults: bool
    keywords: tuple[str, ...] = ()

    # --- rulers (R-RULER-1) -------------------------------------------------
    @property
    def colours(self) -> tuple[str, ...]:
        """Ruler colours, shortest first."""
        return tuple(c for c, _ in self.rulers)

    def ruler(self, colour: str) -> float:
        """Length in inches of the ruler ``colour``."""
        for c, length in self.rulers:
            if c == colour:
                return length
        raise KeyError(f"unknown ruler colour {colour!r}; known: {', '.join(self.colours)}")

    def shorter(self, colour: str) -> str:
        """The next shorter ruler; the shortest stays itself (R-RULER-1 Decision)."""
        i = self.colours.index(colour)
        return self.colours[max(0, i - 1)]

    @property
    def orange(self) -> float:
        """Length of the shortest ruler (used by elevation and climbing rules)."""
        return self.rulers[0][1]

    @property
    def longest(self) -> float:
        return self.rulers[-1][1]

    def ruler_within(self, distance: float) -> str | None:
        """The shortest ruler whose length is at least ``distance``; None if none is."""
        for c, length in self.rulers:
            if distance <= length + 1e-9:
                return c
        return None

    # --- bases (R-BASE-1, R-UNIT-1) -------------------------------------------
    def size_class(self, base_mm: float) -> str:
        """``normal``, ``large`` or ``huge`` for a base diameter in mm."""
        if base_mm >= self.huge_mm:
            return "huge"
        if base_mm >= self.large_mm:
            return "large"
        return "normal"

    def base_radius(self, base_mm: float) -> float:
        """Base radius in inches from its diameter in mm (exact)."""
        return base_mm / self.mm_per_inch / 2.0


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _is_list(v: Any) -> bool:
    return isinstance(v, list)


def _is_table(v: Any) -> bool:
    return isinstance(v, dict)


def _count(low: int, high: int = MAX_SMALL_COUNT) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and low <= v <= high


def _between(low: float, high: float, *, open_low: bool = False) -> Callable[[Any], bool]:
    return lambda v: _is_num(v) and (v > low if open_low else v >= low) and v <= high


def parse_rules(raw: Mapping[str, Any], source: str = "rules.toml",
                given: Mapping[str, Any] | None = None) -> RulesData:
    """Build :class:`RulesData` from a rules table, reporting every problem.

    Values are checked for type and range (a d0 or a negative tolerance
    would break the game later, far from the bad key). ``given``: the table
    as the file gave it, before merging (default ``raw``): fall damage for a
    colour it names must be for a ruler it has.
    """
    c = TableChecker(source)
    c.unknown_keys(raw, RULES_KEYS, "")
    mm = c.need(raw, "mm_per_inch", "", _between(1, 1000), "a number from 1 to 1000")
    tol = c.need(raw, "touch_tolerance", "",
                 _between(MIN_TOUCH_TOLERANCE, MAX_TOUCH_TOLERANCE),
                 f"a number from {MIN_TOUCH_TOLERANCE:g} to {MAX_TOUCH_TOLERANCE:g} (inches; "
                 "a smaller one is lost in the geometry's float noise)")
    apa = c.need(raw, "actions_per_activation", "", _count(1),
                 f"an integer from 1 to {MAX_SMALL_COUNT}")
    cov = c.need(raw, "cover_modifier", "", _count(-MAX_SMALL_COUNT, 0),
                 f"an integer from {-MAX_SMALL_COUNT} to 0")
    cov_bonus = c.need(raw, "cover_armor_bonus", "", _count(0),
                       f"an integer from 0 to {MAX_SMALL_COUNT}")
    cov_boost = c.need(raw, "cover_armor_boost", "", _count(0),
                       f"an integer from 0 to {MAX_SMALL_COUNT}")
    min_skill = c.need(raw, "min_skill_value", "", _count(1),
                       f"an integer from 1 to {MAX_SMALL_COUNT}")
    rulers = _rulers(c, raw)
    sizes = c.need(raw, "base_sizes", "", _is_table, "a table {large_mm, huge_mm}") or {}
    c.unknown_keys(sizes, ("large_mm", "huge_mm"), "base_sizes")
    size_ok = _between(0, MAX_BASE_MM, open_low=True)
    size_text = f"a number above 0 and at most {MAX_BASE_MM:g} (mm)"
    large = c.need(sizes, "large_mm", "base_sizes", size_ok, size_text)
    huge = c.need(sizes, "huge_mm", "base_sizes", size_ok, size_text)
    if large is not None and huge is not None and large >= huge:
        c.bad("base_sizes", f"expected large_mm < huge_mm, got {large!r} and {huge!r}")
    fall = c.need(raw, "fall_damage", "", _is_table, "a table colour -> damage") or {}
    given_fall = (raw if given is None else given).get("fall_damage", {})
    if isinstance(given_fall, dict):
        c.unknown_keys(given_fall, tuple(colour for colour, _ in rulers), "fall_damage")
    for colour, _ in rulers:
        c.need(fall, colour, "fall_damage", _count(0), f"an integer from 0 to {MAX_SMALL_COUNT}")
    dice = c.need(raw, "dice", "", _is_table, "a table") or {}
    c.unknown_keys(dice, DICE_KEYS, "dice")
    if not isinstance(dice.get("house_defaults", False), bool):
        c.bad("dice.house_defaults", f"expected true or false, got {show(dice['house_defaults'])}")
    sides = c.need(dice, "skill_sides", "dice", _count(2),
                   f"an integer from 2 to {MAX_SMALL_COUNT}")
    armor = c.need(dice, "armor_faces", "dice", _faces_of(_count(1)),
                   f"a non-empty list of at most {MAX_SMALL_COUNT} integers from 1 to "
                   f"{MAX_SMALL_COUNT}") or []
    effect = c.need(dice, "effect", "dice", _is_table, "a table") or {}
    c.unknown_keys(effect, EFFECT_DICE, "dice.effect")
    faces = _effect_faces(c, effect)
    keywords = _keywords(c, raw)
    if c.problems:
        raise ScenarioError(c.problems)
    return RulesData(
        mm_per_inch=float(mm),
        touch_tolerance=float(tol),
        actions_per_activation=int(apa),
        cover_modifier=int(cov),
        cover_armor_bonus=int(cov_bonus),
        cover_armor_boost=int(cov_boost),
        min_skill_value=int(min_skill),
        rulers=tuple(rulers),
        large_mm=float(large),
        huge_mm=float(huge),
        fall_damage=MappingProxyType({col: int(fall[col]) for col, _ in rulers}),
        skill_sides=int(sides),
        armor_faces=tuple(int(f) for f in armor),
        effect_faces=MappingProxyType(faces),
        dice_house_defaults=bool(dice.get("house_defaults", False)),
        keywords=tuple(str(k) for k in keywords),
    )


def _faces_of(ok: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: _is_list(v) and 0 < len(v) <= MAX_SMALL_COUNT and all(ok(f) for f in v)


def _keywords(c: TableChecker, raw: Mapping[str, Any]) -> list[str]:
    return c.ids(c.need(raw, "keywords", "", _is_list, "a list of keywords") or [], "keywords")


def _rulers(c: TableChecker, raw: Mapping[str, Any]) -> list[tuple[str, float]]:
    """R-RULER-1: at least one ruler, distinct colours, positive lengths, shortest first."""
    rulers_raw = c.need(raw, "rulers", "",
                        lambda v: _is_list(v) and 0 < len(v) <= MAX_SMALL_COUNT,
                        f"a non-empty list of at most {MAX_SMALL_COUNT} {{colour, length}}") or []
    rulers: list[tuple[str, float]] = []
    for i, r in enumerate(rulers_raw):
        if (not isinstance(r, dict) or set(r) != {"colour", "length"}
                or id_problem(r["colour"]) is not None
                or not _between(0, MAX_RULER_INCHES, open_low=True)(r["length"])):
            c.bad(f"rulers[{i}]", "expected {colour = a one-word name, length = a number above "
                  f"0 and at most {MAX_RULER_INCHES:g}}}, got {show(r)}")
            continue
        if any(r["colour"] == colour for colour, _ in rulers):
            c.bad(f"rulers[{i}]", f"duplicate ruler colour {r['colour']!r}")
            continue
        rulers.append((r["colour"], float(r["length"])))
    lengths = [length for _, length in rulers]
    if lengths != sorted(lengths):
        c.bad("rulers", "expected the rulers listed shortest first")
    return rulers


def _effect_faces(c: TableChecker, effect: Mapping[str, Any]
                  ) -> dict[str, tuple[tuple[str, ...], ...]]:
    """R-DICE-1: each effect die a non-empty list of faces, a face a list of symbols."""
    faces: dict[str, tuple[tuple[str, ...], ...]] = {}
    for kind in EFFECT_DICE:
        fl = effect.get(kind)
        if not isinstance(fl, list) or not 0 < len(fl) <= MAX_SMALL_COUNT:
            c.bad(f"dice.effect.{kind}", f"expected a non-empty list of faces, got {show(fl)}")
            continue
        ok: list[tuple[str, ...]] = []
        for j, face in enumerate(fl):
            if (not isinstance(face, list) or len(face) > MAX_SMALL_COUNT
                    or any(not isinstance(s, str) or s not in SYMBOLS for s in face)):
                c.bad(f"dice.effect.{kind}[{j}]",
                      f"expected a list of symbols from {', '.join(SYMBOLS)}; got {show(face)}")
                continue
            ok.append(tuple(face))
        faces[kind] = tuple(ok)
    return faces


@cache
def _default_raw_text() -> str:
    return resources.files("sim.data").joinpath("rules.toml").read_text(encoding="utf-8")


def default_rules_table() -> dict[str, Any]:
    """The shipped rules data as a fresh, mutable TOML table."""
    return tomllib.loads(_default_raw_text())


def merge_tables(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge ``override`` into ``base`` (tables merge, other values replace)."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_tables(out[key], value)
        else:
            out[key] = value
    return out


@cache
def default_rules() -> RulesData:
    """The shipped rules data (``sim/data/rules.toml``)."""
    return parse_rules(default_rules_table())


def rules_with_overrides(overrides: Mapping[str, Any], source: str) -> RulesData:
    """Shipped rules data with a scenario's ``[rules]`` table merged over it."""
    if not overrides:
        return default_rules()
    return parse_rules(merge_tables(default_rules_table(), overrides), source, overrides)
