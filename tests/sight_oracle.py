"""An independent brute-force oracle for exact line of sight (R-LOS-1, issue 11).

Written from the semantics in docs/sight.md with Shapely and numpy only, never
with the production code (``geometry/sight*.py``): a wrong answer of the exact
method must not be able to hide behind a shared helper.

The semantics judged: bases ``A`` and ``B`` see each other when some segment
from a point of ``A`` to a point of ``B`` avoids the inside of every obstacle
(grazing is allowed); polygon pieces whose gap is at most the merge gap act as
one (a bridge along their shortest connection, R-UNIT-2); discs are exact;
zero-thickness walls (LineStrings) block only a segment that properly crosses
them.

Two halves:

- a *visible* answer: its witness is checked. Its ends lie on the two bases
  (within ``1e-7``), and the segment avoids the inside of every polygon eroded
  by :data:`MARGIN` (merged as above), keeps at least ``r - MARGIN`` from every
  blocking disc's centre and properly crosses no wall by more than
  :data:`MARGIN`;
- a *blocked* answer: a search for a free segment, which must find none.
  Candidates are (a) every segment between ``RIM`` points on each base's rim
  and (b) an enumeration of critical lines built here (the common tangents of
  the two bases, the centre line, lines through two obstacle vertices, lines
  through a vertex tangent to a base, tangents of blocking discs), each cut to
  its gap segment (between the chords the two bases cut from it) and moved
  off its two defining points by small steps (a critical line grazes the
  features that define it, so the free lines lie just beside it). A candidate
  counts as free only with a clearance of at least :data:`MARGIN` from every
  obstacle grown by :data:`MARGIN` (so ``2 * MARGIN`` from the obstacle
  itself; mitre growth, which only adds area).

Why these margins: the exact method tests lines against obstacles eroded by
``EPS`` = 1e-7 and accepts grazing lines, so a correct witness may pass within
``EPS`` of a piece; the witness check's ``MARGIN`` = 1e-6 is ten times that, so
no correct witness is rejected by rounding. A free segment found by the
search stays ``2 * MARGIN`` = 2e-6 away from every obstacle, twenty times
``EPS`` and far above rounding of the inputs (1e-15 relative), so it is free
in exact arithmetic too and the exact "blocked" answer is certainly wrong.
The gap in between (lines freer than ``EPS`` but closer than ``2e-6``) is
where the oracle abstains: it never calls a correct answer wrong, at the
price of missing free corridors thinner than a few micro-inches. The merge is
asymmetric for the same reason: the witness check bridges only pieces within
the merge gap, with a bridge narrower than the exact method's; the search
bridges pieces up to ``1e-6`` beyond it, with a wider bridge.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.sight.index import Obstacle, Sight

Array = NDArray[np.float64]
Segment = tuple[tuple[float, float], tuple[float, float]]

MARGIN = 1e-6
ON_BASE = 1e-7  # a witness end may lie this far outside its base (rounding)
RIM = 48  # points per rim for the sampled half of the search
STEPS = (1e-5, 3e-4)  # how far a critical line's defining points are moved off
_CHUNK = 400_000  # (segment, edge) tests per numpy pass


def _polygonal(shape: BaseGeometry) -> bool:
    return shape.geom_type in ("Polygon", "MultiPolygon", "GeometryCollection")


def _parts(geom: BaseGeometry) -> list[BaseGeometry]:
    return [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and not g.is_empty]


def _bridged(union: BaseGeometry, gap: float, half_width: float) -> BaseGeometry:
    """``union`` with its parts closer than ``gap`` joined along their shortest line."""
    parts = _parts(union)
    bridges = []
    for i, p in enumerate(parts):
        for q in parts[i + 1:]:
            if p.distance(q) <= gap:
                link = shapely.shortest_line(p, q)
                (x0, y0), (x1, y1) = link.coords
                if math.hypot(x1 - x0, y1 - y0) < 1e-12:  # meeting at a point
                    bridges.append(shapely.box(x0 - half_width, y0 - half_width,
                                               x0 + half_width, y0 + half_width))
                else:
                    bridges.append(link.buffer(half_width, cap_style="square"))
    return shapely.unary_union([union, *bridges]) if bridges else union


def _ring_edges(geom: BaseGeometry) -> Array:
    """Every edge of every ring of a polygonal geometry, shape (E, 2, 2)."""
    rings = shapely.get_rings(shapely.get_parts(geom))
    edges = [np.stack([c[:-1], c[1:]], axis=1)
             for c in (np.asarray(shapely.get_coordinates(r)) for r in rings) if len(c) > 1]
    return np.concatenate(edges) if edges else np.zeros((0, 2, 2))


def _vertices(geom: BaseGeometry) -> Array:
    """Every ring vertex of a polygonal geometry, closing points dropped."""
    rings = shapely.get_rings(shapely.get_parts(geom))
    out = [np.asarray(shapely.get_coordinates(r))[:-1] for r in rings]
    return np.concatenate(out) if out else np.zeros((0, 2))


def _cross(ax: Array, ay: Array, bx: Array, by: Array) -> Array:
    result: Array = ax * by - ay * bx
    return result


def _point_segment(px: Array, py: Array, s0: Array, s1: Array) -> Array:
    """Distance from points (broadcast) to segments ``s0 -> s1`` (broadcast)."""
    dx, dy = s1[..., 0] - s0[..., 0], s1[..., 1] - s0[..., 1]
    den = dx * dx + dy * dy
    t = ((px - s0[..., 0]) * dx + (py - s0[..., 1]) * dy) / np.where(den > 0, den, 1.0)
    t = np.clip(np.where(den > 0, t, 0.0), 0.0, 1.0)
    result: Array = np.hypot(px - s0[..., 0] - t * dx, py - s0[..., 1] - t * dy)
    return result


def _touch(p0: Array, p1: Array, e: Array) -> NDArray[np.bool_]:
    """(S, E): segment ``p0[s] -> p1[s]`` meets edge ``e[k]`` (closed; collinear counts)."""
    a0, a1 = p0[:, None, :], p1[:, None, :]
    b0, b1 = e[None, :, 0, :], e[None, :, 1, :]
    bx, by = b1[..., 0] - b0[..., 0], b1[..., 1] - b0[..., 1]
    ax, ay = a1[..., 0] - a0[..., 0], a1[..., 1] - a0[..., 1]
    o1 = _cross(bx, by, a0[..., 0] - b0[..., 0], a0[..., 1] - b0[..., 1])
    o2 = _cross(bx, by, a1[..., 0] - b0[..., 0], a1[..., 1] - b0[..., 1])
    o3 = _cross(ax, ay, b0[..., 0] - a0[..., 0], b0[..., 1] - a0[..., 1])
    o4 = _cross(ax, ay, b1[..., 0] - a0[..., 0], b1[..., 1] - a0[..., 1])
    result: NDArray[np.bool_] = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    return result


def _segment_distance(p0: Array, p1: Array, w: Array) -> Array:
    """(S, W): distance between segments ``p0 -> p1`` and walls ``w``."""
    a0, a1 = p0[:, None, :], p1[:, None, :]
    b0, b1 = w[None, :, 0, :], w[None, :, 1, :]
    d = np.minimum(
        np.minimum(_point_segment(a0[..., 0], a0[..., 1], b0, b1),
                   _point_segment(a1[..., 0], a1[..., 1], b0, b1)),
        np.minimum(_point_segment(b0[..., 0], b0[..., 1], a0, a1),
                   _point_segment(b1[..., 0], b1[..., 1], a0, a1)))
    result: Array = np.where(_touch(p0, p1, w), 0.0, d)
    return result


@dataclass(frozen=True)
class _Near:
    """The obstacle elements within reach of one pair's corridor."""

    edges: Array  # edges of the grown polygons
    discs: Array  # x, y, r
    walls: Array  # (W, 2, 2)
    verts: Array  # original vertices (polygons and wall ends)
    outline: Array  # original polygon edges (where a rim crosses them is a feature)


