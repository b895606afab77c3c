"""A reachable area asked about a few points only (the AI's charges, issue 33).

The sets :func:`geometry.movement.reach.reachable_area` overlays into an area (each
node's disc of length left, the shadows there, the centre box, the occupied
bases' outlines) tested point by point instead: the same answers, without the
overlays that cost most of an area when only a dozen points are asked about.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.paths import Level, Point
from geometry.movement.reach import dedupe, shadows_of, witness_tree


class PointReach:
    """A reachable area asked about points one by one: each point tested against each
    node's disc, the shadows there, the centre box and the occupied outlines, the sets
    :func:`~geometry.movement.reach.reachable_area` overlays, without the overlays.
    :meth:`path_to` gives the witness path the whole area's ``path_to`` gives (the
    same node: the first whose region covers the point). ``surely_reaches``: the
    start's own node covers its point, so the area is not empty (when False, build
    the area to know)."""

    def __init__(self, level: Level, r: float, start: Point, length: float, *,
                 avoid_difficult: bool = False) -> None:
        self.start = start
        self._t = witness_tree(level, r, start, length, avoid_difficult)
        self._shadows: dict[int, list[BaseGeometry]] = {}
        t = self._t
        self.surely_reaches = (t is not None and bool(t.live) and t.live[0] == 0
                               and self._in_region(0, shapely.Point(t.nodes[0])))

    def _shadows_at(self, k: int) -> list[BaseGeometry]:
        t = self._t
        assert t is not None
        if k not in self._shadows:  # (elementwise: the same hulls as all at once)
            self._shadows[k] = shadows_of(t.vs[k:k + 1], [t.jobs[k]], t.rhos[k:k + 1])[0]
        return self._shadows[k]

    def _in_region(self, k: int, pt: BaseGeometry) -> bool:
        """Whether live node ``k``'s region covers the point ``pt`` (a shadow's or a
        base's edge is the region's edge, so only their insides are taken away)."""
        t = self._t
        assert t is not None
        if not (t.discs[k].covers(pt) and t.box.covers(pt)):
            return False
        return not (any(s.contains(pt) for s in self._shadows_at(k))
                    or any(o.contains(pt) for o in t.taken))

    def path_to(self, p: Point) -> list[Point] | None:
        """Waypoints from the start to ``p`` through the tree, or None if ``p`` is outside."""
        t = self._t
        if t is None:
            return None
        pt = shapely.Point(p)
        for k, i in enumerate(t.live):
            if self._in_region(k, pt):
                chain = [i]
                while t.parent[chain[-1]] >= 0:
                    chain.append(t.parent[chain[-1]])
                return dedupe([*t.prefix, *(t.nodes[j] for j in reversed(chain)), p])
        return None
