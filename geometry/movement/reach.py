"""Where a base centre can end a move within a length: the reachable area (R-MOV-1..4, R-EDGE-1).

A conservative construction that never marks an illegal end point as
reachable (docs/movement.md):

1. *Configuration space.* Every obstacle is grown by ``r - tol/2`` (half the
   touch tolerance kept as a safety margin against float noise) and replaced
   by a **circumscribed** polygon (:meth:`MoveObstacle.outline`), fine enough
   that it adds at most ``tol/4``. Outside these outlines a base centre is
   legal with room to spare; the board edge is the centre box.
2. *Shortest paths.* Nodes are the vertices of coarser outlines (8-gon
   arcs), which lie outside the fine outlines. The visibility graph between
   the start and the nodes is checked with the exact sweep test of
   :func:`geometry.movement.paths.check_legs` semantics; Dijkstra gives each node its
   distance ``d(v)``.
3. *Area.* For each node with length left ``rho = L - d(v)``: an inscribed
   disc polygon of radius ``rho`` minus the *shadows* of the convex parts of
   the fine outlines (the region behind each part as seen from ``v``). The
   union over nodes, clipped to the centre box and (above the ground) the
   floor, minus the outlines of occupied bases, is the area.

Every point of the area has a witness path (:meth:`Reach.path_to`) that
:func:`geometry.movement.paths.check_legs` accepts with length at most ``L``. What is
lost: paths that hug obstacles closer than the outlines allow and bend at
places other than the coarse nodes (slivers along walls and squeezes a hair
wider than the base).

Examples
--------
>>> level = Level((20.0, 20.0), tolerance=0.01)
>>> reach = reachable_area(level, 0.5, (10.0, 10.0), 4.0)
>>> reach.area.contains(shapely.Point(13.9, 10.0)), reach.area.contains(shapely.Point(14.1, 10))
(True, False)
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from geometry.movement.obstacles import EPS, FloatArray, MoveObstacle, ObstacleSet
from geometry.movement.paths import Level, Point, centre_box, leg_geometries

# Segments per quarter circle of the disc of length left (inscribed).
DISC_QUAD_SEGS = 24
# Arcs of the node outlines: 2 segments per quarter circle (8-gon arcs).
NODE_QUAD_SEGS = 2
# Shadows are cast out to this far beyond the length left (inches).
SHADOW_SLACK = 1.0


@dataclass(frozen=True)
class Reach:
    """A reachable area with the shortest-path tree that witnesses it."""

    area: BaseGeometry
    start: Point
    length: float
    nodes: tuple[Point, ...]  # index 0 is the start
    dist: tuple[float, ...]
    parent: tuple[int, ...]  # -1 for the start and unreached nodes
    regions: tuple[tuple[int, BaseGeometry], ...]  # node index, area seen from it
    prefix: tuple[Point, ...] = ()  # legs walked before nodes[0] (a nudge off a contact)

    def path_to(self, p: Point, shortest: bool = False) -> list[Point] | None:
        """Waypoints from the start to ``p`` through the tree, or None if ``p`` is outside:
        through the first node whose region holds ``p`` (what the AI's samples take), or
        with ``shortest`` through the one with the least ``dist`` plus the last leg (the
        shortest path over the tree's nodes: move by destination)."""
        pt = shapely.Point(p)
        if not self.area.covers(pt):
            return None
        seen = (i for i, region in self.regions if region.covers(pt))  # lazy: the AI's
        first = (min(seen, key=lambda i: self.dist[i] + math.dist(self.nodes[i], p),
                     default=None) if shortest else next(seen, None))
        if first is None:
            return None
        return tree_path(self.prefix, self.nodes, self.parent, first, p)

    def paths_to(self, pts: Sequence[Point]) -> list[list[Point] | None]:
        """:meth:`path_to` (through the first region) of many points: the area, then
        each region in order, tested against the points not placed yet in one
        vectorised call (the same predicate per point, so the same answers)."""
        geoms = shapely.points(np.asarray(pts, float).reshape(-1, 2))
        first = np.full(len(pts), -1)
        todo = np.flatnonzero(shapely.covers(self.area, geoms))
        for i, region in self.regions:
            if not len(todo):
                break
            hit = shapely.covers(region, geoms[todo])
            first[todo[hit]] = i
            todo = todo[~hit]
        return [None if f < 0 else tree_path(self.prefix, self.nodes, self.parent, f, p)
                for p, f in zip(pts, first.tolist(), strict=True)]


def paths_through(area: BaseGeometry, reaches: Sequence[Reach], pts: Sequence[Point]
                  ) -> list[list[Point] | None]:
    """For each point ``area`` covers, the first of ``reaches`` whose path gets there
    (:meth:`Reach.paths_to`, each test made for all the points at once); else None."""
    inside = shapely.covers(area, shapely.points(np.asarray(pts, float).reshape(-1, 2)))
    out: list[list[Point] | None] = [None] * len(pts)
    todo = [i for i in range(len(pts)) if inside[i]]
    for reach in reaches:
        got = reach.paths_to([pts[i] for i in todo]) if todo else []
        for i, path in zip(todo, got, strict=True):
            out[i] = path
        todo = [i for i, path in zip(todo, got, strict=True) if path is None]
    return out


def tree_path(prefix: Sequence[Point], nodes: Sequence[Point], parent: Sequence[int],
              last: int, p: Point) -> list[Point]:
    """The waypoints from the start through the tree's nodes down to node ``last``, then
    to ``p`` (the legs before the start, ``prefix``, first; repeats dropped)."""
    chain = [last]
    while parent[chain[-1]] >= 0:
        chain.append(parent[chain[-1]])
    return dedupe([*prefix, *(nodes[j] for j in reversed(chain)), p])


def dedupe(pts: list[Point]) -> list[Point]:
    out = [pts[0]]
    for q in pts[1:]:
        if q != out[-1]:
            out.append(q)
    return out


def fine_quad_segs(d: float, tol: float) -> int:
    """Quarter-circle segments so a circumscribed arc of radius ``d`` sticks out <= tol/4."""
    if d <= 0:
        return 2
    ratio = 1.0 + tol / (4.0 * d)
    if ratio <= 1.0:  # a tolerance lost in float noise (check refuses one below 1e-6 in)
        return 64
    half = math.acos(1.0 / ratio)
    return max(2, min(64, math.ceil(math.pi / (4.0 * half))))


@lru_cache(maxsize=4096)
def _prepared(o: MoveObstacle, grow: float, tol: float
              ) -> tuple[BaseGeometry, tuple[FloatArray, ...], FloatArray, FloatArray]:
    """An obstacle's fine outline, its convex parts, its node candidates and its
    parts' bounding boxes (rows x0, y0, x1, y1) (cached: terrain is the same from
    query to query, only bases move)."""
    fine = o.outline(grow, fine_quad_segs(o.inflate + grow, tol))
    coarse = o.outline(grow * (1 + 1e-6) + 1e-7, NODE_QUAD_SEGS)
    coords: list[FloatArray] = []
    for poly in shapely.get_parts(coarse):
        coords.append(np.asarray(poly.exterior.coords)[:-1])
        coords.extend(np.asarray(ring.coords)[:-1] for ring in poly.interiors)
    parts = tuple(_convex_parts(fine))
    return fine, parts, np.vstack(coords), _boxes(list(parts))


def _boxes(parts: list[FloatArray]) -> FloatArray:
    """The parts' bounding boxes, one row x0, y0, x1, y1 each."""
    out = np.empty((len(parts), 4))
    for i, p in enumerate(parts):
        out[i, :2], out[i, 2:] = p.min(axis=0), p.max(axis=0)
    return out


def _box_tree(boxes: list[FloatArray]) -> shapely.STRtree | None:
    """A tree of the parts' bounding boxes (all a node needs to find those near it)."""
    rows = np.vstack(boxes) if boxes else np.zeros((0, 4))
    if not len(rows):
        return None
    return shapely.STRtree(shapely.box(rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]))


def _outlines(obs: ObstacleSet, grow: float, tol: float) -> list[BaseGeometry]:
    return [_prepared(o, grow, tol)[0] for o in obs]


def _convex_parts(outline: BaseGeometry) -> list[FloatArray]:
    """Convex pieces covering a polygon (itself if convex, else triangles), as vertex arrays."""
    polys = [g for g in shapely.get_parts(outline) if not g.is_empty]
    parts: list[FloatArray] = []
    for poly in polys:
        hull = poly.convex_hull
        if hull.area - poly.area <= 1e-12 * max(1.0, hull.area):
            parts.append(np.asarray(hull.exterior.coords)[:-1])
            continue
        for tri in shapely.get_parts(shapely.constrained_delaunay_triangles(poly)):
            parts.append(np.asarray(tri.exterior.coords)[:-1])
    return parts


def shadows_of(vs: FloatArray, jobs: Sequence[Sequence[FloatArray]], reaches: FloatArray
                ) -> list[list[BaseGeometry]]:
    """For each viewpoint ``vs[k]`` and each convex part of ``jobs[k]``, the region the
    part hides from it (the part included), ``reaches[k]`` the length left there.

    The convex hull of the part and of points far out along the rays from the
    viewpoint that span it (9 rays, so the far side stays beyond the length left):
    for a convex part seen from outside that is exactly the part plus what it hides,
    clipped far away. A part the viewpoint lies on hides the half-plane behind it.
    Every viewpoint's parts in one vectorised pass (element by element the same
    arithmetic as one pass per viewpoint, so the same hulls to the last bit).
    """
    sizes = [len(job) for job in jobs]
    n = sum(sizes)
    if n == 0:
        return [[] for _ in jobs]
    flat = [p for job in jobs for p in job]
    owner = np.repeat(np.arange(len(jobs)), sizes)  # the viewpoint of each part
    counts = np.array([len(p) for p in flat])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pts = np.vstack(flat)
    vp = np.repeat(vs[owner], counts, axis=0)  # each vertex's viewpoint
    rel = pts - vp
    dist = np.hypot(rel[:, 0], rel[:, 1])
    # Far points beyond both the length left and the part itself, so the
    # hull's only side facing ``v`` is the part's own visible chain.
    far = (np.maximum(reaches[owner], np.maximum.reduceat(dist, starts)) + SHADOW_SLACK
           ) / math.cos(math.pi / 16)
    ref = np.add.reduceat(rel, starts, axis=0) / counts[:, None]
    ang0 = np.arctan2(ref[:, 1], ref[:, 0])
    refp = np.repeat(ref, counts, axis=0)
    ang = np.arctan2(refp[:, 0] * rel[:, 1] - refp[:, 1] * rel[:, 0], (rel * refp).sum(axis=1))
    lo = np.minimum.reduceat(ang, starts)
    hi = np.maximum.reduceat(ang, starts)
    whole = hi - lo >= math.pi - 1e-9  # v on the part: hide the half-plane behind it
    lo = np.where(whole, -math.pi / 2, lo)
    hi = np.where(whole, math.pi / 2, hi)
    steps = np.linspace(0.0, 1.0, 9)
    a = (ang0 + lo)[:, None] + (hi - lo)[:, None] * steps[None, :]
    v = vs[owner]
    ring = np.stack([v[:, 0, None] + far[:, None] * np.cos(a),
                     v[:, 1, None] + far[:, None] * np.sin(a)], axis=-1)
    coords = np.vstack([pts, ring.reshape(-1, 2), v[whole]])
    idx = np.concatenate([np.repeat(np.arange(n), counts), np.repeat(np.arange(n), 9),
                          np.nonzero(whole)[0]])
    order = np.argsort(idx, kind="stable")
    # Each part's points as one line string (at least 9 points): GEOS takes the hull of
    # the same coordinates in the same order as of a multipoint, the same hull to the
    # last bit, without making a point geometry per coordinate first.
    hulls = list(shapely.convex_hull(shapely.linestrings(coords[order], indices=idx[order])))
    out, at = [], 0
    for size in sizes:
        out.append(hulls[at:at + size])
        at += size
    return out


def _outside_outlines(
    blocking: ObstacleSet, pts: FloatArray, grow: float, tol: float
) -> npt.NDArray[np.bool_]:
    """Which points lie outside every fine outline, from exact clearances.

    A fine outline reaches at most ``tol/4`` beyond the exact offset by
    ``grow`` (:func:`fine_quad_segs`), so clearance beyond that is outside.
    """
    if not len(pts):
        return np.zeros(0, dtype=bool)
    out: npt.NDArray[np.bool_] = ~blocking.blocked(list(shapely.points(pts)),
                                                   grow + tol / 4 + 4 * EPS)
    return out


def _nudge(
    blocking: ObstacleSet, start: Point, r: float, tol: float, grow: float
) -> Point | None:
    """A start outside every outline, moved straight away from what it touches, or None."""
    p = np.array(start, float)
    for _ in range(4):
        if _outside_outlines(blocking, p[None, :], grow, tol)[0]:
            return (float(p[0]), float(p[1]))
        idx = blocking.near(shapely.Point(p), grow + tol)
        if not idx:
            return None
        push = np.zeros(2)
        for i in idx:
            o = blocking[i]
            q = np.asarray(shapely.shortest_line(o.shape, shapely.Point(p)).coords[0])
            d = p - q
            n = float(np.hypot(*d))
            if n < EPS:
                return None
            push += d / n * (grow + tol / 2 + o.inflate - n + tol / 2 + 1e-6)
        p = p + push
    return None


@dataclass(frozen=True)
class WitnessTree:
    """What a reachable area is made of before any overlay: the shortest-path tree,
    each live node's disc of length left and the convex parts near it."""

    nodes: list[Point]
    dist: list[float]
    parent: list[int]
    prefix: tuple[Point, ...]
    live: list[int]  # nodes with length left, in order
    vs: FloatArray  # their points
    rhos: FloatArray  # the length left at each
    discs: npt.NDArray[np.object_]  # the inscribed disc polygon of each
    jobs: list[list[FloatArray]]  # the convex parts near each disc
    box: BaseGeometry  # the centre box (and floor)
    taken: list[BaseGeometry]  # the outlines of occupied bases


def witness_tree(level: Level, r: float, start: Point, length: float, avoid_difficult: bool
                 ) -> WitnessTree | None:
    """The witness tree of :func:`reachable_area`, or None when nothing is reachable."""
    tol = level.tolerance
    grow = r - tol / 2
    blocking = level.blocking
    if avoid_difficult and len(level.difficult):
        blocking = ObstacleSet(tuple(level.blocking) + tuple(level.difficult))
    prepared = [_prepared(o, grow, tol) for o in blocking]
    parts: list[FloatArray] = [p for _, ps, _, _ in prepared for p in ps]
    floor_parts: list[FloatArray] = []
    x0, y0, x1, y1 = centre_box(level.board, r, tol / 2)
    box = shapely.box(x0, y0, x1, y1)
    if level.floor is not None:
        inner = level.floor.buffer(-tol / 4)
        if not _is_convex(inner):
            # From inside a convex top all of it is in sight: no shadows needed.
            outside = box.buffer(2 * SHADOW_SLACK + length).difference(inner)
            floor_parts = _convex_parts(outside)
        box = box.intersection(inner)
    thr = r - tol
    if avoid_difficult and level.difficult.blocked([shapely.Point(start)], thr)[0]:
        return None  # already on difficult ground: every path crosses it
    src = _nudge(blocking, start, r, tol, grow)
    if src is None:
        return None
    prefix: tuple[Point, ...] = ()
    budget = length
    if src != start:
        if blocking.blocked(leg_geometries([start, src]), thr)[0]:
            return None
        budget -= math.dist(start, src)
        prefix = (start,)
    inner_floor = None if level.floor is None else box
    nodes = _nodes(blocking, grow, [c for _, _, c, _ in prepared], src, budget, box,
                   inner_floor, tol)
    dist, parent = _dijkstra(blocking, nodes, thr, budget, inner_floor)
    parts_all = parts + floor_parts
    tree = _box_tree([b for *_, b in prepared] + [_boxes(floor_parts)])
    live = [i for i, d in enumerate(dist) if math.isfinite(d) and budget - d > EPS]
    vs = np.array([nodes[i] for i in live], float)
    rhos = np.array([budget - dist[i] for i in live])
    discs = (shapely.buffer(shapely.points(vs), rhos - EPS, quad_segs=DISC_QUAD_SEGS)
             if live else np.zeros(0, dtype=object))
    jobs: list[list[FloatArray]] = [[] for _ in live]
    if live and tree is not None:
        which, near = tree.query(discs, predicate="intersects")
        for k, j in zip(which.tolist(), near.tolist(), strict=True):
            jobs[k].append(parts_all[j])
    return WitnessTree(nodes, dist, parent, prefix, live, vs, rhos, discs, jobs, box,
                 _outlines(level.occupied, grow, tol) if len(level.occupied) else [])


def reachable_area(
    level: Level, r: float, start: Point, length: float, *, avoid_difficult: bool = False
) -> Reach:
    """The area a base centre starting at ``start`` can end in with paths of at most ``length``.

    ``avoid_difficult`` treats difficult pieces as blocking (the region kept
    by the full ruler, R-MOV-1). Conservative: see the module docstring.
    """
    t = witness_tree(level, r, start, length, avoid_difficult)
    if t is None:
        return Reach(shapely.Polygon(), start, length, (start,), (0.0,), (-1,), ())
    regions: list[tuple[int, BaseGeometry]] = []
    for i, disc, shadows in zip(t.live, t.discs, shadows_of(t.vs, t.jobs, t.rhos), strict=True):
        seen = disc
        for shadow in shadows:  # a few shadows: one difference each beats a union
            if seen.intersects(shadow):
                seen = seen.difference(shadow)
        seen = seen.intersection(t.box)
        if not seen.is_empty:
            regions.append((i, seen))
    area = shapely.union_all([g for _, g in regions]) if regions else shapely.Polygon()
    if t.taken:
        taken = shapely.union_all(t.taken)
        area = area.difference(taken)
        regions = [(i, g.difference(taken)) for i, g in regions]
    return Reach(area, start, length, tuple(t.nodes), tuple(t.dist), tuple(t.parent),
                 tuple(regions), t.prefix)


def _nodes(
    blocking: ObstacleSet, grow: float, candidates: list[FloatArray], src: Point,
    budget: float, box: BaseGeometry, floor: BaseGeometry | None, tol: float,
) -> list[Point]:
    """The start then the coarse outline vertices that could lie on a shortest path."""
    coords: list[FloatArray] = list(candidates)
    if floor is not None:
        # A shortest path on a top bends only at its reflex corners (and around holes).
        for poly in shapely.get_parts(floor.buffer(-tol / 4, join_style="mitre")):
            coords.append(_reflex_vertices(poly))
            coords.extend(np.asarray(ring.coords)[:-1] for ring in poly.interiors)
    if not coords:
        return [src]
    pts = np.vstack(coords)
    s = np.asarray(src)
    near = np.hypot(pts[:, 0] - s[0], pts[:, 1] - s[1]) < budget - EPS
    pts = pts[near]
    if len(pts):
        pts = pts[shapely.covers(box, shapely.points(pts))]
        pts = pts[_outside_outlines(blocking, pts, grow, tol)]
    uniq = np.unique(np.round(pts, 9), axis=0) if len(pts) else pts
    return [src, *((float(x), float(y)) for x, y in uniq)]


def _is_convex(geom: BaseGeometry) -> bool:
    """Whether ``geom`` is one convex polygon without holes."""
    if geom.geom_type != "Polygon" or geom.is_empty or len(geom.interiors):
        return False
    hull = geom.convex_hull
    return bool(hull.area - geom.area <= 1e-9 * max(1.0, hull.area))


def _reflex_vertices(poly: BaseGeometry) -> FloatArray:
    """The vertices of a polygon's outer ring where its inside angle exceeds 180 degrees."""
    ring = np.asarray(orient(poly, 1.0).exterior.coords)[:-1]
    if len(ring) < 4:
        return np.zeros((0, 2))
    prev, nxt = np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)
    a, b = ring - prev, nxt - ring
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    reflex: FloatArray = ring[cross < 0]
    return reflex


