"""Significant edges in a pair's sight query (R-ELEV-2), and distances to edges.

For a pair of bases at their heights, :func:`sight_edges` and
:func:`sight_walls` choose the sides of :class:`~geometry.elevation.edges.EdgeMap`
that block sight to and from the elevated one (those more than Orange from
it), carried as zero-thickness walls; :func:`footprint_stand_ins` says which
lifted pieces (R-ELEV-5) block exactly as their edge would. The edges
themselves are derived once per board in :mod:`geometry.elevation.edges`; the
work each elevated base's pairs share is kept per board in
:mod:`geometry.elevation.wall_memo`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.elevation.edges import EdgeMap, EdgeSide, SignificantEdge
from geometry.elevation.wall_memo import (
    WallMemo,
    choices,
    chosen,
    joined_sides,
    runs,
    stand_ins,
    view_of,
)

# --- distances and per-pair selection (R-ELEV-2, R-ELEV-3) --------------------


def distance_to_edge(base: Disc, edge: SignificantEdge | EdgeSide) -> float:
    """Distance from the closest point of ``base`` to ``edge`` (R-DIST-1).

    Negative when the base overlaps the edge line (by up to its radius).
    """
    geometry = edge.geometry if isinstance(edge, SignificantEdge) else edge.line
    return float(shapely.distance(shapely.Point(base.x, base.y), geometry)) - base.r


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
    found = view_of(edges, a, z_a, b, z_b, None)
    if found is None:
        return ()
    view, low = found
    out = []
    for code in choices(edges, view, low, a, b, (), None):  # the queries' own choice
        for run, closed in runs(edges, joined_sides(edges, view, code)):
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
    found = view_of(edges, a, z_a, b, z_b, memo)
    if found is None:
        return ()
    view, low = found
    return tuple(chosen(edges, view, code)[1:]
                 for code in choices(edges, view, low, a, b, skip, memo))


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
    (:func:`acts_as_footprint`), for many pieces at once: what the elevated base
    decides is worked out once per base (:class:`~geometry.elevation.wall_memo.View`),
    the lower base's tests per pair."""
    found = view_of(edges, a, z_a, b, z_b, memo)
    if found is None:
        return frozenset()
    return stand_ins(edges, *found, pieces if isinstance(pieces, tuple) else tuple(pieces),
                     memo)
