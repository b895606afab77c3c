"""A base swept along a path of straight legs at one height (R-MOV-1..5, R-EDGE-1).

A horizontal move is a sequence of waypoints (base-centre positions); the
base sweeps a capsule along each leg. The capsule is never built as a
polygon: a leg is clear of an obstacle when the segment's exact clearance
(:mod:`geometry.movement.obstacles`) is at least ``r - tolerance`` (a base may touch or
overlap a shape by no more than the touch tolerance, R-UNIT-2).

:class:`Level` holds what a move at one height meets, already chosen by the
rules (``sim/``): pieces and bases that may never be overlapped
(``blocking``), difficult pieces (``difficult``), bases that may be crossed
but not ended on (``occupied``, R-MOV-4), the board, and above the ground
the surface the base must stay on (``floor``). :func:`check_legs` answers
legality with the reason and the pieces named, the length, the difficult
pieces crossed and where the base first crosses the board edge (R-EDGE-1).

Examples
--------
>>> wall = MoveObstacle.polygon("wall", shapely.box(4, 0, 5, 6))
>>> level = Level((12.0, 12.0), blocking=ObstacleSet((wall,)), tolerance=0.01)
>>> check_legs(level, 0.5, [(2, 3), (8, 3)]).reason
"base overlaps 'wall' on leg 1"
>>> report = check_legs(level, 0.5, [(2, 3), (2, 8), (8, 8)])
>>> report.legal, report.length
(True, 11.0)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.obstacles import EPS, MoveObstacle, ObstacleSet

Point = tuple[float, float]

__all__ = [
    "LegsReport",
    "Level",
    "MoveObstacle",
    "ObstacleSet",
    "centre_box",
    "check_legs",
    "check_legs_many",
    "edge_crossing",
    "leg_geometries",
    "on_board",
    "path_length",
]


@dataclass(frozen=True)
class Level:
    """Everything a horizontal move at one height meets (chosen by the rules).

    ``floor`` is None on the ground; above it, the union of the tops at this
    height: the base must stay in contact with it (its centre within
    ``r + tolerance`` of it) along the way and end with its centre on it.
    """

    board: tuple[float, float]
    blocking: ObstacleSet = field(default_factory=ObstacleSet)
    difficult: ObstacleSet = field(default_factory=ObstacleSet)
    occupied: ObstacleSet = field(default_factory=ObstacleSet)
    # The touch tolerance (R-UNIT-2) comes from rules data: no default here.
    tolerance: float = field(kw_only=True)
    floor: BaseGeometry | None = None

    def support(self, r: float) -> BaseGeometry | None:
        """Where the centre may travel above the ground: within ``r + tol`` of the floor."""
        if self.floor is None:
            return None
        return self.floor.buffer(r + self.tolerance, quad_segs=32)


@dataclass(frozen=True)
class LegsReport:
    """The answer for one horizontal path (a value; ``reason`` is empty when legal)."""

    legal: bool
    reason: str
    length: float
    end: Point
    blocked_by: tuple[str, ...] = ()
    difficult: tuple[str, ...] = ()
    ends_on: tuple[str, ...] = ()
    edge_at: Point | None = None  # first centre position where the base crosses the edge
    edge_after: float | None = None  # path length up to that position
    unsupported: bool = False


def centre_box(
    board: tuple[float, float], r: float, slack: float
) -> tuple[float, float, float, float]:
    """Bounds of the centre while the base crosses no edge by more than ``slack``."""
    w, h = board
    return (r - slack, r - slack, w - r + slack, h - r + slack)


def on_board(board: tuple[float, float], xy: Point, r: float, tolerance: float) -> bool:
    """Whether a base at ``xy`` is on the table (it crosses no edge by more than the tolerance)."""
    x0, y0, x1, y1 = centre_box(board, r, tolerance)
    return x0 - EPS <= xy[0] <= x1 + EPS and y0 - EPS <= xy[1] <= y1 + EPS


def path_length(points: Sequence[Point]) -> float:
    """Horizontal length of a waypoint path (R-MOV-5)."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def leg_geometries(points: Sequence[Point]) -> list[BaseGeometry]:
    """One geometry per leg (a segment, or a point for a zero-length leg or a lone waypoint)."""
    return _legs_of_paths([points])[0]


def _legs_of_paths(paths: Sequence[Sequence[Point]]) -> list[list[BaseGeometry]]:
    """:func:`leg_geometries` of many paths, built in one vectorised call per kind
    (the AI checks a dozen one-leg walks at a time: one call each cost more than
    the clearance queries)."""
    segs: list[tuple[Point, Point]] = []
    dots: list[Point] = []
    kinds: list[list[bool]] = []  # per path, per leg: a segment (True) or a point
    for pts in paths:
        if len(pts) == 1:
            dots.append(pts[0])
            kinds.append([False])
            continue
        row = []
        for a, b in itertools.pairwise(pts):
            if a != b:
                segs.append((a, b))
            else:
                dots.append(a)
            row.append(a != b)
        kinds.append(row)
    seg_it = iter(shapely.linestrings(np.asarray(segs, float)) if segs else ())
    dot_it = iter(shapely.points(np.asarray(dots, float)) if dots else ())
    return [[next(seg_it) if k else next(dot_it) for k in row] for row in kinds]


