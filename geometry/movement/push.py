"""Push back: a base driven straight away from a point (R-EDGE-3).

The base moves along the ray from ``source`` through its centre by
``length``; it stops where it first touches (clearance exactly ``r``) a
blocking obstacle (impassable terrain, another base) or the board edge. A
push that would carry the base over the edge by more than the touch
tolerance is a push *into* the edge (hard edge: the model stays, the rules
deal damage).

Above the ground the base stands on a ``floor`` (the tops at its height).
A push that carries the base centre past the floor's outline goes over the
edge: it stops where the centre leaves the floor (``fell``), and the rules
drop the model to the level below from there. Whatever comes first along
the push wins: an obstacle, the edge of the top, the board edge.

The stop is found by bisection on the exact clearance of the swept segment
(monotone in the distance travelled) to 1e-9 in, so it is exact for play.

Examples
--------
>>> from geometry.movement.obstacles import MoveObstacle, ObstacleSet
>>> wall = ObstacleSet((MoveObstacle.polygon("wall", shapely.box(8, 0, 9, 10)),))
>>> res = push_back((10.0, 10.0), wall, 0.5, (5.0, 5.0), (4.0, 5.0), 4.0, 0.01)
>>> round(res.end[0], 6), res.stopped_by, res.into_edge
(7.5, ('wall',), False)
>>> push_back((10.0, 10.0), ObstacleSet(), 0.5, (8.0, 5.0), (7.0, 5.0), 4.0, 0.01).into_edge
True
>>> roof = shapely.box(2, 2, 7, 8)
>>> off = push_back((10.0, 10.0), ObstacleSet(), 0.5, (5.0, 5.0), (4.0, 5.0), 4.0, 0.01,
...                 floor=roof)
>>> off.end, off.travelled, off.fell
((7.0, 5.0), 2.0, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.obstacles import ObstacleSet
from geometry.movement.paths import Point, centre_box

ITERATIONS = 60


@dataclass(frozen=True)
class PushResult:
    """Where a pushed base ends, how far it went and what stopped it."""

    end: Point
    travelled: float
    stopped_by: tuple[str, ...] = ()
    into_edge: bool = False
    fell: bool = False  # the centre went over the edge of its floor at ``end``


def _edge_distance(board: tuple[float, float], r: float, c: Point, ux: float, uy: float) -> float:
    """How far the centre can go along ``(ux, uy)`` before the base touches the edge."""
    x0, y0, x1, y1 = centre_box(board, r, 0.0)
    t = math.inf
    if ux > 0:
        t = min(t, (x1 - c[0]) / ux)
    elif ux < 0:
        t = min(t, (x0 - c[0]) / ux)
    if uy > 0:
        t = min(t, (y1 - c[1]) / uy)
    elif uy < 0:
        t = min(t, (y0 - c[1]) / uy)
    return max(0.0, t)


def push_back(
    board: tuple[float, float],
    blocking: ObstacleSet,
    r: float,
    centre: Point,
    source: Point,
    length: float,
    tolerance: float,
    *,
    floor: BaseGeometry | None = None,
) -> PushResult:
    """Push a base of radius ``r`` at ``centre`` directly away from ``source`` by ``length``.

    ``blocking`` must not contain the pushed base itself. Obstacles the base
    already touches or overlaps stop it only if the push moves it closer.
    A source at the centre itself gives no direction: nothing moves.
    ``floor`` (above the ground): the surface the base stands on; a centre
    off it (a climbing model) goes over at once.
    """
    if floor is not None and not floor.covers(shapely.Point(centre)):
        return PushResult(centre, 0.0, fell=True)
    dx, dy = centre[0] - source[0], centre[1] - source[1]
    norm = math.hypot(dx, dy)
    if norm == 0 or length <= 0:
        return PushResult(centre, 0.0)
    ux, uy = dx / norm, dy / norm
    to_edge = _edge_distance(board, r, centre, ux, uy)
    into_edge = length > to_edge + tolerance
    go = min(length, to_edge)
    off = None if floor is None else _leaves_floor(floor, centre, ux, uy, go)
    if off is not None:
        go, into_edge = off, False
    start = shapely.Point(centre)
    base = blocking.clearance(start)
    # Obstacles already closer than touching stop the base only when it gets closer still.
    limit = [min(r, float(c)) for c in base]

    def hits(t: float) -> list[int]:
        if t <= 0:
            return []
        seg = shapely.LineString([centre, (centre[0] + ux * t, centre[1] + uy * t)])
        clear = blocking.clearance(seg)
        return [i for i, c in enumerate(clear) if c < limit[i] - 1e-12]

    stoppers: list[int] = []
    if hits(go):
        lo, hi = 0.0, go
        for _ in range(ITERATIONS):
            mid = (lo + hi) / 2
            if hits(mid):
                hi = mid
            else:
                lo = mid
        go = lo
        stoppers = hits(hi)
        into_edge = False
        off = None
    end = (centre[0] + ux * go, centre[1] + uy * go)
    names = tuple(dict.fromkeys(blocking[i].id for i in stoppers))
    return PushResult(end, go, names, into_edge, fell=off is not None)


def _leaves_floor(floor: BaseGeometry, c: Point, ux: float, uy: float, go: float) -> float | None:
    """How far the centre goes along ``(ux, uy)`` before it leaves ``floor`` (None: never)."""
    if go <= 0:
        return None
    seg = shapely.LineString([c, (c[0] + ux * go, c[1] + uy * go)])
    outside = seg.difference(floor)
    if outside.is_empty or outside.length <= 0:
        return None
    pts = shapely.points(shapely.get_coordinates(outside))
    return float(min(shapely.line_locate_point(seg, pts)))
