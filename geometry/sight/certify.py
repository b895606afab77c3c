"""A proof that a pair sees nothing, without enumerating lines (R-LOS-1, issue 33).

Compiled (numba) part of :mod:`geometry.sight.kernel`, used only when a query asks
for the verdict without naming blockers, after stage 1 found no free line. When it
proves the pair blocked, the search stops there; when it cannot, the full search
runs as before, so the verdict and the witness never change.

Lines are described by their heights ``h0`` over base a's centre and ``h1`` over
base b's, across the centre line: the line ``y(x) = h0 + (h1 - h0) x / L`` in the
frame with a at the origin and b at ``(L, 0)``. Every line the search tests comes
within reach of both bases, so its heights lie in a box (each reach times
1 / sqrt(1 - K^2), K the two reaches over L). A box of lines is settled when

- no line of it comes within reach of base a (or of base b), or
- one convex piece (as the kernel tests it) lying wholly between the two bases
  (every corner more than base a's radius from a along the centre line, and short
  of b's rim likewise, so every point of it a line meets lies in that line's gap
  segment) has a corner below every line of the box and one above: every such
  line then crosses the piece, and is blocked. A box whose lines all pass a base's
  centre by some height Y leave that base's chord sooner (by sqrt(reach^2 - Y^2)
  along the centre line): a piece nearer that base may settle it (:func:`_band`).

A box is also settled in parts: along its longer side, each piece settles the lines
whose height there lies strictly inside an interval (one corner below all of them,
one above, by the margin); the intervals chaining from each end of the side are
taken away (only intervals with a point of the side in them can chain, so the others
are never listed), and if they meet nothing is left. Otherwise the part left is looked at
again whole when it is at most three quarters of the side, else split in two. A
box too small, or too many boxes, gives up (the full search decides); so does a box
whose middle line (within reach of both bases) no piece in play crosses: no box
holding that line could ever be settled (asked only of a box not settled in parts:
one that is has a piece crossing its middle line). Pieces that lie below or above
every line of a box are never looked at again inside it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from geometry.jit import jit
from geometry.sight.cones import grown_reaches
from geometry.sight.corridor import box_beside
from geometry.sight.packing import Array, Ints

# Corners must lie this far (inches) beyond every line of a box; far above the
# rounding of the frame (1e-14 on a table), far below anything on a table.
_MARGIN = 1e-8
# Give up after this many boxes, or on a box narrower than this (inches).
_MAX_BOXES = 160
_MIN_SIDE = 1e-6
# Bases closer than this many times their reaches (K): lines in every direction,
# left to the search.
_MAX_K = 0.7


@jit
def _between(pk: Any, cand: Ints, a: Array, ux: float, uy: float, xl: float, xr: float,
             hm: float, cl: float, cr: float) -> tuple[Array, Array, Ints, Array, bool, bool]:
    """The convex pieces of ``cand``'s groups (:mod:`geometry.sight.pieces`) lying
    wholly between ``xl`` and ``xr`` along the centre line that may meet a line of
    heights within ``hm``. Returns their corners' frame x and y, where each piece's
    corners start (and the end), each piece's least and greatest x, and whether one
    lying wholly between ``cl`` and ``cr`` crosses the centre line, and whether one
    does not lie wholly between them."""
    n = 0
    for g in cand:
        n += pk.corner_at[pk.piece_at[g + 1]] - pk.corner_at[pk.piece_at[g]]
    px, py = np.empty(n), np.empty(n)
    at = np.empty(n + 1, np.int64)
    at[0] = 0
    span = np.empty((n, 2))
    k = m = 0
    crosses = nearer = False
    for g in cand:
        # The group's box first (it holds its pieces' boxes; by a margin more, so
        # only groups whose every piece the test below leaves out).
        wide = 2.0 * _MARGIN
        if box_beside(pk.gbox, g, a, ux, uy, xl - wide, xr + wide, hm + wide):
            continue
        for p in range(pk.piece_at[g], pk.piece_at[g + 1]):
            # The box first: a piece whose box lies wholly outside the band, or wholly
            # beside the heights, is left out (by a margin far above the rounding of
            # the projection, so only pieces the corners' test leaves out too).
            if box_beside(pk.piece_box, p, a, ux, uy, xl - _MARGIN, xr + _MARGIN,
                          hm + _MARGIN):
                continue
            inside = True
            lo, hi = np.inf, -np.inf
            x0, x1 = np.inf, -np.inf
            for c in range(pk.corner_at[p], pk.corner_at[p + 1]):
                wx, wy = pk.corner[c, 0] - a[0], pk.corner[c, 1] - a[1]
                x, y = wx * ux + wy * uy, wy * ux - wx * uy
                if not xl <= x <= xr:
                    inside = False
                    break
                lo, hi = min(lo, y), max(hi, y)
                x0, x1 = min(x0, x), max(x1, x)
                px[m], py[m] = x, y
                m += 1
            if inside and lo <= hm and hi >= -hm:
                span[k, 0], span[k, 1] = x0, x1
                k += 1
                at[k] = m
                within = cl <= x0 and x1 <= cr
                crosses = crosses or (lo < 0.0 < hi and within)
                nearer = nearer or not within
            else:
                m = at[k]
    return px[:m], py[:m], at[:k + 1], span[:k], crosses, nearer


@jit
def _outside(h0lo: float, h0hi: float, h1lo: float, h1hi: float, length: float,
             reach_a: float, reach_b: float) -> bool:
    """Does no line of the box come within reach of base a, or none of base b?"""
    slope = max(abs(h1hi - h0lo), abs(h1lo - h0hi)) / length
    grow = math.sqrt(1.0 + slope * slope)
    near0 = 0.0 if h0lo <= 0.0 <= h0hi else min(abs(h0lo), abs(h0hi))
    near1 = 0.0 if h1lo <= 0.0 <= h1hi else min(abs(h1lo), abs(h1hi))
    return near0 > reach_a * grow + _MARGIN or near1 > reach_b * grow + _MARGIN


@jit
def _within(h0: float, h1: float, length: float, reach_a: float, reach_b: float) -> bool:
    """Does the line of heights h0, h1 come within reach of both bases?"""
    slope = (h1 - h0) / length
    grow = math.sqrt(1.0 + slope * slope)
    return abs(h0) <= reach_a * grow and abs(h1) <= reach_b * grow


@jit
def _band(h0lo: float, h0hi: float, h1lo: float, h1hi: float, length: float,
          reach_a: float, reach_b: float, xl: float, xr: float, slack: float
          ) -> tuple[float, float]:
    """Where along the centre line a piece must lie (from, to) to be met by the box's
    lines only inside their gap segments. ``xl`` and ``xr`` hold for every line; a
    box whose lines all pass at least Y beside a centre within its reach (heights
    linear in x, so their ends tell) leaves that base's chord by sqrt(reach^2 - Y^2)
    along the centre line at most (the chord's end, or the foot of a line missing
    the base, lies within reach of the centre), so pieces nearer a base may settle
    it (a blocker beside a base, short of its rim along the centre line)."""
    ta, tb = reach_a / length, 1.0 - reach_b / length
    lo_a, hi_a = min(h0lo, h0lo + (h1lo - h0lo) * ta), max(h0hi, h0hi + (h1hi - h0hi) * ta)
    lo_b, hi_b = min(h1lo, h0lo + (h1lo - h0lo) * tb), max(h1hi, h0hi + (h1hi - h0hi) * tb)
    ya, yb = max(lo_a, -hi_a), max(lo_b, -hi_b)
    if ya > 0.0:
        xl = min(xl, math.sqrt(max(reach_a * reach_a - ya * ya, 0.0)) + 1e-6 + slack)
    if yb > 0.0:
        xr = max(xr, length - math.sqrt(max(reach_b * reach_b - yb * yb, 0.0)) - 1e-6 - slack)
    return xl, xr


@jit
def _uncovered(lo: float, hi: float, lo_at: Array, hi_at: Array, n: int
               ) -> tuple[float, float]:
    """The part [c, d] of [lo, hi] left once the open intervals (lo_at[i], hi_at[i])
    that chain from each end are taken away (c > d: none left). Each step takes a
    new interval, so n + 1 steps from each end are enough."""
    c = lo
    for _ in range(n + 1):  # from lo up: the interval holding c that reaches furthest
        best = c
        for i in range(n):
            if lo_at[i] < c < hi_at[i] and hi_at[i] > best:
                best = hi_at[i]
        if not best > c:
            break
        c = best
        if c > hi:
            return c, hi
    d = hi
    for _ in range(n + 1):  # from hi down, likewise
        best = d
        for i in range(n):
            if lo_at[i] < d < hi_at[i] and lo_at[i] < best:
                best = lo_at[i]
        if not best < d:
            break
        d = best
        if d < c:
            break
    return c, d


@jit
def _crossed(idx: Ints, out: int, kept: int, at: Ints, t: Array, py: Array, m0: float,
             dm: float, span: Array, xl: float, xr: float) -> bool:
    """Does one of the pieces ``idx[out:out + kept]`` lying between ``xl`` and ``xr``
    have a corner below the line ``m0 + dm * t`` and one above it?"""
    for m in range(out, out + kept):
        e = idx[m]
        if not (xl <= span[e, 0] and span[e, 1] <= xr):
            continue
        under = over = False
        for j in range(at[e], at[e + 1]):
            mid = m0 + dm * t[j]
            under |= py[j] < mid
            over |= py[j] > mid
        if under and over:
            return True
    return False


@jit
def _put(boxes: Array, i: int, h0lo: float, h0hi: float, h1lo: float, h1hi: float,
         start: int, count: int) -> None:
    """Store a box of heights with its triangles' list (``start``, ``count``)."""
    boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3] = h0lo, h0hi, h1lo, h1hi
    boxes[i, 4], boxes[i, 5] = start, count


