"""Exact line of sight between two bases among obstacles (R-LOS-1..4).

Two bases (discs ``A`` and ``B``) see each other when some straight segment
from a point of ``A`` to a point of ``B`` does not pass through the interior
of an obstacle (R-LOS-1). Obstacles are:

- polygons (non-convex, with holes, multipolygons): LoS-blocking terrain and
  dense area terrain (R-LOS-4);
- exact discs: huge bases (R-LOS-3) and circular pieces;
- zero-thickness walls (LineStrings), which block only a segment that
  properly crosses them (significant edges, R-ELEV-2).

The answer is exact, never sampled; docs/sight.md explains the method. In
short: for a fixed line, the segments joining the two bases along it are all
blocked exactly when the *gap segment* (between the two chords the bases cut
from the line) is blocked, and the set of lines that give sight is closed and
bounded by a few families of curves in line space. If it is not empty it
contains a *critical* line, tight against two of: the bases, the obstacle
vertices, the blocking discs, and the points where a base's rim crosses an
obstacle outline. So it suffices to enumerate those lines and test each gap
segment, which we do vectorised with numpy.

Tolerance policy: candidate lines are built from the original geometry and
tested against obstacles eroded by :data:`EPS` with closed predicates, so a
line that grazes a corner or runs along an edge gives sight, while a line
that passes along a crack between two touching pieces (merged beforehand)
or through the inside of a piece never does.

Examples
--------
>>> import shapely
>>> index = SightIndex([Obstacle("wall", shapely.box(4, -3, 5, 3))])
>>> index.sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5)).visible
False
>>> seen = index.sight(Disc(0, 0, 0.5), Disc(10, 7.0, 0.5))
>>> seen.visible, seen.blocked_by
(True, ())
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc

# Obstacles are eroded by this much (inches) before the closed tests: a line
# built from the original geometry that grazes a corner or runs along an edge
# stays this far outside the eroded piece (R-LOS-1 Decision).
EPS = 1e-7
# Triangles of an eroded piece are grown by this (a hundredth of EPS) so that no
# rounding opens a crack along the diagonals between them.
_SEAM = 1e-9
# Slack when a candidate line meant to touch a base is checked against it.
_TOUCH = 1e-9
# Per-query obstacles remembered per index (huge bases, edges), at most this many.
_EXTRA_CACHE = 512
# Batches (the board's elements stacked with some per-query obstacles, and their
# plain-float form) remembered per index: each holds a copy of the whole board.
_BATCH_CACHE = 64
# Up to this many pairs, sight_many runs each pair in plain floats: on the default
# and the two-storey board a pair costs about 50 us that way, while a numpy
# batch has a fixed cost of about 1 ms, so arrays win from about 64 pairs on
# (docs/sight.md, speed).
_PLAIN_PAIRS = 48
# Mitre limit used when offsetting polygons: keeps corners sharp.
_MITRE = 20.0

Array = NDArray[np.float64]


# Lengths are sqrt(x * x + y * y) on both paths (never hypot, whose libm and Python
# versions differ in the last bit), so the plain-float and the array path build the
# same lines to the bit and find the same witness.
def _norm(x: float, y: float) -> float:
    return math.sqrt(x * x + y * y)


def _np_norm(x: Array, y: Array) -> Array:
    result: Array = np.sqrt(x * x + y * y)
    return result

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class Obstacle:
    """Something that can block a sight line.

    ``shape`` is a Polygon/MultiPolygon (a blocking footprint), a
    LineString/MultiLineString (a zero-thickness wall: blocks only a segment
    that properly crosses it) or an exact :class:`~geometry.discs.Disc`.
    """

    id: str
    shape: BaseGeometry | Disc


@dataclass(frozen=True)
class Sight:
    """The answer to "does A see B?" with its reason.

    ``witness`` is a free segment from a point of A's base to a point of B's
    base when ``visible``; ``blocked_by`` names the obstacles in the way when
    not.
    """

    visible: bool
    witness: Segment | None
    blocked_by: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.visible and self.witness is not None:
            (x0, y0), (x1, y1) = self.witness
            return f"line of sight along ({x0:.3f}, {y0:.3f}) -> ({x1:.3f}, {y1:.3f})"
        if self.blocked_by:
            return "no line of sight: blocked by " + ", ".join(self.blocked_by)
        return "no line of sight"


@dataclass
class _Parts:
    """Obstacles as flat numpy arrays (one row per element, ``*_g`` its group)."""

    tri: Array = field(default_factory=lambda: np.zeros((0, 3, 2)))  # eroded triangles
    tri_n: Array = field(default_factory=lambda: np.zeros((0, 3, 2)))  # inward normals
    tri_h: Array = field(default_factory=lambda: np.zeros((0, 3)))  # n . x >= h inside
    tri_box: Array = field(default_factory=lambda: np.zeros((0, 4)))
    tri_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    vert: Array = field(default_factory=lambda: np.zeros((0, 2)))  # original vertices
    vert_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    edge: Array = field(default_factory=lambda: np.zeros((0, 2, 2)))  # original outline
    edge_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    disc: Array = field(default_factory=lambda: np.zeros((0, 3)))  # x, y, r (original)
    disc_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    wall: Array = field(default_factory=lambda: np.zeros((0, 2, 2)))
    wall_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))


def _polygons(geom: BaseGeometry) -> list[BaseGeometry]:
    """The polygon parts of a geometry (empty parts dropped)."""
    if geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    if hasattr(geom, "geoms"):
        out: list[BaseGeometry] = []
        for g in geom.geoms:
            out.extend(_polygons(g))
        return out
    return []


def _segments_of(geom: BaseGeometry) -> list[tuple[Point, Point]]:
    """Straight pieces of a line geometry or of a polygon's rings."""
    rings: list[BaseGeometry] = []
    if geom.geom_type in ("LineString", "LinearRing"):
        rings = [geom]
    elif geom.geom_type == "Polygon":
        rings = [geom.exterior, *geom.interiors]
    elif hasattr(geom, "geoms"):
        return [s for g in geom.geoms for s in _segments_of(g)]
    out: list[tuple[Point, Point]] = []
    for ring in rings:
        cs = list(ring.coords)
        for p, q in itertools.pairwise(cs):
            if p != q:
                out.append(((p[0], p[1]), (q[0], q[1])))
    return out


def _line_segments(geom: BaseGeometry) -> list[Array]:
    """Straight pieces of a (multi)line, vectorised (walls arrive per query)."""
    coords, idx = shapely.get_coordinates(shapely.get_parts(geom), return_index=True)
    same = idx[:-1] == idx[1:]
    seg = np.stack([coords[:-1][same], coords[1:][same]], axis=1)
    seg = seg[np.any(seg[:, 0] != seg[:, 1], axis=1)]
    return list(seg)


def _triangles(poly: BaseGeometry) -> Array:
    """Triangles of a polygon (constrained Delaunay: no cracks along diagonals
    under closed tests, since the union of closed triangles is the polygon)."""
    tris = shapely.constrained_delaunay_triangles(poly)
    out = []
    for t in getattr(tris, "geoms", []):
        cs = np.asarray(t.exterior.coords)[:3]
        # Counter-clockwise so the inward normal of edge p->q is (-dy, dx).
        area2 = (cs[1, 0] - cs[0, 0]) * (cs[2, 1] - cs[0, 1]) - (
            cs[1, 1] - cs[0, 1]) * (cs[2, 0] - cs[0, 0])
        if area2 == 0.0:
            continue
        if area2 < 0:
            cs = cs[::-1]
        out.append(cs)
    return np.asarray(out, dtype=np.float64).reshape(-1, 3, 2)


def _tri_arrays(tri: Array) -> tuple[Array, Array, Array]:
    """Inward unit normals, offsets and bounding boxes of CCW triangles."""
    e = np.roll(tri, -1, axis=1) - tri
    n = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    # Grown by _SEAM: a line running exactly along an internal diagonal must meet the
    # triangles on both sides even after rounding (docs/sight.md, tolerance policy).
    h = np.einsum("kij,kij->ki", n, tri) - _SEAM
    box = np.concatenate([tri.min(axis=1), tri.max(axis=1)], axis=1)
    return n, h, box


