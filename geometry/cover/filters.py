"""Which boxes, discs and edge sides centre lines meet, compiled (numba, ``cache=True``).

The rules glue offers a pair's line of cover only the pieces near it and the
bases it enters (R-COV-1, R-COV-5); asking every piece and every base per pair
in Python cost more than the line of cover itself. These filters answer for
all of one batch's lines at once, with the arithmetic the glue used per pair,
so they choose the same pieces and bases.

Examples
--------
>>> import numpy as np
>>> ends = np.array([[0.0, 0.0, 10.0, 0.0]])
>>> boxes_near_lines(ends, np.array([[4.0, -1.0, 5.0, 1.0], [4.0, 2.0, 5.0, 3.0]])).tolist()
[[True, False]]
>>> found, stops = bases_entered(np.array([[0.0, 0.0, 0.5, 10.0, 0.0, 0.5]]),
...                               np.array([[5.0, 0.5, 0.6], [5.0, 0.7, 0.6]]),
...                               -1, np.array([-1]))
>>> found.tolist(), stops.tolist()
([0], [1])
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit

Array = NDArray[np.float64]
Ints = NDArray[np.int64]


@jit
def boxes_near_lines(ends: Array, boxes: Array) -> NDArray[np.bool_]:
    """(lines, boxes): the box ``x0, y0, x1, y1`` meets the segment's box and lies on
    neither side of its line (rows of ``ends``: ``ax, ay, bx, by``)."""
    out = np.zeros((len(ends), len(boxes)), dtype=np.bool_)
    for i in range(len(ends)):
        ax, ay, bx, by = ends[i, 0], ends[i, 1], ends[i, 2], ends[i, 3]
        for k in range(len(boxes)):
            out[i, k] = box_near_line(ax, ay, bx, by, boxes, k)
    return out


@jit
def box_near_line(ax: float, ay: float, bx: float, by: float, boxes: Array, k: int) -> bool:
    """:func:`boxes_near_lines` of one segment and box ``boxes[k]`` (read by index: a row
    view per test would cost its reference counting)."""
    bx0, by0, bx1, by1 = boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3]
    if bx0 > max(ax, bx) or bx1 < min(ax, bx) or by0 > max(ay, by) or by1 < min(ay, by):
        return False
    nx, ny = ay - by, bx - ax  # the line's normal
    c = nx * ax + ny * ay
    lo_x, hi_x = (bx0, bx1) if nx >= 0 else (bx1, bx0)
    lo_y, hi_y = (by0, by1) if ny >= 0 else (by1, by0)
    return not (nx * lo_x + ny * lo_y - c > 0 or nx * hi_x + ny * hi_y - c < 0)


@jit
def bases_entered(lines: Array, discs: Array, own_a: int, own_b: Ints) -> tuple[Ints, Ints]:
    """The discs each segment comes closer to than their radius (rows of ``discs``:
    ``x, y, r``), line after line in disc order, leaving out each line's own two
    (columns ``own_a`` and ``own_b[i]``); and where each line's discs end in that list.

    Rows of ``lines``: ``ax, ay, _, bx, by, ...`` (the rows of a fan of shots).
    """
    n, m = len(lines), len(discs)
    found = np.empty(n * m, np.int64)
    stops = np.empty(n, np.int64)
    j = 0
    for i in range(n):
        ax, ay, bx, by = lines[i, 0], lines[i, 1], lines[i, 3], lines[i, 4]
        x0, x1 = min(ax, bx), max(ax, bx)
        y0, y1 = min(ay, by), max(ay, by)
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        for k in range(m):
            if k == own_a or k == own_b[i]:
                continue
            x, y, r = discs[k, 0], discs[k, 1], discs[k, 2]
            if x + r < x0 or x - r > x1 or y + r < y0 or y - r > y1:
                continue
            t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ll))
            if math.hypot(ax + t * dx - x, ay + t * dy - y) < r:
                found[j] = k
                j += 1
        stops[i] = j
    return found[:j], stops


@jit
def sides_crossed(px: float, py: float, qx: float, qy: float, tiny: float, above: float,
                  tops: Array, boxes: Array, spans: NDArray[np.int64], xy: Array
                  ) -> NDArray[np.int64]:
    """The sides (rows of ``xy``: ``x0, y0, x1, y1``) that the segment p -> q crosses
    properly (every end more than ``tiny`` off the other's line), of the edges whose
    top is above ``above`` and whose box meets the segment's."""
    out = np.empty(len(xy), np.int64)
    n = 0
    x0, x1, y0, y1 = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
    for e in range(len(tops)):
        if (tops[e] <= above or boxes[e, 2] < x0 or boxes[e, 0] > x1 or boxes[e, 3] < y0
                or boxes[e, 1] > y1):
            continue
        for k in range(spans[e, 0], spans[e, 1]):
            sx0, sy0, sx1, sy1 = xy[k, 0], xy[k, 1], xy[k, 2], xy[k, 3]
            d1 = (qx - px) * (sy0 - py) - (qy - py) * (sx0 - px)
            d2 = (qx - px) * (sy1 - py) - (qy - py) * (sx1 - px)
            if not ((d1 > tiny and d2 < -tiny) or (d1 < -tiny and d2 > tiny)):
                continue
            d3 = (sx1 - sx0) * (py - sy0) - (sy1 - sy0) * (px - sx0)
            d4 = (sx1 - sx0) * (qy - sy0) - (sy1 - sy0) * (qx - sx0)
            if (d3 > tiny and d4 < -tiny) or (d3 < -tiny and d4 > tiny):
                out[n] = k
                n += 1
    return out[:n]


def split_at(flat: list[int], stops: Ints) -> list[list[int]]:
    """A flat answer of the calls above (line after line) as one list per line:
    ``stops[i]`` is where line ``i``'s part ends."""
    out = []
    lo = 0
    for hi in stops.tolist():
        out.append(flat[lo:hi])
        lo = hi
    return out


def compile_now() -> None:
    """Compile (or load from numba's cache) the filters."""
    ends = np.array([[0.0, 0.0, 1.0, 0.0]])
    boxes_near_lines(ends, np.zeros((1, 4)))
    bases_entered(np.zeros((1, 6)), np.zeros((1, 3)), -1, np.zeros(1, np.int64))
    sides_crossed(0.0, 0.0, 1.0, 0.0, 1e-7, 0.0, np.ones(1), np.zeros((1, 4)),
                  np.zeros((1, 2), np.int64), np.zeros((0, 4)))
