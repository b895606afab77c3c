"""The speed baseline of issue 11: a numpy-vectorised 16 x 16 sight sampler.

For a pair of bases it takes 16 points on each rim and tests all 256 segments
between them in one array operation: each segment against the board's
polygon edges near the pair (a proper or touching crossing blocks), the start
points inside a polygon (even-odd over the edges), the distance to every
exact disc, and proper crossings of zero-thickness walls. The pair is seen
when some segment is free. This is about the fastest a sampler gets in numpy,
so it is a fair yardstick for the exact method (``bench/sight.py``).

The sampler's obstacles follow the exact method's rules closely enough that it
never sees what the exact method cannot: polygons are merged, cracks up to the
merge gap are closed (a mitre closing, which may also fill narrower notches:
the sampler can only see less for it), then eroded by ``EPS`` like the exact
method's; discs are exact.

Examples
--------
>>> import shapely
>>> from geometry.sight.index import Obstacle
>>> s = Sampler([Obstacle("wall", shapely.box(4, -3, 5, 3))], 0.0)
>>> s.sees(Disc(0, 0, 0.5), Disc(10, 0, 0.5)), s.sees(Disc(0, 0, 0.5), Disc(10, 7, 0.5))
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.discs import Disc
from geometry.sight.index import EPS, Obstacle

RIM = 16
Array = NDArray[np.float64]

_ANGLES = (np.arange(RIM) + 0.5) * 2 * np.pi / RIM
_RING = np.c_[np.cos(_ANGLES), np.sin(_ANGLES)]
_A = np.repeat(np.arange(RIM), RIM)  # segment k starts at rim point _A[k] of base a
_B = np.tile(np.arange(RIM), RIM)  # and ends at rim point _B[k] of base b


class Sampler:
    """A board prepared for sampled sight queries (see the module docstring)."""

    def __init__(self, obstacles: Sequence[Obstacle], merge_gap: float) -> None:
        polys = [o.shape for o in obstacles
                 if not isinstance(o.shape, Disc) and o.shape.geom_type.endswith("Polygon")]
        walls = [o.shape for o in obstacles
                 if not isinstance(o.shape, Disc) and "LineString" in o.shape.geom_type]
        self.discs = np.array([(o.shape.x, o.shape.y, o.shape.r) for o in obstacles
                               if isinstance(o.shape, Disc)], np.float64).reshape(-1, 3)
        union = shapely.unary_union(polys) if polys else shapely.Polygon()
        if merge_gap > 0:
            # With the pieces themselves: a closing only adds area (a high mitre limit
            # can give GEOS a self-intersecting offset that loses some).
            closed = union.buffer(merge_gap / 2, join_style="mitre", mitre_limit=5.0).buffer(
                -merge_gap / 2, join_style="mitre", mitre_limit=5.0)
            union = shapely.union(union, shapely.make_valid(closed))
        core = union.buffer(-EPS, join_style="mitre")
        self.edges = _edges(core)
        self.walls = _edges(shapely.unary_union(walls)) if walls else np.zeros((0, 2, 2))
        lo, hi = self.edges.min(axis=1), self.edges.max(axis=1)
        self._box = np.c_[lo, hi]

    def sees(self, a: Disc, b: Disc) -> bool:
        """Some of the 256 rim-to-rim segments is free."""
        return bool(self.free(a, b).any())

    def witnesses(self, a: Disc, b: Disc) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The free ones of the 256 segments (to check the sampler itself)."""
        pa = np.array([a.x, a.y]) + a.r * _RING
        pb = np.array([b.x, b.y]) + b.r * _RING
        free = self.free(a, b)
        return [((float(pa[i, 0]), float(pa[i, 1])), (float(pb[j, 0]), float(pb[j, 1])))
                for i, j in zip(_A[free].tolist(), _B[free].tolist(), strict=True)]

    def free(self, a: Disc, b: Disc) -> NDArray[np.bool_]:
        """Which of the 256 segments (rim point ``_A[k]`` of a to ``_B[k]`` of b) are free."""
        pa = np.array([a.x, a.y]) + a.r * _RING
        pb = np.array([b.x, b.y]) + b.r * _RING
        x0, y0 = min(a.x - a.r, b.x - b.r), min(a.y - a.r, b.y - b.r)
        x1, y1 = max(a.x + a.r, b.x + b.r), max(a.y + a.r, b.y + b.r)
        box = self._box
        near = self.edges[(box[:, 0] <= x1) & (box[:, 2] >= x0)
                          & (box[:, 1] <= y1) & (box[:, 3] >= y0)]
        free = np.ones((RIM, RIM), dtype=bool)  # [i, j]: rim point i of a to j of b
        if len(near):
            free &= ~_crossing(pa, pb, near, closed=True).any(axis=2)
            # A segment that crosses no edge is wholly outside or inside: test its start
            # against every edge (the ray to +x leaves the pair's box).
            free &= ~_inside(pa, self.edges)[:, None]
        if len(self.walls):
            free &= ~_crossing(pa, pb, self.walls, closed=False).any(axis=2)
        flat = free.reshape(-1)
        if len(self.discs):
            p0, p1 = pa[_A], pb[_B]
            flat &= (_distance(self.discs[:, :2], p0, p1) >= self.discs[:, 2] - EPS).all(axis=1)
        return flat

    def sees_many(self, pairs: Sequence[tuple[Disc, Disc]]) -> list[bool]:
        return [self.sees(a, b) for a, b in pairs]


