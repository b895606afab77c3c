"""A reachable area asked about a few points only (the AI's charges, issue 33).

The sets :func:`geometry.movement.reach.reachable_area` overlays into an area (each
node's disc of length left, the shadows there, the centre box, the occupied
bases' outlines) tested point by point instead: the same answers, without the
overlays that cost most of an area when only a dozen points are asked about.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.paths import Level, Point
from geometry.movement.reach import shadows_of, tree_path, witness_tree


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
        self._shadows: dict[int, npt.NDArray[np.object_]] = {}
        t = self._t
        self.surely_reaches = (t is not None and bool(t.live) and t.live[0] == 0
                               and self._first(shapely.Point(t.nodes[0]), 1) == 0)

    def _shade(self, ks: list[int]) -> None:
        """Work out the shadows of live nodes ``ks`` not known yet, in one call
        (elementwise: the same hulls as node by node, or all at once)."""
        t = self._t
        assert t is not None
        ks = [k for k in ks if k not in self._shadows]
        if ks:
            got = shadows_of(t.vs[ks], [t.jobs[k] for k in ks], t.rhos[ks])
            for k, hulls in zip(ks, got, strict=True):
                self._shadows[k] = np.array(hulls, dtype=object)

    def _first(self, pt: BaseGeometry, upto: int | None = None) -> int | None:
        """The first live node (of the first ``upto``) whose region covers the point
        ``pt``: inside its disc and the centre box, inside none of its shadows nor the
        occupied outlines (a shadow's or a base's edge is the region's edge, so only
        their insides are taken away). The box and the outlines are the same for every
        node, so tested once; the discs all in one call. The first node the disc puts
        the point near is shaded alone; if it hides the point, the rest at once."""
        t = self._t
        assert t is not None
        n = len(t.live) if upto is None else min(upto, len(t.live))
        if not n or not t.box.covers(pt) or any(o.contains(pt) for o in t.taken):
            return None
        near = np.flatnonzero(shapely.covers(t.discs[:n], pt)).tolist()
        for at, k in enumerate(near):
            self._shade([k] if at == 0 else near[at:])
            if not shapely.contains(self._shadows[k], pt).any():
                return int(k)
        return None

    def path_to(self, p: Point) -> list[Point] | None:
        """Waypoints from the start to ``p`` through the tree, or None if ``p`` is outside."""
        t = self._t
        if t is None:
            return None
        k = self._first(shapely.Point(p))
        if k is None:
            return None
        return tree_path(t.prefix, t.nodes, t.parent, t.live[k], p)
