"""The compiled line-of-cover tests against one polygonal object (R-COV-1, R-COV-2, R-COV-4).

:mod:`geometry.cover.lines` answers, per cover object, whether the centre-to-centre
line enters it, passes through it and whether the object touches the
attacker. For a polygon both questions run here, compiled by numba (nopython,
``cache=True``), on the object's outlines as arrays: rows ``x0, y0, x1, y1``
per edge, grouped by polygon (``at[p]:at[p + 1]``, exterior and holes). The
arithmetic is the plain-float method of docs/sight.md (line of cover), step for
step; the cases where rounding could decide are handed back (:data:`DEFER`) to
Shapely's predicates.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from geometry.cover.filters import box_near_line
from geometry.jit import jit

Array = NDArray[np.float64]
Ints = NDArray[np.int64]

# Answers of :func:`polygon_hit`: bit 0 enters, bit 1 passes through; DEFER: ask Shapely.
# :func:`polygon_hits` adds bit 2: the object touches the attacker's base.
ENTERS, PASSES, TOUCHES, DEFER = 1, 2, 4, -1
# offered_hits: a disc, which the caller answers in Python's floats (numba's hypot can
# differ from CPython's in the last bit, and a base's gap must be the one measured
# everywhere else, geometry.discs.gap).
DISC = -2


# Outline ``o`` of a packed table is ``edges[spans[o, 0]:spans[o, 1]]`` grouped into rings
# by ``at[spans[o, 2]:spans[o, 3]]`` (offsets from its first edge), with box ``boxes[o]``.
# The tests read them by index, never as slices: a slice per test costs its reference
# counting, which is more than the arithmetic of a small piece.


@jit
def contains(px: float, py: float, edges: Array, at: Ints, spans: Ints, o: int) -> bool:
    """Whether a point lies inside outline ``o`` (even-odd over each of its polygons)."""
    e0 = spans[o, 0]
    for p in range(spans[o, 2], spans[o, 3] - 1):
        inside = False
        for k in range(e0 + at[p], e0 + at[p + 1]):
            x0, y0, x1, y1 = edges[k, 0], edges[k, 1], edges[k, 2], edges[k, 3]
            if (y0 > py) != (y1 > py) and px < x0 + (py - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
        if inside:
            return True
    return False


@jit
def touches(ax: float, ay: float, r: float, tolerance: float, edges: Array, at: Ints,
            boxes: Array, spans: Ints, o: int) -> bool:
    """Whether a base (centre, radius) lies within ``tolerance`` of outline ``o``."""
    reach = r + tolerance
    if (ax < boxes[o, 0] - reach or ax > boxes[o, 2] + reach or ay < boxes[o, 1] - reach
            or ay > boxes[o, 3] + reach):
        return False
    if contains(ax, ay, edges, at, spans, o):
        return 0.0 - r <= tolerance
    best = math.inf
    for k in range(spans[o, 0], spans[o, 1]):
        x0, y0, x1, y1 = edges[k, 0], edges[k, 1], edges[k, 2], edges[k, 3]
        dx, dy = x1 - x0, y1 - y0
        t = max(0.0, min(1.0, ((ax - x0) * dx + (ay - y0) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x0 + t * dx - ax, y0 + t * dy - ay))
    return best - r <= tolerance


@jit
def polygon_hit(ax: float, ay: float, bx: float, by: float, edges: Array, at: Ints,
                boxes: Array, spans: Ints, o: int, degenerate: float, near_end: float) -> int:
    """Enters (bit 0) and passes through (bit 1) of the LoC from (ax, ay) to (bx, by)
    and a shrunk polygon (outline ``o``), or DEFER when a vertex lies on the line within
    ``degenerate`` or a crossing falls within ``near_end`` of a centre.

    The LoC is cut at its crossings with the outline; the stretches alternate
    inside and outside from the attacker's centre.
    """
    if (max(ax, bx) < boxes[o, 0] or min(ax, bx) > boxes[o, 2] or max(ay, by) < boxes[o, 1]
            or min(ay, by) > boxes[o, 3]):
        return 0
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if length < degenerate:
        return DEFER
    tol = degenerate * length  # on the cross-product scale
    near = near_end / length  # on the parameter scale
    cuts = 0
    for k in range(spans[o, 0], spans[o, 1]):
        ex0, ey0, ex1, ey1 = edges[k, 0], edges[k, 1], edges[k, 2], edges[k, 3]
        d0 = dx * (ey0 - ay) - dy * (ex0 - ax)
        d1 = dx * (ey1 - ay) - dy * (ex1 - ax)
        on0, on1 = abs(d0) <= tol, abs(d1) <= tol
        if on0 or on1:
            if on0 and on1:
                return DEFER  # an edge along the line
            vx, vy = (ex0, ey0) if on0 else (ex1, ey1)
            t = ((vx - ax) * dx + (vy - ay) * dy) / (length * length)
            if -near <= t <= 1.0 + near:
                return DEFER  # a vertex on the LoC
            continue  # the edge meets the line only there, off the LoC
        if (d0 > 0.0) == (d1 > 0.0):
            continue
        ux, uy = ex1 - ex0, ey1 - ey0
        t = ((ex0 - ax) * uy - (ey0 - ay) * ux) / (dx * uy - dy * ux)
        if -near <= t <= near or 1.0 - near <= t <= 1.0 + near:
            return DEFER  # the outline crosses near a centre
        if 0.0 < t < 1.0:
            cuts += 1
    # The stretch from the attacker's centre, then each next one.
    inside = enters = contains(ax, ay, edges, at, spans, o)
    passes = False
    for k in range(cuts):  # the stretch from crossing k to the next one or the end
        inside = not inside
        if inside:
            enters = True
            passes = passes or k < cuts - 1  # from crossing to crossing: enters and exits
    return (ENTERS if enters else 0) | (PASSES if passes else 0)


@jit
def polygon_hits(lines: Array, line_of: Ints, object_of: Ints, spans: Ints, edges: Array,
                 at: Ints, boxes: Array, tolerance: float, degenerate: float,
                 near_end: float) -> Ints:
    """:func:`polygon_hit` and :func:`touches` of many (line, object) combinations in one
    call (one dispatch instead of two per combination: a dispatch costs more than
    the arithmetic).

    Combination ``j`` is line row ``line_of[j]`` (``ax, ay, r, bx, by``: the
    attacker's centre and radius, the target's centre) against object
    ``k = object_of[j]``: outline ``2k`` (its core, for :func:`polygon_hit`) and
    ``2k + 1`` (its shape, for :func:`touches`). Outline ``o`` is
    ``edges[spans[o, 0]:spans[o, 1]]`` grouped by ``at[spans[o, 2]:spans[o, 3]]``
    (offsets from its first edge), with box ``boxes[o]``. Answers: the bits of
    :func:`polygon_hit` plus :data:`TOUCHES`, or :data:`DEFER`.
    """
    out = np.empty(len(line_of), np.int64)
    for j in range(len(line_of)):
        i, o = line_of[j], 2 * object_of[j]
        ax, ay, r, bx, by = lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3], lines[i, 4]
        code = polygon_hit(ax, ay, bx, by, edges, at, boxes, spans, o, degenerate, near_end)
        if code != DEFER and touches(ax, ay, r, tolerance, edges, at, boxes, spans, o + 1):
            code |= TOUCHES
        out[j] = code
    return out


@jit
def offered_hits(lines: Array, offer: NDArray[np.bool_], near: Array,
                 polygon: NDArray[np.bool_], spans: Ints, edges: Array, at: Ints,
                 boxes: Array, tolerance: float, degenerate: float, near_end: float
                 ) -> tuple[Ints, Ints, Ints]:
    """:func:`polygon_hits` of every object offered to a line whose box the centre line
    meets, found in the same call (one dispatch for a whole fan of shots).

    Line ``i`` (a row of ``lines`` as in :func:`polygon_hits`) is offered object ``k``
    when ``offer[i, k]``; it meets it when the segment between the centres meets box
    ``near[k]`` (:func:`~geometry.cover.filters.boxes_near_lines`). Returns the
    objects met, line after line in object order, their answers (:data:`DISC` for an
    object that is no polygon: the caller answers it in plain floats, as
    :func:`geometry.discs.gap` measures), and where each line's objects end in those.
    """
    n, m = offer.shape
    found = np.empty(n * m, np.int64)
    codes = np.empty(n * m, np.int64)
    count = np.zeros(n, np.int64)
    j = 0
    for i in range(n):
        ax, ay, r, bx, by = lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3], lines[i, 4]
        for k in range(m):
            if not offer[i, k] or not box_near_line(ax, ay, bx, by, near, k):
                continue
            code = DISC
            if polygon[k]:
                o = 2 * k
                code = polygon_hit(ax, ay, bx, by, edges, at, boxes, spans, o, degenerate,
                                   near_end)
                if code != DEFER and touches(ax, ay, r, tolerance, edges, at, boxes, spans,
                                             o + 1):
                    code |= TOUCHES
            found[j], codes[j] = k, code
            j += 1
        count[i] = j
    return found[:j], codes[:j], count


def compile_now() -> None:
    """Compile (or load from numba's cache) the tests."""
    square = np.array([[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0],
                       [0.0, 1.0, 0.0, 0.0]])
    at = np.array([0, 4], np.int64)
    box = np.array([0.0, 0.0, 1.0, 1.0])
    spans = np.array([[0, 4, 0, 2], [0, 4, 0, 2]], np.int64)
    polygon_hit(-1.0, 0.5, 2.0, 0.5, square, at, np.stack([box, box]), spans, 0, 1e-9, 4e-7)
    touches(-1.0, 0.5, 0.5, 0.01, square, at, np.stack([box, box]), spans, 1)
    one = np.zeros(1, np.int64)
    polygon_hits(np.array([[-1.0, 0.5, 0.5, 2.0, 0.5]]), one, one,
                 np.array([[0, 4, 0, 2], [0, 4, 0, 2]], np.int64), square, at,
                 np.stack([box, box]), 0.01, 1e-9, 4e-7)
    offered_hits(np.array([[-1.0, 0.5, 0.5, 2.0, 0.5]]), np.ones((1, 1), np.bool_),
                 np.stack([box]), np.ones(1, np.bool_),
                 np.array([[0, 4, 0, 2], [0, 4, 0, 2]], np.int64), square, at,
                 np.stack([box, box]), 0.01, 1e-9, 4e-7)