def _merge_polygons(polys: Sequence[tuple[str, BaseGeometry]], merge_gap: float
                    ) -> list[tuple[tuple[str, ...], BaseGeometry]]:
    """Blocking pieces that touch or overlap act as one (R-LOS-1 Decision).

    Pieces closer than ``merge_gap`` (the touch tolerance, R-UNIT-2) are
    joined by a morphological closing so no crack between them gives sight.
    Returns one (ids, polygon) per merged part.
    """
    if not polys:
        return []
    union = shapely.unary_union([g for _, g in polys])
    parts = _polygons(union)
    if len(parts) > 1:
        # Join parts closer than the merge gap with a thin bridge along their
        # shortest connection: wider than the later erosion, so the joint
        # survives it, and too thin to change any sight line that does not
        # pass through the crack (docs/sight.md).
        tree = shapely.STRtree(parts)
        i, j = tree.query(parts, predicate="dwithin", distance=merge_gap + 2 * EPS)
        close = i < j
        if bool(np.any(close)):
            links = shapely.shortest_line(np.asarray(parts)[i[close]], np.asarray(parts)[j[close]])
            bridges = shapely.buffer(links, 100 * EPS, cap_style="square", join_style="mitre")
            parts = _polygons(shapely.unary_union([union, *bridges]))
    out = []
    for part in parts:
        ids = tuple(pid for pid, g in polys if g.intersects(part))
        out.append((ids, part))
    return out


def _build_parts(obstacles: Iterable[Obstacle], merge_gap: float,
                 groups: list[tuple[str, ...]]) -> _Parts:
    """Flatten obstacles into arrays; append their group ids to ``groups``."""
    polys: list[tuple[str, BaseGeometry]] = []
    tri, tri_g, vert, edge, edge_g = [], [], [], [], []
    disc, disc_g, wall, wall_g = [], [], [], []
    for ob in obstacles:
        if isinstance(ob.shape, Disc):
            groups.append((ob.id,))
            disc.append((ob.shape.x, ob.shape.y, ob.shape.r))
            disc_g.append(len(groups) - 1)
        elif ob.shape.geom_type in ("LineString", "MultiLineString", "LinearRing"):
            groups.append((ob.id,))
            segs = _line_segments(ob.shape)
            wall.extend(segs)
            wall_g.extend([len(groups) - 1] * len(segs))
        else:
            polys.extend((ob.id, p) for p in _polygons(ob.shape))
    for ids, part in _merge_polygons(polys, merge_gap):
        groups.append(ids)
        g = len(groups) - 1
        for p, q in _segments_of(part):
            edge.append((p, q))
            vert.append(p)
            edge_g.append(g)
        for core in _polygons(part.buffer(-EPS, join_style="mitre", mitre_limit=_MITRE)):
            t = _triangles(core)
            tri.append(t)
            tri_g.extend([g] * len(t))
    parts = _Parts()
    if tri:
        parts.tri = np.concatenate(tri).reshape(-1, 3, 2)
        parts.tri_n, parts.tri_h, parts.tri_box = _tri_arrays(parts.tri)
        parts.tri_g = np.asarray(tri_g, np.int64)
    if vert:
        parts.vert = np.asarray(vert, np.float64).reshape(-1, 2)
        parts.edge = np.asarray(edge, np.float64).reshape(-1, 2, 2)
        parts.edge_g = parts.vert_g = np.asarray(edge_g, np.int64)
    if disc:
        parts.disc = np.asarray(disc, np.float64).reshape(-1, 3)
        parts.disc_g = np.asarray(disc_g, np.int64)
    if wall:
        parts.wall = np.asarray(wall, np.float64).reshape(-1, 2, 2)
        parts.wall_g = np.asarray(wall_g, np.int64)
        # A wall's ends are vertices; shared ends of its pieces count once.
        ends, first = np.unique(parts.wall.reshape(-1, 2), axis=0, return_index=True)
        parts.vert = np.concatenate([parts.vert, ends])
        parts.vert_g = np.concatenate([parts.vert_g, np.repeat(parts.wall_g, 2)[first]])
        parts.edge = np.concatenate([parts.edge, parts.wall])
        parts.edge_g = np.concatenate([parts.edge_g, parts.wall_g])
    return parts


# --- candidate lines ------------------------------------------------------


def _tangents(c1: Array, r1: Array, c2: Array, r2: Array, signs: Sequence[float]
              ) -> tuple[Array, Array, NDArray[np.int64]]:
    """Lines tangent to circle pairs (radius 0 for points).

    For each pair, each sign ``s`` in ``signs`` (+1: both circles on the same
    side, -1: on opposite sides) and each of the two rotations: the line
    ``n . x = n . c1 + r1`` (touching circle 1 at ``c1 + r1 n``) with
    ``n . (c2 - c1) = r1 - s r2`` (touching circle 2). Pairs with no such
    tangent yield nothing. Returns points, unit directions and the pair of
    each line.
    """
    w = c2 - c1
    dist = _np_norm(w[:, 0], w[:, 1])
    safe = np.where(dist > 0, dist, 1.0)
    u = w / safe[:, None]
    pts, dirs, idx = [], [], []
    for sgn in signs:
        cos = (r1 - sgn * r2) / safe
        fine = np.flatnonzero((np.abs(cos) <= 1.0 + 1e-12) & (dist > 0))
        c = np.clip(cos[fine], -1.0, 1.0)
        sin = np.sqrt(1.0 - c * c)
        uu, cc1, rr1 = u[fine], c1[fine], r1[fine]
        for sg in (1.0, -1.0):
            # n is u rotated by +/- acos(cos): n . w = dist * cos.
            n = np.stack([uu[:, 0] * c - sg * uu[:, 1] * sin,
                          uu[:, 1] * c + sg * uu[:, 0] * sin], axis=1)
            pts.append(cc1 + rr1[:, None] * n)
            dirs.append(np.stack([-n[:, 1], n[:, 0]], axis=1))
            idx.append(fine)
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, np.int64)
    return np.concatenate(pts), np.concatenate(dirs), np.concatenate(idx).astype(np.int64)


def _rim_points(rows: NDArray[np.int64], centre: Array, radius: Array, near_edge: NDArray[
        np.bool_], near_disc: NDArray[np.bool_], parts: _Parts) -> tuple[Array, NDArray[np.int64]]:
    """Points where a base's rim crosses obstacle outlines and blocking discs.

    ``centre``/``radius`` are per row; returns the points and their row.
    """
    pts, owner = [], []
    u, k = np.nonzero(near_edge)
    if len(u):
        p0, p1 = parts.edge[k, 0], parts.edge[k, 1]
        d = p1 - p0
        f = p0 - centre[u]
        a = (d * d).sum(axis=1)
        b = 2 * (f * d).sum(axis=1)
        c = (f * f).sum(axis=1) - radius[u] ** 2
        disc = b * b - 4 * a * c
        ok = (disc >= 0) & (a > 0)
        sq = np.sqrt(np.where(ok, disc, 0.0))
        for sgn in (-1.0, 1.0):
            t = (-b + sgn * sq) / np.where(a > 0, 2 * a, 1.0)
            good = ok & (t >= 0) & (t <= 1)
            pts.append(p0[good] + t[good, None] * d[good])
            owner.append(rows[u[good]])
    u, k = np.nonzero(near_disc)
    if len(u):
        w = parts.disc[k, :2] - centre[u]
        dd = _np_norm(w[:, 0], w[:, 1])
        r, rr = radius[u], parts.disc[k, 2]
        ok = (dd > 0) & (dd <= r + rr) & (dd >= np.abs(r - rr))
        w, dd, r, rr, uo = w[ok], dd[ok], r[ok], rr[ok], u[ok]
        along = (dd * dd + r * r - rr * rr) / (2 * dd)
        h = np.sqrt(np.maximum(r * r - along * along, 0.0))
        ww = w / dd[:, None]
        perp = np.stack([-ww[:, 1], ww[:, 0]], axis=1)
        base = centre[uo] + along[:, None] * ww
        for sgn in (1.0, -1.0):
            pts.append(base + sgn * h[:, None] * perp)
            owner.append(rows[uo])
    if not pts:
        return np.zeros((0, 2)), np.zeros(0, np.int64)
    return np.concatenate(pts), np.concatenate(owner).astype(np.int64)


