"""Cover objects packed once for the compiled line-of-cover tests (R-COV-1, R-COV-2,
R-COV-4).

A :class:`CoverTable` lays the polygon outlines of many cover objects (each
object's shape, and its core shrunk by :data:`~geometry.cover.objects.EPS`) end
to end in flat arrays, so one compiled call
(:func:`geometry.cover.kernel.polygon_hits`) answers every (line, object)
combination of a batch: the dispatch of a compiled call costs more than its
arithmetic. Like Shapely's ``STRtree``, the table is built by its owner and
kept: the shot glue keeps one per board (:mod:`sim.shooting.board`);
:func:`geometry.cover.lines.lines_of_cover` builds a small one per call.

Discs are answered exactly in plain floats (:func:`disc_flags`); the rare
near-degenerate polygon combinations go to Shapely's predicates in one
vectorised call (:func:`polygon_flags`).

Examples
--------
>>> import shapely
>>> table = CoverTable([CoverObject("crate", shapely.box(4, -1, 5, 1))])
>>> table.flags([(Disc(0, 0, 0.6), Disc(10, 0, 0.6))], [[0]], touch_tolerance=0.01)
[[(True, True, False)]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.cover import kernel
from geometry.cover.filters import split_at
from geometry.cover.objects import EPS, CoverObject
from geometry.discs import Disc, gap

# The plain-float polygon test (:meth:`CoverTable.flags`) defers to Shapely when a
# vertex lies closer than this (inches) to the LoC's line, or the LoC crosses an
# outline closer than ``_NEAR_END`` to a centre: there rounding could decide.
_DEGENERATE = 1e-9
_NEAR_END = 4 * EPS
Flags = tuple[bool, bool, bool]  # enters, passes through, touches the attacker's base
Line = tuple[Disc, Disc]  # attacker's base, target's base


class CoverTable:
    """Cover objects with their polygon outlines packed for the compiled tests.

    ``objects[k]`` is object ``k``; its core outline is packed as outline ``2k``
    and its shape as ``2k + 1`` (empty for a disc).
    """

    def __init__(self, objects: Sequence[CoverObject]) -> None:
        self.objects = tuple(objects)
        edges, ats, boxes, spans = [], [], [], []
        e = a = 0
        empty = (np.zeros((0, 4)), np.zeros(1, np.int64), np.full(4, math.nan))
        for obj in self.objects:
            outlines = obj.outlines
            for arrays in ((outlines[1].arrays, outlines[0].arrays) if outlines is not None
                           else (empty, empty)):
                ed, at, box = arrays
                edges.append(ed)
                ats.append(at)
                boxes.append(box)
                spans.append((e, e + len(ed), a, a + len(at)))
                e, a = e + len(ed), a + len(at)
        self._edges = np.concatenate(edges) if edges else np.zeros((0, 4))
        self._at = np.concatenate(ats) if ats else np.zeros(0, np.int64)
        self._boxes = np.stack(boxes) if boxes else np.zeros((0, 4))
        self._spans = np.array(spans, np.int64).reshape(-1, 4)
        self._polygon = [o.outlines is not None for o in self.objects]
        self._polygon_mask = np.array(self._polygon, dtype=np.bool_)

    def flags(self, lines: Sequence[Line], offered: Sequence[Sequence[int]],
              touch_tolerance: float) -> list[list[Flags]]:
        """(enters, passes through, touches the attacker) of line ``i`` and each object
        ``offered[i]`` (indices into :attr:`objects`), in that order.

        ``touch_tolerance`` is the rules' touching distance (R-UNIT-2).
        """
        return [[as_flags(c) for c in row] for row in self.hits(lines, offered, touch_tolerance)]

    def hits(self, lines: Sequence[Line], offered: Sequence[Sequence[int]],
             touch_tolerance: float, rows: NDArray[np.float64] | None = None
             ) -> list[list[int]]:
        """:meth:`flags` as bits (:data:`~geometry.cover.kernel.ENTERS`, ``PASSES``,
        ``TOUCHES``): what a caller counting cover reads without unpacking tuples.

        ``rows``: the lines as rows ``ax, ay, ar, bx, by, ...`` when the caller has
        them (C-ordered float64, one row per line).
        """
        polygon = self._polygon
        which = [(i, k) for i, ks in enumerate(offered) for k in ks if polygon[k]]
        codes = self.codes(lines, which, touch_tolerance, rows)
        if kernel.DEFER in codes:
            deferred = [n for n, c in enumerate(codes) if c == kernel.DEFER]
            slow = polygon_flags(lines, [(which[n][0], self.objects[which[n][1]])
                                         for n in deferred], touch_tolerance)
            for n, found in zip(deferred, slow, strict=True):
                codes[n] = as_code(found)
        answers = iter(codes)
        objects = self.objects
        return [[next(answers) if polygon[k] else
                 disc_code(a, b, objects[k].shape, touch_tolerance)  # type: ignore[arg-type]
                 for k in ks] for (a, b), ks in zip(lines, offered, strict=True)]

    def offered_hits(self, lines: Sequence[Line], rows: NDArray[np.float64],
                     offer: NDArray[np.bool_], near: NDArray[np.float64],
                     touch_tolerance: float) -> tuple[list[list[int]], list[list[int]]]:
        """The objects offered to each line whose box its centre line meets, in object
        order, and :meth:`hits` of them, in one compiled call.

        Line ``i`` is offered object ``k`` when ``offer[i, k]`` (lines by objects);
        ``near[k]`` is the box ``x0, y0, x1, y1`` its centre line must meet
        (:func:`~geometry.cover.filters.boxes_near_lines`); ``rows``: as :meth:`hits`.
        """
        found, codes, ends = kernel.offered_hits(
            rows, offer, near, self._polygon_mask, self._spans, self._edges, self._at,
            self._boxes, touch_tolerance, _DEGENERATE, _NEAR_END)
        bits = codes.tolist()
        met, hits = split_at(found.tolist(), ends), split_at(bits, ends)
        if kernel.DISC in bits or kernel.DEFER in bits:
            self._answer_rest(lines, met, hits, touch_tolerance)
        return met, hits

    def _answer_rest(self, lines: Sequence[Line], met: list[list[int]], hits: list[list[int]],
                     touch_tolerance: float) -> None:
        """The discs (plain floats, as :func:`~geometry.discs.gap` measures) and the
        deferred polygons (Shapely) of :meth:`offered_hits`, answered in place."""
        deferred: list[tuple[int, int]] = []
        for i, (ks, row) in enumerate(zip(met, hits, strict=True)):
            a, b = lines[i]
            for n, code in enumerate(row):
                if code == kernel.DISC:
                    row[n] = disc_code(a, b, self.objects[ks[n]].shape,  # type: ignore[arg-type]
                                       touch_tolerance)
                elif code == kernel.DEFER:
                    deferred.append((i, n))
        if deferred:
            slow = polygon_flags(lines, [(i, self.objects[met[i][n]]) for i, n in deferred],
                                 touch_tolerance)
            for (i, n), flags in zip(deferred, slow, strict=True):
                hits[i][n] = as_code(flags)

    def codes(self, lines: Sequence[Line], which: Sequence[tuple[int, int]],
              touch_tolerance: float, rows: NDArray[np.float64] | None = None) -> list[int]:
        """The compiled answers for (line index, polygonal object index) combinations:
        bits :data:`~geometry.cover.kernel.ENTERS`, ``PASSES`` and ``TOUCHES``, or
        :data:`~geometry.cover.kernel.DEFER` where Shapely must decide (``rows``: as
        :meth:`hits`)."""
        if not which:
            return []
        if rows is None:
            rows = np.array([(a.x, a.y, a.r, b.x, b.y) for a, b in lines], dtype=np.float64)
        combos = np.array(which, np.int64)
        codes: list[int] = kernel.polygon_hits(
            rows, combos[:, 0], combos[:, 1], self._spans, self._edges, self._at, self._boxes,
            touch_tolerance, _DEGENERATE, _NEAR_END).tolist()
        return codes


def disc_flags(attacker: Disc, target: Disc, disc: Disc, touch_tolerance: float) -> Flags:
    """(enters, passes through, touches the attacker) of the LoC and a disc, exactly."""
    return as_flags(disc_code(attacker, target, disc, touch_tolerance))


def disc_code(attacker: Disc, target: Disc, disc: Disc, touch_tolerance: float) -> int:
    """:func:`disc_flags` as bits (:meth:`CoverTable.hits`)."""
    stretch = _disc_stretch(attacker.x, attacker.y, target.x, target.y, disc)
    code = kernel.TOUCHES if gap(attacker, disc) <= touch_tolerance else 0
    if stretch is not None:
        code |= kernel.ENTERS | (kernel.PASSES if stretch[0] > 0.0 and stretch[1] < 1.0 else 0)
    return code


def as_flags(code: int) -> Flags:
    """Bits of :meth:`CoverTable.hits` as (enters, passes through, touches)."""
    return (bool(code & kernel.ENTERS), bool(code & kernel.PASSES), bool(code & kernel.TOUCHES))


def as_code(flags: Flags) -> int:
    """(enters, passes through, touches) as bits of :meth:`CoverTable.hits`."""
    enters, passes, touches = flags
    return ((kernel.ENTERS if enters else 0) | (kernel.PASSES if passes else 0)
            | (kernel.TOUCHES if touches else 0))


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


def polygon_flags(lines: Sequence[Line], combos: Sequence[tuple[int, CoverObject]],
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
