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
from dataclasses import dataclass, field

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc

# Obstacles are eroded by this much (inches) before the closed tests: a line
# built from the original geometry that grazes a corner or runs along an edge
# stays this far outside the eroded piece (R-LOS-1 Decision).
EPS = 1e-7
# Slack when a candidate line meant to touch a base is checked against it.
_TOUCH = 1e-9
# Mitre limit used when offsetting polygons: keeps corners sharp.
_MITRE = 20.0

Array = NDArray[np.float64]
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
    edge: Array = field(default_factory=lambda: np.zeros((0, 2, 2)))  # original outline
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
    h = np.einsum("kij,kij->ki", n, tri)
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
    tri, tri_g, vert, edge = [], [], [], []
    disc, disc_g, wall, wall_g = [], [], [], []
    for ob in obstacles:
        if isinstance(ob.shape, Disc):
            groups.append((ob.id,))
            disc.append((ob.shape.x, ob.shape.y, ob.shape.r))
            disc_g.append(len(groups) - 1)
        elif ob.shape.geom_type in ("LineString", "MultiLineString", "LinearRing"):
            groups.append((ob.id,))
            for s in _segments_of(ob.shape):
                wall.append(s)
                wall_g.append(len(groups) - 1)
        else:
            polys.extend((ob.id, p) for p in _polygons(ob.shape))
    for ids, part in _merge_polygons(polys, merge_gap):
        groups.append(ids)
        g = len(groups) - 1
        for p, q in _segments_of(part):
            edge.append((p, q))
            vert.append(p)
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
    if disc:
        parts.disc = np.asarray(disc, np.float64).reshape(-1, 3)
        parts.disc_g = np.asarray(disc_g, np.int64)
    if wall:
        parts.wall = np.asarray(wall, np.float64).reshape(-1, 2, 2)
        parts.wall_g = np.asarray(wall_g, np.int64)
        parts.vert = np.concatenate([parts.vert, parts.wall.reshape(-1, 2)])
        parts.edge = np.concatenate([parts.edge, parts.wall])
    return parts


# --- candidate lines ------------------------------------------------------


def _tangents(c1: Array, r1: Array, c2: Array, r2: Array, signs: Sequence[float]
              ) -> tuple[Array, Array]:
    """Lines tangent to circle pairs (radius 0 for points): points and unit directions.

    For each pair, each sign ``s`` in ``signs`` (+1: both circles on the same
    side, -1: on opposite sides) and each of the two rotations: the line
    ``n . x = n . c1 + r1`` (touching circle 1 at ``c1 + r1 n``) with
    ``n . (c2 - c1) = r1 - s r2`` (touching circle 2). Pairs with no such
    tangent yield nothing.
    """
    w = c2 - c1
    dist = np.hypot(w[:, 0], w[:, 1])
    ok = dist > 0
    c1, r1, c2, r2, w, dist = c1[ok], r1[ok], c2[ok], r2[ok], w[ok], dist[ok]
    u = w / dist[:, None]
    pts, dirs = [], []
    for s in signs:
        cos = (r1 - s * r2) / dist
        fine = np.abs(cos) <= 1.0 + 1e-12
        cos = np.clip(cos[fine], -1.0, 1.0)
        sin = np.sqrt(1.0 - cos * cos)
        uu, cc1, rr1 = u[fine], c1[fine], r1[fine]
        for sg in (1.0, -1.0):
            # n is u rotated by +/- acos(cos): n . w = dist * cos.
            n = np.stack([uu[:, 0] * cos - sg * uu[:, 1] * sin,
                          uu[:, 1] * cos + sg * uu[:, 0] * sin], axis=1)
            pts.append(cc1 + rr1[:, None] * n)
            dirs.append(np.stack([-n[:, 1], n[:, 0]], axis=1))
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(pts), np.concatenate(dirs)


