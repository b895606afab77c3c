"""Testing the sight kernel's candidate lines (:mod:`geometry.sight.kernel`): the first
free line of a batch, each line cut to the stretch between the two bases' chords and
tested against the corridor's walls, discs and triangles until its first blocker (or,
when names are asked, against every group not yet met, so ``blocked_by`` names them all).
A line through a feature that cuts that feature's own corner is blocked there without
testing triangles (:func:`_cuts`, R-LOS-1). Compiled by numba (nopython, cache=True).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit
from geometry.sight.cones import CONE_SIN, CONE_STEP, into_piece
from geometry.sight.corridor import misses_box
from geometry.sight.packing import Array, Ints
from geometry.sight.parts import EPS, TOUCH


@jit
def _chord(cx: float, cy: float, r: float, reach: float, px: float, py: float, dx: float,
           dy: float) -> tuple[bool, float, float]:
    """Whether the line comes within ``reach`` of the centre, and the parameters of the
    chord it cuts from the circle (a point when it only touches)."""
    mx, my = cx - px, cy - py
    across = mx * dy - my * dx
    if not abs(across) <= reach:
        return False, 0.0, 0.0
    along = mx * dx + my * dy
    v = r * r - across * across
    h = math.sqrt(v) if v > 0.0 else 0.0
    return True, along - h, along + h


@jit
def _slab(lo: float, hi: float, p: float, d: float, low: float, high: float
          ) -> tuple[float, float]:
    """The stretch ``lo..hi`` of the line ``p + t d`` (one coordinate) kept within
    ``low..high`` (a triangle's box on that axis); unchanged when the line runs along it."""
    if d > 0:
        return max(lo, (low - p) / d), min(hi, (high - p) / d)
    if d < 0:
        return max(lo, (high - p) / d), min(hi, (low - p) / d)
    return lo, hi


@jit
def first_free(lines: Array, k: int, pts: Array, a: Array, b: Array, tri: Array, disc: Array,
               wall: Array, slots: Ints, sbox: Array, order: Ints, hint: Ints,
               met: NDArray[np.bool_], wit: Array, names: bool) -> bool:
    """Test ``lines[:k]`` in order; True at the first whose gap segment is free, with
    the segment (from base a) in ``wit``. Rows: a point, the unit direction, and up to
    two features the line passes through (rows of ``pts``, -1: none).

    A line that provably cuts through a feature's corner inside its gap segment
    (:func:`_cuts`) is blocked by that piece without testing its triangles.

    With ``names``, every slot a blocked line meets is recorded in ``met``: once a
    line is blocked only slots not met yet are tested. Without, a line is done at its
    first blocker. The slot that blocked it moves to the front
    (the next lines are likely blocked by it too: order changes speed, never the
    answer or ``met``).
    """
    ax, ay, ar, bx, by, br = a[0], a[1], a[2], b[0], b[1], b[2]
    reach_a, reach_b = ar + TOUCH * max(1.0, ar), br + TOUCH * max(1.0, br)
    ns = len(slots)
    nmet = 0
    for q in range(ns):
        nmet += met[q]
    for li in range(k):
        px, py, dx, dy = lines[li, 0], lines[li, 1], lines[li, 2], lines[li, 3]
        # The gap segment [s, e] between the two chords (their middle if they overlap).
        meets_a, a0, a1 = _chord(ax, ay, ar, reach_a, px, py, dx, dy)
        if not meets_a:
            continue
        meets_b, b0, b1 = _chord(bx, by, br, reach_b, px, py, dx, dy)
        if not meets_b:
            continue
        if a1 < b0:
            s, e = a1, b0
        elif b1 < a0:
            s, e = b1, a0
        else:
            s = e = (max(a0, b0) + min(a1, b1)) / 2.0
        x0, y0, x1, y1 = px + s * dx, py + s * dy, px + e * dx, py + e * dy
        ix, iy = 1.0 / dx if dx != 0.0 else 0.0, 1.0 / dy if dy != 0.0 else 0.0
        sx0, sx1 = min(x0, x1), max(x0, x1)
        sy0, sy1 = min(y0, y1), max(y0, y1)
        blocked = False
        for fv in (lines[li, 4], lines[li, 5]):
            f = int(fv)
            if f >= 0 and not blocked and pts[f, 8] >= 0 and _cuts(pts, f, px, py, dx, dy, s, e):
                q = int(pts[f, 8])
                if not met[q]:
                    met[q] = True
                    nmet += 1
                blocked = True
        if blocked and (not names or nmet == ns):  # nothing left to learn from this line
            continue
        for kk in range(ns):
            q = order[kk]
            if blocked and met[q]:
                continue
            if misses_box(sbox[q, 0], sbox[q, 1], sbox[q, 2], sbox[q, 3], px, py, dx, dy,
                          ix, iy, s, e):
                continue
            hit = False
            t0, t1 = slots[q, 1], slots[q, 2]
            for i in range(t1 - t0):
                # The slot's last blocking triangle first: the next lines pass close to
                # the last one (through the same vertex), so it is likely met again.
                t = hint[q] if i == 0 else (t0 + i - 1 if t0 + i - 1 < hint[q] else t0 + i)
                # (read by two indices: a row view in this loop would cost its
                # reference counting on every test)
                if tri[t, 9] > sx1 or tri[t, 11] < sx0 or tri[t, 10] > sy1 or tri[t, 12] < sy0:
                    continue
                # Closed test: clip [s, e] by the three grown half-planes and the box.
                lo, hi = s, e
                miss = False
                for j in range(3):
                    nx, ny = tri[t, 2 * j], tri[t, 2 * j + 1]
                    nd = nx * dx + ny * dy
                    gp = tri[t, 6 + j] - (nx * px + ny * py)
                    if nd > 0:
                        if gp / nd > lo:
                            lo = gp / nd
                    elif nd < 0:
                        if gp / nd < hi:
                            hi = gp / nd
                    elif gp > 0:
                        miss = True
                if miss:
                    continue
                lo, hi = _slab(lo, hi, px, dx, tri[t, 9], tri[t, 11])
                lo, hi = _slab(lo, hi, py, dy, tri[t, 10], tri[t, 12])
                if lo <= hi:
                    hit = True
                    hint[q] = t
                    break
            if not hit:
                for c in range(slots[q, 3], slots[q, 4]):
                    # The disc shrunk by EPS meets [s, e].
                    mx, my = disc[c, 0] - px, disc[c, 1] - py
                    along = mx * dx + my * dy
                    across = mx * dy - my * dx
                    r = disc[c, 2] - EPS
                    h2 = r * r - across * across
                    if h2 >= 0:
                        h = math.sqrt(h2)
                        if along - h <= e and along + h >= s:
                            hit = True
                            break
            if not hit:
                for w in range(slots[q, 5], slots[q, 6]):
                    # The wall's ends strictly on both sides, crossing strictly inside.
                    ux, uy = wall[w, 0] - px, wall[w, 1] - py
                    vx, vy = wall[w, 2] - px, wall[w, 3] - py
                    su = ux * dy - uy * dx
                    sw = vx * dy - vy * dx
                    if (su > EPS and sw < -EPS) or (su < -EPS and sw > EPS):
                        tu = ux * dx + uy * dy
                        tw = vx * dx + vy * dy
                        t = tu + su / (su - sw) * (tw - tu)
                        if s + EPS < t < e - EPS:
                            hit = True
                            break
            if hit:
                if not met[q]:
                    met[q] = True
                    nmet += 1
                if not blocked:
                    blocked = True
                    if kk > 0:
                        order[kk], order[0] = order[0], order[kk]
                if not names:  # the verdict is known: no blocker to name
                    break
        if not blocked:
            if math.hypot(x0 - ax, y0 - ay) > math.hypot(x1 - ax, y1 - ay):
                x0, y0, x1, y1 = x1, y1, x0, y0
            wit[0], wit[1], wit[2], wit[3] = x0, y0, x1, y1
            return True
    return False


@jit
def _cuts(pts: Array, i: int, px: float, py: float, dx: float, dy: float, s: float, e: float
          ) -> bool:
    """Does the line provably cross the inside of the piece at corner ``pts[i]`` (a row
    of :func:`~geometry.sight.corridor.features`), within the stretch [s, e]?

    One of the line's two rays from the corner runs into the piece at an angle of at
    least asin(CONE_SIN) from both sides, and its point at CONE_STEP from the corner
    lies in [s, e]. The piece is that corner alone within the corner's radius (at
    least twice CONE_STEP), so that point lies 3 EPS inside the piece, and inside
    its eroded triangles: the full test would find the same piece.
    """
    if not pts[i, 7] >= 2.0 * CONE_STEP:
        return False
    t = (pts[i, 0] - px) * dx + (pts[i, 1] - py) * dy
    for sign in (1.0, -1.0):
        rx, ry = sign * dx, sign * dy
        ca, cb = into_piece(pts, i, rx, ry)
        inside = ((ca > CONE_SIN and cb > CONE_SIN) if pts[i, 6] > 0.5
                  else (ca > CONE_SIN or cb > CONE_SIN))
        if inside and s + TOUCH <= t + sign * CONE_STEP <= e - TOUCH:
            return True
    return False
