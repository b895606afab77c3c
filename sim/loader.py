"""Scenario format v1: TOML files -> immutable :class:`~sim.scenario.Scenario`.

The format is documented in ``docs/scenario-format.md``. Loading never
half-succeeds: every problem in the file (and its includes) is collected and
raised together as one :class:`~sim.errors.ScenarioError`, each naming the
file and the key path, e.g. ``skirmish.toml: models[3].unit: unknown unit
'knigth'; known: ...``.

Examples
--------
>>> s = load_scenario("scenarios/skirmish.toml")
>>> s.rules, s.board, len(s.models)
('rulebook', (36.0, 36.0), 12)
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import shapely

from geometry.elevation import is_surface, standing_heights
from sim.errors import Problem, ScenarioError
from sim.rules import (
    DAMAGE_TYPES,
    EFFECT_DICE,
    RULE_SETS,
    SIZE_CLASSES,
    RulesData,
    rules_with_overrides,
)
from sim.scenario import (
    TERRAIN_PROP_NAMES,
    Armor,
    ModelPlacement,
    RuleSet,
    Scenario,
    Side,
    TerrainPiece,
    TerrainProps,
    Unit,
    Weapon,
)

FORMAT = 1
SPECIAL = ("S", "P", "E", "C", "I", "A", "L")
MOVEMENT_CLASSES = ("normal", "difficult", "impassable")
WEAPON_EFFECTS = ("push_back",)
TOP_KEYS = (
    "format", "name", "rules", "board", "rounds", "seed", "advantage", "include",
    "sides", "units", "weapons", "terrain", "models",
)
LIBRARY_KEYS = ("format", "include", "units", "weapons")
UNIT_KEYS = ("name", "base", "move", "charge", "special", "skills", "health", "armor",
             "keywords", "weapons")
WEAPON_KEYS = ("name", "skill", "short", "long", "short_dice", "long_dice", "damage",
               "damage_type", "effects")
TERRAIN_KEYS = ("id", "polygon", "holes", "circle", *TERRAIN_PROP_NAMES, "overrides")
MODEL_KEYS = ("id", "unit", "side", "at", "z")
Z_MATCH = 1e-6  # a given z matches a surface height to within this (inches)


def load_scenario(path: str | Path) -> Scenario:
    """Read, check and build a scenario file and everything it includes.

    Raises
    ------
    ScenarioError
        Listing every problem found, each with the file and key path.
    """
    return _Loader(Path(path)).load()


def _known(names: Any) -> str:
    names = sorted(names)
    return ", ".join(repr(n) for n in names) if names else "(none)"


class _Loader:
    """One load: collects problems while it builds the scenario."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.display = str(path)
        self.root = path.resolve().parent  # includes must stay in this tree
        self.problems: list[Problem] = []
        self.file = self.display  # the file problems are currently reported against
        self.broken: set[str] = set()  # ids declared but invalid: no cascading errors

    # --- problem collection ------------------------------------------------
    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def get(self, table: Mapping[str, Any], key: str, path: str, kind: str,
            required: bool = True, default: Any = None) -> Any:
        """``table[key]`` checked against ``kind``; None (and a problem) when wrong."""
        full = f"{path}.{key}" if path else key
        if key not in table:
            if required:
                self.bad(full, f"missing key (expected {kind})")
            return default
        value = table[key]
        if not _is_kind(value, kind):
            self.bad(full, f"expected {kind}, got {value!r}")
            return default
        return value

    def unknown_keys(self, table: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        for key in table:
            if key not in allowed:
                where = f"{path}.{key}" if path else key
                self.bad(where, f"unknown key; expected one of {_known(allowed)}")

    # --- files ----------------------------------------------------------------
    def read_toml(self, path: Path, display: str) -> dict[str, Any] | None:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.problems.append(Problem(display, "", "file not found"))
            return None
        except OSError as exc:
            self.problems.append(Problem(display, "", f"cannot read: {exc.strerror}"))
            return None
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            self.problems.append(Problem(display, "", f"invalid TOML: {exc}"))
            return None

    def load(self) -> Scenario:
        raw = self.read_toml(self.path, self.display)
        if raw is None:
            raise ScenarioError(self.problems)
        scenario = self.build(raw)
        if self.problems or scenario is None:
            raise ScenarioError(self.problems)
        return scenario

    # --- the whole file -----------------------------------------------------
    def build(self, raw: dict[str, Any]) -> Scenario | None:
        fmt = raw.get("format")
        if fmt != FORMAT:
            what = "missing key" if "format" not in raw else f"unknown format {fmt!r}"
            self.bad("format", f"{what}; this version reads format = {FORMAT}")
            return None
        self.unknown_keys(raw, (*TOP_KEYS, "rules_data"), "")
        name = self.get(raw, "name", "", "a string")
        rule_set = raw.get("rules")
        overrides: Mapping[str, Any] = {}
        if isinstance(rule_set, dict):  # `rules` is the rule-set name; [rules] overrides data
            self.bad("rules", f"expected a rule set name, one of {_known(RULE_SETS)}; "
                     "put rules-data overrides in [rules_data]")
            rule_set = None
        elif rule_set not in RULE_SETS:
            self.bad("rules", f"unknown rule set {rule_set!r}; known: {_known(RULE_SETS)}")
        rules = self.rules_data(raw)
        if "rules_data" in raw:
            overrides = raw["rules_data"] if isinstance(raw["rules_data"], dict) else {}
        board = self.board(raw)
        rounds = self.get(raw, "rounds", "", "a positive integer", required=False)
        seed = self.get(raw, "seed", "", "an integer", required=False)
        units: dict[str, Unit] = {}
        weapons: dict[str, Weapon] = {}
        includes = self.includes(raw, self.path.resolve(), [self.path.resolve()], units, weapons)
        self.file = self.display
        self.library(raw, "", units, weapons)
        self.check_unit_refs(units, weapons, rules)
        sides = self.sides(raw)
        advantage = self.get(raw, "advantage", "", "a side id", required=False)
        if advantage is not None and advantage not in sides:
            self.bad("advantage", f"unknown side {advantage!r}; known: {_known(sides)}")
        terrain = self.terrain(raw, board, units, rules)
        models = self.models(raw, board, units, sides, terrain, rules)
        if self.problems or name is None or board is None:
            return None
        return Scenario(
            name=name,
            rules=cast(RuleSet, rule_set),
            board=board,
            sides=MappingProxyType(sides),
            units=MappingProxyType(units),
            weapons=MappingProxyType(weapons),
            terrain=tuple(terrain),
            models=tuple(models),
            rounds=rounds,
            seed=seed,
            advantage=advantage,
            rules_overrides=MappingProxyType(dict(overrides)),
            rules_data=rules,
            source=self.path,
            includes=tuple(includes),
        )

    def rules_data(self, raw: Mapping[str, Any]) -> RulesData:
        table = raw.get("rules_data", {})
        if not isinstance(table, dict):
            self.bad("rules_data", f"expected a table of rules-data overrides, got {table!r}")
            table = {}
        try:
            return rules_with_overrides(table, self.file)
        except ScenarioError as exc:
            for p in exc.problems:
                self.problems.append(Problem(self.file, f"rules_data.{p.path}", p.message))
            return rules_with_overrides({}, self.file)

    def board(self, raw: Mapping[str, Any]) -> tuple[float, float] | None:
        board = self.get(raw, "board", "", "[width, height] in inches")
        if board is None:
            return None
        if (len(board) != 2 or not all(_is_kind(v, "a number") for v in board)
                or min(board) <= 0):
            self.bad("board", f"expected [width, height], two positive numbers; got {board!r}")
            return None
        return (float(board[0]), float(board[1]))

    # --- includes and libraries -------------------------------------------------
    def includes(self, raw: Mapping[str, Any], here: Path, stack: list[Path],
                 units: dict[str, Unit], weapons: dict[str, Weapon]) -> list[str]:
        paths = self.get(raw, "include", "", "a list of file paths", required=False) or []
        done: list[str] = []
        for i, rel in enumerate(paths):
            key = f"include[{i}]"
            if not isinstance(rel, str):
                self.bad(key, f"expected a file path string, got {rel!r}")
                continue
            target = (here.parent / rel).resolve()
            if not target.is_relative_to(self.root):
                self.bad(key, f"include {rel!r} is outside the scenario's folder tree "
                         f"({self.root})")
                continue
            if target in stack:
                chain = " -> ".join(p.name for p in [*stack, target])
                self.bad(key, f"cyclic include {rel!r} ({chain})")
                continue
            if not target.exists():
                self.bad(key, f"included file {rel!r} not found")
                continue
            display = _display(target)
            sub = self.read_toml(target, display)
            if sub is None:
                continue
            outer = self.file
            self.file = display
            self.unknown_keys(sub, LIBRARY_KEYS, "")
            if "format" in sub and sub["format"] != FORMAT:
                self.bad("format", f"unknown format {sub['format']!r}; this version reads "
                         f"format = {FORMAT}")
            self.includes(sub, target, [*stack, target], units, weapons)
            self.file = display
            self.library(sub, "", units, weapons)
            self.file = outer
            done.append(rel)
        return done

    def library(self, raw: Mapping[str, Any], path: str, units: dict[str, Unit],
                weapons: dict[str, Weapon]) -> None:
        for wid, table in self.table_of_tables(raw, "weapons").items():
            if wid in weapons:
                self.bad(f"weapons.{wid}", f"duplicate weapon id {wid!r}")
                continue
            weapon = self.weapon(wid, table)
            if weapon is None:
                self.broken.add(wid)
            else:
                weapons[wid] = weapon
        for uid, table in self.table_of_tables(raw, "units").items():
            if uid in units:
                self.bad(f"units.{uid}", f"duplicate unit id {uid!r}")
                continue
            unit = self.unit(uid, table)
            if unit is None:
                self.broken.add(uid)
            else:
                units[uid] = unit

    def table_of_tables(self, raw: Mapping[str, Any], key: str) -> dict[str, dict[str, Any]]:
        table = raw.get(key, {})
        if not isinstance(table, dict):
            self.bad(key, f"expected a table of [{key}.ID] tables, got {table!r}")
            return {}
        out = {}
        for k, v in table.items():
            if isinstance(v, dict):
                out[k] = v
            else:
                self.bad(f"{key}.{k}", f"expected a table, got {v!r}")
        return out

    def colour(self, table: Mapping[str, Any], key: str, path: str, required: bool = True,
               rules: RulesData | None = None) -> str | None:
        colours = (rules or rules_with_overrides({}, "")).colours
        value = self.get(table, key, path, "a ruler colour", required=required)
        if value is None:
            return None
        if value not in colours:
            self.bad(f"{path}.{key}", f"unknown ruler colour {value!r}; known: {_known(colours)}")
            return None
        return str(value)

    def weapon(self, wid: str, t: dict[str, Any]) -> Weapon | None:
        path = f"weapons.{wid}"
        n = len(self.problems)
        self.unknown_keys(t, WEAPON_KEYS, path)
        name = self.get(t, "name", path, "a string")
        skill = self.get(t, "skill", path, "a skill name")
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
                     f"unknown damage type {dtype!r}; known: {_known(DAMAGE_TYPES)}")
        effects = self.get(t, "effects", path, "a table", required=False, default={}) or {}
        for k in effects:
            if k not in WEAPON_EFFECTS:
                self.bad(f"{path}.effects.{k}",
                         f"unknown weapon effect; known: {_known(WEAPON_EFFECTS)}")
            elif k == "push_back":
                self.colour(effects, k, f"{path}.effects")
        if len(self.problems) > n:
            return None
        return Weapon(id=wid, name=name, skill=skill, short=str(short),
                      long=long, short_dice=short_dice, long_dice=long_dice,
                      damage=int(damage), damage_type=dtype,
                      effects=MappingProxyType(dict(effects)))

    def dice_list(self, t: Mapping[str, Any], key: str, path: str) -> tuple[str, ...]:
        dice = self.get(t, key, path, "a list of effect dice kinds", required=False,
                        default=[]) or []
        for i, kind in enumerate(dice):
            if kind not in EFFECT_DICE:
                self.bad(f"{path}.{key}[{i}]",
                         f"unknown effect die {kind!r}; known: {_known(EFFECT_DICE)}")
        return tuple(str(k) for k in dice)

    def unit(self, uid: str, t: dict[str, Any]) -> Unit | None:
        path = f"units.{uid}"
        n = len(self.problems)
        self.unknown_keys(t, UNIT_KEYS, path)
        name = self.get(t, "name", path, "a string")
        base = self.get(t, "base", path, "a positive number (mm)")
        if base is not None and base <= 0:
            self.bad(f"{path}.base", f"expected a positive base diameter in mm, got {base!r}")
        move = self.colour(t, "move", path)
        charge = self.colour(t, "charge", path)
        special = self.get(t, "special", path, "a table {S, P, E, C, I, A, L}") or {}
        for letter in SPECIAL:
            if not _is_kind(special.get(letter), "a positive integer"):
                self.bad(f"{path}.special.{letter}", "expected a positive integer")
        for letter in special:
            if letter not in SPECIAL:
                self.bad(f"{path}.special.{letter}",
                         f"unknown attribute; expected one of {_known(SPECIAL)}")
        skills = self.get(t, "skills", path, "a table skill -> attribute letter",
                          required=False, default={}) or {}
        for skill, letter in skills.items():
            if letter not in SPECIAL:
                self.bad(f"{path}.skills.{skill}",
                         f"expected an attribute letter, one of {_known(SPECIAL)}; got {letter!r}")
        health = self.get(t, "health", path, "a positive integer")
        armor_t = self.get(t, "armor", path, "a table {physical, energy, radiation}") or {}
        for dtype in DAMAGE_TYPES:
            if not _is_kind(armor_t.get(dtype), "a non-negative integer"):
                self.bad(f"{path}.armor.{dtype}", "expected a non-negative integer")
        keywords = self.get(t, "keywords", path, "a list of keywords", required=False,
                            default=[]) or []
        weapons = self.get(t, "weapons", path, "a list of weapon ids", required=False,
                           default=[]) or []
        if len(self.problems) > n:
            return None
        return Unit(
            id=uid, name=name, base=float(base), move=str(move), charge=str(charge),
            special=MappingProxyType({k: int(special[k]) for k in SPECIAL}),
            skills=MappingProxyType(dict(skills)), health=int(health),
            armor=Armor(**{d: int(armor_t[d]) for d in DAMAGE_TYPES}),
            keywords=frozenset(keywords), weapons=tuple(weapons),
        )

    def check_unit_refs(self, units: Mapping[str, Unit], weapons: Mapping[str, Weapon],
                        rules: RulesData) -> None:
        """Keyword and weapon ids are checked once all libraries are in."""
        for uid, unit in units.items():
            for i, kw in enumerate(sorted(unit.keywords)):
                if kw not in rules.keywords:
                    self.bad(f"units.{uid}.keywords[{i}]",
                             f"unknown keyword {kw!r}; known: {_known(rules.keywords)}")
            for i, wid in enumerate(unit.weapons):
                if wid not in weapons and wid not in self.broken:
                    self.bad(f"units.{uid}.weapons[{i}]",
                             f"unknown weapon {wid!r}; known: {_known(weapons)}")

    # --- sides ------------------------------------------------------------------------
    def sides(self, raw: Mapping[str, Any]) -> dict[str, Side]:
        out: dict[str, Side] = {}
        tables = self.table_of_tables(raw, "sides")
        if not tables:
            self.bad("sides", "expected at least two [sides.ID] tables")
        for sid, t in tables.items():
            path = f"sides.{sid}"
            self.unknown_keys(t, ("name", "neutral"), path)
            name = self.get(t, "name", path, "a string")
            neutral = self.get(t, "neutral", path, "true or false", required=False,
                               default=False)
            if name is not None:
                out[sid] = Side(sid, name, bool(neutral))
        if tables and sum(not s.neutral for s in out.values()) < 2:
            self.bad("sides", "expected at least two sides that are not neutral")
        return out

    # --- terrain ------------------------------------------------------------------------
    def terrain(self, raw: Mapping[str, Any], board: tuple[float, float] | None,
                units: Mapping[str, Unit], rules: RulesData) -> list[TerrainPiece]:
        items = self.get(raw, "terrain", "", "an array of [[terrain]] tables", required=False,
                         default=[]) or []
        out: list[TerrainPiece] = []
        seen: set[str] = set()
        for i, t in enumerate(items):
            path = f"terrain[{i}]"
            if not isinstance(t, dict):
                self.bad(path, f"expected a table, got {t!r}")
                continue
            piece = self.piece(t, path, units, rules)
            if piece is None:
                continue
            if piece.id in seen:
                self.bad(f"{path}.id", f"duplicate terrain id {piece.id!r}")
                continue
            seen.add(piece.id)
            if board is not None:
                box = shapely.box(0, 0, board[0], board[1]).buffer(rules.touch_tolerance)
                if not box.covers(piece.footprint):
                    self.bad(path, f"terrain {piece.id!r} lies outside the board "
                             f"{board[0]:g} x {board[1]:g}")
            out.append(piece)
        return out

    def piece(self, t: dict[str, Any], path: str, units: Mapping[str, Unit],
              rules: RulesData) -> TerrainPiece | None:
        n = len(self.problems)
        self.unknown_keys(t, TERRAIN_KEYS, path)
        pid = self.get(t, "id", path, "a string")
        props = self.props(t, path, required=False)
        polygon = holes = circle = None
        if ("polygon" in t) == ("circle" in t):
            self.bad(path, "expected exactly one of polygon = [[x, y], ...] and "
                     "circle = {center = [x, y], radius = r}")
        elif "polygon" in t:
            polygon = self.ring(t["polygon"], f"{path}.polygon")
            holes_raw = self.get(t, "holes", path, "a list of rings", required=False,
                                 default=[]) or []
            holes = tuple(h for j, r in enumerate(holes_raw)
                          if (h := self.ring(r, f"{path}.holes[{j}]")) is not None)
            if polygon is not None and len(self.problems) == n:
                shape = shapely.Polygon(polygon, holes=list(holes))
                if not shape.is_valid or shape.area <= 0:
                    why = shapely.is_valid_reason(shape) if not shape.is_valid else "zero area"
                    self.bad(f"{path}.polygon", f"degenerate or self-intersecting polygon ({why})")
        else:
            circle = self.circle(t["circle"], f"{path}.circle")
        overrides = self.overrides(t, path, units, rules)
        if len(self.problems) > n or pid is None:
            return None
        assert props is not None  # no new problems means props parsed
        return TerrainPiece(id=pid, props=TerrainProps(**props), polygon=polygon,
                            holes=holes or (), circle=circle,
                            overrides=MappingProxyType(overrides))

    def props(self, t: Mapping[str, Any], path: str, required: bool) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        for f in fields(TerrainProps):
            if f.name not in t:
                continue
            value = t[f.name]
            where = f"{path}.{f.name}"
            if f.name == "movement":
                if value not in MOVEMENT_CLASSES:
                    self.bad(where, f"unknown movement class {value!r}; "
                             f"known: {_known(MOVEMENT_CLASSES)}")
                    continue
            elif f.name == "height":
                if not _is_kind(value, "a number") or value < 0:
                    self.bad(where, f"expected a height >= 0 in inches, got {value!r}")
                    continue
                value = float(value)
            elif not isinstance(value, bool):
                self.bad(where, f"expected true or false, got {value!r}")
                continue
            out[f.name] = value
        if out.get("dense") and not out.get("area", False) and not required:
            self.bad(f"{path}.dense", "dense terrain is area terrain: set area = true too")
        return out

    def overrides(self, t: Mapping[str, Any], path: str, units: Mapping[str, Unit],
                  rules: RulesData) -> dict[str, Mapping[str, Any]]:
        raw = self.get(t, "overrides", path, "a table", required=False, default={}) or {}
        keys = {*units, *rules.keywords, *SIZE_CLASSES}
        out: dict[str, Mapping[str, Any]] = {}
        for key, table in raw.items():
            where = f"{path}.overrides.{key}"
            if key not in keys:
                self.bad(where, f"unknown unit id, keyword or size class {key!r}; "
                         f"known: {_known(keys)}")
                continue
            if not isinstance(table, dict):
                self.bad(where, f"expected a table of terrain properties, got {table!r}")
                continue
            self.unknown_keys(table, TERRAIN_PROP_NAMES, where)
            props = self.props(table, where, required=True)
            if props is not None:
                out[key] = MappingProxyType(props)
        return out

    def ring(self, value: Any, path: str) -> tuple[tuple[float, float], ...] | None:
        if (not isinstance(value, list) or len(value) < 3
                or not all(_is_point(p) for p in value)):
            self.bad(path, f"expected a list of at least 3 [x, y] points, got {value!r}")
            return None
        return tuple((float(p[0]), float(p[1])) for p in value)

    def circle(self, value: Any, path: str) -> tuple[tuple[float, float], float] | None:
        if not isinstance(value, dict) or set(value) != {"center", "radius"}:
            self.bad(path, f"expected {{center = [x, y], radius = r}}, got {value!r}")
            return None
        c, r = value["center"], value["radius"]
        if not _is_point(c) or not _is_kind(r, "a number") or r <= 0:
            self.bad(path, f"expected a centre [x, y] and a positive radius, got {value!r}")
            return None
        return ((float(c[0]), float(c[1])), float(r))

    # --- models ------------------------------------------------------------------------------
    def models(self, raw: Mapping[str, Any], board: tuple[float, float] | None,
               units: Mapping[str, Unit], sides: Mapping[str, Side],
               terrain: list[TerrainPiece], rules: RulesData) -> list[ModelPlacement]:
        items = self.get(raw, "models", "", "an array of [[models]] tables") or []
        out: list[tuple[str, ModelPlacement]] = []
        ids = {p.id for p in terrain}
        for i, t in enumerate(items):
            path = f"models[{i}]"
            if not isinstance(t, dict):
                self.bad(path, f"expected a table, got {t!r}")
                continue
            m = self.model(t, path, units, sides, terrain, rules)
            if m is None:
                continue
            if m.id in ids:
                self.bad(f"{path}.id", f"duplicate id {m.id!r} (ids of models and terrain "
                         "must be unique: results name them together)")
                continue
            ids.add(m.id)
            out.append((path, m))
        self.check_placements(out, board, units, terrain, rules)
        return [m for _, m in out]

    def model(self, t: Mapping[str, Any], path: str, units: Mapping[str, Unit],
              sides: Mapping[str, Side], terrain: list[TerrainPiece],
              rules: RulesData) -> ModelPlacement | None:
        n = len(self.problems)
        self.unknown_keys(t, MODEL_KEYS, path)
        mid = self.get(t, "id", path, "a string")
        unit = self.get(t, "unit", path, "a unit id")
        if unit is not None and unit not in units:
            if unit in self.broken:
                return None
            self.bad(f"{path}.unit", f"unknown unit {unit!r}; known: {_known(units)}")
        side = self.get(t, "side", path, "a side id")
        if side is not None and side not in sides:
            self.bad(f"{path}.side", f"unknown side {side!r}; known: {_known(sides)}")
        at = self.get(t, "at", path, "[x, y] in inches")
        if at is not None and not _is_point(at):
            self.bad(f"{path}.at", f"expected [x, y], two numbers; got {at!r}")
        z = self.get(t, "z", path, "a height in inches", required=False)
        if len(self.problems) > n:
            return None
        x, y = float(at[0]), float(at[1])
        heights = standing_heights(x, y, _surfaces(terrain))
        if z is None:
            z = heights[-1]
        elif not any(abs(z - h) <= Z_MATCH for h in heights):
            self.bad(f"{path}.z", f"z = {z!r} matches no surface under the model's centre; "
                     f"surfaces there: {', '.join(f'{h:g}' for h in heights)}")
            return None
        return ModelPlacement(id=mid, unit=unit, side=side, at=(x, y), z=float(z))

    def check_placements(self, placed: list[tuple[str, ModelPlacement]],
                         board: tuple[float, float] | None, units: Mapping[str, Unit],
                         terrain: list[TerrainPiece], rules: RulesData) -> None:
        tol = rules.touch_tolerance
        radius = {m.id: rules.base_radius(units[m.unit].base) for _, m in placed}
        for path, m in placed:
            r, (x, y) = radius[m.id], m.at
            if board is not None and (x - r < -tol or y - r < -tol
                                      or x + r > board[0] + tol or y + r > board[1] + tol):
                self.bad(f"{path}.at", f"the base of model {m.id!r} crosses the board edge "
                         f"(R-EDGE-1); board is {board[0]:g} x {board[1]:g}")
            unit = units[m.unit]
            size = rules.size_class(unit.base)
            centre = shapely.Point(x, y)
            for piece in terrain:
                props = piece.props_for(unit.id, unit.keywords, size)
                if props.movement != "impassable" or props.height <= m.z + Z_MATCH:
                    continue  # only impassable ground rising above the model's feet
                fp = piece.footprint
                if fp.contains(centre) or fp.distance(centre) < r - tol:
                    self.bad(f"{path}.at", f"the base of model {m.id!r} stands on impassable "
                             f"terrain {piece.id!r}")
        for i, (path, a) in enumerate(placed):
            for _, b in placed[i + 1:]:
                if abs(a.z - b.z) > Z_MATCH:
                    continue
                d = math.dist(a.at, b.at)
                if d < radius[a.id] + radius[b.id] - tol:
                    self.bad(f"{path}.at", f"the bases of models {a.id!r} and {b.id!r} overlap")


def _surfaces(terrain: list[TerrainPiece]) -> list[tuple[Any, float]]:
    """Standable tops: every piece with a height that is not area terrain (R-TER-1)."""
    return [(p.footprint, p.props.height) for p in terrain
            if is_surface(p.props.height, p.props.area)]


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _is_point(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(_is_kind(v, "a number") for v in value))


def _is_kind(value: Any, kind: str) -> bool:
    """Check a TOML value against the words used in messages."""
    if value is None:
        return False
    if kind.startswith("a number") or kind.startswith("a positive number") or kind.startswith(
            "a height"):
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(
            value)
    if kind.startswith("a positive integer"):
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if kind.startswith("a non-negative integer"):
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind.startswith("an integer"):
        return isinstance(value, int) and not isinstance(value, bool)
    if kind.startswith("true or false"):
        return isinstance(value, bool)
    if kind.startswith("a table"):
        return isinstance(value, dict)
    if kind.startswith(("a list", "an array", "[")):
        return isinstance(value, list)
    return isinstance(value, str)  # strings: names, ids, colours, types
