"""Scenario loader, part four: ``[[objectives]]`` and ``kill_points`` (R-OBJ-1, R-OBJ-5).

Every problem names the key path and what was expected, as the rest of the loader's;
what loads plays: a point on the board, a zone with a radius, a cargo marker with
the edge each side carries it off by.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from sim.scenario.format.limits import MAX_BOARD_INCHES, MAX_OBJECTIVES
from sim.scenario.format.validate import Checker, is_kind, is_point, join, known, show
from sim.scenario.objectives import (
    DEFAULT_WITHIN,
    EDGES,
    OBJECTIVE_KINDS,
    Objective,
    ObjectiveKind,
)
from sim.scenario.objects import Side

OBJECTIVE_KEYS = ("id", "kind", "at", "points", "radius", "within", "exits")


class ObjectivesLoader(Checker):
    """Reads the ``[[objectives]]`` array and ``kill_points``."""

    def kill_points(self, raw: Mapping[str, Any]) -> int:
        """R-OBJ-5: points per enemy model removed (default 1, as R-TURN-10 scores)."""
        value = self.get(raw, "kill_points", "", "a non-negative integer", required=False,
                         default=1)
        return 1 if value is None else int(value)

    def objectives(self, raw: Mapping[str, Any], board: tuple[float, float] | None,
                   sides: Mapping[str, Side], taken: set[str]) -> list[Objective]:
        """``taken``: the ids of models and terrain (results name them together)."""
        items = self.get(raw, "objectives", "", "an array of [[objectives]] tables",
                         required=False, default=[]) or []
        if len(items) > MAX_OBJECTIVES:
            self.bad("objectives", f"{len(items)} objectives; the limit is {MAX_OBJECTIVES}")
            return []
        out: list[Objective] = []
        for i, t in enumerate(items):
            path = f"objectives[{i}]"
            if not isinstance(t, dict):
                self.bad(path, f"expected a table, got {show(t)}")
                continue
            o = self.objective(t, path, board, sides)
            if o is None:
                continue
            if o.id in taken:
                self.bad(f"{path}.id", f"duplicate id {o.id!r} (ids of objectives, models "
                         "and terrain must be unique)")
                continue
            taken.add(o.id)
            out.append(o)
        return out

    def objective(self, t: Mapping[str, Any], path: str, board: tuple[float, float] | None,
                  sides: Mapping[str, Side]) -> Objective | None:
        n = len(self.problems)
        self.unknown_keys(t, OBJECTIVE_KEYS, path)
        oid = self.get(t, "id", path, "a string")
        if oid is not None:
            self.check_id(oid, f"{path}.id")
        kind = self.get(t, "kind", path, f"one of {known(OBJECTIVE_KINDS)}")
        if kind is not None and kind not in OBJECTIVE_KINDS:
            self.bad(f"{path}.kind", f"unknown objective kind {show(kind)}; known: "
                     f"{known(OBJECTIVE_KINDS)}")
            kind = None
        at = self.point_on_board(t, path, board)
        points = self.get(t, "points", path, "a positive integer (points scored)")
        radius = self.size(t, "radius", path, kind, need="zone")
        within = self.size(t, "within", path, kind, need=None)
        exits = self.exits(t, path, kind, sides)
        if len(self.problems) > n or kind is None or at is None:
            return None
        return Objective(id=oid, kind=cast(ObjectiveKind, kind), at=at, points=int(points),
                         radius=radius or 0.0,
                         within=DEFAULT_WITHIN if within is None else within,
                         exits=MappingProxyType(exits))

    def point_on_board(self, t: Mapping[str, Any], path: str,
                       board: tuple[float, float] | None) -> tuple[float, float] | None:
        at = self.get(t, "at", path, "[x, y] in inches")
        if at is None:
            return None
        if not is_point(at):
            self.bad(f"{path}.at", f"expected [x, y], two numbers; got {show(at)}")
            return None
        x, y = float(at[0]), float(at[1])
        if board is not None and not (0 <= x <= board[0] and 0 <= y <= board[1]):
            self.bad(f"{path}.at", f"expected a point on the board {board[0]:g} x "
                     f"{board[1]:g}; got {show(at)}")
            return None
        return x, y

    def size(self, t: Mapping[str, Any], name: str, path: str, kind: str | None,
             need: str | None) -> float | None:
        """``radius`` (a zone's, required there, refused elsewhere) or ``within`` (a
        marker's or a cargo marker's reach, refused on a zone)."""
        owner = need == "zone"
        if kind is not None and (kind == "zone") != owner:
            if name in t:
                whose = "only a zone has a radius" if owner else "a zone has a radius instead"
                self.bad(join(path, name), f"not used by a {kind} objective ({whose})")
            return None
        positive = "a positive number (inches)"
        value = self.need(t, name, path, lambda v: is_kind(v, "a number") and
                          0 < v <= MAX_BOARD_INCHES, f"{positive}, at most {MAX_BOARD_INCHES:g}",
                          required=owner and kind == "zone")
        return None if value is None else float(value)

    def exits(self, t: Mapping[str, Any], path: str, kind: str | None,
              sides: Mapping[str, Side]) -> dict[str, str]:
        """A cargo marker's ``exits``: side id -> the board edge it carries it off by."""
        where = join(path, "exits")
        if kind != "cargo":
            if "exits" in t and kind is not None:
                self.bad(where, f"not used by a {kind} objective (only cargo is carried off)")
            return {}
        table = self.get(t, "exits", path, "a table of side id = board edge")
        if table is None:
            return {}
        out: dict[str, str] = {}
        for side, edge in table.items():
            if side not in sides or sides[side].neutral:
                playing = [s for s, v in sides.items() if not v.neutral]
                self.bad(join(where, side), f"unknown side {show(side)}; known: "
                         f"{known(playing)}")
            elif edge not in EDGES:
                self.bad(join(where, side), f"expected a board edge, one of {known(EDGES)}; "
                         f"got {show(edge)}")
            else:
                out[side] = str(edge)
        if not table:
            self.bad(where, "expected at least one side's edge")
        return out
