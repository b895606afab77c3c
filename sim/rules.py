"""Rules data: rulers, base sizes, fall table, dice faces (RULES.md).

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

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from sim.errors import Problem, ScenarioError

SIZE_CLASSES = ("normal", "large", "huge")
EFFECT_DICE = ("damage", "accuracy", "armor-reduction", "special")
SYMBOLS = ("damage", "nuka", "armor-reduction", "accuracy", "special")
RULE_SETS = ("rulebook", "vts-1.5")
DAMAGE_TYPES = ("physical", "energy", "radiation")


@dataclass(frozen=True)
class RulesData:
    """Every number of the rules, read from rules data (never hard-coded)."""

    mm_per_inch: float
    touch_tolerance: float
    actions_per_activation: int
    cover_modifier: int
    cover_armor_bonus: int
    cover_armor_boost: int
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


def _problem(path: str, message: str) -> Problem:
    return Problem("rules", path, message)


def parse_rules(raw: Mapping[str, Any], source: str = "rules.toml") -> RulesData:
    """Build :class:`RulesData` from a rules table, reporting every problem."""
    problems: list[Problem] = []

    def need(key: str, kind: type | tuple[type, ...], table: Mapping[str, Any] = raw,
             prefix: str = "") -> Any:
        path = f"{prefix}{key}"
        if key not in table:
            problems.append(Problem(source, path, "missing key"))
            return None
        value = table[key]
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            problems.append(Problem(source, path, f"expected a number, got {value!r}"))
            return None
        if not isinstance(value, kind):
            problems.append(Problem(source, path, f"wrong type {type(value).__name__}: {value!r}"))
            return None
        return value

    num = (int, float)
    mm = need("mm_per_inch", num)
    tol = need("touch_tolerance", num)
    apa = need("actions_per_activation", int)
    cov = need("cover_modifier", int)
    cov_bonus = need("cover_armor_bonus", int)
    cov_boost = need("cover_armor_boost", int)
    rulers_raw = need("rulers", list) or []
    rulers: list[tuple[str, float]] = []
    for i, r in enumerate(rulers_raw):
        if not isinstance(r, dict) or not isinstance(r.get("colour"), str) or not isinstance(
            r.get("length"), num
        ):
            problems.append(
                Problem(source, f"rulers[{i}]", "expected {colour = str, length = number}"))
            continue
        rulers.append((r["colour"], float(r["length"])))
    lengths = [length for _, length in rulers]
    if lengths != sorted(lengths):
        problems.append(Problem(source, "rulers", "rulers must be listed shortest first"))
    sizes = need("base_sizes", dict) or {}
    large = need("large_mm", num, sizes, "base_sizes.")
    huge = need("huge_mm", num, sizes, "base_sizes.")
    fall = need("fall_damage", dict) or {}
    for colour, _ in rulers:
        if not isinstance(fall.get(colour), int):
            problems.append(Problem(source, f"fall_damage.{colour}", "expected an integer"))
    dice = need("dice", dict) or {}
    sides = need("skill_sides", int, dice, "dice.")
    armor = need("armor_faces", list, dice, "dice.") or []
    if not all(isinstance(f, int) and not isinstance(f, bool) for f in armor):
        problems.append(Problem(source, "dice.armor_faces", "expected a list of integers"))
    effect = need("effect", dict, dice, "dice.") or {}
    faces: dict[str, tuple[tuple[str, ...], ...]] = {}
    for kind in EFFECT_DICE:
        fl = effect.get(kind)
        if not isinstance(fl, list) or not fl:
            problems.append(Problem(source, f"dice.effect.{kind}", "expected a list of faces"))
            continue
        ok: list[tuple[str, ...]] = []
        for j, face in enumerate(fl):
            if not isinstance(face, list) or any(s not in SYMBOLS for s in face):
                problems.append(Problem(
                    source, f"dice.effect.{kind}[{j}]",
                    f"expected a list of symbols from {', '.join(SYMBOLS)}; got {face!r}"))
                continue
            ok.append(tuple(face))
        faces[kind] = tuple(ok)
    keywords = need("keywords", list) or []
    if not all(isinstance(k, str) for k in keywords):
        problems.append(Problem(source, "keywords", "expected a list of strings"))
    if problems:
        raise ScenarioError(problems)
    return RulesData(
        mm_per_inch=float(mm),
        touch_tolerance=float(tol),
        actions_per_activation=int(apa),
        cover_modifier=int(cov),
        cover_armor_bonus=int(cov_bonus),
        cover_armor_boost=int(cov_boost),
        rulers=tuple(rulers),
        large_mm=float(large),
        huge_mm=float(huge),
        fall_damage=MappingProxyType({c: int(fall[c]) for c, _ in rulers}),
        skill_sides=int(sides),
        armor_faces=tuple(int(f) for f in armor),
        effect_faces=MappingProxyType(faces),
        dice_house_defaults=bool(dice.get("house_defaults", False)),
        keywords=tuple(str(k) for k in keywords),
    )


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
    return parse_rules(merge_tables(default_rules_table(), overrides), source)