# --- testing lines ----------------------------------------------------------


def _gap_segments(p: Array, d: Array, da: Array, db: Array
                  ) -> tuple[Array, Array, NDArray[np.bool_]]:
    """Parameters ``s <= e`` of each line's gap segment, and which lines meet both bases.

    ``da`` and ``db`` hold each line's two bases as ``(x, y, r)`` rows. The
    gap segment joins the near ends of the two chords; every segment from
    base to base along the line contains it, so the line gives sight exactly
    when its gap segment is free. Overlapping chords give a point.
    """
    discs = np.stack([da, db])  # (2, L, 3)
    m = discs[..., :2] - p
    along = m[..., 0] * d[:, 0] + m[..., 1] * d[:, 1]
    across = m[..., 0] * d[:, 1] - m[..., 1] * d[:, 0]
    r = discs[..., 2]
    close = np.abs(across) <= r + _TOUCH * np.maximum(1.0, r)
    meets: NDArray[np.bool_] = np.asarray(close.all(axis=0))
    h = np.sqrt(np.maximum(r * r - across * across, 0.0))
    lo: Array = along - h
    hi: Array = along + h
    (a0, b0), (a1, b1) = lo, hi
    a_first, b_first = a1 < b0, b1 < a0
    mid = (np.maximum(a0, b0) + np.minimum(a1, b1)) / 2.0
    s = np.where(a_first, a1, np.where(b_first, b1, mid))
    e = np.where(a_first, b0, np.where(b_first, a0, mid))
    return s, e, meets


@dataclass
class _Near:
    """Per pair (row): the elements that may meet the convex hull of its bases."""

    tri: NDArray[np.bool_]
    disc: NDArray[np.bool_]
    wall: NDArray[np.bool_]


@dataclass
class _Features:
    """Per open pair (row of stage 2): its vertices, and the outline pieces near each base."""

    vert: NDArray[np.bool_]
    edge_a: NDArray[np.bool_]
    edge_b: NDArray[np.bool_]


def _boxes_meet(box: Array, x0: Array, y0: Array, x1: Array, y1: Array) -> NDArray[np.bool_]:
    """(rows, elements): element boxes ``(xmin, ymin, xmax, ymax)`` meeting each row's box."""
    result: NDArray[np.bool_] = (
        (box[None, :, 0] <= x1[:, None]) & (box[None, :, 2] >= x0[:, None])
        & (box[None, :, 1] <= y1[:, None]) & (box[None, :, 3] >= y0[:, None]))
    return result


def _seg_box(seg: Array) -> Array:
    return np.concatenate([seg.min(axis=1), seg.max(axis=1)], axis=1).reshape(-1, 4)


def _near_segment(pts: Array, ca: Array, cb: Array) -> Array:
    """(rows, points): distance from each point to each row's centre segment."""
    ab = cb - ca
    ll = (ab * ab).sum(axis=1)
    ap = pts[None, :, :] - ca[:, None, :]
    t = np.clip((ap * ab[:, None, :]).sum(axis=2) / np.where(ll > 0, ll, 1.0)[:, None], 0.0, 1.0)
    off = ap - t[..., None] * ab[:, None, :]
    result: Array = _np_norm(off[..., 0], off[..., 1])
    return result


def _allowed(allowed: NDArray[np.bool_] | None, groups: NDArray[np.int64]
             ) -> NDArray[np.bool_] | bool:
    """Which (pair, element) combinations may be used; True when every pair uses all."""
    return True if allowed is None else allowed[:, groups]


def _near_masks(parts: _Parts, da: Array, db: Array, allowed: NDArray[np.bool_] | None
                ) -> _Near:
    """Which elements each pair's lines must be tested against (a superset of the hull)."""
    x0 = np.minimum(da[:, 0] - da[:, 2], db[:, 0] - db[:, 2])
    y0 = np.minimum(da[:, 1] - da[:, 2], db[:, 1] - db[:, 2])
    x1 = np.maximum(da[:, 0] + da[:, 2], db[:, 0] + db[:, 2])
    y1 = np.maximum(da[:, 1] + da[:, 2], db[:, 1] + db[:, 2])
    tri = _boxes_meet(parts.tri_box, x0, y0, x1, y1) & _allowed(allowed, parts.tri_g)
    wall = _boxes_meet(_seg_box(parts.wall), x0, y0, x1, y1) & _allowed(allowed, parts.wall_g)
    radius = np.maximum(da[:, 2], db[:, 2])
    disc = (_near_segment(parts.disc[:, :2], da[:, :2], db[:, :2])
            <= radius[:, None] + parts.disc[None, :, 2]) & _allowed(allowed, parts.disc_g)
    return _Near(np.asarray(tri), np.asarray(disc), np.asarray(wall))


def _features(parts: _Parts, da: Array, db: Array, allowed: NDArray[np.bool_] | None
              ) -> _Features:
    """Stage 2 masks of the given pairs: vertices near the hull, outline pieces near
    each base (where a rim may cross an outline)."""
    radius = np.maximum(da[:, 2], db[:, 2])
    vert = (_near_segment(parts.vert, da[:, :2], db[:, :2]) <= radius[:, None] + 1e-9)
    vert = vert & _allowed(allowed, parts.vert_g)
    ebox = _seg_box(parts.edge)
    edge_ok = _allowed(allowed, parts.edge_g)
    edge_a = _boxes_meet(ebox, da[:, 0] - da[:, 2], da[:, 1] - da[:, 2], da[:, 0] + da[:, 2],
                         da[:, 1] + da[:, 2]) & edge_ok
    edge_b = _boxes_meet(ebox, db[:, 0] - db[:, 2], db[:, 1] - db[:, 2], db[:, 0] + db[:, 2],
                         db[:, 1] + db[:, 2]) & edge_ok
    return _Features(np.asarray(vert), np.asarray(edge_a), np.asarray(edge_b))


def _hits(p: Array, d: Array, s: Array, e: Array, q: NDArray[np.int64], parts: _Parts,
          near: _Near) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.int64]]:
    """Which lines' gap segments are blocked, and (line, group) of every element hit.

    Closed tests against the eroded elements near each line's pair: a
    triangle when the gap segment meets it, a disc when it meets the disc
    shrunk by EPS, a wall when it crosses the wall properly.
    """
    blocked = np.zeros(len(p), dtype=bool)
    hit_line: list[NDArray[np.int64]] = []
    hit_group: list[NDArray[np.int64]] = []
    li, k = np.nonzero(near.tri[q])
    if len(li):
        n = parts.tri_n[k]
        nd = (n * d[li, None, :]).sum(axis=2)
        gap = parts.tri_h[k] - (n * p[li, None, :]).sum(axis=2)  # need t * nd >= gap
        with np.errstate(divide="ignore", invalid="ignore"):
            bound = gap / nd
        lo = np.maximum(np.where(nd > 0, bound, -np.inf).max(axis=1), s[li])
        hi = np.minimum(np.where(nd < 0, bound, np.inf).min(axis=1), e[li])
        hit = (lo <= hi) & ~((nd == 0) & (gap > 0)).any(axis=1)
        hit_line.append(li[hit])
        hit_group.append(parts.tri_g[k[hit]])
    li, k = np.nonzero(near.disc[q])
    if len(li):
        m = parts.disc[k, :2] - p[li]
        along = m[:, 0] * d[li, 0] + m[:, 1] * d[li, 1]
        across = m[:, 0] * d[li, 1] - m[:, 1] * d[li, 0]
        r = parts.disc[k, 2] - EPS
        h2 = r * r - across * across
        h = np.sqrt(np.maximum(h2, 0.0))
        hit = (h2 >= 0) & (along - h <= e[li]) & (along + h >= s[li])
        hit_line.append(li[hit])
        hit_group.append(parts.disc_g[k[hit]])
    li, k = np.nonzero(near.wall[q])
    if len(li):
        u = parts.wall[k, 0] - p[li]
        w = parts.wall[k, 1] - p[li]
        dl = d[li]
        su = u[:, 0] * dl[:, 1] - u[:, 1] * dl[:, 0]
        sw = w[:, 0] * dl[:, 1] - w[:, 1] * dl[:, 0]
        proper = ((su > EPS) & (sw < -EPS)) | ((su < -EPS) & (sw > EPS))
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = su / (su - sw)
        tu = (u * dl).sum(axis=1)
        tw = (w * dl).sum(axis=1)
        t = tu + frac * (tw - tu)
        hit = proper & (t > s[li] + EPS) & (t < e[li] - EPS)
        hit_line.append(li[hit])
        hit_group.append(parts.wall_g[k[hit]])
    if hit_line:
        lines = np.concatenate(hit_line)
        blocked[lines] = True
        return blocked, lines, np.concatenate(hit_group)
    return blocked, np.zeros(0, np.int64), np.zeros(0, np.int64)