def edge_crossing(
    board: tuple[float, float], points: Sequence[Point], r: float, tolerance: float
) -> tuple[Point, float] | None:
    """Where the base first crosses the board edge along the path, and the length to there.

    R-EDGE-1: a model is off the table as soon as any part of its base
    crosses the edge. The centre may go up to ``tolerance`` beyond ``r`` from
    the edge (touching it is not crossing, R-UNIT-2). Liang-Barsky clipping of
    each leg against the centre box.
    """
    x0, y0, x1, y1 = centre_box(board, r, tolerance)
    travelled = 0.0
    if not on_board(board, points[0], r, tolerance):
        return points[0], 0.0
    for a, b in itertools.pairwise(points):
        dx, dy = b[0] - a[0], b[1] - a[1]
        t_exit = 1.0
        for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
            if p > 0:
                t_exit = min(t_exit, q / p)
        leg = math.hypot(dx, dy)
        if not on_board(board, b, r, tolerance):
            t = max(0.0, t_exit)
            return (a[0] + t * dx, a[1] + t * dy), travelled + t * leg
        travelled += leg
    return None


def _names(obs: ObstacleSet, idx: Sequence[int]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(obs[i].id for i in idx))


def check_legs(
    level: Level, r: float, points: Sequence[Point], *, rest: bool = True
) -> LegsReport:
    """Check a horizontal path of waypoints for a base of radius ``r`` (exact).

    Refused, in this order: the base crosses the board edge (R-EDGE-1);
    it overlaps a blocking piece or base on some leg (R-MOV-3, R-MOV-4);
    above the ground it leaves its floor. When the base comes to ``rest``
    at the end (not when a climb or jump follows): above the ground its
    centre must be on the floor, and it may not overlap a base (R-MOV-4).
    Difficult pieces crossed are reported either way (R-MOV-1). Length
    limits are the caller's (the ruler depends on the rules).
    """
    return check_legs_many(level, r, [points], rest=rest)[0]


def check_legs_many(
    level: Level, r: float, paths: Sequence[Sequence[Point]], *, rest: bool = True
) -> list[LegsReport]:
    """:func:`check_legs` for many paths at once: every leg's clearances to the
    difficult and the blocking pieces and every end's to the bases in one query each
    (the same answers as path by path)."""
    runs = [[(float(x), float(y)) for x, y in points] for points in paths]
    if not all(runs):
        raise ValueError("a path needs at least one waypoint")
    thr = r - level.tolerance
    legs = _legs_of_paths(runs)
    flat = [leg for path in legs for leg in path]
    diff_rows = level.difficult.closer_than(flat, thr)
    block_rows = level.blocking.closer_than(flat, thr)
    ends = (level.occupied.points_closer_than([pts[-1] for pts in runs], thr)
            if rest else [[] for _ in runs])
    support: list[BaseGeometry | None] = []  # worked out once, when a path gets to it
    out: list[LegsReport] = []
    at = 0
    for pts, path, end_row in zip(runs, legs, ends, strict=True):
        rows = slice(at, at + len(path))
        at += len(path)
        out.append(_legs_report(level, r, pts, path, diff_rows[rows], block_rows[rows],
                                end_row, support, rest))
    return out


def _legs_report(level: Level, r: float, pts: list[Point], legs: list[BaseGeometry],
                 diff_rows: list[list[int]], rows: list[list[int]], ends: list[int],
                 support: list[BaseGeometry | None], rest: bool) -> LegsReport:
    """One path's report from its legs' clearances (:func:`check_legs_many`)."""
    tol = level.tolerance
    length = path_length(pts)
    end = pts[-1]
    difficult = _names(level.difficult, sorted({i for row in diff_rows for i in row}))

    def refuse(reason: str, **kw: object) -> LegsReport:
        return LegsReport(False, reason, length, end, difficult=difficult, **kw)  # type: ignore[arg-type]

    crossing = edge_crossing(level.board, pts, r, tol)
    if crossing is not None:
        at, after = crossing
        return refuse(
            f"base crosses the board edge at ({at[0]:.3f}, {at[1]:.3f})",
            edge_at=at, edge_after=after,
        )
    for i, row in enumerate(rows):
        if row:
            names = _names(level.blocking, row)
            which = ", ".join(repr(n) for n in names)
            return refuse(f"base overlaps {which} on leg {i + 1}", blocked_by=names)
    if not support:
        support.append(level.support(r))
    surface = support[0]
    if surface is not None:
        for i, leg in enumerate(legs):
            if not surface.covers(leg):
                return refuse(f"base leaves the surface it stands on, on leg {i + 1}",
                              unsupported=True)
        if rest and level.floor is not None and not level.floor.covers(shapely.Point(end)):
            return refuse("the move ends with the base centre off the surface", unsupported=True)
    if ends:
        names = _names(level.occupied, ends)
        which = ", ".join(repr(n) for n in names)
        return refuse(f"the move ends overlapping {which}", ends_on=names)
    return LegsReport(True, "", length, end, difficult=difficult)