def _dijkstra(
    blocking: ObstacleSet, nodes: list[Point], thr: float, budget: float,
    floor: BaseGeometry | None = None, *, prune: bool = True,
) -> tuple[list[float], list[int]]:
    """Shortest exact-clear paths from node 0 over the visibility graph, within ``budget``
    (``prune`` False: every pair shorter than the budget swept, the tests' reference)."""
    n = len(nodes)
    pts = np.asarray(nodes)
    dmat = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    iu, ju = np.triu_indices(n, 1)
    # An edge is only ever relaxed from a node no nearer the start than as the crow
    # flies: pairs too long even so are never used (a hair of slack for the sums'
    # rounding), so never swept.
    cand = (dmat[iu, ju] + np.minimum(dmat[0, iu], dmat[0, ju]) < budget + 1e-9 if prune
            else dmat[iu, ju] < budget)
    iu, ju = iu[cand], ju[cand]
    segs = shapely.linestrings(np.stack([pts[iu], pts[ju]], axis=1)) if len(iu) else []
    ok = ~blocking.blocked(list(segs), thr) if len(iu) else np.zeros(0, bool)
    if floor is not None and len(iu):
        ok &= shapely.covers(floor, segs)
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in zip(iu[ok].tolist(), ju[ok].tolist(), strict=True):
        adj[a].append(b)
        adj[b].append(a)
    dist = [math.inf] * n
    parent = [-1] * n
    dist[0] = 0.0
    heap: list[tuple[float, int]] = [(0.0, 0)]
    done = [False] * n
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for w in adj[u]:
            nd = d + float(dmat[u, w])
            if nd < dist[w] and nd < budget:
                dist[w] = nd
                parent[w] = u
                heapq.heappush(heap, (nd, w))
    return dist, parent


__all__ = ["MoveObstacle", "Reach", "WitnessTree", "fine_quad_segs", "paths_through",
           "reachable_area", "shadows_of", "tree_path", "witness_tree"]
