"""The line of cover between two bases (R-COV-1, R-COV-2, R-COV-4).

The line of cover (LoC) runs from the centre of the attacker's base to the
centre of the target's base (R-COV-1). For each cover object this module
says, exactly and with no knowledge of sides or rule sets:

- whether the LoC *enters* the object (meets its interior; merely grazing a
  corner or running along an edge does not count),
- whether it *passes completely through* it (some stretch of the LoC inside
  the object both enters and exits it, so neither centre lies in that
  stretch) (R-COV-2),
- whether the object touches the attacker's base (gap at most the touch
  tolerance, R-UNIT-2), which makes it ignored (R-COV-2, R-COV-4).

An object *counts* when it is not touching the attacker and the LoC passes
through it, or, for area terrain, merely enters it (R-COV-4). Which objects
are offered, and what counting means for the shot, is the rules glue's
business (:mod:`sim.shooting.analysis`).

Examples
--------
>>> import shapely
>>> crate = CoverObject("crate", shapely.box(4, -1, 5, 1))
>>> loc = line_of_cover(Disc(0, 0, 0.6), Disc(10, 0, 0.6), [crate], touch_tolerance=0.01)
>>> loc.counted
('crate',)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.cover import kernel
from geometry.discs import Disc, gap

# Interior tolerance (inches): the LoC must reach this far into an object to
# enter it, so grazing a corner or running along an edge never counts. The same
# value as the sight module's erosion (docs/sight.md, tolerance policy).
EPS = 1e-7
# The plain-float polygon test (:func:`_fast_polygon_hit`) defers to Shapely when a
# vertex lies closer than this (inches) to the LoC's line, or the LoC crosses an
# outline closer than ``_NEAR_END`` to a centre: there rounding could decide.
_DEGENERATE = 1e-9
_NEAR_END = 4 * EPS


@dataclass(frozen=True)
class CoverObject:
    """A cover object: a terrain footprint (polygon, possibly with holes, or
    multipolygon) or an exact disc (a model's base, a circular piece).

    ``area`` marks area terrain, which counts when merely entered (R-COV-4).
    """

    id: str
    shape: BaseGeometry | Disc
    area: bool = False

    @cached_property
    def core(self) -> BaseGeometry | None:
        """The polygonal shape shrunk by EPS and prepared (None for a disc)."""
        if isinstance(self.shape, Disc):
            return None
        core = self.shape.buffer(-EPS, join_style="mitre")
        shapely.prepare(core)
        return core

    @cached_property
    def outlines(self) -> tuple[_Outline, _Outline] | None:
        """The shape's and the core's outlines as plain floats (None for a disc)."""
        if isinstance(self.shape, Disc):
            return None
        return _Outline.of(self.shape), _Outline.of(self.core)


_Edge = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Outline:
    """A polygonal shape's rings as plain-float edges, per polygon, and its bounds."""

    polygons: tuple[tuple[_Edge, ...], ...]  # exterior and holes of each polygon
    edges: tuple[_Edge, ...]  # all of them
    box: tuple[float, float, float, float]

    @staticmethod
    def of(geom: BaseGeometry) -> _Outline:
        polys = []
        for part in shapely.get_parts(geom):
            if part.geom_type != "Polygon" or part.is_empty:
                continue
            edges: list[_Edge] = []
            for ring in (part.exterior, *part.interiors):
                cs = shapely.get_coordinates(ring).tolist()
                for (x0, y0), (x1, y1) in itertools.pairwise(cs):
                    if x0 != x1 or y0 != y1:
                        edges.append((x0, y0, x1, y1))
            polys.append(tuple(edges))
        box = (tuple(float(v) for v in geom.bounds) if polys
               else (math.inf, math.inf, -math.inf, -math.inf))
        return _Outline(tuple(polys), tuple(e for p in polys for e in p),
                        (box[0], box[1], box[2], box[3]))

    @cached_property
    def arrays(self) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.float64]]:
        """The edges as rows ``x0, y0, x1, y1`` grouped by polygon (``at``), and the
        box: what :mod:`geometry.cover.kernel` reads."""
        edges = np.array(self.edges, dtype=np.float64).reshape(-1, 4)
        at = np.cumsum([0, *(len(p) for p in self.polygons)]).astype(np.int64)
        return edges, at, np.array(self.box, dtype=np.float64)