def _edges(geom: shapely.Geometry) -> Array:
    rings = shapely.get_rings(shapely.get_parts(geom)) if geom.geom_type.endswith("Polygon") \
        else shapely.get_parts(geom)
    out = []
    for ring in rings:
        c = shapely.get_coordinates(ring)
        out.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 2, 2))


def _cross(p: Array, q: Array) -> Array:
    """(P, Q): the cross product of every point of ``p`` with every point of ``q``."""
    result: Array = p[:, None, 0] * q[None, :, 1] - p[:, None, 1] * q[None, :, 0]
    return result


def _crossing(pa: Array, pb: Array, e: Array, closed: bool) -> NDArray[np.bool_]:
    """(A, B, E): the segment from ``pa[i]`` to ``pb[j]`` meets edge ``e[k]`` (touching
    counts when ``closed``).

    The four orientation tests, factored so that each (segment, edge) costs a few
    array operations: the side of a rim point against an edge depends on the
    point alone, and cross(q - p, x - p) = cross(q, x) - cross(p, x) - cross(q, p).
    """
    e0, e1 = e[:, 0], e[:, 1]
    f = e1 - e0
    k = e0[:, 0] * f[:, 1] - e0[:, 1] * f[:, 0]  # cross(e0, f)
    side_a = -_cross(pa, f) + k  # cross(f, p - e0) for each rim point of a
    side_b = -_cross(pb, f) + k
    qp = _cross(pb, pa).T[:, :, None]  # [i, j] = cross(pb[j], pa[i])
    ca0, cb0 = _cross(pa, e0)[:, None], _cross(pb, e0)[None]
    ca1, cb1 = _cross(pa, e1)[:, None], _cross(pb, e1)[None]
    o3 = cb0 - ca0 - qp  # cross(pb - pa, e0 - pa)
    o4 = cb1 - ca1 - qp
    ends = side_a[:, None] * side_b[None]
    if closed:
        result: NDArray[np.bool_] = (ends <= 0) & (o3 * o4 <= 0)
    else:
        result = (ends < 0) & (o3 * o4 < 0)
    return result


def _inside(p: Array, e: Array) -> NDArray[np.bool_]:
    """Even-odd test of points ``p`` against the rings made of edges ``e``."""
    y0, y1 = e[None, :, 0, 1], e[None, :, 1, 1]
    x0, x1 = e[None, :, 0, 0], e[None, :, 1, 0]
    py, px = p[:, None, 1], p[:, None, 0]
    spans = (y0 > py) != (y1 > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        cut = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
    result: NDArray[np.bool_] = (np.count_nonzero(spans & (cut > px), axis=1) % 2) == 1
    return result


def _distance(c: Array, p0: Array, p1: Array) -> Array:
    """(S, C): distance from each segment to each centre."""
    d = (p1 - p0)[:, None]
    w = c[None] - p0[:, None]
    t = np.clip((w * d).sum(axis=2) / np.maximum((d * d).sum(axis=2), 1e-300), 0.0, 1.0)
    off = w - t[..., None] * d
    result: Array = np.sqrt((off * off).sum(axis=2))
    return result
