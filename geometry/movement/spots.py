"""Where one base may stand: in contact with another (R-UNIT-2), or, after a fall, on the
nearest free spot (R-FALL-1). Single spots beside :mod:`geometry.movement.reach`'s areas,
built from the same circumscribed outlines, checked with the same exact test.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.obstacles import MoveObstacle, ObstacleSet
from geometry.movement.paths import Level, Point, centre_box, check_legs
from geometry.movement.reach import fine_quad_segs


def contact_band(center: Point, other_r: float, r: float, tol: float) -> BaseGeometry:
    """Centre positions in base contact with a base (gap at most the tolerance, R-UNIT-2).

    An inscribed polygon of the disc of radius ``other_r + r + tol/2``; the
    overlap side is left to the obstacles of the level.
    """
    d = other_r + r + tol / 2
    return shapely.Point(center).buffer(d, quad_segs=fine_quad_segs(d, tol) * 2)


def nearest_free_spot(level: Level, r: float, p: Point) -> Point | None:
    """The centre position nearest ``p`` where a base of radius ``r`` may stand at this level.

    Where a falling model comes to rest (R-FALL-1, docs/movement.md): ``p``
    itself when a movement could end there (:func:`geometry.movement.paths.check_legs`
    with the single waypoint ``p``: on the board, clear of blocking pieces and
    bases, on the floor above the ground, not on an occupied base); else the
    nearest point of the free configuration space: the centre box minus every
    blocking and occupied obstacle grown by ``r`` as a circumscribed outline
    (so the base at most touches it), above the ground intersected with the
    floor shrunk by ``tolerance/4``. The answer is checked with the exact test;
    None when no spot at this level is free.

    Examples
    --------
    >>> wall = MoveObstacle.polygon("wall", shapely.box(4.0, 0.0, 6.0, 10.0))
    >>> level = Level((10.0, 10.0), blocking=ObstacleSet((wall,)), tolerance=0.01)
    >>> x, y = nearest_free_spot(level, 0.5, (5.2, 5.0))
    >>> round(x, 2), round(y, 2)
    (6.5, 5.0)
    >>> nearest_free_spot(level, 0.5, (8.0, 8.0))
    (8.0, 8.0)
    """
    if check_legs(level, r, [p]).legal:
        return p
    tol = level.tolerance
    x0, y0, x1, y1 = centre_box(level.board, r, 0.0)
    if x0 > x1 or y0 > y1:
        return None
    free: BaseGeometry = shapely.box(x0, y0, x1, y1)
    if level.floor is not None:
        free = free.intersection(level.floor.buffer(-tol / 4))
    obstacles = (*level.blocking, *level.occupied)
    if obstacles:
        # Fine outlines (at most tol/16 beyond touching): the model lands in contact.
        taken = shapely.union_all([o.outline(r, fine_quad_segs(o.inflate + r, tol / 4))
                                   for o in obstacles])
        free = free.difference(taken)
    here = shapely.Point(p)
    # A second, slightly shrunk try guards against a nearest point that float
    # noise puts a hair inside an outline.
    for margin in (0.0, tol / 4):
        room = free if margin == 0.0 else free.buffer(-margin)
        if room.is_empty:
            return None
        x, y = shapely.shortest_line(here, room).coords[-1]
        spot = (float(x), float(y))
        if check_legs(level, r, [spot]).legal:
            return spot
    return None


__all__ = ["MoveObstacle", "ObstacleSet", "contact_band", "nearest_free_spot"]