def _touches(ax: float, ay: float, r: float, shape: _Outline, touch_tolerance: float) -> bool:
    """Whether the attacker's base (centre, radius) is within the tolerance of the shape."""
    edges, at, box = shape.arrays
    return bool(kernel.touches(ax, ay, r, touch_tolerance, edges, at, box))


def _fast_polygon_hit(ax: float, ay: float, bx: float, by: float, core: _Outline
                      ) -> tuple[bool, bool] | None:
    """(enters, passes through) of the LoC and a shrunk polygon, in plain floats.

    The LoC is cut at its crossings with the core's outline; stretches alternate
    inside and outside from the attacker's centre (compiled:
    :func:`geometry.cover.kernel.polygon_hit`). None (ask Shapely) when a vertex
    lies on the line within :data:`_DEGENERATE`, or a crossing falls near a
    centre: the cases where rounding could decide.
    """
    edges, at, box = core.arrays
    code = kernel.polygon_hit(ax, ay, bx, by, edges, at, box, _DEGENERATE, _NEAR_END)
    if code == kernel.DEFER:
        return None
    return bool(code & kernel.ENTERS), bool(code & kernel.PASSES)


@dataclass(frozen=True)
class CoverHit:
    """How the line of cover meets one object."""

    id: str
    area: bool
    enters: bool
    passes_through: bool
    touches_attacker: bool

    @property
    def counts(self) -> bool:
        """Gives cover: entered (area) or passed through, and not touching the attacker."""
        if self.touches_attacker:
            return False
        return self.passes_through or (self.area and self.enters)

    @property
    def reason(self) -> str:
        """Why the object counts or not, in words."""
        if self.touches_attacker and (self.enters or self.passes_through):
            return "touches the attacker's base"
        if self.passes_through:
            return "the line of cover passes through it"
        if self.enters:
            return (
                "the line of cover enters area terrain"
                if self.area
                else "the line of cover enters it but does not pass through"
            )
        return "the line of cover does not enter it"

    def __str__(self) -> str:
        return f"{self.id}: {'counts' if self.counts else 'no cover'} ({self.reason})"


@dataclass(frozen=True)
class LineOfCover:
    """The LoC from centre to centre and how it meets each object offered."""

    start: tuple[float, float]
    end: tuple[float, float]
    hits: tuple[CoverHit, ...]

    @property
    def counted(self) -> tuple[str, ...]:
        """Ids of the objects that give cover, in the order offered."""
        return tuple(h.id for h in self.hits if h.counts)

    def hit(self, object_id: str) -> CoverHit:
        for h in self.hits:
            if h.id == object_id:
                return h
        raise KeyError(object_id)

    def __str__(self) -> str:
        met = [h for h in self.hits if h.enters]
        if not met:
            return "the line of cover meets no cover object"
        return "line of cover: " + "; ".join(str(h) for h in met)


def _disc_stretch(ax: float, ay: float, bx: float, by: float, d: Disc
                  ) -> tuple[float, float] | None:
    """Parameter interval (0..1) of the LoC strictly inside ``d`` shrunk by EPS, or None."""
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if length == 0.0:
        return None
    ux, uy = dx / length, dy / length
    px, py = d.x - ax, d.y - ay
    along = px * ux + py * uy
    across = abs(px * uy - py * ux)
    r = d.r - EPS
    if r <= 0 or across >= r:
        return None
    half = math.sqrt(r * r - across * across)
    t0, t1 = (along - half) / length, (along + half) / length
    lo, hi = max(t0, 0.0), min(t1, 1.0)
    if hi <= lo:
        return None
    return (t0, t1)


