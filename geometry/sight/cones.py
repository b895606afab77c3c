"""Features whose every line is cut at their own corner, left out before lines are made.

Compiled (numba) part of :mod:`geometry.sight.kernel` (R-LOS-1, issue 33), used only
when a query asks for the verdict without naming blockers. A line through a vertex
that runs into the vertex's piece, at least asin(``CONE_SIN``) from both sides and
within its gap segment, is blocked by that piece (``lines._cuts``). On a crowded
board most vertices in a corridor are such that *every* line through them that meets
both bases does so: the lines through them cannot be the first free line, so leaving
them out changes neither the verdict nor the witness, only the work. Naming blockers
needs those lines (each one's other blockers go into ``blocked_by``), so that mode
keeps every feature.

The proof for one vertex ``P`` (all tests with margins far above rounding):

- ``P`` lies *between* the bases: it is at least reach + ``_DEEP`` from both
  centres, and the angle APB is larger than the sum of the angles under which
  ``P`` sees each (grown) base either side of its centre. Then every line through
  ``P`` meeting both bases has them on opposite sides of ``P``, so ``P`` lies in
  the gap segment, at least ``_DEEP`` from both ends.
- The directions of those lines form one arc of less than 180 degrees, between
  the tangents from ``P`` to the two bases, computed without trigonometry.
- The arc lies inside a set of directions where a ray runs into the piece by the
  margin (one side's open half-turn, or for a convex corner both) if both its ends
  do: each such set is an arc of less than 180 degrees.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit
from geometry.sight.packing import Array
from geometry.sight.parts import EPS, TOUCH

# A line cuts into a corner when it runs into the piece at an angle of at least
# asin(CONE_SIN) from both sides; at CONE_STEP from the corner it is then 3 EPS deep.
CONE_SIN = 1e-3
CONE_STEP = 3.0 * EPS / CONE_SIN
# Margins of the proof: on the sine of the angle to a side (directions are unit
# vectors good to 1e-15), and on the distance of P from the gap segment's ends.
_SIN_MARGIN = 1e-6
_DEEP = CONE_STEP + TOUCH + 1e-6
_COS_MARGIN = 1e-9


@jit
def grown_reaches(a: Array, b: Array) -> tuple[float, float, float]:
    """How near a line must come to each base's centre to meet it as the search tests
    lines (``lines.first_free``'s reach), each grown by a slack far above rounding
    (1e-9 in per inch of coordinate), and the slack: the bounds every shortcut of a
    verdict-only query keeps to, so it never drops a line the search would take."""
    slack = 1e-9 * (1.0 + abs(a[0]) + abs(a[1]) + abs(b[0]) + abs(b[1]) + a[2] + b[2])
    return (a[2] + TOUCH * max(1.0, a[2]) + slack, b[2] + TOUCH * max(1.0, b[2]) + slack,
            slack)


@jit
def _rotated(ux: float, uy: float, c: float, s: float) -> tuple[float, float]:
    """(ux, uy) turned by the angle whose cosine and sine are c, s."""
    return ux * c - uy * s, ux * s + uy * c


@jit
def into_piece(pts: Array, i: int, rx: float, ry: float) -> tuple[float, float]:
    """How far the ray (rx, ry) from corner ``i`` turns into its piece from each side
    (sines): from the side going on, and to the side coming in (``lines._cuts`` and
    the proof here)."""
    return pts[i, 2] * ry - pts[i, 3] * rx, rx * pts[i, 5] - ry * pts[i, 4]


@jit
def _arc_cut(pts: Array, i: int, lo: tuple[float, float], hi: tuple[float, float]) -> bool:
    """Does every direction of the arc from ``lo`` to ``hi`` (less than 90 degrees)
    give a line that runs into corner ``i``'s piece, by the margin, on one of its two
    rays?"""
    s = CONE_SIN + _SIN_MARGIN
    for sign in (1.0, -1.0):
        la, lb = into_piece(pts, i, sign * lo[0], sign * lo[1])
        ha, hb = into_piece(pts, i, sign * hi[0], sign * hi[1])
        in_a = la > s and ha > s
        in_b = lb > s and hb > s
        if (in_a and in_b) if pts[i, 6] > 0.5 else (in_a or in_b):
            return True
    return False


@jit
def _always_cut(pts: Array, i: int, a: Array, b: Array, reach_a: float, reach_b: float
                ) -> bool:
    """Is every line through feature ``i`` that comes within reach of both bases
    provably blocked at its corner (or is there no such line)? See the module."""
    if pts[i, 8] < 0 or not pts[i, 7] >= 2.0 * CONE_STEP:
        return False  # a rim crossing, or a corner too small for the proof
    px, py = pts[i, 0], pts[i, 1]
    ax, ay, bx, by = a[0] - px, a[1] - py, b[0] - px, b[1] - py
    da, db = math.sqrt(ax * ax + ay * ay), math.sqrt(bx * bx + by * by)
    if not (da >= reach_a + _DEEP and db >= reach_b + _DEEP):
        return False
    # Each base is seen from P under asin(reach / distance) either side; P lies
    # between them on every line meeting both when the angle APB is larger than the
    # sum of the two (its cosine smaller than theirs).
    sb, sa = reach_b / db, reach_a / da
    cb, ca = math.sqrt(1.0 - sb * sb), math.sqrt(1.0 - sa * sa)
    if not (ax * bx + ay * by) / (da * db) < ca * cb - sa * sb - _COS_MARGIN:
        return False
    # Directions towards b: within that angle of u (to b) and of v (away from a).
    ux, uy, vx, vy = bx / db, by / db, -ax / da, -ay / da
    u_lo, u_hi = _rotated(ux, uy, cb, -sb), _rotated(ux, uy, cb, sb)
    v_lo, v_hi = _rotated(vx, vy, ca, -sa), _rotated(vx, vy, ca, sa)
    # The arc's ends: the later of the two starts, the earlier of the two ends.
    lo = v_lo if u_lo[0] * v_lo[1] - u_lo[1] * v_lo[0] > 0.0 else u_lo
    hi = v_hi if u_hi[0] * v_hi[1] - u_hi[1] * v_hi[0] < 0.0 else u_hi
    if lo[0] * hi[1] - lo[1] * hi[0] < 0.0:
        return True  # no line through P meets both bases
    return _arc_cut(pts, i, lo, hi)


@jit
def uncut(pts: Array, state: NDArray[np.int8], i: int, a: Array, b: Array, reach_a: float,
          reach_b: float) -> bool:
    """May some line meeting both bases pass through feature ``i`` uncut at its corner
    (:func:`_always_cut`, with the reaches of :func:`grown_reaches`)? Answered once per
    feature: ``state[i]`` 0 not yet asked, 1 yes, 2 no (the kernel asks lazily, only of
    the features its lines reach)."""
    if state[i] == 0:
        state[i] = 2 if _always_cut(pts, i, a, b, reach_a, reach_b) else 1
    return bool(state[i] == 1)


@jit
def uncut_rows(pts: Array, state: NDArray[np.int8], a: Array, b: Array) -> Array:
    """:func:`uncut_features`, with the answers already in ``state`` (:func:`uncut`)."""
    reach_a, reach_b, _ = grown_reaches(a, b)
    keep = np.empty(len(pts), np.int64)
    n = 0
    for i in range(len(pts)):
        if uncut(pts, state, i, a, b, reach_a, reach_b):
            keep[n] = i
            n += 1
    if n == len(pts):
        return pts
    out = np.empty((n, pts.shape[1]))
    for k in range(n):
        for j in range(pts.shape[1]):
            out[k, j] = pts[keep[k], j]
    return out


@jit
def uncut_features(pts: Array, a: Array, b: Array) -> Array:
    """The rows of ``pts`` (stage 2's features) that some line meeting both bases may
    pass through without being cut at their corner, in order."""
    return uncut_rows(pts, np.zeros(len(pts), np.int8), a, b)
