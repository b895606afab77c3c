"""One board's walls of significant edges, built per elevated base and kept (R-ELEV-2).

A pair's sight walls and edge stand-ins (:mod:`geometry.elevation.walls`) depend
on the elevated base for most of their work: which sides are more than Orange from
it (the wall), whether it reaches into a footprint, whether a round edge may join
as its circle. A :class:`WallMemo`, held by the board's owner, keeps that work per
elevated base and height of the lower one (:class:`View`): a model's pairs (one
against many, or many against the one on a roof) pay only for the tests of the
other base. The lower-level helpers that build a wall from sides live here too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from typing import Any, Generic, NamedTuple, TypeAlias, TypeVar

import shapely
from shapely.geometry import LineString, MultiLineString
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.elevation.edges import EPS, EdgeMap, distance_to_side, is_elevated

# Walls, views and wrapped obstacles kept per board (see WallMemo); each starts afresh
# when full. A view's own tables (its tuples and stand-ins) hold one entry per outcome
# of its edges' tests, so they are bounded by the board's edges.
WALL_CACHE = 4096

_NONE: frozenset[str] = frozenset()

W = TypeVar("W")
Wall: TypeAlias = BaseGeometry | Disc
# Which wall of an edge: (edge index, "disc" | "outline") or (edge index, "wall", base x, y, r).
WallKey: TypeAlias = tuple[int, str] | tuple[int, str, float, float, float]


class WallMemo(Generic[W]):
    """One board's walls already built, held by the board's owner beside its
    :class:`~geometry.elevation.edges.EdgeMap` (which stays frozen).

    ``built``: per (edge index, elevated base), the wall of the sides that join
    and whether every side joined. ``views``: per elevated base and height of
    the lower one, what every pair of that base shares (:class:`View`).
    ``wrapped``: each wall handed out as the owner's obstacle (``wrap(edge id,
    wall)``), the same object for the same wall, so that a sight index meets an
    obstacle it has seen. Each starts afresh at :data:`WALL_CACHE` entries (the
    views with ``wrapped``: their tuples hold its objects). A memo keeps the walls
    of the first edge map it is used with and refuses another (its entries are
    numbered by that map's edges).
    """

    def __init__(self, wrap: Callable[[str, Wall], W]) -> None:
        self.wrap = wrap
        self.edges: EdgeMap | None = None  # the board's edge map, bound on first use
        self.built: dict[tuple[int, float, float, float], tuple[BaseGeometry | None, bool]] = {}
        self.views: dict[tuple[float, float, float, float], View[W]] = {}
        self.last: tuple[Disc, float, View[W]] | None = None  # the view met last
        self.wrapped: dict[WallKey, W] = {}

    def obstacles(self, edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
                  skip: Collection[str] = ()) -> tuple[W, ...]:
        """:func:`~geometry.elevation.walls.sight_walls` of this pair, each wrapped (the
        same object each time), and the same tuple for the same walls of one elevated
        base over one lower height (a sight index meets it by identity)."""
        found = view_of(edges, a, z_a, b, z_b, self)
        if found is None:
            return ()
        return self.seen_from(edges, found[0], found[1], a, b, skip)

    def pair(self, edges: EdgeMap, lifted: tuple[str, ...], below: frozenset[str],
             a: Disc, z_a: float, b: Disc, z_b: float, before: Sequence[W] = ()
             ) -> tuple[frozenset[str], frozenset[str], Sequence[W]]:
        """One pair's blocking pieces (``below`` and the ``lifted`` ones whose edge
        stands in, :func:`stand_ins`), those stand-ins, and its obstacles: ``before``
        followed by its walls (:meth:`obstacles`, sparing the edges of the blocking
        pieces; the memo's tuple itself when ``before`` is empty). The elevated base's
        :class:`View` is looked up once for both."""
        found = view_of(edges, a, z_a, b, z_b, self)
        if found is None:
            return below, _NONE, before
        view, low = found
        standing = stand_ins(edges, view, low, lifted, self) if lifted else _NONE
        key = below
        if standing:  # (one object per union: later look-ups by it meet it by identity)
            union = view.keys.get((below, standing))
            if union is None:
                if len(view.keys) >= _SKIPS_KEPT:
                    view.keys.clear()
                union = view.keys[(below, standing)] = below | standing
            key = union
        got = self.seen_from(edges, view, low, a, b, key)
        return key, standing, ([*before, *got] if before else got) if got else before

    def bind(self, edges: EdgeMap) -> None:
        """Keep the walls of ``edges`` (the first map met); refuse another board's."""
        if self.edges is None:
            self.edges = edges
        elif self.edges is not edges:
            raise ValueError("a WallMemo keeps one board's walls; it was given the edge map "
                             "of another board")

    def seen_from(self, edges: EdgeMap, view: View[W], low: Disc, a: Disc, b: Disc,
                  skip: Collection[str]) -> tuple[W, ...]:
        """:meth:`obstacles` of a pair whose view and lower base are known."""
        codes = choices(edges, view, low, a, b, skip, self)
        got = view.tuples.get(codes)
        return got if got is not None else self.tuple_of(edges, view, codes)

    def tuple_of(self, edges: EdgeMap, view: View[W], codes: tuple[int, ...]) -> tuple[W, ...]:
        """The obstacles of these :func:`choices` codes, each wrapped once, as one tuple
        kept in the view."""
        got = view.tuples.get(codes)
        if got is None:
            out = []
            for code in codes:
                key, eid, wall = chosen(edges, view, code)
                ob = self.wrapped.get(key)
                if ob is None:
                    if len(self.wrapped) >= WALL_CACHE:
                        self.wrapped.clear()
                        self.views.clear()  # (their tuples hold the old objects)
                        self.last = None
                    ob = self.wrapped[key] = self.wrap(eid, wall)
                out.append(ob)
            got = view.tuples[codes] = tuple(out)
        return got


class _Entry(NamedTuple):
    """What one edge is for the queries of one elevated base (R-ELEV-2): the base
    alone decides all but the tests of the lower base (see :func:`choices`)."""

    circle: Disc | None  # the exact circle, when the elevated base lets it join as one
    wall: BaseGeometry | None  # the far sides' wall (None: no side is far)
    every_side: bool  # every side is far
    footprint: BaseGeometry | None  # when every side is far and the piece has one
    high_meets: bool  # whether the elevated base reaches into ``footprint``


class View(Generic[W]):
    """What every pair of one elevated base shares, the lower base at one height:
    the edges above the lower base (``above``: each edge's index, box and piece) and
    each edge's :class:`_Entry`, made when a pair first meets it; ``tuples``: the
    obstacles handed out per outcome (:meth:`WallMemo.obstacles`); ``stand_ins``:
    per tuple of lifted pieces, those whose edge stands in whatever the lower base
    and those the lower base decides (:func:`stand_ins`)."""

    __slots__ = ("above", "entries", "high", "keys", "stand_ins", "tuples", "unskipped",
                 "z_low")

    def __init__(self, edges: EdgeMap, high: Disc, z_low: float) -> None:
        self.high, self.z_low = high, z_low
        self.above = tuple((e, *edges.edge_boxes[e], edge.piece)
                          for e, edge in enumerate(edges.edges) if edge.top > z_low + EPS)
        self.entries: list[_Entry | None] = [None] * len(edges.edges)
        self.tuples: dict[tuple[int, ...], tuple[W, ...]] = {}
        self.stand_ins: dict[tuple[str, ...], _StandIns] = {}
        # Per set of pieces to skip, the edges of ``above`` outside it (a base's pairs
        # mostly skip one set, and it spares most edges: see choices).
        self.unskipped: dict[frozenset[str], tuple[_Box, ...]] = {}
        # Per pieces below both bases and stand-ins, their union (WallMemo.pair).
        self.keys: dict[tuple[frozenset[str], frozenset[str]], frozenset[str]] = {}


def view_of(edges: EdgeMap, a: Disc, z_a: float, b: Disc, z_b: float,
            memo: WallMemo[Any] | None) -> tuple[View[Any], Disc] | None:
    """The :class:`View` of this pair's elevated base, kept in ``memo`` when there is
    one, and the lower base (None: neither is elevated)."""
    if not edges.sides:
        return None
    if is_elevated(z_a, z_b, edges.orange):  # (R-ELEV-1 has one owner)
        high, low, z_low = a, b, z_b
    elif is_elevated(z_b, z_a, edges.orange):
        high, low, z_low = b, a, z_a
    else:
        return None
    if memo is None:
        return View(edges, high, z_low), low
    if memo.edges is not edges:
        memo.bind(edges)
    last = memo.last  # (a fan's pairs share their elevated attacker: no look-up)
    if last is not None and last[1] == z_low and last[0] == high:
        return last[2], low
    key = (*high, z_low)  # (a Disc is x, y, r)
    view = memo.views.get(key)
    if view is None:
        if len(memo.views) >= WALL_CACHE:
            memo.views.clear()
        view = memo.views[key] = View(edges, high, z_low)
    memo.last = (high, z_low, view)
    return view, low


def entry_of(edges: EdgeMap, view: View[Any], e: int, memo: WallMemo[Any] | None) -> _Entry:
    """Edge ``e``'s :class:`_Entry` for the view's elevated base (made once)."""
    got = view.entries[e]
    if got is None:
        edge, high = edges.edges[e], view.high
        circle = None
        d = edge.disc
        if d is not None and (  # the elevated base outside and more than Orange off
                math.hypot(high.x - d.x, high.y - d.y) >= d.r + high.r
                and math.hypot(high.x - d.x, high.y - d.y) - d.r - high.r
                > edges.orange + EPS):
            circle = d
        wall, every_side = built(edges, e, high, memo)
        footprint = edge.outline if every_side else None
        got = view.entries[e] = _Entry(
            circle, wall, every_side, footprint,
            footprint is not None and meets(footprint, edges.edge_boxes[e], high))
    return got


# An edge of a view with its box: index, x0, y0, x1, y1 (View.unskipped).
_Box: TypeAlias = tuple[int, float, float, float, float]
# Sets of skipped pieces kept per view (a base's pairs mostly skip one or two).
_SKIPS_KEPT = 64

# How a chosen edge joins a query (the code's remainder by 3, :func:`choices`).
_DISC, _OUTLINE, _WALL = 0, 1, 2


def choices(edges: EdgeMap, view: View[Any], low: Disc, a: Disc, b: Disc,
            skip: Collection[str], memo: WallMemo[Any] | None) -> tuple[int, ...]:
    """The edges that join this pair's query and how, as codes ``3 * e + how``
    (``sight_walls``' choices, the elevated base's part made once per base).

    An edge joins when some sight line may reach its box and its piece is not in
    ``skip``: as its exact circle when both bases are outside it and the elevated
    one more than Orange from it; else as its footprint when
    every side joins and a base stays outside it (a line then crosses the ring
    exactly when it enters the footprint, a cheaper obstacle than the ring); else
    as the wall of its far sides.
    """
    # Every sight line lies in the convex hull of the two bases, inside this box
    # (Without calls to min and max: this runs per pair.)
    ax, ay, ar = a
    bx, by, br = b
    reach = (ar if ar > br else br) + EPS
    lo_x, hi_x = (ax - reach, bx + reach) if ax < bx else (bx - reach, ax + reach)
    lo_y, hi_y = (ay - reach, by + reach) if ay < by else (by - reach, ay + reach)
    entries = view.entries
    out = []
    rows = view.unskipped.get(skip) if skip.__class__ is frozenset else None
    for e, x0, y0, x1, y1 in rows if rows is not None else unskipped(view, skip):
        if x1 < lo_x or x0 > hi_x or y1 < lo_y or y0 > hi_y:
            continue
        entry = entries[e]
        if entry is None:
            entry = entry_of(edges, view, e, memo)
        d = entry.circle
        if d is not None and math.hypot(low.x - d.x, low.y - d.y) >= d.r + low.r:
            out.append(3 * e + _DISC)
        elif entry.footprint is not None and not (
                entry.high_meets and meets(entry.footprint, edges.edge_boxes[e], low)):
            out.append(3 * e + _OUTLINE)
        elif entry.wall is not None:
            out.append(3 * e + _WALL)
    return tuple(out)


def unskipped(view: View[Any], skip: Collection[str]) -> tuple[_Box, ...]:
    """The edges of ``view.above`` whose piece is not in ``skip``, with their boxes
    (kept per set; ``skip`` as any collection)."""
    key = skip if isinstance(skip, frozenset) else frozenset(skip)
    got = view.unskipped.get(key)
    if got is None:
        if len(view.unskipped) >= _SKIPS_KEPT:
            view.unskipped.clear()
        got = view.unskipped[key] = tuple(
            (e, x0, y0, x1, y1) for e, x0, y0, x1, y1, piece in view.above if piece not in key)
    return got


def chosen(edges: EdgeMap, view: View[Any], code: int) -> tuple[WallKey, str, Wall]:
    """One code of :func:`choices` as its wall, with the key that names it in a
    :class:`WallMemo` and its edge's id."""
    e, how = divmod(code, 3)
    edge, entry, high = edges.edges[e], view.entries[e], view.high
    assert entry is not None  # (made by choices)
    if how == _DISC:
        assert edge.disc is not None
        return (e, "disc"), edge.id, edge.disc
    if how == _OUTLINE:
        assert entry.footprint is not None
        return (e, "outline"), edge.id, entry.footprint
    assert entry.wall is not None
    return (e, "wall", high.x, high.y, high.r), edge.id, entry.wall


def joined_sides(edges: EdgeMap, view: View[Any], code: int) -> list[int]:
    """The sides of the edge one code of :func:`choices` joins: all of them as its
    circle, else those more than Orange from the elevated base (all, as its footprint)."""
    e, how = divmod(code, 3)
    return list(range(*edges.spans[e])) if how == _DISC else far_sides(edges, e, view.high)


def built(edges: EdgeMap, e: int, high: Disc, memo: WallMemo[Any] | None
          ) -> tuple[BaseGeometry | None, bool]:
    """Edge ``e``'s wall for this elevated base, and whether every side joined
    (kept in ``memo`` when there is one)."""
    key = (e, high.x, high.y, high.r)
    if memo is not None and memo.edges is not edges:
        memo.bind(edges)
    got = None if memo is None else memo.built.get(key)
    if got is None:
        far = far_sides(edges, e, high)
        first, last = edges.spans[e]
        got = (wall_of(edges, far), len(far) == last - first)
        if memo is not None:
            if len(memo.built) >= WALL_CACHE:
                memo.built.clear()
            memo.built[key] = got
    return got


def far_sides(edges: EdgeMap, e: int, high: Disc) -> list[int]:
    """Sides of edge ``e`` more than Orange from the elevated base (R-ELEV-2, R-DIST-1)."""
    far = edges.orange + EPS  # (once per edge and elevated base: see built)
    return [k for k in range(*edges.spans[e]) if distance_to_side(high, edges.xy[k]) > far]


def runs(edges: EdgeMap, sides: list[int]) -> list[tuple[list[int], bool]]:
    """Chosen sides grouped into runs that follow each other along an outline.

    Each run comes with whether it closes on itself (a whole ring).
    """
    picked = set(sides)
    succ, pred = edges.successors, edges.predecessors
    out: list[tuple[list[int], bool]] = []
    seen: set[int] = set()
    # Start at sides with no chosen predecessor; what is left is whole rings.
    starts = [k for k in sides if pred[k] not in picked]
    starts += [k for k in sides if pred[k] in picked]
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


def meets(footprint: BaseGeometry, box: tuple[float, float, float, float], base: Disc) -> bool:
    """Whether a base reaches into a footprint's inside (``box``: its bounds)."""
    x0, y0, x1, y1 = box
    if base.x + base.r <= x0 or base.x - base.r >= x1 or base.y + base.r <= y0 or (
            base.y - base.r >= y1):
        return False
    return float(shapely.distance(footprint, shapely.Point(base.x, base.y))) < base.r - EPS


def wall_of(edges: EdgeMap, sides: list[int]) -> BaseGeometry | None:
    """Chosen sides of one edge as one zero-thickness wall (see
    :func:`~geometry.elevation.walls.sight_walls`)."""
    lines = []
    for run, closed in runs(edges, sides):
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


def stand_ins(edges: EdgeMap, view: View[Any], low: Disc, pieces: tuple[str, ...],
              memo: WallMemo[Any] | None) -> frozenset[str]:
    """The ``pieces`` whose edge stands in for their footprint for the view's elevated
    base and the lower base ``low`` (:func:`~geometry.elevation.walls.footprint_stand_ins`)."""
    plan = view.stand_ins.get(pieces)
    if plan is None:
        plan = view.stand_ins[pieces] = _stand_in_plan(edges, view, pieces, memo)
    sure, maybe = plan
    if not maybe:
        return sure
    more = [piece for piece, d, ring, box in maybe
            if (math.hypot(low.x - d.x, low.y - d.y) >= d.r + low.r if d is not None
                else not meets(ring, box, low))]
    return sure.union(more) if more else sure


# A view's stand-ins for one tuple of pieces (View.stand_ins): those the elevated base
# settles, and per other piece the test of the lower base that settles it: its circle
# (the base must be outside) or its footprint and box (the base must not reach in).
_LowTest: TypeAlias = tuple[
    str, Disc | None, BaseGeometry | None, tuple[float, float, float, float]]
_StandIns: TypeAlias = tuple[frozenset[str], tuple[_LowTest, ...]]


def _stand_in_plan(edges: EdgeMap, view: View[Any], pieces: tuple[str, ...],
                   memo: WallMemo[Any] | None) -> _StandIns:
    """:func:`stand_ins`' tests of ``pieces`` that the view's elevated base
    settles, made once per base: a round edge stands in only as its exact circle; any
    other edge when every side joins as a ring and a base stays outside its footprint."""
    sure: list[str] = []
    maybe: list[_LowTest] = []
    for piece in pieces:
        e = edges.index.get(piece)
        if e is None:
            continue
        edge = edges.edges[e]
        if edge.top <= view.z_low + EPS:
            continue
        entry = entry_of(edges, view, e, memo)
        box = edges.edge_boxes[e]
        if edge.disc is not None:
            if entry.circle is not None:
                maybe.append((piece, entry.circle, None, box))
        elif entry.footprint is not None:
            if entry.high_meets:
                maybe.append((piece, None, entry.footprint, box))
            else:
                sure.append(piece)
    return frozenset(sure), tuple(maybe)