# --- the index --------------------------------------------------------------


class SightIndex:
    """Obstacles prepared once for many sight queries (the static board).

    Parameters
    ----------
    obstacles
        The pieces that block sight for the queries this index serves.
    merge_gap
        Pieces closer than this act as one (the touch tolerance, R-UNIT-2).

    Examples
    --------
    >>> import shapely
    >>> index = SightIndex([Obstacle("crate", shapely.box(2, -0.2, 3, 0.2))])
    >>> str(index.sight(Disc(0, 0, 0.5), Disc(5, 0, 0.5)))[:16]
    'line of sight al'
    """

    def __init__(self, obstacles: Iterable[Obstacle] = (), merge_gap: float = 0.0) -> None:
        self.obstacles: tuple[Obstacle, ...] = tuple(obstacles)
        self.merge_gap = merge_gap
        self._groups: list[tuple[str, ...]] = []
        self._parts = _build_parts(self.obstacles, merge_gap, self._groups)
        self._extra_cache: dict[Obstacle, tuple[_Parts, list[tuple[str, ...]]]] = {}
        # Batches with the same per-query obstacle objects share their stacked arrays
        # (the window asks again and again while nothing moves). Keyed by identity;
        # the entry holds the obstacles, so no id is reused while it lives.
        self._batch_cache: dict[tuple[int, ...], _Batch] = {}
        self._batch_by_value: dict[tuple[Obstacle, ...], _Batch] = {}
        self._flat_cache: dict[int, tuple[_Parts, _Flat]] = {}

    def sight(self, a: Disc, b: Disc, extra: Sequence[Obstacle] = ()) -> Sight:
        """Line of sight from base ``a`` to base ``b`` (R-LOS-1).

        ``extra`` are per-query obstacles (huge bases, significant edges);
        they are not merged with the static pieces.
        """
        return self.sight_many([(a, b)], [extra])[0]

    def sight_many(self, pairs: Sequence[tuple[Disc, Disc]],
                   extras: Sequence[Sequence[Obstacle]] | None = None) -> list[Sight]:
        """:meth:`sight` for many pairs at once (the same answers, batched).

        ``extras[i]`` are the per-query obstacles of pair ``i``. Stage 1 (the
        centre line and the common tangents of the two bases) runs for all
        pairs in one vectorised pass; the pairs it does not settle go on,
        together, to stage 2: every critical line (docs/sight.md).
        """
        n = len(pairs)
        if n == 0:
            return []
        per_query: Sequence[Sequence[Obstacle]] = extras if extras is not None else [()] * n
        if n <= _PLAIN_PAIRS:  # few pairs: plain floats beat numpy's per-call overhead
            parts, groups, cols = self._batch(per_query)
            flat = self._flat(parts)
            out = []
            for (a, b), mine in zip(pairs, cols, strict=True):
                ok = None
                if len(groups) > len(self._groups):  # per-query obstacles: each pair its own
                    ok = [True] * len(self._groups) + [False] * (len(groups) - len(self._groups))
                    for g in mine:
                        ok[g] = True
                out.append(_sight_one(flat, a, b, ok, groups))
            return out
        parts, groups, allowed = self._batch_parts(per_query)
        return self._sight_arrays(pairs, parts, groups, allowed)

    def _flat(self, parts: _Parts) -> _Flat:
        """The plain-float elements of these parts, made once per parts object."""
        hit = self._flat_cache.get(id(parts))
        if hit is None or hit[0] is not parts:
            if len(self._flat_cache) >= _BATCH_CACHE:
                self._flat_cache.clear()
            hit = self._flat_cache[id(parts)] = (parts, _Flat.of(parts))
        return hit[1]

    def _sight_arrays(self, pairs: Sequence[tuple[Disc, Disc]], parts: _Parts,
                      groups: Sequence[tuple[str, ...]], allowed: NDArray[np.bool_]
                      ) -> list[Sight]:
        """:meth:`sight_many` on numpy arrays, all pairs in one pass per stage."""
        n = len(pairs)
        da = np.array([[a.x, a.y, a.r] for a, _ in pairs], dtype=np.float64)
        db = np.array([[b.x, b.y, b.r] for _, b in pairs], dtype=np.float64)
        use: NDArray[np.bool_] | None = None if allowed.all() else allowed
        near = _near_masks(parts, da, db, use)
        found: dict[int, Segment] = {}
        met: list[tuple[NDArray[np.int64], NDArray[np.int64]]] = []
        clear = np.asarray(~(near.tri.any(axis=1) | near.disc.any(axis=1)
                             | near.wall.any(axis=1)), dtype=bool)
        for i in np.flatnonzero(clear).tolist():
            found[i] = _centre_gap(*pairs[i])  # nothing near: the centre line is free
        p, d, q = _base_lines_many(da, db)
        if clear.any():
            keep = ~clear[q]
            p, d, q = p[keep], d[keep], q[keep]
        if len(q):
            self._settle(p, d, q, da, db, parts, near, pairs, found, met)
        rest = np.array([i for i in range(n) if i not in found], dtype=np.int64)
        if len(rest):
            feats = _features(parts, da[rest], db[rest], None if use is None else use[rest])
            p, d, q = _critical_lines_many(rest, da, db, parts, near, feats)
            self._settle(p, d, q, da, db, parts, near, pairs, found, met)
        out: list[Sight] = []
        blockers: dict[int, set[int]] = {}
        if met and len(found) < n:
            # Distinct (pair, group) hits of the pairs without sight, in one pass.
            qq = np.concatenate([m[0] for m in met])
            gg = np.concatenate([m[1] for m in met])
            open_pair = np.ones(n, dtype=bool)
            open_pair[list(found)] = False
            keep = open_pair[qq]
            code = np.unique(qq[keep] * len(groups) + gg[keep])
            for qi, g in zip((code // len(groups)).tolist(), (code % len(groups)).tolist(),
                             strict=True):
                blockers.setdefault(qi, set()).add(g)
        for i in range(n):
            if i in found:
                out.append(Sight(True, found[i]))
            else:
                ids = sorted({pid for g in blockers.get(i, ()) for pid in groups[g]})
                out.append(Sight(False, None, tuple(ids)))
        return out

    @staticmethod
    def _settle(p: Array, d: Array, q: NDArray[np.int64], da: Array, db: Array,
                parts: _Parts, near: _Near, pairs: Sequence[tuple[Disc, Disc]],
                found: dict[int, Segment],
                met: list[tuple[NDArray[np.int64], NDArray[np.int64]]]) -> None:
        """Test candidate lines; record each pair's first free one, or what was hit."""
        s, e, meets = _gap_segments(p, d, da[q], db[q])
        p, d, q, s, e = p[meets], d[meets], q[meets], s[meets], e[meets]
        blocked, hit_line, hit_group = _hits(p, d, s, e, q, parts, near)
        free = np.flatnonzero(~blocked)
        settled, first = np.unique(q[free], return_index=True)
        for qi, li in zip(settled.tolist(), free[first].tolist(), strict=True):
            if qi not in found:
                found[qi] = _witness(p[li], d[li], float(s[li]), float(e[li]), pairs[qi][0])
        met.append((q[hit_line], hit_group))

    def _batch_parts(self, per_query: Sequence[Sequence[Obstacle]]
                     ) -> tuple[_Parts, list[tuple[str, ...]], NDArray[np.bool_]]:
        """Static elements plus every pair's extra ones, and which pair may use which group."""
        parts, groups, cols = self._batch(per_query)
        allowed = np.zeros((len(per_query), len(groups)), dtype=bool)
        allowed[:, :len(self._groups)] = True
        for i, mine in enumerate(cols):
            allowed[i, mine] = True
        return parts, groups, allowed

    def _batch(self, per_query: Sequence[Sequence[Obstacle]]
               ) -> tuple[_Parts, list[tuple[str, ...]], list[list[int]]]:
        """Static elements plus every pair's extra ones, and each pair's extra groups."""
        order: dict[int, int] = {}
        uniq: list[Obstacle] = []
        for ex in per_query:
            for ob in ex:
                if id(ob) not in order:
                    order[id(ob)] = len(uniq)
                    uniq.append(ob)
        if not uniq:
            return self._parts, self._groups, [[] for _ in per_query]
        key = tuple(order)
        batch = self._batch_cache.get(key)
        if batch is None:
            # Equal obstacles in new objects (a caller that builds them per query):
            # found by value, then remembered by identity too.
            batch = self._batch_by_value.get(tuple(uniq))
            if batch is None:
                parts, groups, spans = self._stack_extras(uniq)
                batch = _Batch(tuple(uniq), parts, groups, spans)
                if len(self._batch_by_value) >= _BATCH_CACHE:
                    self._batch_by_value.clear()
                self._batch_by_value[batch.obstacles] = batch
            else:
                batch = replace(batch, obstacles=tuple(uniq))  # hold these ids too
            if len(self._batch_cache) >= _BATCH_CACHE:
                self._batch_cache.clear()
            self._batch_cache[key] = batch
        spans = batch.spans
        cols = [[g for ob in ex for g in range(*spans[order[id(ob)]])] for ex in per_query]
        return batch.parts, batch.groups, cols

    def _stack_extras(self, uniq: Sequence[Obstacle]
                      ) -> tuple[_Parts, list[tuple[str, ...]], list[tuple[int, int]]]:
        """Static elements plus these per-query obstacles (equal ones built once), and
        the span of group ids of each obstacle."""
        groups = list(self._groups)
        seen: dict[Obstacle, tuple[int, int]] = {}
        extra: list[_Parts] = []
        spans: list[tuple[int, int]] = []
        for ob in uniq:
            span = seen.get(ob)
            if span is None:
                built, names = self._extra_parts(ob)
                extra.append(_shifted(built, len(groups)))
                span = seen[ob] = (len(groups), len(groups) + len(names))
                groups.extend(names)
            spans.append(span)
        return _concat_all([self._parts, *extra]), groups, spans

    def _extra_parts(self, ob: Obstacle) -> tuple[_Parts, list[tuple[str, ...]]]:
        """One per-query obstacle as elements (group ids from 0), remembered by value:
        the same huge base or edge comes back query after query."""
        hit = self._extra_cache.get(ob)
        if hit is None:
            names: list[tuple[str, ...]] = []
            hit = (_build_parts([ob], 0.0, names), names)
            if len(self._extra_cache) >= _EXTRA_CACHE:
                self._extra_cache.clear()
            self._extra_cache[ob] = hit
        return hit


@dataclass(frozen=True)
class _Batch:
    """Stacked elements of the static board and some per-query obstacles."""

    obstacles: tuple[Obstacle, ...]  # held so that their ids stay theirs
    parts: _Parts
    groups: list[tuple[str, ...]]
    spans: list[tuple[int, int]]  # group ids [lo, hi) of each obstacle


def _shifted(parts: _Parts, offset: int) -> _Parts:
    """The same elements with their group ids moved by ``offset``."""
    out = replace(parts)
    for name in ("tri_g", "disc_g", "wall_g", "vert_g", "edge_g"):
        setattr(out, name, getattr(parts, name) + offset)
    return out


def _concat_all(many: Sequence[_Parts]) -> _Parts:
    out = _Parts()
    for name in out.__dataclass_fields__:
        setattr(out, name, np.concatenate([getattr(x, name) for x in many]))
    return out


def _centre_gap(a: Disc, b: Disc) -> Segment:
    """The gap segment of the centre line (a point when the bases overlap)."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    s, e = a.r, dist - b.r
    if e < s:  # overlapping chords: the middle of the overlap
        s = e = (max(-a.r, dist - b.r) + min(a.r, dist + b.r)) / 2.0
    return ((a.x + s * ux, a.y + s * uy), (a.x + e * ux, a.y + e * uy))


def _witness(p: Array, d: Array, s: float, e: float, a: Disc) -> Segment:
    """The gap segment of one line, oriented from base ``a``."""
    x0, y0 = p + s * d
    x1, y1 = p + e * d
    if math.hypot(x0 - a.x, y0 - a.y) > math.hypot(x1 - a.x, y1 - a.y):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return ((float(x0), float(y0)), (float(x1), float(y1)))


def _base_lines_one(a: Array, b: Array) -> tuple[Array, Array, NDArray[np.int64]]:
    """:func:`_base_lines_many` for a single pair, in plain floats (no array overhead)."""
    ax, ay, ra = float(a[0]), float(a[1]), float(a[2])
    dx, dy = float(b[0]) - ax, float(b[1]) - ay
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    pts = [(ax, ay)]
    dirs = [(ux, uy)]
    for sgn in (1.0, -1.0):
        cos = (ra - sgn * float(b[2])) / dist if dist > 0 else 2.0
        if abs(cos) > 1.0:
            continue
        sin = math.sqrt(1.0 - cos * cos)
        for sg in (1.0, -1.0):
            nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
            pts.append((ax + ra * nx, ay + ra * ny))
            dirs.append((-ny, nx))
    return np.array(pts), np.array(dirs), np.zeros(len(pts), np.int64)


def _base_lines_many(da: Array, db: Array) -> tuple[Array, Array, NDArray[np.int64]]:
    """Stage 1 lines of each pair: its centre line and the common tangents of its bases."""
    n = len(da)
    if n == 1:
        return _base_lines_one(da[0], db[0])
    ax, ay, ra = da[:, 0], da[:, 1], da[:, 2]
    wx, wy = db[:, 0] - ax, db[:, 1] - ay
    dist = _np_norm(wx, wy)
    has = dist > 0
    safe = np.where(has, dist, 1.0)
    ux, uy = np.where(has, wx / safe, 1.0), np.where(has, wy / safe, 0.0)
    p = np.empty((n, 5, 2))
    d = np.empty((n, 5, 2))
    valid = np.empty((n, 5), dtype=bool)
    p[:, 0, 0], p[:, 0, 1], d[:, 0, 0], d[:, 0, 1] = ax, ay, ux, uy
    valid[:, 0] = True
    k = 1
    for sgn in (1.0, -1.0):
        cos = np.where(has, (ra - sgn * db[:, 2]) / safe, 2.0)
        fine = np.abs(cos) <= 1.0
        sin = np.sqrt(np.maximum(1.0 - cos * cos, 0.0))
        for sg in (1.0, -1.0):
            nx = ux * cos - sg * uy * sin
            ny = uy * cos + sg * ux * sin
            p[:, k, 0], p[:, k, 1] = ax + ra * nx, ay + ra * ny
            d[:, k, 0], d[:, k, 1] = -ny, nx
            valid[:, k] = fine
            k += 1
    keep = valid.ravel()  # pair-major: each pair's centre line first
    q = np.repeat(np.arange(n), 5)[keep]
    return p.reshape(-1, 2)[keep], d.reshape(-1, 2)[keep], q


def _within(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """0, 1, ..., c - 1 for each count c, concatenated."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    result: NDArray[np.int64] = np.arange(total) - np.repeat(starts, counts)
    return result


def _ragged_pairs(counts: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """All index pairs i < j within each group of a group-contiguous array."""
    k = _within(counts)
    owner = np.repeat(np.arange(len(counts)), counts)
    later = counts[owner] - k - 1
    i = np.repeat(np.arange(len(k)), later)
    return i, i + 1 + _within(later)


def _by_owner(values: Array, owner: NDArray[np.int64], n: int
              ) -> tuple[Array, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Values made contiguous per owner (stable), their owners, counts and starts."""
    order = np.argsort(owner, kind="stable")
    counts = np.bincount(owner, minlength=n).astype(np.int64)
    return values[order], owner[order], counts, np.cumsum(counts) - counts


def _critical_lines_many(rows: NDArray[np.int64], da: Array, db: Array, parts: _Parts,
                         near: _Near, feats: _Features
                         ) -> tuple[Array, Array, NDArray[np.int64]]:
    """Stage 2 lines of the given pairs: tight against two features (docs/sight.md).

    Features of a pair: its two bases, the blocking discs and the obstacle
    vertices near it, and the points where its bases' rims cross obstacle
    outlines. Lines: tangents common to two circles, tangents from a point to
    a circle, lines through two points, and lines parallel to the centre
    line through every feature (they settle pairs whose bases overlap, where
    sight may exist in every direction). Every pair's features are kept
    contiguous so all lines of all pairs come from a few array operations.
    """
    g = len(rows)
    # Points: vertices near each pair and its rim crossings.
    vr, vi = np.nonzero(feats.vert)
    pts, owners = [parts.vert[vi]], [vr]
    for base, edges in ((da, feats.edge_a), (db, feats.edge_b)):
        rim, of = _rim_points(rows, base[rows, :2], base[rows, 2], edges,
                              near.disc[rows], parts)
        pts.append(rim)
        owners.append(np.searchsorted(rows, of))
    f, f_own, f_cnt, _ = _by_owner(np.concatenate(pts), np.concatenate(owners).astype(np.int64), g)
    # Circles: the two bases first, then the blocking discs near the pair.
    dr, di = np.nonzero(near.disc[rows])
    ar = np.arange(g)
    c, c_own, c_cnt, c_start = _by_owner(
        np.concatenate([da[rows], db[rows], parts.disc[di]]),
        np.concatenate([ar, ar, dr]).astype(np.int64), g)
    is_base = _within(c_cnt) < 2
    ps: list[Array] = []
    ds: list[Array] = []
    qs: list[NDArray[np.int64]] = []
    # Lines through two points.
    i, j = _ragged_pairs(f_cnt)
    w = f[j] - f[i]
    ln = _np_norm(w[:, 0], w[:, 1])
    ok = ln > 0
    ps.append(f[i][ok])
    ds.append(w[ok] / ln[ok, None])
    qs.append(rows[f_own[i][ok]])
    # Tangents from a point to a circle of its pair.
    per = c_cnt[f_own]
    fi = np.repeat(np.arange(len(f)), per)
    ci = np.repeat(c_start[f_own], per) + _within(per)
    tp, td, ti = _tangents(c[ci, :2], c[ci, 2], f[fi], np.zeros(len(fi)), (1.0,))
    ps.append(tp)
    ds.append(td)
    qs.append(rows[f_own[fi][ti]])
    # Common tangents of two circles (a base and a blocking disc, two discs); the
    # two bases' own are stage 1.
    i, j = _ragged_pairs(c_cnt)
    keep = ~(is_base[i] & is_base[j])
    i, j = i[keep], j[keep]
    if len(i):
        tp, td, ti = _tangents(c[i, :2], c[i, 2], c[j, :2], c[j, 2], (1.0, -1.0))
        ps.append(tp)
        ds.append(td)
        qs.append(rows[c_own[i][ti]])
    # Parallels to the centre line through every feature.
    axis = db[rows, :2] - da[rows, :2]
    alen = _np_norm(axis[:, 0], axis[:, 1])
    axis = np.where((alen > 0)[:, None], axis / np.where(alen > 0, alen, 1.0)[:, None],
                    np.array([1.0, 0.0]))
    normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    off = c[:, 2:3] * normal[c_own]
    ps += [f, c[:, :2] + off, c[:, :2] - off]
    ds += [axis[f_own], axis[c_own], axis[c_own]]
    qs += [rows[f_own], rows[c_own], rows[c_own]]
    return np.concatenate(ps), np.concatenate(ds), np.concatenate(qs).astype(np.int64)


def line_of_sight(a: Disc, b: Disc, obstacles: Iterable[Obstacle], merge_gap: float = 0.0
                  ) -> Sight:
    """One-off line of sight; build a :class:`SightIndex` for many queries."""
    return SightIndex(obstacles, merge_gap).sight(a, b)


# --- one pair in plain floats ---------------------------------------------------
#
# A single query pays numpy's per-call overhead a few hundred times over on
# arrays of a handful of rows. So one pair runs the same method, step for step
# and in the same order (the same lines, tested the same way, so the same
# answer and witness), in plain Python floats. tests/test_sight_fast.py checks
# it against the array path.

_Tri = tuple[float, float, float, float, float, float, float, float, float, float, float,
             float, float, int, float, float, float, float]
_Line = tuple[float, float, float, float]  # point and unit direction


@dataclass(frozen=True)
class _Flat:
    """The elements of a :class:`_Parts` as lists of plain floats (same order)."""

    # box (4), three inward normals (6), three offsets (3), group, box of what the
    # closed test accepts (the triangle grown by _SEAM, and then some, 4)
    tri: list[_Tri]
    vert: list[tuple[float, float, int]]
    edge: list[tuple[float, float, float, float, int]]
    disc: list[tuple[float, float, float, int]]
    wall: list[tuple[float, float, float, float, int]]

    @cached_property
    def edge_boxes(self) -> list[tuple[float, float, float, float, tuple[
            float, float, float, float, int]]]:
        """Each outline piece after its bounding box."""
        return [(min(e[0], e[2]), min(e[1], e[3]), max(e[0], e[2]), max(e[1], e[3]), e)
                for e in self.edge]

    @cached_property
    def vert_runs(self) -> list[tuple[float, float, float, float, list[tuple[float, float, int]]]]:
        """The vertices in runs of one group (element order kept), each after its box."""
        runs: list[tuple[float, float, float, float, list[tuple[float, float, int]]]] = []
        for _, members in itertools.groupby(self.vert, key=lambda v: v[2]):
            vs = list(members)
            xs, ys = [v[0] for v in vs], [v[1] for v in vs]
            runs.append((min(xs), min(ys), max(xs), max(ys), vs))
        return runs

    @cached_property
    def wall_boxes(self) -> list[tuple[float, float, float, float, tuple[
            float, float, float, float, int]]]:
        """Each wall piece after its bounding box."""
        return [(min(w[0], w[2]), min(w[1], w[3]), max(w[0], w[2]), max(w[1], w[3]), w)
                for w in self.wall]

    @staticmethod
    def of(parts: _Parts) -> _Flat:
        tri = [(*box, *n[0], *n[1], *n[2], *h, g, *grown) for box, n, h, g, grown in zip(
            parts.tri_box.tolist(), parts.tri_n.tolist(), parts.tri_h.tolist(),
            parts.tri_g.tolist(), _accepted_boxes(parts).tolist(), strict=True)]
        return _Flat(
            tri,  # type: ignore[arg-type]
            [(x, y, g) for (x, y), g in zip(parts.vert.tolist(), parts.vert_g.tolist(),
                                            strict=True)],
            [(x0, y0, x1, y1, g) for ((x0, y0), (x1, y1)), g in zip(
                parts.edge.tolist(), parts.edge_g.tolist(), strict=True)],
            [(x, y, r, g) for (x, y, r), g in zip(parts.disc.tolist(), parts.disc_g.tolist(),
                                                  strict=True)],
            [(x0, y0, x1, y1, g) for ((x0, y0), (x1, y1)), g in zip(
                parts.wall.tolist(), parts.wall_g.tolist(), strict=True)],
        )


def _accepted_boxes(parts: _Parts) -> Array:
    """Per triangle, a box holding every point its closed test accepts.

    The test accepts the triangle's three half-planes grown by _SEAM: a
    triangle whose corners are those of the half-planes' boundary lines. The
    box is grown by far more than rounding, so a gap segment whose box misses
    it cannot meet the triangle (a prefilter, never a decision).
    """
    n, h = parts.tri_n, parts.tri_h
    if not len(n):
        return np.zeros((0, 4))
    m, k = n, np.roll(n, -1, axis=1)
    hm, hk = h, np.roll(h, -1, axis=1)
    det = m[..., 0] * k[..., 1] - m[..., 1] * k[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (hm * k[..., 1] - hk * m[..., 1]) / det
        y = (m[..., 0] * hk - k[..., 0] * hm) / det
    bad = ~(np.isfinite(x) & np.isfinite(y)).all(axis=1)
    slack = 1e-7 + 1e-12 * np.maximum(np.abs(x).max(axis=1), np.abs(y).max(axis=1))
    box = np.stack([x.min(axis=1) - slack, y.min(axis=1) - slack,
                    x.max(axis=1) + slack, y.max(axis=1) + slack], axis=1)
    box[bad] = (-np.inf, -np.inf, np.inf, np.inf)
    result: Array = box
    return result


def _disc_hit(x: float, y: float, rad: float, px: float, py: float, dx: float, dy: float,
              s: float, e: float) -> bool:
    mx, my = x - px, y - py
    along = mx * dx + my * dy
    across = mx * dy - my * dx
    r = rad - EPS
    h2 = r * r - across * across
    if h2 < 0:
        return False
    h = math.sqrt(h2)
    return along - h <= e and along + h >= s


def _wall_hit(w: tuple[float, float, float, float, int], px: float, py: float, dx: float,
              dy: float, s: float, e: float) -> bool:
    ux, uy, vx, vy = w[0] - px, w[1] - py, w[2] - px, w[3] - py
    su = ux * dy - uy * dx
    sw = vx * dy - vy * dx
    if not ((su > EPS and sw < -EPS) or (su < -EPS and sw > EPS)):
        return False
    frac = su / (su - sw)
    tu = ux * dx + uy * dy
    tw = vx * dx + vy * dy
    t = tu + frac * (tw - tu)
    return s + EPS < t < e - EPS


@dataclass
class _One:
    """One pair's query state: its bases, nearby elements, and groups hit so far."""

    a: Disc
    b: Disc
    tri: list[_Tri]
    disc: list[tuple[float, float, float, int]]
    wall: list[tuple[float, float, float, float, int]]
    hit: set[int] = field(default_factory=set)

    def first_free(self, lines: Iterable[_Line]) -> Segment | None:
        """The witness of the first line that meets both bases and is free, recording
        every group a blocked line meets (for ``blocked_by``)."""
        hit = self.hit
        a, b = self.a, self.b
        # The bases' reach across a line (as in _gap_segments), computed once.
        reach_a, reach_b = a.r + _TOUCH * max(1.0, a.r), b.r + _TOUCH * max(1.0, b.r)
        ax, ay, ar2, bx, by, br2 = a.x, a.y, a.r * a.r, b.x, b.y, b.r * b.r
        sqrt = math.sqrt
        tris = self.tri
        for px, py, dx, dy in lines:
            # The gap segment (_gap_segments), inline: this loop is a query's hot spot.
            mx, my = ax - px, ay - py
            across = mx * dy - my * dx
            if not abs(across) <= reach_a:
                continue
            along = mx * dx + my * dy
            v = ar2 - across * across
            h = sqrt(v) if v > 0.0 else 0.0
            a0, a1 = along - h, along + h
            mx, my = bx - px, by - py
            across = mx * dy - my * dx
            if not abs(across) <= reach_b:
                continue
            along = mx * dx + my * dy
            v = br2 - across * across
            h = sqrt(v) if v > 0.0 else 0.0
            b0, b1 = along - h, along + h
            if a1 < b0:
                s, e = a1, b0
            elif b1 < a0:
                s, e = b1, a0
            else:
                s = e = (max(a0, b0) + min(a1, b1)) / 2.0
            x0, y0, x1, y1 = px + s * dx, py + s * dy, px + e * dx, py + e * dy
            if x0 > x1:
                x0, x1 = x1, x0
            if y0 > y1:
                y0, y1 = y1, y0
            blocked = False
            blocker = None
            for t in tris:
                if ((blocked and t[13] in hit)
                        or t[14] > x1 or t[16] < x0 or t[15] > y1 or t[17] < y0):
                    continue
                # The closed triangle test of _hits, inline.
                lo, hi = s, e
                nd = t[4] * dx + t[5] * dy
                gp = t[10] - (t[4] * px + t[5] * py)
                if nd > 0:
                    if gp / nd > lo:
                        lo = gp / nd
                elif nd < 0:
                    if gp / nd < hi:
                        hi = gp / nd
                elif gp > 0:
                    continue
                nd = t[6] * dx + t[7] * dy
                gp = t[11] - (t[6] * px + t[7] * py)
                if nd > 0:
                    if gp / nd > lo:
                        lo = gp / nd
                elif nd < 0:
                    if gp / nd < hi:
                        hi = gp / nd
                elif gp > 0:
                    continue
                nd = t[8] * dx + t[9] * dy
                gp = t[12] - (t[8] * px + t[9] * py)
                if nd > 0:
                    if gp / nd > lo:
                        lo = gp / nd
                elif nd < 0:
                    if gp / nd < hi:
                        hi = gp / nd
                elif gp > 0:
                    continue
                if lo > hi:
                    continue
                if not blocked:
                    blocked, blocker = True, t
                hit.add(t[13])
            if blocker is not None and blocker is not tris[0]:
                # The next lines are likely blocked by the same triangle: test it first.
                # (Which groups a line meets, and whether it is blocked, does not depend
                # on the order: a group not yet met is always tested.)
                tris.remove(blocker)
                tris.insert(0, blocker)
            for x, y, r, g in self.disc:
                if (blocked and g in hit) or not _disc_hit(x, y, r, px, py, dx, dy, s, e):
                    continue
                blocked = True
                hit.add(g)
            for w in self.wall:
                if (blocked and w[4] in hit) or not _wall_hit(w, px, py, dx, dy, s, e):
                    continue
                blocked = True
                hit.add(w[4])
            if not blocked:
                return _witness_one(px, py, dx, dy, s, e, self.a)
        return None


def _witness_one(px: float, py: float, dx: float, dy: float, s: float, e: float, a: Disc
                 ) -> Segment:
    x0, y0, x1, y1 = px + s * dx, py + s * dy, px + e * dx, py + e * dy
    if math.hypot(x0 - a.x, y0 - a.y) > math.hypot(x1 - a.x, y1 - a.y):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return ((x0, y0), (x1, y1))


def _to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """:func:`_near_segment` for one point and one centre segment."""
    abx, aby = bx - ax, by - ay
    ll = abx * abx + aby * aby
    apx, apy = px - ax, py - ay
    t = min(max((apx * abx + apy * aby) / (ll if ll > 0 else 1.0), 0.0), 1.0)
    return _norm(apx - t * abx, apy - t * aby)


def _sight_one(flat: _Flat, a: Disc, b: Disc, ok: Sequence[bool] | None,
               groups: Sequence[tuple[str, ...]]) -> Sight:
    """:meth:`SightIndex.sight_many` for one pair, in plain floats.

    ``ok[g]``: whether group ``g`` takes part (None: all do).
    """
    x0, y0 = min(a.x - a.r, b.x - b.r), min(a.y - a.r, b.y - b.r)
    x1, y1 = max(a.x + a.r, b.x + b.r), max(a.y + a.r, b.y + b.r)
    radius = max(a.r, b.r)
    one = _One(
        a, b,
        [t for t in flat.tri if t[0] <= x1 and t[2] >= x0 and t[1] <= y1 and t[3] >= y0
         and (ok is None or ok[t[13]])],
        [c for c in flat.disc if (ok is None or ok[c[3]])
         and _to_segment(c[0], c[1], a.x, a.y, b.x, b.y) <= radius + c[2]],
        [w for wx0, wy0, wx1, wy1, w in flat.wall_boxes
         if wx0 <= x1 and wx1 >= x0 and wy0 <= y1 and wy1 >= y0 and (ok is None or ok[w[4]])])
    if not (one.tri or one.disc or one.wall):
        return Sight(True, _centre_gap(a, b))  # nothing near: the centre line is free
    found = one.first_free(_base_lines_py(a, b))
    if found is None:
        found = one.first_free(_critical_lines_py(flat, one, ok))
    if found is not None:
        return Sight(True, found)
    return Sight(False, None, tuple(sorted({pid for g in one.hit for pid in groups[g]})))


def _base_lines_py(a: Disc, b: Disc) -> list[_Line]:
    """Stage 1 lines (:func:`_base_lines_many`): centre line, outer and inner tangents."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    out = [(a.x, a.y, ux, uy)]
    for sgn in (1.0, -1.0):
        cos = (a.r - sgn * b.r) / dist if dist > 0 else 2.0
        if abs(cos) > 1.0:
            continue
        sin = math.sqrt(max(1.0 - cos * cos, 0.0))
        for sg in (1.0, -1.0):
            nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
            out.append((a.x + a.r * nx, a.y + a.r * ny, -ny, nx))
    return out


def _tangent_py(x1: float, y1: float, r1: float, x2: float, y2: float, r2: float, sgn: float,
                sg: float) -> _Line | None:
    """One line of :func:`_tangents`: circle 1, circle 2, side sign and rotation."""
    wx, wy = x2 - x1, y2 - y1
    dist = _norm(wx, wy)
    if not dist > 0:
        return None
    ux, uy = wx / dist, wy / dist
    cos = (r1 - sgn * r2) / dist
    if not abs(cos) <= 1.0 + 1e-12:
        return None
    c = min(max(cos, -1.0), 1.0)
    sin = math.sqrt(1.0 - c * c)
    nx, ny = ux * c - sg * uy * sin, uy * c + sg * ux * sin
    return (x1 + r1 * nx, y1 + r1 * ny, -ny, nx)


def _rim_py(c: Disc, edges: Iterable[tuple[float, float, float, float, int]],
            discs: Sequence[tuple[float, float, float, int]]) -> list[tuple[float, float]]:
    """:func:`_rim_points` for one base, in the same order."""
    cx, cy, rad = c.x, c.y, c.r
    roots: list[tuple[float, float, float, float, float, float, float]] = []
    for ex0, ey0, ex1, ey1, _ in edges:
        dx, dy = ex1 - ex0, ey1 - ey0
        fx, fy = ex0 - cx, ey0 - cy
        qa = dx * dx + dy * dy
        qb = 2 * (fx * dx + fy * dy)
        qc = (fx * fx + fy * fy) - rad * rad
        disc = qb * qb - 4 * qa * qc
        if disc >= 0 and qa > 0:
            roots.append((ex0, ey0, dx, dy, qa, qb, math.sqrt(disc)))
    out: list[tuple[float, float]] = []
    for sgn in (-1.0, 1.0):
        for ex0, ey0, dx, dy, qa, qb, sq in roots:
            t = (-qb + sgn * sq) / (2 * qa)
            if 0 <= t <= 1:
                out.append((ex0 + t * dx, ey0 + t * dy))
    crossings = []
    for x, y, rr, _ in discs:
        wx, wy = x - cx, y - cy
        dd = _norm(wx, wy)
        if not (dd > 0 and dd <= rad + rr and dd >= abs(rad - rr)):
            continue
        along = (dd * dd + rad * rad - rr * rr) / (2 * dd)
        h = math.sqrt(max(rad * rad - along * along, 0.0))
        wwx, wwy = wx / dd, wy / dd
        crossings.append((cx + along * wwx, cy + along * wwy, -wwy, wwx, h))
    for sgn in (1.0, -1.0):
        for bx, by, perpx, perpy, h in crossings:
            out.append((bx + sgn * h * perpx, by + sgn * h * perpy))
    return out


def _critical_lines_py(flat: _Flat, one: _One, ok: Sequence[bool] | None) -> Iterable[_Line]:
    """Stage 2 lines of one pair (:func:`_critical_lines_many`), in the same order,
    made lazily: the first free one ends the search."""
    a, b = one.a, one.b
    radius = max(a.r, b.r)
    # Vertices within radius of the centre segment (a box around it first: cheaper).
    m = radius + 2e-9
    x0, x1 = min(a.x, b.x) - m, max(a.x, b.x) + m
    y0, y1 = min(a.y, b.y) - m, max(a.y, b.y) + m
    f = [(x, y) for rx0, ry0, rx1, ry1, run in flat.vert_runs
         if rx0 <= x1 and rx1 >= x0 and ry0 <= y1 and ry1 >= y0
         for x, y, g in run if x0 <= x <= x1 and y0 <= y <= y1
         and (ok is None or ok[g]) and _to_segment(x, y, a.x, a.y, b.x, b.y) <= radius + 1e-9]
    for c in (a, b):
        x0, y0, x1, y1 = c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r
        edges = [e for ex0, ey0, ex1, ey1, e in flat.edge_boxes
                 if ex0 <= x1 and ex1 >= x0 and ey0 <= y1 and ey1 >= y0
                 and (ok is None or ok[e[4]])]
        f.extend(_rim_py(c, edges, one.disc))
    circles = [(a.x, a.y, a.r), (b.x, b.y, b.r), *((x, y, r) for x, y, r, _ in one.disc)]
    # Lines through two points.
    sqrt = math.sqrt
    for i, (xi, yi) in enumerate(f):
        for xj, yj in f[i + 1:]:
            wx, wy = xj - xi, yj - yi
            ln = sqrt(wx * wx + wy * wy)  # _norm
            if ln > 0:
                yield (xi, yi, wx / ln, wy / ln)
    # Tangents from a point to a circle (_tangent_py with a radius 0 inlined; both
    # rotations share the angle).
    ways = []
    for x, y in f:
        for cx, cy, cr in circles:
            wx, wy = x - cx, y - cy
            dist = sqrt(wx * wx + wy * wy)
            if not dist > 0:
                continue
            cos = (cr - 1.0 * 0.0) / dist
            if not abs(cos) <= 1.0 + 1e-12:
                continue
            co = min(max(cos, -1.0), 1.0)
            ways.append((cx, cy, cr, wx / dist, wy / dist, co, sqrt(1.0 - co * co)))
    for sg in (1.0, -1.0):
        for cx, cy, cr, ux, uy, co, sin in ways:
            nx, ny = ux * co - sg * uy * sin, uy * co + sg * ux * sin
            yield (cx + cr * nx, cy + cr * ny, -ny, nx)
    # Common tangents of two circles, not both bases.
    combos = [(circles[i], circles[j]) for i in range(len(circles))
              for j in range(i + 1, len(circles)) if j >= 2]
    for sgn in (1.0, -1.0):
        for sg in (1.0, -1.0):
            for (x1, y1, r1), (x2, y2, r2) in combos:
                line = _tangent_py(x1, y1, r1, x2, y2, r2, sgn, sg)
                if line is not None:
                    yield line
    # Parallels to the centre line through every feature.
    ax, ay = b.x - a.x, b.y - a.y
    alen = _norm(ax, ay)
    ux, uy = (ax / alen, ay / alen) if alen > 0 else (1.0, 0.0)
    nx, ny = -uy, ux
    for x, y in f:
        yield (x, y, ux, uy)
    for sgn in (1.0, -1.0):
        for cx, cy, cr in circles:
            yield (cx + sgn * (cr * nx), cy + sgn * (cr * ny), ux, uy)
