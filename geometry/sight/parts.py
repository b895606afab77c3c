"""Obstacles prepared for sight queries, and what every sight module shares (R-LOS-1..4).

The obstacles of a :class:`~geometry.sight.index.SightIndex` become flat numpy arrays
of elements (:class:`Parts`), each with its group (the obstacle ids it stands
for): the constrained-Delaunay triangles of the blocking polygons eroded by
:data:`EPS`, their original vertices and outline pieces, exact discs and
zero-thickness walls. Polygons that touch or overlap are merged first, so they
act as one (R-LOS-1 Decision, R-UNIT-2); docs/sight.md explains the tolerance
policy.

Shared by :mod:`geometry.sight.index` and :mod:`geometry.sight.kernel` (the
compiled per-pair method, which packs these arrays by group): the tolerances
and the ``Point``/``Segment`` types.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc

if TYPE_CHECKING:  # the input type only: geometry.sight.index imports this module
    from geometry.sight.index import Obstacle


# Obstacles are eroded by this much (inches) before the closed tests: a line
# built from the original geometry that grazes a corner or runs along an edge
# stays this far outside the eroded piece (R-LOS-1 Decision).
EPS = 1e-7
# Triangles of an eroded piece are grown by this (a hundredth of EPS) so that no
# rounding opens a crack along the diagonals between them.
_SEAM = 1e-9
# Slack when a candidate line meant to touch a base is checked against it.
TOUCH = 1e-9
# Mitre limit used when offsetting polygons: keeps corners sharp.
_MITRE = 20.0

Array = NDArray[np.float64]
Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass
class Parts:
    """Obstacles as flat numpy arrays (one row per element, ``*_g`` its group)."""

    tri: Array = field(default_factory=lambda: np.zeros((0, 3, 2)))  # eroded triangles
    tri_n: Array = field(default_factory=lambda: np.zeros((0, 3, 2)))  # inward normals
    tri_h: Array = field(default_factory=lambda: np.zeros((0, 3)))  # n . x >= h inside
    tri_box: Array = field(default_factory=lambda: np.zeros((0, 4)))
    tri_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    vert: Array = field(default_factory=lambda: np.zeros((0, 2)))  # original vertices
    vert_g: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    # Per vertex, its corner of the piece (geometry.sight.kernel's cone test): unit
    # vectors to the next and the previous vertex (inside on the left, going on),
    # whether the corner is convex, and the radius within which the piece is that
    # corner alone (0: no corner, e.g. a wall's end).
    vert_cone: Array = field(default_factory=lambda: np.zeros((0, 6)))
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
        # A sliver (one side or height below the seam growth) is dropped by its shape:
        # its normals are rounding noise, and grown it could act as an endless strip.
        # The seam growth of its neighbours covers the crack it leaves (issue 11).
        longest = max(math.dist(cs[0], cs[1]), math.dist(cs[1], cs[2]), math.dist(cs[2], cs[0]))
        if not abs(area2) > _SEAM * longest:
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


def build_parts(obstacles: Iterable[Obstacle], merge_gap: float,
                 groups: list[tuple[str, ...]]) -> Parts:
    """Flatten obstacles into arrays; append their group ids to ``groups``."""
    polys: list[tuple[str, BaseGeometry]] = []
    tri, tri_g, edge, edge_g = [], [], [], []
    vert: list[Point] = []
    disc, disc_g, wall, wall_g = [], [], [], []
    cone: list[Array] = []
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
        corners, outline = _corners(part)
        edge.extend(outline)
        vert.extend(p for p, _ in outline)
        cone.append(corners)
        edge_g.extend([g] * len(outline))
        for core in _polygons(part.buffer(-EPS, join_style="mitre", mitre_limit=_MITRE)):
            t = _triangles(core)
            tri.append(t)
            tri_g.extend([g] * len(t))
    parts = Parts()
    if tri:
        parts.tri = np.concatenate(tri).reshape(-1, 3, 2)
        parts.tri_n, parts.tri_h, parts.tri_box = _tri_arrays(parts.tri)
        parts.tri_g = np.asarray(tri_g, np.int64)
    if vert:
        parts.vert = np.asarray(vert, np.float64).reshape(-1, 2)
        parts.vert_cone = np.concatenate(cone).reshape(-1, 6)
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
        parts.vert_cone = np.concatenate([parts.vert_cone, np.zeros((len(ends), 6))])
        parts.edge = np.concatenate([parts.edge, parts.wall])
        parts.edge_g = np.concatenate([parts.edge_g, parts.wall_g])
    return parts


# Corners with more vertices in their piece than this get no cone (radius 0): finding
# the radius compares every vertex with every side.
_CONE_WORK = 4_000_000


def _corners(part: BaseGeometry) -> tuple[Array, list[tuple[Point, Point]]]:
    """Each ring vertex of a polygon with its corner (the rows of ``Parts.vert_cone``),
    and the outline pieces in the same order (piece ``i`` starts at vertex ``i``)."""
    oriented = shapely.geometry.polygon.orient(part, 1.0)  # inside on the left
    rings = [oriented.exterior, *oriented.interiors]
    pts: list[Array] = []
    nxt: list[Array] = []
    before: list[NDArray[np.int64]] = []
    at = 0
    for ring in rings:
        cs = np.asarray(ring.coords)[:-1, :2]
        cs = cs[np.any(cs != np.roll(cs, -1, axis=0), axis=1)]  # repeated points once
        pts.append(cs)
        nxt.append(np.roll(cs, -1, axis=0))
        before.append(at + np.roll(np.arange(len(cs)), 1))
        at += len(cs)
    p, q = np.concatenate(pts), np.concatenate(nxt)
    prev = np.concatenate(before).astype(np.int64)
    r = p[prev]
    out = np.zeros((len(p), 6))
    to_q, to_r = q - p, r - p
    lq = np.sqrt((to_q * to_q).sum(axis=1))
    lr = np.sqrt((to_r * to_r).sum(axis=1))
    good = (lq > 0) & (lr > 0)
    out[good, 0:2] = to_q[good] / lq[good, None]
    out[good, 2:4] = to_r[good] / lr[good, None]
    # Convex: turning left from the incoming to the outgoing side.
    out[:, 4] = (to_r[:, 0] * to_q[:, 1] - to_r[:, 1] * to_q[:, 0]) < 0
    if len(p) * len(p) <= _CONE_WORK:
        out[:, 5] = np.where(good, _corner_radius(p, q, prev), 0.0)
    return out, [((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))) for a, b in zip(p, q,
                                                                                         strict=True)]


def _corner_radius(p: Array, q: Array, prev: NDArray[np.int64]) -> Array:
    """Per vertex ``p[i]``: its distance to every side ``p[j] -> q[j]`` but its own two
    (``i`` and ``prev[i]``), and at most half its two sides' lengths: within it the
    piece is that corner alone."""
    d = q - p
    ll = (d * d).sum(axis=1)
    w = p[:, None, :] - p[None, :, :]
    t = np.clip((w * d[None]).sum(axis=2) / np.where(ll > 0, ll, 1.0)[None], 0.0, 1.0)
    off = w - t[..., None] * d[None]
    dist = np.sqrt((off * off).sum(axis=2))
    k = len(p)
    own = np.arange(k)
    dist[own, own] = np.inf  # the side leaving the vertex
    dist[own, prev] = np.inf  # the side arriving at it
    half = 0.5 * np.sqrt(np.minimum(ll, ll[prev]))
    result: Array = np.minimum(dist.min(axis=1, initial=np.inf), half)
    return result


def shifted(parts: Parts, offset: int) -> Parts:
    """The same elements with their group ids moved by ``offset``."""
    out = replace(parts)
    for name in ("tri_g", "disc_g", "wall_g", "vert_g", "edge_g"):
        setattr(out, name, getattr(parts, name) + offset)
    return out


def concat_all(many: Sequence[Parts]) -> Parts:
    out = Parts()
    for name in out.__dataclass_fields__:
        setattr(out, name, np.concatenate([getattr(x, name) for x in many]))
    return out
