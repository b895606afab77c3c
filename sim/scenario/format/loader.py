"""Scenario format v1: TOML files -> immutable :class:`~sim.scenario.objects.Scenario`.

The format is documented in ``docs/scenario-format.md``. Loading never
half-succeeds: every problem in the file (and its includes) is collected and
raised together as one :class:`~sim.errors.ScenarioError`, each naming the
file and the key path, e.g. ``skirmish.toml: models[3].unit: unknown unit
'knigth'; known: ...``. What loads also plays, saves and reloads: every id
is a single word, the rules data covers every card, and the sizes stay
within :mod:`sim.scenario.format.limits`.

The loader's parts: :mod:`sim.scenario.format.files` (reading files and includes),
:mod:`sim.scenario.format.validate` (shared checks), :mod:`sim.scenario.format.library` (unit and
weapon cards), :mod:`sim.scenario.format.terrain` (terrain pieces),
:mod:`sim.scenario.format.objectives` (objectives, R-OBJ-1) and this module
(the whole file, sides and models).

Examples
--------
>>> s = load_scenario("scenarios/skirmish.toml")
>>> s.rules, s.board, len(s.models)
('rulebook', (36.0, 36.0), 12)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import numpy as np
import shapely

from geometry.elevation.edges import is_surface, standing_heights
from sim.errors import Problem, ScenarioError
from sim.scenario.format.files import ReadProblem, include_target, parse_toml, read_text
from sim.scenario.format.library import LibraryLoader
from sim.scenario.format.limits import (
    MAX_BOARD_INCHES,
    MAX_HEIGHT_INCHES,
    MAX_INCLUDE_DEPTH,
    MAX_INCLUDED_FILES,
    MAX_MODELS,
)
from sim.scenario.format.objectives import ObjectivesLoader
from sim.scenario.format.terrain import TerrainLoader
from sim.scenario.format.validate import is_kind, is_point, join, known, show
from sim.scenario.objects import ModelPlacement, RuleSet, Scenario, Side, TerrainPiece, Unit, Weapon
from sim.scenario.rules import RULE_SETS, RulesData, rules_with_overrides

FORMAT = 1
TOP_KEYS = (
    "format", "name", "rules", "board", "rounds", "seed", "advantage", "include",
    "sides", "units", "weapons", "terrain", "models", "objectives", "kill_points",
)
LIBRARY_KEYS = ("format", "include", "units", "weapons")
MODEL_KEYS = ("id", "unit", "side", "at", "z")
Z_MATCH = 1e-6  # a given z matches a surface height to within this (inches)
STDIN_NAME = "<stdin>"  # how messages name a file read from stdin


def load_scenario(path: str | Path) -> Scenario:
    """Read, check and build a scenario file and everything it includes.

    Raises
    ------
    ScenarioError
        Listing every problem found, each with the file and key path.
    """
    return Loader(Path(path)).load()


def load_scenario_text(text: str, name: str = STDIN_NAME) -> Scenario:
    """A scenario from TOML text, named ``name`` in messages (``wasteland simulate -``
    and its workers); includes resolve from the working folder, as if the text were a
    file there."""
    return _TextLoader(text, name).load()


class Loader(LibraryLoader, TerrainLoader, ObjectivesLoader):
    """One load: collects problems while it builds the scenario."""

    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path
        self.seen: set[Path] = set()  # every file read, each once (a diamond is fine)

    def read_file(self, path: Path) -> str:
        """The text of one file the scenario reads: the top file or an include (a packed
        scenario, :mod:`sim.scenario.format.packed`, reads its texts from memory)."""
        return read_text(path)

    def read_toml(self, path: Path, display: str) -> dict[str, Any] | None:
        try:
            return parse_toml(self.read_file(path))
        except ReadProblem as exc:
            self.problems.append(Problem(display, "", str(exc)))
            return None

    def load(self) -> Scenario:
        try:
            raw = self.read_toml(self.path, self.display)
            # Shapely's float warnings on coordinates such as 1e308 would add lines of
            # numpy noise to the refusal that names them (issue 31).
            with np.errstate(all="ignore"):
                scenario = None if raw is None else self.build(raw)
        except RecursionError:  # a guard: nesting is limited before any of this runs
            scenario = None
            self.bad("", "values nested too deeply")
        if self.problems or scenario is None:
            raise ScenarioError(self.problems)
        return scenario

    # --- the whole file -----------------------------------------------------
    def build(self, raw: dict[str, Any]) -> Scenario | None:
        fmt = raw.get("format")
        if fmt != FORMAT:
            what = "missing key" if "format" not in raw else f"unknown format {show(fmt)}"
            self.bad("format", f"{what}; this version reads format = {FORMAT}")
            return None
        self.unknown_keys(raw, (*TOP_KEYS, "rules_data"), "")
        name = self.get_name(raw, "")
        rule_set = self.rule_set(raw)
        overrides = self.rules_data(raw)
        board = self.board(raw)
        rounds = self.get(raw, "rounds", "", "a positive integer", required=False)
        seed = self.get(raw, "seed", "", "an integer", required=False)
        units: dict[str, Unit] = {}
        weapons: dict[str, Weapon] = {}
        try:
            here = self.path.resolve()
        except (OSError, RuntimeError):
            here = self.path.absolute()
        self.seen.add(here)
        includes = self.includes(raw, here, [here], units, weapons)
        self.file = self.display
        self.library(raw, "", units, weapons)
        self.check_unit_refs(units, weapons)
        sides = self.sides(raw)
        advantage = self.get(raw, "advantage", "", "a side id", required=False)
        if advantage is not None and advantage not in sides:
            self.bad("advantage", f"unknown side {show(advantage)}; known: {known(sides)}")
        terrain = self.terrain(raw, board, units)
        models = self.models(raw, board, units, sides, terrain)
        taken = {p.id for p in terrain} | {m.id for m in models}
        objectives = self.objectives(raw, board, sides, taken)
        kill_points = self.kill_points(raw)
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
            objectives=tuple(objectives),
            kill_points=kill_points,
            rules_data=self.rules,
            source=self.path,
            includes=tuple(includes),
        )

    def rule_set(self, raw: Mapping[str, Any]) -> str | None:
        rule_set = raw.get("rules")
        if isinstance(rule_set, dict):  # `rules` is the rule-set name; [rules] overrides data
            self.bad("rules", f"expected a rule set name, one of {known(RULE_SETS)}; "
                     "put rules-data overrides in [rules_data]")
            return None
        if not isinstance(rule_set, str) or rule_set not in RULE_SETS:
            self.bad("rules", f"unknown rule set {show(rule_set)}; known: {known(RULE_SETS)}")
            return None
        return rule_set

    def rules_data(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        """The ``[rules_data]`` overrides; sets :attr:`rules` to the merged rules data."""
        table = raw.get("rules_data", {})
        if not isinstance(table, dict):
            self.bad("rules_data", f"expected a table of rules-data overrides, got {show(table)}")
            return {}
        try:
            self.rules = rules_with_overrides(table, self.file)
        except ScenarioError as exc:
            for p in exc.problems:
                self.problems.append(Problem(self.file, f"rules_data.{p.path}", p.message))
            self.rules = rules_with_overrides({}, self.file)
        return table

    def board(self, raw: Mapping[str, Any]) -> tuple[float, float] | None:
        board = self.get(raw, "board", "", "[width, height] in inches")
        if board is None:
            return None
        if (len(board) != 2 or not all(is_kind(v, "a number") for v in board)
                or min(board) <= 0 or max(board) > MAX_BOARD_INCHES):
            self.bad("board", f"expected [width, height], two numbers above 0 and at most "
                     f"{MAX_BOARD_INCHES:g}; got {show(board)}")
            return None
        return (float(board[0]), float(board[1]))

    # --- includes and libraries -------------------------------------------------
    def includes(self, raw: Mapping[str, Any], here: Path, stack: list[Path],
                 units: dict[str, Unit], weapons: dict[str, Weapon],
                 root: Path | None = None) -> list[str]:
        """Read each included library once (depth first); a cycle or a too deep chain is refused.

        ``root``: the folder tree includes must stay in (default: the top file's folder).
        """
        root = root or stack[0].parent
        names = self.get(raw, "include", "", "a list of file paths", required=False) or []
        done: list[str] = []
        for i, rel in enumerate(names):
            where = f"include[{i}]"
            if not isinstance(rel, str):
                self.bad(where, f"expected a file path string, got {show(rel)}")
                continue
            try:
                target, sub_root = include_target(rel, here, root)
            except ReadProblem as exc:
                self.bad(where, str(exc))
                continue
            if target in stack:
                chain = " -> ".join(p.name for p in [*stack, target])
                self.bad(where, f"cyclic include {rel!r} ({chain})")
                continue
            if target in self.seen:
                done.append(rel)  # already read through another include: a diamond
                continue
            if len(stack) >= MAX_INCLUDE_DEPTH:
                self.bad(where, f"includes nest deeper than {MAX_INCLUDE_DEPTH} files")
                continue
            if len(self.seen) >= MAX_INCLUDED_FILES:
                self.bad(where, f"more than {MAX_INCLUDED_FILES} files included")
                continue
            self.seen.add(target)
            if self.library_file(rel, where, target, sub_root, stack, units, weapons):
                done.append(rel)
        return done

    def library_file(self, rel: str, where: str, target: Path, root: Path, stack: list[Path],
                     units: dict[str, Unit], weapons: dict[str, Weapon]) -> bool:
        try:
            text = self.read_file(target)
        except ReadProblem as exc:
            what = "not found" if str(exc) == "file not found" else str(exc)
            self.bad(where, f"included file {rel!r} {what}" if what == "not found"
                     else f"included file {rel!r}: {what}")
            return False
        display = _display(target)
        try:
            sub = parse_toml(text)
        except ReadProblem as exc:
            self.problems.append(Problem(display, "", str(exc)))
            return False
        outer = self.file
        self.file = display
        self.unknown_keys(sub, LIBRARY_KEYS, "")
        if "format" in sub and sub["format"] != FORMAT:
            self.bad("format", f"unknown format {show(sub['format'])}; this version reads "
                     f"format = {FORMAT}")
        self.includes(sub, target, [*stack, target], units, weapons, root)
        self.file = display
        self.library(sub, "", units, weapons)
        self.file = outer
        return True

    # --- sides ------------------------------------------------------------------------
    def sides(self, raw: Mapping[str, Any]) -> dict[str, Side]:
        """R-TURN-1: exactly two sides play; any number may be neutral (R-COV-5)."""
        out: dict[str, Side] = {}
        tables = self.table_of_tables(raw, "sides")
        if not tables:
            self.bad("sides", "expected two [sides.ID] tables")
        for sid, t in tables.items():
            path = join("sides", sid)
            self.unknown_keys(t, ("name", "neutral"), path)
            name = self.get_name(t, path)
            neutral = self.get(t, "neutral", path, "true or false", required=False,
                               default=False)
            if name is not None:
                out[sid] = Side(sid, name, bool(neutral))
        playing = sum(not s.neutral for s in out.values())
        if tables and playing != 2:
            self.bad("sides", f"expected exactly two sides that are not neutral, got {playing}")
        return out

    # --- models ------------------------------------------------------------------------------
    def models(self, raw: Mapping[str, Any], board: tuple[float, float] | None,
               units: Mapping[str, Unit], sides: Mapping[str, Side],
               terrain: list[TerrainPiece]) -> list[ModelPlacement]:
        items = self.get(raw, "models", "", "an array of [[models]] tables") or []
        if len(items) > MAX_MODELS:
            self.bad("models", f"{len(items)} models; the limit is {MAX_MODELS}")
            return []
        out: list[tuple[str, ModelPlacement]] = []
        ids = {p.id for p in terrain}
        for i, t in enumerate(items):
            path = f"models[{i}]"
            if not isinstance(t, dict):
                self.bad(path, f"expected a table, got {show(t)}")
                continue
            m = self.model(t, path, units, sides, terrain)
            if m is None:
                continue
            if m.id in ids:
                self.bad(f"{path}.id", f"duplicate id {m.id!r} (ids of models and terrain "
                         "must be unique: results name them together)")
                continue
            ids.add(m.id)
            out.append((path, m))
        self.check_placements(out, board, units, terrain)
        return [m for _, m in out]

    def model(self, t: Mapping[str, Any], path: str, units: Mapping[str, Unit],
              sides: Mapping[str, Side], terrain: list[TerrainPiece]) -> ModelPlacement | None:
        n = len(self.problems)
        self.unknown_keys(t, MODEL_KEYS, path)
        mid = self.get(t, "id", path, "a string")
        if mid is not None:
            self.check_id(mid, f"{path}.id")
        unit = self.get(t, "unit", path, "a unit id")
        if unit is not None and unit not in units:
            if unit in self.broken:
                return None
            self.bad(f"{path}.unit", f"unknown unit {show(unit)}; known: {known(units)}")
        side = self.get(t, "side", path, "a side id")
        if side is not None and side not in sides:
            self.bad(f"{path}.side", f"unknown side {show(side)}; known: {known(sides)}")
        at = self.get(t, "at", path, "[x, y] in inches")
        if at is not None and not is_point(at):
            self.bad(f"{path}.at", f"expected [x, y], two numbers; got {show(at)}")
        z = self.get(t, "z", path, "a height in inches", required=False)
        if z is not None and not 0 <= z <= MAX_HEIGHT_INCHES:
            self.bad(f"{path}.z", f"expected a height from 0 to {MAX_HEIGHT_INCHES:g}, "
                     f"got {show(z)}")
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
                         terrain: list[TerrainPiece]) -> None:
        rules: RulesData = self.rules
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
        self.check_overlaps(placed, radius, tol)

    def check_overlaps(self, placed: list[tuple[str, ModelPlacement]],
                       radius: Mapping[str, float], tol: float) -> None:
        """R-UNIT-2: bases at one height overlap by no more than the touch tolerance."""
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


class _TextLoader(Loader):
    """The loader reading its top file from a string (:func:`load_scenario_text`)."""

    def __init__(self, text: str, name: str) -> None:
        super().__init__(Path(name))
        self.text = text

    def read_toml(self, path: Path, display: str) -> dict[str, Any] | None:
        if path is not self.path:
            return super().read_toml(path, display)
        try:
            return parse_toml(self.text)
        except ReadProblem as exc:
            self.problems.append(Problem(display, "", str(exc)))
            return None
