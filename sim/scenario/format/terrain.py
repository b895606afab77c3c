"""Scenario loader, part three: ``[[terrain]]`` pieces, shapes and overrides (R-TER-1, R-TER-2).

Shapes are checked before any geometry is built from them: at most
:data:`~sim.scenario.format.limits.MAX_VERTICES` points a ring, finite coordinates, a simple
polygon of positive area, inside the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any

import shapely

from geometry.elevation.edges import is_surface
from sim.scenario.format.limits import (
    CIRCLE_POINTS,
    MAX_BOARD_INCHES,
    MAX_CONCAVE_CORNERS,
    MAX_HEIGHT_INCHES,
    MAX_HOLES,
    MAX_PIECES,
    MAX_TERRAIN_VERTICES,
    MAX_VERTICES,
)
from sim.scenario.format.validate import Checker, is_kind, is_point, join, known, show
from sim.scenario.objects import TERRAIN_PROP_NAMES, TerrainPiece, TerrainProps, Unit
from sim.scenario.rules import SIZE_CLASSES

MOVEMENT_CLASSES = ("normal", "difficult", "impassable")
MIN_RADIUS = 0.01  # inches: a smaller circle has no drawable outline
TERRAIN_KEYS = ("id", "polygon", "holes", "circle", *TERRAIN_PROP_NAMES, "overrides")


class TerrainLoader(Checker):
    """Reads the ``[[terrain]]`` array."""

    def terrain(self, raw: Mapping[str, Any], board: tuple[float, float] | None,
                units: Mapping[str, Unit]) -> list[TerrainPiece]:
        items = self.get(raw, "terrain", "", "an array of [[terrain]] tables", required=False,
                         default=[]) or []
        if len(items) > MAX_PIECES:
            self.bad("terrain", f"{len(items)} terrain pieces; the limit is {MAX_PIECES}")
            return []
        out: list[TerrainPiece] = []
        seen: set[str] = set()
        tol = self.rules.touch_tolerance
        box = None if board is None else shapely.box(0, 0, board[0], board[1]).buffer(tol)
        for i, t in enumerate(items):
            path = f"terrain[{i}]"
            if not isinstance(t, dict):
                self.bad(path, f"expected a table, got {show(t)}")
                continue
            piece = self.piece(t, path, units)
            if piece is None:
                continue
            if piece.id in seen:
                self.bad(f"{path}.id", f"duplicate terrain id {piece.id!r}")
                continue
            seen.add(piece.id)
            if board is not None and box is not None and not box.covers(piece.footprint):
                self.bad(path, f"terrain {piece.id!r} lies outside the board "
                         f"{board[0]:g} x {board[1]:g}")
            out.append(piece)
        concave = sum(_concave(p) for p in out)
        if concave > MAX_CONCAVE_CORNERS:
            self.bad("terrain", f"{concave} concave corners in the outlines models stand on "
                     f"(the tops of pieces with a height, and holes); the limit is "
                     f"{MAX_CONCAVE_CORNERS} (each one slows the reachable area there)")
        holes = sum(len(p.holes) for p in out)
        if holes > MAX_HOLES:
            self.bad("terrain", f"{holes} holes in all terrain together; the limit is "
                     f"{MAX_HOLES} (each hole slows every reachable area on its level)")
        total = sum(_points(p) for p in out)
        if total > MAX_TERRAIN_VERTICES:
            self.bad("terrain", f"{total} points in all terrain outlines together (a circle "
                     f"counts {CIRCLE_POINTS}); the limit is {MAX_TERRAIN_VERTICES}")
        return out

    def piece(self, t: dict[str, Any], path: str, units: Mapping[str, Unit]
              ) -> TerrainPiece | None:
        n = len(self.problems)
        self.unknown_keys(t, TERRAIN_KEYS, path)
        pid = self.get(t, "id", path, "a string")
        if pid is not None:
            self.check_id(pid, f"{path}.id")
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
            total = len(polygon or ()) + sum(len(h) for h in holes)
            if total > MAX_VERTICES:
                self.bad(f"{path}.holes", f"{total} points with the holes; the limit is "
                         f"{MAX_VERTICES} a polygon")
            if polygon is not None and len(self.problems) == n:
                shape = shapely.Polygon(polygon, holes=list(holes))
                if not shape.is_valid or shape.area <= 0:
                    why = shapely.is_valid_reason(shape) if not shape.is_valid else "zero area"
                    self.bad(f"{path}.polygon", f"terrain {show(pid)}: degenerate or "
                             f"self-intersecting polygon ({why})")
        else:
            circle = self.circle(t["circle"], f"{path}.circle")
        overrides = self.overrides(t, path, units)
        if len(self.problems) > n or pid is None or props is None:
            return None
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
                if not isinstance(value, str) or value not in MOVEMENT_CLASSES:
                    self.bad(where, f"unknown movement class {show(value)}; "
                             f"known: {known(MOVEMENT_CLASSES)}")
                    continue
            elif f.name == "height":
                if not is_kind(value, "a number") or not 0 <= value <= MAX_HEIGHT_INCHES:
                    self.bad(where, f"expected a height from 0 to {MAX_HEIGHT_INCHES:g} "
                             f"inches, got {show(value)}")
                    continue
                value = float(value)
            elif not isinstance(value, bool):
                self.bad(where, f"expected true or false, got {show(value)}")
                continue
            out[f.name] = value
        if out.get("dense") and not out.get("area", False) and not required:
            self.bad(f"{path}.dense", "dense terrain is area terrain: set area = true too")
        return out

    def overrides(self, t: Mapping[str, Any], path: str, units: Mapping[str, Unit]
                  ) -> dict[str, Mapping[str, Any]]:
        raw = self.get(t, "overrides", path, "a table", required=False, default={}) or {}
        names = {*units, *self.rules.keywords, *SIZE_CLASSES}
        out: dict[str, Mapping[str, Any]] = {}
        for name, table in raw.items():
            where = join(f"{path}.overrides", name)
            if name not in names:
                self.bad(where, f"unknown unit id, keyword or size class {show(name)}; "
                         f"known: {known(names)}")
                continue
            if not isinstance(table, dict):
                self.bad(where, f"expected a table of terrain properties, got {show(table)}")
                continue
            self.unknown_keys(table, TERRAIN_PROP_NAMES, where)
            props = self.props(table, where, required=True)
            if props is not None:
                out[name] = MappingProxyType(props)
        return out

    def ring(self, value: Any, path: str) -> tuple[tuple[float, float], ...] | None:
        if isinstance(value, list) and len(value) > MAX_VERTICES:
            self.bad(path, f"{len(value)} points; the limit is {MAX_VERTICES} a ring")
            return None
        if (not isinstance(value, list) or len(value) < 3
                or not all(is_point(p) for p in value)):
            self.bad(path, f"expected a list of at least 3 [x, y] points, got {show(value)}")
            return None
        return tuple((float(p[0]), float(p[1])) for p in value)

    def circle(self, value: Any, path: str) -> tuple[tuple[float, float], float] | None:
        if not isinstance(value, dict) or set(value) != {"center", "radius"}:
            self.bad(path, f"expected {{center = [x, y], radius = r}}, got {show(value)}")
            return None
        c, r = value["center"], value["radius"]
        if not is_point(c) or not is_kind(r, "a number") or not MIN_RADIUS <= r <= MAX_BOARD_INCHES:
            self.bad(path, f"expected a centre [x, y] and a radius from {MIN_RADIUS:g} to "
                     f"{MAX_BOARD_INCHES:g} inches, got {show(value)}")
            return None
        return ((float(c[0]), float(c[1])), float(r))


def _concave(piece: TerrainPiece) -> int:
    """Concave corners of the rings a model moves within: the outline of a piece it stands
    on (a surface) and every hole (a courtyard, a gap in a roof)."""
    rings = [*piece.holes, *([piece.polygon] if piece.polygon is not None and is_surface(
        piece.props.height, piece.props.area) else [])]
    return sum(_concave_corners(r) for r in rings)


def _concave_corners(ring: tuple[tuple[float, float], ...]) -> int:
    """Corners of a simple ring turning against its orientation."""
    n = len(ring)
    turns = [(ring[i][0] - ring[i - 1][0]) * (ring[(i + 1) % n][1] - ring[i][1])
             - (ring[i][1] - ring[i - 1][1]) * (ring[(i + 1) % n][0] - ring[i][0])
             for i in range(n)]
    area2 = sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(n))
    return sum(1 for t in turns if t * area2 < 0)


def _points(piece: TerrainPiece) -> int:
    """What a piece costs the sight and movement code: its outline points."""
    if piece.circle is not None:
        return CIRCLE_POINTS
    return len(piece.polygon or ()) + sum(len(h) for h in piece.holes)