def _pair_indices(n: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    i, j = np.triu_indices(n, k=1)
    return i.astype(np.int64), j.astype(np.int64)


def _rim_crossings(c: Array, r: float, edge: Array, disc: Array) -> Array:
    """Points where a base's rim crosses obstacle outlines and blocking discs."""
    out = []
    if len(edge):
        p, q = edge[:, 0], edge[:, 1]
        d = q - p
        f = p - c
        a = np.einsum("ij,ij->i", d, d)
        b = 2 * np.einsum("ij,ij->i", f, d)
        cc = np.einsum("ij,ij->i", f, f) - r * r
        disc_ = b * b - 4 * a * cc
        ok = (disc_ >= 0) & (a > 0)
        sq = np.sqrt(np.where(ok, disc_, 0.0))
        for sgn in (-1.0, 1.0):
            t = (-b + sgn * sq) / np.where(a > 0, 2 * a, 1.0)
            good = ok & (t >= 0) & (t <= 1)
            out.append(p[good] + t[good, None] * d[good])
    if len(disc):
        w = disc[:, :2] - c
        dd = np.hypot(w[:, 0], w[:, 1])
        rr = disc[:, 2]
        ok = (dd > 0) & (dd <= r + rr) & (dd >= np.abs(r - rr))
        if np.any(ok):
            w, dd, rr = w[ok], dd[ok], rr[ok]
            along = (dd * dd + r * r - rr * rr) / (2 * dd)
            h = np.sqrt(np.maximum(r * r - along * along, 0.0))
            u = w / dd[:, None]
            perp = np.stack([-u[:, 1], u[:, 0]], axis=1)
            base = c + along[:, None] * u
            out.append(base + h[:, None] * perp)
            out.append(base - h[:, None] * perp)
    if not out:
        return np.zeros((0, 2))
    return np.concatenate(out)


# --- testing lines --------------------------------------------------------


def _gap_segments(p: Array, d: Array, da: Array, db: Array
                  ) -> tuple[Array, Array, NDArray[np.bool_]]:
    """Parameters ``s <= e`` of each line's gap segment, and which lines meet both bases.

    ``da`` and ``db`` hold each line's two bases as ``(x, y, r)`` rows (or one
    row for all). The gap segment joins the near ends of the two chords;
    every segment from base to base along the line contains it, so the line
    gives sight exactly when its gap segment is free. Overlapping chords give
    a point.
    """
    discs = np.stack(np.broadcast_arrays(da, db))  # (2, L, 3)
    m = discs[..., :2] - p
    along = m[..., 0] * d[:, 0] + m[..., 1] * d[:, 1]
    across = m[..., 0] * d[:, 1] - m[..., 1] * d[:, 0]
    r = discs[..., 2]
    meets = (np.abs(across) <= r + _TOUCH * np.maximum(1.0, r)).all(axis=0)
    h = np.sqrt(np.maximum(r * r - across * across, 0.0))
    lo, hi = along - h, along + h
    (a0, b0), (a1, b1) = lo, hi
    a_first, b_first = a1 < b0, b1 < a0
    mid = (np.maximum(a0, b0) + np.minimum(a1, b1)) / 2.0
    s = np.where(a_first, a1, np.where(b_first, b1, mid))
    e = np.where(a_first, b0, np.where(b_first, a0, mid))
    return s, e, meets


def _blocked(p: Array, d: Array, s: Array, e: Array, parts: _Parts
             ) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """Per line: blocked at all; and per (line, element) for triangles, discs, walls."""
    n_lines = len(p)
    tri_hit = np.zeros((n_lines, len(parts.tri)), dtype=bool)
    if len(parts.tri):
        nd = np.einsum("kij,lj->lki", parts.tri_n, d)
        npv = np.einsum("kij,lj->lki", parts.tri_n, p)
        gap = parts.tri_h[None] - npv  # need t * nd >= gap
        with np.errstate(divide="ignore", invalid="ignore"):
            bound = gap / nd
        lo_b = np.where(nd > 0, bound, -np.inf).max(axis=2)
        hi_b = np.where(nd < 0, bound, np.inf).min(axis=2)
        outside_par = ((nd == 0) & (gap > 0)).any(axis=2)
        lo = np.maximum(lo_b, s[:, None])
        hi = np.minimum(hi_b, e[:, None])
        tri_hit = (lo <= hi) & ~outside_par
    disc_hit = np.zeros((n_lines, len(parts.disc)), dtype=bool)
    if len(parts.disc):
        m = parts.disc[None, :, :2] - p[:, None, :]
        along = m[..., 0] * d[:, None, 0] + m[..., 1] * d[:, None, 1]
        across = m[..., 0] * d[:, None, 1] - m[..., 1] * d[:, None, 0]
        r = parts.disc[None, :, 2] - EPS
        h2 = r * r - across * across
        h = np.sqrt(np.maximum(h2, 0.0))
        disc_hit = (h2 >= 0) & (along - h <= e[:, None]) & (along + h >= s[:, None])
    wall_hit = np.zeros((n_lines, len(parts.wall)), dtype=bool)
    if len(parts.wall):
        u = parts.wall[None, :, 0, :] - p[:, None, :]
        w = parts.wall[None, :, 1, :] - p[:, None, :]
        su = u[..., 0] * d[:, None, 1] - u[..., 1] * d[:, None, 0]
        sw = w[..., 0] * d[:, None, 1] - w[..., 1] * d[:, None, 0]
        proper = ((su > EPS) & (sw < -EPS)) | ((su < -EPS) & (sw > EPS))
        with np.errstate(divide="ignore", invalid="ignore"):
            k = su / (su - sw)
        tu = u[..., 0] * d[:, None, 0] + u[..., 1] * d[:, None, 1]
        tw = w[..., 0] * d[:, None, 0] + w[..., 1] * d[:, None, 1]
        t = tu + k * (tw - tu)
        wall_hit = proper & (t > s[:, None] + EPS) & (t < e[:, None] - EPS)
    any_hit: NDArray[np.bool_] = np.asarray(
        tri_hit.any(axis=1) | disc_hit.any(axis=1) | wall_hit.any(axis=1))
    return any_hit, tri_hit, disc_hit, wall_hit


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

    def sight(self, a: Disc, b: Disc, extra: Sequence[Obstacle] = ()) -> Sight:
        """Line of sight from base ``a`` to base ``b`` (R-LOS-1).

        ``extra`` are per-query obstacles (huge bases, significant edges);
        they are not merged with the static pieces.
        """
        parts, groups = self._with(extra)
        # Stage 1 against everything (no filtering: a handful of lines).
        p1, d1 = _base_lines(a, b)
        witness, _ = _first_free(p1, d1, a, b, parts)
        if witness is not None:
            return Sight(True, witness)
        return _solve(a, b, self._near(parts, a, b), groups)

    def sight_many(self, pairs: Sequence[tuple[Disc, Disc]],
                   extras: Sequence[Sequence[Obstacle]] | None = None) -> list[Sight]:
        """:meth:`sight` for many pairs at once (the same answers, batched).

        ``extras[i]`` are the per-query obstacles of pair ``i``. Stage 1 (the
        centre line and the common tangents) runs for all pairs in one
        vectorised pass; only pairs it does not settle go on to stage 2.
        """
        n = len(pairs)
        if n == 0:
            return []
        per_query: Sequence[Sequence[Obstacle]] = extras if extras is not None else [()] * n
        groups = list(self._groups)
        n_static = len(groups)
        seen: dict[int, list[int]] = {}
        more: list[_Parts] = []
        for ex in per_query:
            for ob in ex:
                if id(ob) not in seen:
                    before = len(groups)
                    more.append(_build_parts([ob], 0.0, groups))
                    seen[id(ob)] = list(range(before, len(groups)))
        parts = self._parts
        for extra_parts in more:
            parts = _concat(parts, extra_parts)
        allowed = np.zeros((n, len(groups)), dtype=bool)
        allowed[:, :n_static] = True
        for i, ex in enumerate(per_query):
            for ob in ex:
                allowed[i, seen[id(ob)]] = True
        da = np.array([[a.x, a.y, a.r] for a, _ in pairs])
        db = np.array([[b.x, b.y, b.r] for _, b in pairs])
        p, d, q = _base_lines_many(da, db)
        s, e, meets = _gap_segments(p, d, da[q], db[q])
        p, d, q, s, e = p[meets], d[meets], q[meets], s[meets], e[meets]
        _, tri_hit, disc_hit, wall_hit = _blocked(p, d, s, e, parts)
        ok = allowed[q]
        blocked = ((tri_hit & ok[:, parts.tri_g]).any(axis=1)
                   | (disc_hit & ok[:, parts.disc_g]).any(axis=1)
                   | (wall_hit & ok[:, parts.wall_g]).any(axis=1))
        free = np.flatnonzero(~blocked)
        settled, first = np.unique(q[free], return_index=True)
        out: list[Sight | None] = [None] * n
        for qi, fi in zip(settled.tolist(), free[first].tolist(), strict=True):
            out[qi] = Sight(True, _witness(p[fi], d[fi], float(s[fi]), float(e[fi]),
                                           pairs[qi][0]))
        result: list[Sight] = []
        for i, (a, b) in enumerate(pairs):
            found = out[i]
            if found is None:
                parts_i, groups_i = self._with(per_query[i])
                found = _solve(a, b, self._near(parts_i, a, b), groups_i)
            result.append(found)
        return result

    def _with(self, extra: Sequence[Obstacle]) -> tuple[_Parts, list[tuple[str, ...]]]:
        """The static elements plus per-query ones, and their group names."""
        if not extra:
            return self._parts, self._groups
        groups = list(self._groups)
        return _concat(self._parts, _build_parts(extra, 0.0, groups)), groups

    @staticmethod
    def _near(parts: _Parts, a: Disc, b: Disc) -> _Parts:
        """The elements that may meet the convex hull of the two bases."""
        x0 = min(a.x - a.r, b.x - b.r)
        y0 = min(a.y - a.r, b.y - b.r)
        x1 = max(a.x + a.r, b.x + b.r)
        y1 = max(a.y + a.r, b.y + b.r)
        out = _Parts()
        if len(parts.tri):
            bx = parts.tri_box
            m = (bx[:, 0] <= x1) & (bx[:, 2] >= x0) & (bx[:, 1] <= y1) & (bx[:, 3] >= y0)
            out.tri, out.tri_n, out.tri_h = parts.tri[m], parts.tri_n[m], parts.tri_h[m]
            out.tri_box, out.tri_g = bx[m], parts.tri_g[m]
        radius = max(a.r, b.r)
        if len(parts.vert):
            out.vert = parts.vert[_near_segment(parts.vert, a, b, radius + 1e-9)]
        if len(parts.edge):
            ex = parts.edge
            m = ((ex[:, :, 0].min(axis=1) <= x1) & (ex[:, :, 0].max(axis=1) >= x0)
                 & (ex[:, :, 1].min(axis=1) <= y1) & (ex[:, :, 1].max(axis=1) >= y0))
            out.edge = ex[m]
        if len(parts.disc):
            m = _near_segment(parts.disc[:, :2], a, b, radius + parts.disc[:, 2])
            out.disc, out.disc_g = parts.disc[m], parts.disc_g[m]
        if len(parts.wall):
            wx = parts.wall
            m = ((wx[:, :, 0].min(axis=1) <= x1) & (wx[:, :, 0].max(axis=1) >= x0)
                 & (wx[:, :, 1].min(axis=1) <= y1) & (wx[:, :, 1].max(axis=1) >= y0))
            out.wall, out.wall_g = wx[m], parts.wall_g[m]
        return out


def _near_segment(pts: Array, a: Disc, b: Disc, radius: float | Array) -> NDArray[np.bool_]:
    """Points within ``radius`` of the centre segment (a superset of the hull)."""
    ab = np.array([b.x - a.x, b.y - a.y])
    ap = pts - np.array([a.x, a.y])
    ll = float(ab @ ab)
    t = np.clip(ap @ ab / ll, 0.0, 1.0) if ll > 0 else np.zeros(len(pts))
    closest = np.outer(t, ab)
    dist = np.hypot(*(ap - closest).T)
    result: NDArray[np.bool_] = dist <= radius
    return result


def _concat(x: _Parts, y: _Parts) -> _Parts:
    out = _Parts()
    for name in x.__dataclass_fields__:
        setattr(out, name, np.concatenate([getattr(x, name), getattr(y, name)]))
    return out


def _row(disc: Disc) -> Array:
    return np.array([[disc.x, disc.y, disc.r]])


def _witness(p: Array, d: Array, s: float, e: float, a: Disc) -> Segment:
    """The gap segment of one line, oriented from base ``a``."""
    x0, y0 = p + s * d
    x1, y1 = p + e * d
    if math.hypot(x0 - a.x, y0 - a.y) > math.hypot(x1 - a.x, y1 - a.y):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return ((float(x0), float(y0)), (float(x1), float(y1)))


def _first_free(p: Array, d: Array, a: Disc, b: Disc, parts: _Parts
                ) -> tuple[Segment | None, set[int]]:
    """The first candidate line whose gap segment is free, and groups met."""
    s, e, meets = _gap_segments(p, d, _row(a), _row(b))
    p, d, s, e = p[meets], d[meets], s[meets], e[meets]
    if not len(p):
        return None, set()
    hit, tri_hit, disc_hit, wall_hit = _blocked(p, d, s, e, parts)
    free = np.flatnonzero(~hit)
    if len(free):
        i = int(free[0])
        return _witness(p[i], d[i], float(s[i]), float(e[i]), a), set()
    met: set[int] = set()
    met.update(parts.tri_g[tri_hit.any(axis=0)].tolist())
    met.update(parts.disc_g[disc_hit.any(axis=0)].tolist())
    met.update(parts.wall_g[wall_hit.any(axis=0)].tolist())
    return None, met


def _base_lines(a: Disc, b: Disc) -> tuple[Array, Array]:
    """Stage 1 lines: the centre line and the common tangents of the two bases."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    pts = [(a.x, a.y)]
    dirs = [(ux, uy)]
    for s in (1.0, -1.0):
        cos = (a.r - s * b.r) / dist if dist > 0 else 2.0
        if abs(cos) > 1.0:
            continue
        sin = math.sqrt(1.0 - cos * cos)
        for sg in (1.0, -1.0):
            nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
            pts.append((a.x + a.r * nx, a.y + a.r * ny))
            dirs.append((-ny, nx))
    return np.array(pts), np.array(dirs)


def _base_lines_many(da: Array, db: Array) -> tuple[Array, Array, NDArray[np.int64]]:
    """:func:`_base_lines` for many pairs: points, directions and each line's pair."""
    ca, cb, ra, rb = da[:, :2], db[:, :2], da[:, 2], db[:, 2]
    w = cb - ca
    dist = np.hypot(w[:, 0], w[:, 1])
    safe = np.where(dist > 0, dist, 1.0)
    u = np.where((dist > 0)[:, None], w / safe[:, None], np.array([1.0, 0.0]))
    pts, dirs, valid = [ca], [u], [np.ones(len(da), dtype=bool)]
    for sgn in (1.0, -1.0):
        cos = np.where(dist > 0, (ra - sgn * rb) / safe, 2.0)
        fine = np.abs(cos) <= 1.0
        sin = np.sqrt(np.maximum(1.0 - cos * cos, 0.0))
        for sg in (1.0, -1.0):
            nx = u[:, 0] * cos - sg * u[:, 1] * sin
            ny = u[:, 1] * cos + sg * u[:, 0] * sin
            pts.append(ca + ra[:, None] * np.stack([nx, ny], axis=1))
            dirs.append(np.stack([-ny, nx], axis=1))
            valid.append(fine)
    keep = np.stack(valid, axis=1).ravel()  # pair-major: each pair's centre line first
    p = np.stack(pts, axis=1).reshape(-1, 2)[keep]
    d = np.stack(dirs, axis=1).reshape(-1, 2)[keep]
    q = np.repeat(np.arange(len(da)), len(pts))[keep]
    return p, d, q


def _solve(a: Disc, b: Disc, parts: _Parts, groups: Sequence[tuple[str, ...]]) -> Sight:
    """Stage 2: every critical line (docs/sight.md), against the nearby elements."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    axis = np.array([dx / dist, dy / dist]) if dist > 0 else np.array([1.0, 0.0])
    p1, d1 = _base_lines(a, b)
    p2, d2 = _critical_lines(a, b, parts, axis)
    witness, met = _first_free(np.concatenate([p1, p2]), np.concatenate([d1, d2]), a, b, parts)
    if witness is not None:
        return Sight(True, witness)
    ids = sorted({pid for g in met for pid in groups[g]})
    return Sight(False, None, tuple(ids))


def _critical_lines(a: Disc, b: Disc, parts: _Parts, axis: Array) -> tuple[Array, Array]:
    """Lines tight against two features: bases, blocking discs, vertices, rim crossings."""
    pts = [parts.vert]
    for base in (a, b):
        c = np.array([base.x, base.y])
        pts.append(_rim_crossings(c, base.r, parts.edge, parts.disc))
    vert = np.concatenate(pts)
    circles = np.concatenate([np.array([[a.x, a.y, a.r], [b.x, b.y, b.r]]), parts.disc])
    ps: list[Array] = []
    ds: list[Array] = []
    # Circle-circle (bases and blocking discs; the base pair is stage 1).
    if len(circles) > 2:
        i, j = _pair_indices(len(circles))
        keep = ~((i == 0) & (j == 1))
        i, j = i[keep], j[keep]
        p, d = _tangents(circles[i, :2], circles[i, 2], circles[j, :2], circles[j, 2],
                         (1.0, -1.0))
        ps.append(p)
        ds.append(d)
    # Point-circle: tangents from each vertex to each circle.
    if len(vert):
        nv, nc = len(vert), len(circles)
        vi = np.repeat(np.arange(nv), nc)
        ci = np.tile(np.arange(nc), nv)
        p, d = _tangents(circles[ci, :2], circles[ci, 2], vert[vi], np.zeros(len(vi)), (1.0,))
        ps.append(p)
        ds.append(d)
    # Point-point: lines through two vertices.
    if len(vert) > 1:
        i, j = _pair_indices(len(vert))
        w = vert[j] - vert[i]
        ln = np.hypot(w[:, 0], w[:, 1])
        ok = ln > 0
        ps.append(vert[i][ok])
        ds.append(w[ok] / ln[ok, None])
    # Lines parallel to the centre line through every feature: they cover the
    # case where sight exists in every direction (overlapping bases).
    normal = np.array([-axis[1], axis[0]])
    feats = [vert, circles[:, :2] + circles[:, 2:3] * normal, circles[:, :2] - circles[:, 2:3]
             * normal]
    for f in feats:
        ps.append(f)
        ds.append(np.repeat(axis[None], len(f), axis=0))
    return np.concatenate(ps), np.concatenate(ds)


def line_of_sight(a: Disc, b: Disc, obstacles: Iterable[Obstacle], merge_gap: float = 0.0
                  ) -> Sight:
    """One-off line of sight; build a :class:`SightIndex` for many queries."""
    return SightIndex(obstacles, merge_gap).sight(a, b)
