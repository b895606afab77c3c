"""Significant edges in a pair's sight query (R-ELEV-2), and distances to edges.

For a pair of bases at their heights, :func:`sight_edges` and
:func:`sight_walls` choose the sides of :class:`~geometry.elevation.edges.EdgeMap`
that block sight to and from the elevated one (those more than Orange from
it), carried as zero-thickness walls; :func:`footprint_stand_ins` says which
lifted pieces (R-ELEV-5) block exactly as their edge would. The edges
themselves are derived once per board in :mod:`geometry.elevation.edges`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from typing import Any, Generic, TypeAlias, TypeVar

import shapely
from shapely.geometry import LineString, MultiLineString
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.elevation.edges import EPS, EdgeMap, EdgeSide, SignificantEdge, is_elevated

# Walls kept per board (see WallMemo); the memo starts afresh when full.
WALL_CACHE = 4096

W = TypeVar("W")
Wall: TypeAlias = BaseGeometry | Disc
# Which wall of an edge: (edge index, "disc" | "outline") or (edge index, "wall", base x, y, r).
WallKey: TypeAlias = tuple[int, str] | tuple[int, str, float, float, float]


class WallMemo(Generic[W]):
    """One board's walls already built, held by the board's owner beside its
    :class:`~geometry.elevation.edges.EdgeMap` (which stays frozen).

    ``built``: per (edge index, elevated base), the wall of the sides that join
    and whether every side joined. ``wrapped``: each wall handed out as the
    owner's obstacle (``wrap(edge id, wall)``), the same object for the same wall,
    so that a sight index meets an obstacle it has seen. Each starts afresh at
    :data:`WALL_CACHE` entries.
    """

    def __init__(self, wrap: Callable[[str, Wall], W]) -> None:
        self.wrap = wrap
        self.built: dict[tuple[int, float, float, float], tuple[BaseGeometry | None, bool]] = {}
        self.wrapped: dict[WallKey, W] = {}

    def obstacles(self, edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
                  skip: Collection[str] = ()) -> tuple[W, ...]:
        """:func:`sight_walls` of this pair, each wrapped (the same object each time)."""
        out = []
        for key, eid, wall in _chosen_walls(edges, a, z_a, b, z_b, skip, self):
            ob = self.wrapped.get(key)
            if ob is None:
                if len(self.wrapped) >= WALL_CACHE:
                    self.wrapped.clear()
                ob = self.wrapped[key] = self.wrap(eid, wall)
            out.append(ob)
        return tuple(out)


# --- distances and per-pair selection (R-ELEV-2, R-ELEV-3) --------------------


def distance_to_edge(base: Disc, edge: SignificantEdge | EdgeSide) -> float:
    """Distance from the closest point of ``base`` to ``edge`` (R-DIST-1).

    Negative when the base overlaps the edge line (by up to its radius).
    """
    geometry = edge.geometry if isinstance(edge, SignificantEdge) else edge.line
    return float(shapely.distance(shapely.Point(base.x, base.y), geometry)) - base.r


def distance_to_side(base: Disc, side: tuple[float, float, float, float]) -> float:
    """Distance from the closest point of a base to a side (R-DIST-1)."""
    x0, y0, x1, y1 = side
    ux, uy = x1 - x0, y1 - y0
    ll = ux * ux + uy * uy
    t = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((base.x - x0) * ux + (base.y - y0) * uy) / ll))
    return math.hypot(x0 + t * ux - base.x, y0 + t * uy - base.y) - base.r


def _in_play(edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
             skip: Collection[str] = ()) -> tuple[Disc, list[int]] | None:
    """The elevated base and the edges that may join a sight query (R-ELEV-2).

    None when neither base is elevated relative to the other. An edge may
    join when its top is above the lower base, some sight line may reach its
    box, and its piece is not in ``skip`` (pieces that block this pair anyway:
    a line crossing the edge of a blocking footprint enters it).
    """
    if not edges.sides:
        return None
    if is_elevated(z_a, z_b, edges.orange):
        high, z_low = a, z_b
    elif is_elevated(z_b, z_a, edges.orange):
        high, z_low = b, z_a
    else:
        return None
    # Every sight line lies in the convex hull of the two bases, inside this box.
    reach = max(a.r, b.r) + EPS
    lo_x, hi_x = min(a.x, b.x) - reach, max(a.x, b.x) + reach
    lo_y, hi_y = min(a.y, b.y) - reach, max(a.y, b.y) + reach
    chosen = []
    for e, edge in enumerate(edges.edges):
        x0, y0, x1, y1 = edges.edge_boxes[e]
        if (edge.top <= z_low + EPS or x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y
                or (skip and edge.piece in skip)):
            continue
        chosen.append(e)
    return high, chosen


def _far_sides(edges: EdgeMap, e: int, high: Disc) -> list[int]:
    """Sides of edge ``e`` more than Orange from the elevated base (R-ELEV-2, R-DIST-1)."""
    far = edges.orange + EPS
    hx, hy, hr = high.x, high.y, high.r
    out = []
    for k in range(*edges.spans[e]):
        sx0, sy0, sx1, sy1 = edges.xy[k]
        ux, uy = sx1 - sx0, sy1 - sy0
        ll = ux * ux + uy * uy
        t = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((hx - sx0) * ux + (hy - sy0) * uy) / ll))
        if math.hypot(sx0 + t * ux - hx, sy0 + t * uy - hy) - hr > far:
            out.append(k)
    return out


def _as_circle(edges: EdgeMap, e: int, a: Disc, b: Disc, high: Disc) -> bool:
    """Whether a round edge joins as its exact circle: both bases stand outside it
    and the elevated one is more than Orange from all of it, so a line crosses
    the ring exactly when it passes through the circle."""
    d = edges.edges[e].disc
    return d is not None and (
        math.hypot(a.x - d.x, a.y - d.y) >= d.r + a.r
        and math.hypot(b.x - d.x, b.y - d.y) >= d.r + b.r
        and math.hypot(high.x - d.x, high.y - d.y) - d.r - high.r > edges.orange + EPS)


def _runs(edges: EdgeMap, chosen: list[int]) -> list[tuple[list[int], bool]]:
    """Chosen sides grouped into runs that follow each other along an outline.

    Each run comes with whether it closes on itself (a whole ring).
    """
    picked = set(chosen)
    succ, pred = edges.successors, edges.predecessors
    out: list[tuple[list[int], bool]] = []
    seen: set[int] = set()
    # Start at sides with no chosen predecessor; what is left is whole rings.
    starts = [k for k in chosen if pred[k] not in picked]
    starts += [k for k in chosen if pred[k] in picked]
    for start in starts:
        if start in seen:
            continue
        run = [start]
        seen.add(start)
        k = succ[start]
        while k >= 0 and k in picked and k not in seen:
            run.append(k)
            seen.add(k)
            k = succ[k]
        out.append((run, k == start and len(run) > 1))
    return out


def sight_edges(edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float) -> tuple[EdgeSide, ...]:
    """The significant edges that join the obstacles of one sight query (R-ELEV-2).

    When neither base is elevated relative to the other, none. Otherwise a
    side takes part when the lower base stands below its top (the drop can
    hide it) and the elevated base is more than Orange away from that side;
    edges no sight line between the two bases can reach are left out.
    Consecutive sides that take part come back joined as one polyline (for
    drawing; :func:`sight_walls` gives the same walls ready for a sight query).

    Examples
    --------
    >>> from geometry.elevation.edges import Surface, significant_edges
    >>> m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    >>> sniper, foot = Disc(5.0, 5.0, 0.6), Disc(12.0, 5.0, 0.6)
    >>> [(w.id, len(w.line.coords)) for w in sight_edges(m, sniper, 6.0, foot, 0.0)]
    [('roof:edge', 5)]
    >>> near = Disc(9.0, 5.0, 0.6)  # the east side is within Orange: left out
    >>> [list(w.line.coords) for w in sight_edges(m, near, 6.0, foot, 0.0)]
    [[(10.0, 10.0), (0.0, 10.0), (0.0, 0.0), (10.0, 0.0)]]
    """
    play = _in_play(edges, a, z_a, b, z_b)
    if play is None:
        return ()
    high, chosen = play
    out = []
    for e in chosen:
        sides = (list(range(*edges.spans[e])) if _as_circle(edges, e, a, b, high)
                 else _far_sides(edges, e, high))
        for run, closed in _runs(edges, sides):
            pts = [edges.xy[run[0]][:2], *(edges.xy[k][2:] for k in run)]
            if closed:
                pts[-1] = pts[0]
            first = edges.sides[run[0]]
            out.append(EdgeSide(first.piece, first.top, LineString(pts)))
    return tuple(out)


def sight_walls(edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
                skip: Collection[str] = (), memo: WallMemo[Any] | None = None
                ) -> tuple[tuple[str, BaseGeometry | Disc], ...]:
    """The walls of :func:`sight_edges`, one ``(edge id, geometry)`` per piece.

    A sight query that tests each straight segment of a wall for a proper
    crossing would let a line through the corner where two segments meet
    slip through (it only touches each at an end). So each side is carried
    :data:`STUB` past every corner it shares with the next chosen side (and
    round a closed ring), and the two overshoots are joined by a hair-short
    segment; the open ends of a wall stay where they are, so sight still
    passes round them. A line that grazes such a corner from outside, closer
    than the stub, is blocked: a difference far below table precision.
    ``skip``: pieces whose edges are left out (those that block the pair anyway).
    A round top's whole edge comes as its exact circle (a :class:`Disc`) when
    both bases are outside it: a line crosses the ring exactly when it passes
    through the circle, and the sight query handles a disc exactly. Likewise
    an edge whose whole ring joins comes as the piece's footprint when the
    two bases do not both reach into it.

    A piece's wall depends only on the elevated base, not on the other one,
    so with a ``memo`` it is built once per position of the elevated model and
    comes back as the same value: a sight query batched over many targets, or
    repeated, meets the same obstacle again (:meth:`WallMemo.obstacles`).

    >>> from geometry.elevation.edges import Surface, significant_edges
    >>> m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    >>> walls = sight_walls(m, Disc(9.0, 5.0, 0.5), 6.0, Disc(13.0, 13.0, 0.5), 0.0)
    >>> [(i, [tuple(round(v, 6) for v in c) for c in g.coords]) for i, g in walls]
    [('roof:edge', [(10.0, 10.0), (-1e-05, 10.0), (0.0, 10.00001), (0.0, -1e-05), \
(-1e-05, 0.0), (10.0, 0.0)])]
    """
    return tuple((eid, wall) for _, eid, wall in _chosen_walls(edges, a, z_a, b, z_b, skip, memo))


def _chosen_walls(edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
                  skip: Collection[str], memo: WallMemo[Any] | None
                  ) -> list[tuple[WallKey, str, Wall]]:
    """:func:`sight_walls`, each wall with the key that names it in a :class:`WallMemo`."""
    play = _in_play(edges, a, z_a, b, z_b, skip)
    if play is None:
        return []
    high, chosen = play
    walls: list[tuple[WallKey, str, Wall]] = []
    for e in chosen:
        edge = edges.edges[e]
        if edge.disc is not None and _as_circle(edges, e, a, b, high):
            walls.append(((e, "disc"), edge.id, edge.disc))
            continue
        wall, every_side = _built(edges, e, high, memo)
        box = edges.edge_boxes[e]
        if every_side and edge.outline is not None and not (
                _meets(edge.outline, box, a) and _meets(edge.outline, box, b)):
            # The whole ring joins and a sight line starts outside it: it
            # crosses the ring exactly when it enters the footprint. A
            # footprint is a cheaper obstacle than its ring of walls.
            walls.append(((e, "outline"), edge.id, edge.outline))
        elif wall is not None:
            walls.append(((e, "wall", high.x, high.y, high.r), edge.id, wall))
    return walls


def _built(edges: EdgeMap, e: int, high: Disc, memo: WallMemo[Any] | None
           ) -> tuple[BaseGeometry | None, bool]:
    """Edge ``e``'s wall for this elevated base, and whether every side joined
    (kept in ``memo`` when there is one)."""
    key = (e, high.x, high.y, high.r)
    built = None if memo is None else memo.built.get(key)
    if built is None:
        far = _far_sides(edges, e, high)
        first, last = edges.spans[e]
        built = (_wall(edges, far), len(far) == last - first)
        if memo is not None:
            if len(memo.built) >= WALL_CACHE:
                memo.built.clear()
            memo.built[key] = built
    return built


def acts_as_footprint(edges: EdgeMap, piece: str, a: Disc, z_a: float, b: Disc,
                      z_b: float, memo: WallMemo[Any] | None = None) -> bool:
    """Whether ``piece``'s significant edge blocks this pair exactly as its footprint would.

    It does when one base is elevated, the edge is the piece's whole outline
    (one ring), it is above the lower base, every side of it is more than
    Orange from the elevated base, and the two bases do not both reach into
    the footprint: a sight line then crosses the ring exactly when it enters
    the footprint (R-ELEV-2). The rules glue uses this to keep such a piece
    among the blocking pieces (named by its edge) instead of adding its ring
    of walls to each query.

    >>> from geometry.elevation.edges import Surface, significant_edges
    >>> m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    >>> foot = Disc(12.0, 5.0, 0.6)
    >>> acts_as_footprint(m, "roof", Disc(5.0, 5.0, 0.6), 6.0, foot, 0.0)
    True
    >>> acts_as_footprint(m, "roof", Disc(9.0, 5.0, 0.6), 6.0, foot, 0.0)  # near a side
    False
    """
    return bool(footprint_stand_ins(edges, (piece,), a, z_a, b, z_b, memo))


def footprint_stand_ins(edges: EdgeMap, pieces: Iterable[str], a: Disc, z_a: float, b: Disc,
                        z_b: float, memo: WallMemo[Any] | None = None
                        ) -> frozenset[str]:
    """The ``pieces`` whose significant edge acts as their footprint for this pair
    (:func:`acts_as_footprint`), for many pieces at once."""
    if is_elevated(z_a, z_b, edges.orange):
        high, z_low = a, z_b
    elif is_elevated(z_b, z_a, edges.orange):
        high, z_low = b, z_a
    else:
        return frozenset()
    out = []
    for piece in pieces:
        e = edges.index.get(piece)
        if e is None:
            continue
        edge = edges.edges[e]
        if edge.top <= z_low + EPS:
            continue
        if edge.disc is not None:
            if _as_circle(edges, e, a, b, high):
                out.append(piece)
            continue
        if edge.outline is None or not _built(edges, e, high, memo)[1]:
            continue
        box = edges.edge_boxes[e]
        if not (_meets(edge.outline, box, a) and _meets(edge.outline, box, b)):
            out.append(piece)
    return frozenset(out)


def _meets(footprint: BaseGeometry, box: tuple[float, float, float, float], base: Disc) -> bool:
    """Whether a base reaches into a footprint's inside (``box``: its bounds)."""
    x0, y0, x1, y1 = box
    if base.x + base.r <= x0 or base.x - base.r >= x1 or base.y + base.r <= y0 or (
            base.y - base.r >= y1):
        return False
    return float(shapely.distance(footprint, shapely.Point(base.x, base.y))) < base.r - EPS


def _wall(edges: EdgeMap, sides: list[int]) -> BaseGeometry | None:
    """Chosen sides of one edge as one zero-thickness wall (see :func:`sight_walls`)."""
    lines = []
    for run, closed in _runs(edges, sides):
        pts: list[tuple[float, float]] = []
        last = len(run) - 1
        for j, k in enumerate(run):
            x0, y0, x1, y1 = edges.xy[k]
            ux, uy = edges.stubs[k]
            pts.append((x0 - ux, y0 - uy) if closed or j > 0 else (x0, y0))
            pts.append((x1 + ux, y1 + uy) if closed or j < last else (x1, y1))
        if closed:
            pts.append(pts[0])
        lines.append(LineString(pts))
    if not lines:
        return None
    return lines[0] if len(lines) == 1 else MultiLineString(lines)