@dataclass(frozen=True)
class Oracle:
    """The board's obstacles prepared for :meth:`judge` (build with :meth:`of`)."""

    solid: BaseGeometry  # polygons merged, bridged narrowly, eroded by MARGIN
    grown: BaseGeometry  # polygons merged, bridged widely, grown by 2 * MARGIN
    edges: Array
    verts: Array
    outline: Array
    discs: Array
    walls: Array

    @staticmethod
    def of(obstacles: Sequence[Obstacle], merge_gap: float) -> Oracle:
        polys = [o.shape for o in obstacles
                 if not isinstance(o.shape, Disc) and _polygonal(o.shape)]
        discs = [(o.shape.x, o.shape.y, o.shape.r) for o in obstacles
                 if isinstance(o.shape, Disc)]
        lines = [o.shape for o in obstacles
                 if not isinstance(o.shape, Disc) and not _polygonal(o.shape)]
        union = shapely.unary_union(polys) if polys else shapely.Polygon()
        narrow = _bridged(union, merge_gap, 5e-6)
        wide = _bridged(union, merge_gap + MARGIN, 2e-5)
        # Clipped and joined with what they offset: an offset only takes or only adds
        # area (GEOS can return a self-intersecting offset that does otherwise).
        solid = shapely.intersection(
            shapely.make_valid(narrow.buffer(-MARGIN, join_style="mitre")), narrow)
        grown = shapely.union(shapely.make_valid(
            wide.buffer(2 * MARGIN, join_style="mitre", mitre_limit=10.0)), wide)
        shapely.prepare(solid)
        shapely.prepare(grown)
        return Oracle(solid, grown, _ring_edges(grown), _vertices(union), _ring_edges(union),
                      np.asarray(discs, np.float64).reshape(-1, 3), _walls(lines))

    def with_extras(self, extra: Sequence[Obstacle]) -> Oracle:
        """This board plus per-query discs and walls (never merged with it)."""
        if any(not isinstance(o.shape, Disc) and _polygonal(o.shape) for o in extra):
            raise ValueError("the oracle takes only discs and walls as per-query obstacles")
        discs = [(o.shape.x, o.shape.y, o.shape.r) for o in extra if isinstance(o.shape, Disc)]
        walls = _walls([o.shape for o in extra if not isinstance(o.shape, Disc)])
        return replace(self, discs=np.concatenate([self.discs, np.reshape(discs, (-1, 3))]),
                       walls=np.concatenate([self.walls, walls]))

    # --- the two halves -------------------------------------------------------

    def judge(self, a: Disc, b: Disc, sight: Sight) -> str | None:
        """None when ``sight`` is right as far as the oracle can tell, else why not."""
        if sight.visible:
            if sight.witness is None:
                return "visible without a witness"
            return self.witness_error(a, b, sight.witness)
        free = self.free_segment(a, b)
        if free is not None:
            return f"blocked, but the segment {free} is free"
        return None

    def witness_error(self, a: Disc, b: Disc, witness: Segment) -> str | None:
        """Why ``witness`` is not a free segment from base ``a`` to base ``b`` (None: it is)."""
        (x0, y0), (x1, y1) = witness
        if math.hypot(x0 - a.x, y0 - a.y) > a.r + ON_BASE:
            return f"witness {witness} does not start on {a}"
        if math.hypot(x1 - b.x, y1 - b.y) > b.r + ON_BASE:
            return f"witness {witness} does not end on {b}"
        seg = (shapely.Point(x0, y0) if (x0, y0) == (x1, y1)
               else shapely.LineString([(x0, y0), (x1, y1)]))
        if shapely.intersects(seg, self.solid):
            return f"witness {witness} passes through a polygon"
        p0, p1 = np.array([[x0, y0]]), np.array([[x1, y1]])
        if len(self.discs):
            dist = _point_segment(self.discs[:, 0], self.discs[:, 1], p0, p1)
            if bool(np.any(dist < self.discs[:, 2] - MARGIN)):
                return f"witness {witness} passes through a disc"
        if len(self.walls) and bool(np.any(_crosses(p0[0], p1[0], self.walls))):
            return f"witness {witness} crosses a wall"
        return None

    def free_segment(self, a: Disc, b: Disc) -> Segment | None:
        """A segment from ``a`` to ``b`` clear of every obstacle by ``2 * MARGIN``, if
        the rim grid, the critical lines or (bases that touch or overlap) the points
        both bases share hold one."""
        near = self._near(a, b)
        shared = _shared_points(a, b)
        for p0, p1 in ((shared, shared), _rim_segments(a, b), _critical_segments(a, b, near)):
            free = np.flatnonzero(self._clear(p0, p1, near))
            if len(free):
                i = int(free[0])
                return ((float(p0[i, 0]), float(p0[i, 1])), (float(p1[i, 0]), float(p1[i, 1])))
        return None

    # --- helpers ----------------------------------------------------------------

    def _near(self, a: Disc, b: Disc) -> _Near:
        """Elements that can meet a segment inside the hull of the two bases: within
        ``max(r_a, r_b)`` of the centre segment (a superset)."""
        c0, c1 = np.array([a.x, a.y]), np.array([b.x, b.y])
        reach = max(a.r, b.r) + 4 * MARGIN
        c = np.stack([c0, c1])[None]
        edges = self.edges[_segment_distance(self.edges[:, 0], self.edges[:, 1], c)[:, 0]
                           <= reach] if len(self.edges) else self.edges
        discs = self.discs[_point_segment(self.discs[:, 0], self.discs[:, 1], c0, c1)
                           <= reach + self.discs[:, 2]]
        walls = self.walls[_segment_distance(self.walls[:, 0], self.walls[:, 1], c)[:, 0]
                           <= reach] if len(self.walls) else self.walls
        pts = np.concatenate([self.verts, self.walls.reshape(-1, 2)])
        verts = pts[_point_segment(pts[:, 0], pts[:, 1], c0, c1) <= reach]
        outline = self.outline[_segment_distance(self.outline[:, 0], self.outline[:, 1], c)[:, 0]
                               <= reach] if len(self.outline) else self.outline
        return _Near(edges, discs, walls, np.unique(verts, axis=0), outline)

    def _clear(self, p0: Array, p1: Array, near: _Near) -> NDArray[np.bool_]:
        """Which segments keep ``2 * MARGIN`` from every obstacle."""
        ok = np.ones(len(p0), dtype=bool)
        if len(near.discs):
            dist = _point_segment(near.discs[None, :, 0], near.discs[None, :, 1],
                                  p0[:, None], p1[:, None])
            ok &= np.all(dist >= near.discs[:, 2] + 2 * MARGIN, axis=1)
        if len(near.walls):
            ok[ok] = np.all(_segment_distance(p0[ok], p1[ok], near.walls) >= 2 * MARGIN, axis=1)
        if len(near.edges):
            step = max(1, _CHUNK // len(near.edges))
            for lo in range(0, len(p0), step):
                sl = slice(lo, lo + step)
                idx = np.flatnonzero(ok[sl]) + lo
                if len(idx):
                    ok[idx] = ~np.any(_touch(p0[idx], p1[idx], near.edges), axis=1)
        idx = np.flatnonzero(ok)
        if len(idx):  # no edge met: the whole segment is inside or outside; test one end
            ok[idx] = ~shapely.intersects_xy(self.grown, p0[idx, 0], p0[idx, 1])
        return ok


def _walls(lines: Sequence[BaseGeometry]) -> Array:
    segs = []
    for line in lines:
        for part in shapely.get_parts(line):
            c = np.asarray(shapely.get_coordinates(part))
            segs.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


def _crosses(p0: Array, p1: Array, walls: Array) -> NDArray[np.bool_]:
    """Walls the segment ``p0 -> p1`` properly crosses, each side by more than MARGIN."""
    d = p1 - p0
    length = max(math.hypot(float(d[0]), float(d[1])), 1e-300)
    w = walls[:, 1] - walls[:, 0]
    wlen = np.maximum(np.hypot(w[:, 0], w[:, 1]), 1e-300)
    # Signed distances of the segment's ends from each wall's line, and of each
    # wall's ends from the segment's line.
    s0 = _cross(w[:, 0], w[:, 1], p0[0] - walls[:, 0, 0], p0[1] - walls[:, 0, 1]) / wlen
    s1 = _cross(w[:, 0], w[:, 1], p1[0] - walls[:, 0, 0], p1[1] - walls[:, 0, 1]) / wlen
    t0 = _cross(d[0], d[1], walls[:, 0, 0] - p0[0], walls[:, 0, 1] - p0[1]) / length
    t1 = _cross(d[0], d[1], walls[:, 1, 0] - p0[0], walls[:, 1, 1] - p0[1]) / length
    result: NDArray[np.bool_] = (
        (np.minimum(s0, s1) < -MARGIN) & (np.maximum(s0, s1) > MARGIN)
        & (np.minimum(t0, t1) < -MARGIN) & (np.maximum(t0, t1) > MARGIN))
    return result


# --- candidate segments ---------------------------------------------------------


def _rim_segments(a: Disc, b: Disc, n: int = RIM) -> tuple[Array, Array]:
    """Every segment between ``n`` points on each rim (n * n segments)."""
    ang = (np.arange(n) + 0.5) * 2 * np.pi / n
    pa = np.c_[a.x + a.r * np.cos(ang), a.y + a.r * np.sin(ang)]
    pb = np.c_[b.x + b.r * np.cos(ang), b.y + b.r * np.sin(ang)]
    return np.repeat(pa, n, axis=0), np.tile(pb, (n, 1))


def _shared_points(a: Disc, b: Disc, n: int = 9) -> Array:
    """Points of both bases, as zero-length segments' ends: the middle of the centre
    line's overlap (the contact point of bases that touch) and an n x n grid over
    the lens of bases that overlap. Empty for bases apart."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    if dist > a.r + b.r or dist == 0:
        return np.zeros((0, 2))
    ux, uy = dx / dist, dy / dist
    lo, hi = max(-a.r, dist - b.r), min(a.r, dist + b.r)
    mid = (lo + hi) / 2
    pts = [np.array([[a.x + mid * ux, a.y + mid * uy]])]
    half = math.sqrt(max(a.r * a.r - mid * mid, 0.0))  # the lens is at most this wide
    s, t = np.meshgrid(np.linspace(lo, hi, n), np.linspace(-half, half, n))
    grid = np.c_[a.x + s.ravel() * ux - t.ravel() * uy, a.y + s.ravel() * uy + t.ravel() * ux]
    inside = ((np.hypot(grid[:, 0] - a.x, grid[:, 1] - a.y) <= a.r)
              & (np.hypot(grid[:, 0] - b.x, grid[:, 1] - b.y) <= b.r))
    pts.append(grid[inside])
    return np.concatenate(pts)


def _common_tangents(c1: Array, r1: float, c2: Array, r2: float) -> tuple[Array, Array]:
    """Tangent points (on circle 1, on circle 2) of the up to four common tangents."""
    dx, dy = float(c2[0] - c1[0]), float(c2[1] - c1[1])
    dist = math.hypot(dx, dy)
    q1, q2 = [], []
    for s in (1.0, -1.0):  # outer, inner
        delta = s * r2 - r1  # n . (c2 - c1) for a unit normal n of the tangent
        if dist == 0 or abs(delta) > dist:
            continue
        phi, spread = math.atan2(dy, dx), math.acos(delta / dist)
        for th in (phi + spread, phi - spread):
            n = np.array([math.cos(th), math.sin(th)])
            q1.append(c1 - r1 * n)
            q2.append(c2 - s * r2 * n)
    return np.reshape(q1, (-1, 2)), np.reshape(q2, (-1, 2))


def _point_tangents(v: Array, c: Array, r: float) -> tuple[Array, Array]:
    """Lines from each point of ``v`` tangent to the circle: (points, tangent points)."""
    w = v - c
    dist = np.hypot(w[:, 0], w[:, 1])
    out = dist > r
    v, w, dist = v[out], w[out], dist[out]
    alpha, beta = np.arccos(r / dist), np.arctan2(w[:, 1], w[:, 0])
    q = [c + r * np.c_[np.cos(beta + sgn * alpha), np.sin(beta + sgn * alpha)]
         for sgn in (1.0, -1.0)]
    return np.concatenate([v, v]), np.concatenate(q)


def _rim_crossings(d: Disc, edges: Array) -> Array:
    """Points where the circle of ``d`` crosses the edges."""
    e0, f = edges[:, 0], edges[:, 1] - edges[:, 0]
    wx, wy = e0[:, 0] - d.x, e0[:, 1] - d.y
    qa = f[:, 0] ** 2 + f[:, 1] ** 2
    qb = 2 * (wx * f[:, 0] + wy * f[:, 1])
    qc = wx * wx + wy * wy - d.r * d.r
    disc = qb * qb - 4 * qa * qc
    ok = (disc >= 0) & (qa > 0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    out = []
    for sgn in (-1.0, 1.0):
        s = (-qb + sgn * root) / np.where(ok, 2 * qa, 1.0)
        hit = ok & (s >= 0) & (s <= 1)
        out.append(e0[hit] + s[hit, None] * f[hit])
    return np.concatenate(out)


def _gap(q1: Array, q2: Array, a: Disc, b: Disc
         ) -> tuple[Array, Array, Array, Array, NDArray[np.bool_]]:
    """The gap segment of each line ``q1 -> q2``: its ends on ``a`` and ``b``, the line's
    point and unit direction, and which lines meet both bases with disjoint chords."""
    d = q2 - q1
    length = np.hypot(d[:, 0], d[:, 1])
    good = length > 1e-12
    u = d / np.where(good, length, 1.0)[:, None]
    chords = []
    for disc in (a, b):
        wx, wy = disc.x - q1[:, 0], disc.y - q1[:, 1]
        tc = wx * u[:, 0] + wy * u[:, 1]
        h2 = wx * wx + wy * wy - tc * tc
        r2 = disc.r * disc.r
        good &= h2 <= r2 * (1 + 1e-12) + 1e-15  # tangent lines, up to rounding
        half = np.sqrt(np.maximum(r2 - h2, 0.0))
        chords.append((tc - half, tc + half))
    (alo, ahi), (blo, bhi) = chords
    forward = ahi <= blo
    good &= forward | (bhi <= alo)
    sa, sb = np.where(forward, ahi, alo), np.where(forward, blo, bhi)
    return q1 + sa[:, None] * u, q1 + sb[:, None] * u, q1, u, good


def _critical_segments(a: Disc, b: Disc, near: _Near) -> tuple[Array, Array]:
    """Gap segments of the critical lines of a pair, each also moved off its two
    defining points by every step of :data:`STEPS` on both sides."""
    ca, cb = np.array([a.x, a.y]), np.array([b.x, b.y])
    q1s, q2s, need = [np.stack([ca])], [np.stack([cb])], [np.zeros((1, 2), bool)]

    def add(q1: Array, q2: Array, on_gap: tuple[bool, bool]) -> None:
        q1s.append(q1)
        q2s.append(q2)
        need.append(np.tile(on_gap, (len(q1), 1)))

    circles = [(ca, a.r), (cb, b.r)] + [(d[:2], float(d[2])) for d in near.discs]
    for i, (c1, r1) in enumerate(circles):
        for c2, r2 in circles[i + 1:]:
            add(*_common_tangents(c1, r1, c2, r2), (False, False))
    # Features: the vertices, and where a base's rim crosses an outline (a base
    # partly inside a piece, R-LOS-4).
    v = np.concatenate([near.verts, _rim_crossings(a, near.outline),
                        _rim_crossings(b, near.outline)])
    if len(v) > 1:
        first, second = np.triu_indices(len(v), 1)
        add(v[first], v[second], (True, True))
    for c, r in circles:
        add(*_point_tangents(v, c, r), (True, False))
    q1, q2, on = np.concatenate(q1s), np.concatenate(q2s), np.concatenate(need)
    p0, p1, p, u, good = _gap(q1, q2, a, b)
    # A vertex off the gap segment cannot bound the free lines: drop such lines.
    ta, tb = ((p0 - p) * u).sum(axis=1), ((p1 - p) * u).sum(axis=1)
    lo, hi = np.minimum(ta, tb) - 1e-3, np.maximum(ta, tb) + 1e-3
    for k, q in ((0, q1), (1, q2)):
        t = ((q - p) * u).sum(axis=1)
        good &= ~on[:, k] | ((t >= lo) & (t <= hi))
    q1, q2, u = q1[good], q2[good], u[good]
    n = np.c_[-u[:, 1], u[:, 0]]
    m1, m2 = [q1], [q2]
    for step in STEPS:
        for s1 in (-step, step):
            for s2 in (-step, step):
                m1.append(q1 + s1 * n)
                m2.append(q2 + s2 * n)
    p0, p1, _, _, ok = _gap(np.concatenate(m1), np.concatenate(m2), a, b)
    return p0[ok], p1[ok]
