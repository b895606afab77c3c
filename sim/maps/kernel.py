"""Compiled loops of the maps (issue 17): marking the cells a free sight segment
proves seen. ``cache=True``: compiled once per machine, then loaded from numba's
cache (like :mod:`geometry.sight.kernel`)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit


@jit
def mark_segments_of(seg: NDArray[np.float64], owner: NDArray[np.intp], reach: float, x0: float,
                     y0: float, cell: float, label: NDArray[np.intp], todo: NDArray[np.bool_],
                     seen: NDArray[np.bool_]) -> int:  # pragma: no cover
    """Set ``seen`` at every cell of ``todo`` (and clear ``todo`` there) whose centre
    lies within ``reach`` of one of the segments ``seg[k] = (x0, y0, x1, y1)`` and
    whose ``label`` is ``owner[k]`` (a segment proves only the cells of the group
    whose query found it). Each segment scans only the columns near its part within
    reach of each row (a cell to spare for rounding); the distance test decides.
    Returns how many cells it marked."""
    ny, nx = todo.shape
    marked = 0
    for k in range(seg.shape[0]):
        ax, ay, bx, by = seg[k, 0], seg[k, 1], seg[k, 2], seg[k, 3]
        mine = owner[k]
        c0 = max(0, int(np.ceil((min(ax, bx) - reach - x0) / cell)))
        c1 = min(nx - 1, int(np.floor((max(ax, bx) + reach - x0) / cell)))
        r0 = max(0, int(np.ceil((min(ay, by) - reach - y0) / cell)))
        r1 = min(ny - 1, int(np.floor((max(ay, by) + reach - y0) / cell)))
        ux, uy = bx - ax, by - ay
        ll = ux * ux + uy * uy
        rr = reach * reach
        for row in range(r0, r1 + 1):
            py = y0 + row * cell
            lo, hi = min(ax, bx), max(ax, bx)
            if uy != 0.0:
                t0 = min(1.0, max(0.0, (py - reach - ay) / uy))
                t1 = min(1.0, max(0.0, (py + reach - ay) / uy))
                lo, hi = min(ax + t0 * ux, ax + t1 * ux), max(ax + t0 * ux, ax + t1 * ux)
            k0 = max(c0, int(np.floor((lo - reach - x0) / cell)) - 1)
            k1 = min(c1, int(np.ceil((hi + reach - x0) / cell)) + 1)
            for col in range(k0, k1 + 1):
                if not todo[row, col] or label[row, col] != mine:
                    continue
                px = x0 + col * cell
                t = 0.0
                if ll > 0.0:
                    t = ((px - ax) * ux + (py - ay) * uy) / ll
                    t = min(1.0, max(0.0, t))
                dx, dy = ax + t * ux - px, ay + t * uy - py
                if dx * dx + dy * dy <= rr:
                    todo[row, col] = False
                    seen[row, col] = True
                    marked += 1
    return marked


def compile_now() -> None:
    """Compile (or load from the cache) before the first map needs it."""
    todo = np.ones((2, 2), dtype=bool)
    mark_segments_of(np.zeros((1, 4)), np.zeros(1, dtype=np.intp), 0.5, 0.0, 0.0, 1.0,
                     np.zeros((2, 2), dtype=np.intp), todo, np.zeros((2, 2), dtype=bool))