def _polygon_hits(lines: Sequence[tuple[Disc, Disc]], combos: list[tuple[int, CoverObject]],
                  touch_tolerance: float) -> list[tuple[bool, bool, bool]]:
    """(enters, passes through, touches the attacker) for (line, polygonal object) combos,
    in vectorised Shapely calls."""
    if not combos:
        return []
    ends = np.array([[lines[i][0].center, lines[i][1].center] for i, _ in combos])
    segs = shapely.linestrings(ends)
    cores = np.array([obj.core for _, obj in combos], dtype=object)
    shapes = np.array([obj.shape for _, obj in combos], dtype=object)
    starts = shapely.points(ends[:, 0])
    radius = np.array([lines[i][0].r for i, _ in combos])
    touches = shapely.distance(starts, shapes) - radius <= touch_tolerance
    enters = shapely.intersects(segs, cores)
    passes = np.zeros(len(combos), dtype=bool)
    which = np.flatnonzero(enters)
    if len(which):
        inside = shapely.intersection(segs[which], cores[which])
        parts, owner = shapely.get_parts(inside, return_index=True)
        # Only stretches can pass through; a lone touching point (a vertex of a
        # piece that also has a stretch on the LoC) has no first and last point.
        line = (shapely.get_type_id(parts) == 1) & ~shapely.is_empty(parts)
        parts, owner = parts[line], owner[line]
        if len(parts):
            first = shapely.get_coordinates(shapely.get_point(parts, 0))
            last = shapely.get_coordinates(shapely.get_point(parts, -1))
            combo = which[owner]
            a, b = ends[combo, 0], ends[combo, 1]
            # A stretch passes through when neither of its ends is the attacker's
            # or the target's centre: it enters and exits (R-COV-2).
            at_end = np.zeros(len(parts), dtype=bool)
            for pt in (first, last):
                for c in (a, b):
                    at_end |= np.hypot(*(pt - c).T) <= EPS
            through = (shapely.length(parts) > 0.0) & ~at_end
            passes[combo[through]] = True
    return list(zip(enters.tolist(), passes.tolist(), touches.tolist(), strict=True))


def line_of_cover(
    attacker: Disc,
    target: Disc,
    objects: Iterable[CoverObject],
    touch_tolerance: float,
) -> LineOfCover:
    """How the centre-to-centre line meets each object (R-COV-1, R-COV-2, R-COV-4).

    ``touch_tolerance`` is the rules' touching distance (R-UNIT-2): an object
    at most that far from the attacker's base touches it.
    """
    return lines_of_cover([(attacker, target)], [list(objects)], touch_tolerance)[0]


def lines_of_cover(lines: Sequence[tuple[Disc, Disc]],
                   objects: Sequence[Sequence[CoverObject]],
                   touch_tolerance: float) -> list[LineOfCover]:
    """:func:`line_of_cover` for many (attacker, target) lines at once, ``objects[i]``
    offered to line ``i``.

    Polygons are tested in plain floats against their outlines
    (:func:`_fast_polygon_hit`); the rare near-degenerate combinations go to
    Shapely's predicates in one vectorised call (:func:`_polygon_hits`).
    """
    fast: list[tuple[bool, bool, bool] | None] = []
    slow: list[tuple[int, CoverObject]] = []
    for i, objs in enumerate(objects):
        attacker, target = lines[i]
        for obj in objs:
            outlines = obj.outlines
            if outlines is None:
                continue
            hit = _fast_polygon_hit(attacker.x, attacker.y, target.x, target.y, outlines[1])
            if hit is None:
                slow.append((i, obj))
                fast.append(None)
            else:
                touches = _touches(attacker.x, attacker.y, attacker.r, outlines[0],
                                   touch_tolerance)
                fast.append((*hit, touches))
    slow_hits = iter(_polygon_hits(lines, slow, touch_tolerance))
    polygon_hits = iter([h if h is not None else next(slow_hits) for h in fast])
    out: list[LineOfCover] = []
    for (attacker, target), objs in zip(lines, objects, strict=True):
        ax, ay, bx, by = attacker.x, attacker.y, target.x, target.y
        hits: list[CoverHit] = []
        for obj in objs:
            if isinstance(obj.shape, Disc):
                stretch = _disc_stretch(ax, ay, bx, by, obj.shape)
                enters = stretch is not None
                passes = stretch is not None and stretch[0] > 0.0 and stretch[1] < 1.0
                touches = gap(attacker, obj.shape) <= touch_tolerance
            else:
                enters, passes, touches = next(polygon_hits)
            hits.append(CoverHit(obj.id, obj.area, enters, passes, touches))
        out.append(LineOfCover((ax, ay), (bx, by), tuple(hits)))
    return out