@jit
def proved_blocked(pk: Any, cand: Ints, a: Array, b: Array, guide: Array) -> bool:
    """True when every line that comes within reach of both bases provably crosses an
    eroded triangle inside its gap segment (see the module); False: not proved. When it
    gives up at a box (its middle line no piece between the bases crosses, or the box
    is too narrow, or one too many), that box's middle line's heights go into ``guide``
    (h0, h1; left alone when it gives up before any box): free lines are likely near
    it (the kernel looks there first)."""
    wx, wy = b[0] - a[0], b[1] - a[1]
    length = math.sqrt(wx * wx + wy * wy)
    if not length > 0.0:
        return False
    ux, uy = wx / length, wy / length
    reach_a, reach_b, slack = grown_reaches(a, b)
    k = (reach_a + reach_b) / length
    if k > _MAX_K:
        return False
    grow = 1.0 / math.sqrt(1.0 - k * k)
    h0, h1 = reach_a * grow + _MARGIN, reach_b * grow + _MARGIN
    xl, xr = a[2] + 1e-6 + slack, length - b[2] - 1e-6 - slack
    if not xl < xr:
        return False
    # (listed from the widest band any box may have, _band's; the centre line's is
    # the narrowest)
    wl, wr = 1e-6 + slack, length - 1e-6 - slack
    px, py, at, span, crosses, nearer = _between(pk, cand, a, ux, uy, wl, wr, max(h0, h1), xl, xr)
    n = len(at) - 1
    if n == 0 or not crosses:
        # (no piece crosses the centre line, the first box's middle line: the loop
        # below would give up at that box, at more cost; the guide stays on it)
        return False
    t = px / length  # where each corner lies along the centre line, in (0, 1)
    omt = 1.0 - t
    iu, iv = 1.0 / omt, 1.0 / t
    # Depth first: each box with its pieces still in play, stored after its parent's
    # (a stack of index lists in one buffer).
    idx = np.empty(n * 64, np.int64)
    idx[:n] = np.arange(n)
    lo_at, hi_at = np.empty(n), np.empty(n)  # per piece in play, heights it settles
    boxes = np.empty((64, 6))  # h0lo, h0hi, h1lo, h1hi, start, count
    _put(boxes, 0, -h0, h0, -h1, h1, 0, n)
    top, made = 1, 1
    while top > 0:
        top -= 1
        h0lo, h0hi, h1lo, h1hi = boxes[top, 0], boxes[top, 1], boxes[top, 2], boxes[top, 3]
        start, count = int(boxes[top, 4]), int(boxes[top, 5])
        if _outside(h0lo, h0hi, h1lo, h1hi, length, reach_a, reach_b):
            continue
        out = start + count  # the children's list goes after this box's
        if out + count > len(idx):
            return False
        first = h0hi - h0lo >= h1hi - h1lo  # the side to settle in parts, or split
        lo, hi = (h0lo, h0hi) if first else (h1lo, h1hi)
        kept = parts = 0  # pieces in play; the intervals among theirs that meet the side
        settled = False
        # (per box: the side's numbers chosen once, out of the corners' loop)
        cl, ch = (h1lo, h1hi) if first else (h0lo, h0hi)
        bl, br = xl, xr
        if nearer:  # (only then can a box's band matter)
            bl, br = _band(h0lo, h0hi, h1lo, h1hi, length, reach_a, reach_b, xl, xr, slack)
        w, z = (t, iu) if first else (omt, iv)
        for m in range(start, start + count):
            e = idx[m]
            if not (bl <= span[e, 0] and span[e, 1] <= br):
                # A piece nearer a base than this box's band: kept for smaller boxes
                # (whose bands are wider) without looking at its corners.
                idx[out + kept] = e
                kept += 1
                continue
            # Each corner's height on the chosen side of the lowest line through it
            # (the other side at its lowest, cl) plus the margin, and of the highest
            # (ch) less it. The piece settles the part of the box whose chosen side
            # lies strictly inside (sl, sh): one corner below, one above all its
            # lines. It is in play when some corner is not below the box's lowest
            # line (ul >= lo) and some not above its highest (vl <= hi).
            sl, sh = np.inf, -np.inf
            ul, vl = -np.inf, np.inf
            for j in range(at[e], at[e + 1]):
                y = py[j]
                u = (y + _MARGIN - cl * w[j]) * z[j]
                v = (y - _MARGIN - ch * w[j]) * z[j]
                sl, ul = min(sl, u), max(ul, u)
                sh, vl = max(sh, v), min(vl, v)
            if sl < lo and sh > hi:
                settled = True
                if m > start:  # the next box (its sibling) likely settles by it too
                    idx[m], idx[start] = idx[start], e
                break
            # In play (neither wholly below nor wholly above), and its interval taken
            # only when it meets the side (no other takes part in a chain). Stored
            # always, counted when so: branch-free, as the outcome varies from piece
            # to piece (about 7 % off the proof against branching on it).
            play = ul >= lo and vl <= hi
            idx[out + kept] = e
            kept += 1 if play else 0
            lo_at[parts], hi_at[parts] = sl, sh
            parts += 1 if (play and sl < sh and sl < hi and sh > lo) else 0
        if settled:
            continue
        c, d = _uncovered(lo, hi, lo_at, hi_at, parts)
        if c > d:
            continue  # settled in parts, each by one piece
        # The box's middle line: if no piece in play crosses it, no box holding it can
        # ever be settled (pieces left out lie wholly beside it too). Looked at only
        # here: in a box settled in parts, the piece whose interval holds the middle
        # of the side crosses it by the margin, so the answer is the same.
        m0, m1 = (h0lo + h0hi) / 2.0, (h1lo + h1hi) / 2.0
        ml, mr = xl, xr
        if nearer:
            ml, mr = _band(m0, m0, m1, m1, length, reach_a, reach_b, xl, xr, slack)
        if (_within(m0, m1, length, reach_a, reach_b)
                and not _crossed(idx, out, kept, at, t, py, m0, m1 - m0, span, ml, mr)):
            guide[0], guide[1] = m0, m1
            return False  # a line no piece between the bases crosses: not provable
        if kept == 0 or made + 2 > _MAX_BOXES or top + 2 > len(boxes) or d - c < _MIN_SIDE:
            # (a box given up on: free lines, if any, are likely near its middle. On
            # the 400-piece board the guided lines then see 84 of the 88 visible
            # pairs that reach them, not 66: most others end in a narrow box)
            guide[0], guide[1] = m0, m1
            return False
        if d - c < 0.75 * (hi - lo):  # only the part left, whole
            _put(boxes, top, h0lo, h0hi, h1lo, h1hi, out, kept)
            boxes[top, 0 if first else 2], boxes[top, 1 if first else 3] = c, d
            top += 1
            made += 1
            continue
        mid = (c + d) / 2.0
        _put(boxes, top, h0lo, h0hi, h1lo, h1hi, out, kept)
        _put(boxes, top + 1, h0lo, h0hi, h1lo, h1hi, out, kept)
        side = 0 if first else 2
        boxes[top, side], boxes[top, side + 1] = c, mid
        boxes[top + 1, side], boxes[top + 1, side + 1] = mid, d
        top += 2
        made += 2
    return True
