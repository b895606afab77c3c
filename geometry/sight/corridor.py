"""What one pair's sight search works on: the elements near it and its features.

Compiled (numba) parts of :mod:`geometry.sight.kernel` (R-LOS-1):
:func:`groups_near` walks the grid cells the corridor crosses (the broad phase,
issue 33) for the groups that may take part; :func:`near` copies their elements
that may meet the convex hull of the two bases into small local arrays grouped by
piece ("slots"); :func:`slot_boxes` and :func:`misses_box` let a line skip a whole
piece; :func:`features` lists the points stage 2 draws its lines through (vertices
near the centre segment, rim crossings).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit
from geometry.sight.packing import GRID_SLACK, NEAR, Array, Ints

#
# Copied into small local arrays, one row per element, grouped by piece ("slot"):
#   tri  (nt, 13): three inward normals (6), three offsets (3), clipping box (4)
#   disc (nd, 3), wall (nw, 4)
#   slot (ns, 7): group id, then [lo, hi) rows of its triangles, discs and walls
# so that the line loop reads a few contiguous rows and calls nothing.


@jit
def _to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from a point to the centre segment."""
    abx, aby = bx - ax, by - ay
    ll = abx * abx + aby * aby
    apx, apy = px - ax, py - ay
    t = min(max((apx * abx + apy * aby) / (ll if ll > 0 else 1.0), 0.0), 1.0)
    ox, oy = apx - t * abx, apy - t * aby
    return math.sqrt(ox * ox + oy * oy)


@jit
def _outside(xs: Array, row: int, m: int, a: Array, ux: float, uy: float, length: float,
             radius: float, rb: float) -> bool:
    """Do these ``m`` points (x, y pairs in ``xs[row]``) lie wholly beyond one side of
    the hull's oriented box (along and across the centre line)?"""
    below = above = before = after = True
    for i in range(m):
        wx, wy = xs[row, 2 * i] - a[0], xs[row, 2 * i + 1] - a[1]
        along = wx * ux + wy * uy
        across = wy * ux - wx * uy
        below = below and across < -radius - NEAR
        above = above and across > radius + NEAR
        before = before and along < -a[2] - NEAR
        after = after and along > length + rb + NEAR
    return below or above or before or after


@jit
def axis(a: Array, b: Array) -> tuple[float, float, float]:
    """Unit direction from a's centre to b's ((1, 0) when they coincide), and length."""
    wx, wy = b[0] - a[0], b[1] - a[1]
    length = math.sqrt(wx * wx + wy * wy)
    return (wx / length, wy / length, length) if length > 0 else (1.0, 0.0, length)


@jit
def box_beside(box: Array, g: int, a: Array, ux: float, uy: float, x0: float, x1: float,
               side: float) -> bool:
    """Does row ``g`` of ``box`` (x0, y0, x1, y1) lie wholly outside the band from ``x0``
    to ``x1`` along the centre line (measured from base a's centre, direction ``ux``,
    ``uy``), or wholly more than ``side`` across it? Everything of a group or piece lies
    in its box, so none of it is nearer. The box's centre and half-sides projected (a
    rounding apart from its corners': every caller asks with a margin far above it)."""
    wx, wy = (box[g, 0] + box[g, 2]) / 2.0 - a[0], (box[g, 1] + box[g, 3]) / 2.0 - a[1]
    hx, hy = (box[g, 2] - box[g, 0]) / 2.0, (box[g, 3] - box[g, 1]) / 2.0
    cx, cy = wx * ux + wy * uy, wy * ux - wx * uy
    ex, ey = hx * abs(ux) + hy * abs(uy), hx * abs(uy) + hy * abs(ux)
    return bool(cx + ex < x0 or cx - ex > x1 or cy - ey > side or cy + ey < -side)


@jit
def _band(cx: Array, cy: Array, y0: float, y1: float) -> tuple[float, float]:
    """The x-range of the convex polygon (corners ``cx``, ``cy`` in order) within the
    band y0 <= y <= y1 (empty: lo > hi)."""
    lo, hi = np.inf, -np.inf
    for i in range(len(cx)):
        px, py, qx, qy = cx[i - 1], cy[i - 1], cx[i], cy[i]
        if max(py, qy) < y0 or min(py, qy) > y1:
            continue
        if py == qy:
            lo, hi = min(lo, px, qx), max(hi, px, qx)
            continue
        for yy in (min(max(py, y0), y1) if py < qy else max(min(py, y1), y0),
                   max(min(qy, y1), y0) if py < qy else min(max(qy, y0), y1)):
            x = px + (qx - px) * ((yy - py) / (qy - py))
            lo, hi = min(lo, x), max(hi, x)
    return lo, hi


@jit
def groups_near(pk: Any, ok: NDArray[np.bool_], a: Array, b: Array) -> Ints:
    """The groups (ascending) filed in a grid cell that meets the capsule's oriented box
    (along and across the centre line, of the larger radius) grown by NEAR and the
    grid's slack: every group with an element, a vertex or an outline piece in it."""
    x0, y0, cell = pk.grid[0], pk.grid[1], pk.grid[2]
    nx, ny = int(pk.grid[3]), int(pk.grid[4])
    wx, wy = b[0] - a[0], b[1] - a[1]
    length = math.sqrt(wx * wx + wy * wy)
    ux, uy = (wx / length, wy / length) if length > 0 else (1.0, 0.0)
    slack = GRID_SLACK * (1.0 + max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1]))
                          + length + a[2] + b[2])
    # The box of the capsule of the larger radius around the centre segment: it holds
    # the hull's oriented box (near), the vertices near the segment and both bases'
    # rims (features).
    r = max(a[2], b[2]) + NEAR + slack
    cx, cy = np.empty(4), np.empty(4)
    for i, (s, t) in enumerate(((-r, -r), (length + r, -r), (length + r, r), (-r, r))):
        cx[i], cy[i] = a[0] + s * ux - t * uy, a[1] + s * uy + t * ux
    seen = np.zeros(len(pk.gbox), dtype=np.bool_)
    out = np.empty(len(pk.gbox), np.int64)
    n = 0
    r0 = max(math.floor((cy.min() - slack - y0) / cell), 0)
    r1 = min(math.floor((cy.max() + slack - y0) / cell), ny - 1)
    for r in range(r0, r1 + 1):
        lo, hi = _band(cx, cy, y0 + r * cell - slack, y0 + (r + 1) * cell + slack)
        if lo > hi:
            continue
        c0 = max(math.floor((lo - slack - x0) / cell), 0)
        c1 = min(math.floor((hi + slack - x0) / cell), nx - 1)
        for c in range(r * nx + c0, r * nx + c1 + 1):
            for k in range(pk.cell_at[c], pk.cell_at[c + 1]):
                g = pk.cell_g[k]
                if ok[g] and not seen[g]:
                    seen[g] = True
                    out[n] = g
                    n += 1
    return _ascending(out[:n])


# Up to this many groups are put in order by insertion: numba's np.sort took about 1 us
# for the 30-odd groups near a pair on the 400-piece board, half of the broad phase.
_INSERTION = 64


@jit
def _ascending(ids: Ints) -> Ints:
    """``ids`` in ascending order (in place when short, by insertion; else sorted)."""
    n = len(ids)
    if n > _INSERTION:
        return np.sort(ids)
    for i in range(1, n):
        g = ids[i]
        j = i
        for _ in range(i):  # (bounded: numba's while loops have hung before)
            if ids[j - 1] <= g:
                break
            ids[j] = ids[j - 1]
            j -= 1
        ids[j] = g
    return ids


@jit
def near(pk: Any, ok: NDArray[np.bool_], a: Array, b: Array
          ) -> tuple[Array, Array, Array, Ints, Ints]:
    """The elements that may meet the hull of the two bases, as local arrays, and the
    groups the broad phase offered (:func:`groups_near`)."""
    return elements_near(pk, groups_near(pk, ok, a, b), a, b)


@jit
def elements_near(pk: Any, cand: Ints, a: Array, b: Array
                  ) -> tuple[Array, Array, Array, Ints, Ints]:
    """:func:`near` of the groups ``cand`` (:func:`groups_near`'s)."""
    ux, uy, length = axis(a, b)
    radius = max(a[2], b[2])
    hx0, hx1 = min(a[0], b[0]) - radius - NEAR, max(a[0], b[0]) + radius + NEAR
    hy0, hy1 = min(a[1], b[1]) - radius - NEAR, max(a[1], b[1]) + radius + NEAR
    slots = np.empty((len(cand), 7), np.int64)
    ns = nt = nd = nw = 0
    # First pass: which elements; second: copy them (sizes known).
    keep_t = np.empty(len(pk.tri_n), np.int64)
    keep_d = np.empty(len(pk.disc), np.int64)
    keep_w = np.empty(len(pk.wall), np.int64)
    # (Rows are read by two indices, never taken as views: a view in a loop costs its
    # reference counting, which is most of a small board's time.)
    gb, tb = pk.gbox, pk.tri_box
    # (the grid's cells are square, the corridor is not: about half the groups it
    # offers lie beside the corridor, left out whole here by their boxes)
    slack = GRID_SLACK * (1.0 + max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1])) + length
                          + a[2] + b[2])
    for g in cand:
        if gb[g, 0] > hx1 or gb[g, 2] < hx0 or gb[g, 1] > hy1 or gb[g, 3] < hy0:
            continue
        # (by slack more than _outside and the disc test ask; a disc behind a base may
        # still be within reach of its centre, so along the line only without discs)
        ends = np.inf if pk.disc_at[g + 1] > pk.disc_at[g] else NEAR + slack
        if box_beside(gb, g, a, ux, uy, -(a[2] + ends), length + b[2] + ends,
                      radius + NEAR + slack):
            continue
        t0, d0, w0 = nt, nd, nw
        for t in range(pk.tri_at[g], pk.tri_at[g + 1]):
            if tb[t, 0] > hx1 or tb[t, 2] < hx0 or tb[t, 1] > hy1 or tb[t, 3] < hy0:
                continue
            if not _outside(pk.tri_p, t, 3, a, ux, uy, length, radius, b[2]):
                keep_t[nt] = t
                nt += 1
        for c in range(pk.disc_at[g], pk.disc_at[g + 1]):
            if (_to_segment(pk.disc[c, 0], pk.disc[c, 1], a[0], a[1], b[0], b[1])
                    <= radius + pk.disc[c, 2]):
                keep_d[nd] = c
                nd += 1
        for w in range(pk.wall_at[g], pk.wall_at[g + 1]):
            if not _outside(pk.wall, w, 2, a, ux, uy, length, radius, b[2]):
                keep_w[nw] = w
                nw += 1
        if nt > t0 or nd > d0 or nw > w0:
            slots[ns, 0], slots[ns, 1], slots[ns, 2], slots[ns, 3] = g, t0, nt, d0
            slots[ns, 4], slots[ns, 5], slots[ns, 6] = nd, w0, nw
            ns += 1
    tri = np.empty((nt, 13))
    tn, th = pk.tri_n, pk.tri_h
    for i in range(nt):
        t = keep_t[i]
        for j in range(6):
            tri[i, j] = tn[t, j]
        for j in range(3):
            tri[i, 6 + j] = th[t, j]
        for j in range(4):
            tri[i, 9 + j] = tb[t, j]
    disc = np.empty((nd, 3))
    for i in range(nd):
        for j in range(3):
            disc[i, j] = pk.disc[keep_d[i], j]
    wall = np.empty((nw, 4))
    for i in range(nw):
        for j in range(4):
            wall[i, j] = pk.wall[keep_w[i], j]
    return tri, disc, wall, slots[:ns].copy(), cand


@jit
def slot_boxes(tri: Array, disc: Array, wall: Array, slots: Ints) -> Array:
    """Per slot, the box of what its near elements can block."""
    box = np.empty((len(slots), 4))
    for q in range(len(slots)):
        x0 = y0 = np.inf
        x1 = y1 = -np.inf
        for t in range(slots[q, 1], slots[q, 2]):
            x0, y0 = min(x0, tri[t, 9]), min(y0, tri[t, 10])
            x1, y1 = max(x1, tri[t, 11]), max(y1, tri[t, 12])
        for c in range(slots[q, 3], slots[q, 4]):
            x0, y0 = min(x0, disc[c, 0] - disc[c, 2]), min(y0, disc[c, 1] - disc[c, 2])
            x1, y1 = max(x1, disc[c, 0] + disc[c, 2]), max(y1, disc[c, 1] + disc[c, 2])
        for w in range(slots[q, 5], slots[q, 6]):
            x0, y0 = min(x0, wall[w, 0], wall[w, 2]), min(y0, wall[w, 1], wall[w, 3])
            x1, y1 = max(x1, wall[w, 0], wall[w, 2]), max(y1, wall[w, 1], wall[w, 3])
        box[q, 0], box[q, 1], box[q, 2], box[q, 3] = x0 - NEAR, y0 - NEAR, x1 + NEAR, y1 + NEAR
    return box


@jit
def misses_box(x0: float, y0: float, x1: float, y1: float, px: float, py: float, dx: float,
               dy: float, ix: float, iy: float, s: float, e: float) -> bool:
    """Does the stretch [s, e] of the line miss the box (slab test)? ``ix``, ``iy``:
    1 / dx and 1 / dy (a multiplication for each division: the boxes are grown by NEAR,
    far beyond the rounding that changes, so no line that meets an element is lost)."""
    lo, hi = s, e
    if dx != 0.0:
        ta, tb = (x0 - px) * ix, (x1 - px) * ix
        lo, hi = max(lo, min(ta, tb)), min(hi, max(ta, tb))
    elif px < x0 or px > x1:
        return True
    if dy != 0.0:
        ta, tb = (y0 - py) * iy, (y1 - py) * iy
        lo, hi = max(lo, min(ta, tb)), min(hi, max(ta, tb))
    elif py < y0 or py > y1:
        return True
    return lo > hi


@jit
def features(pk: Any, cand: Ints, a: Array, b: Array, disc: Array, slot_of: Ints) -> Array:
    """Stage 2 points: the vertices near the centre segment, then each base's rim
    crossings with outlines and with the near discs, among the groups ``cand``
    (:func:`groups_near`: every group with such a vertex or outline). Rows: x, y, the
    vertex's corner (6, zero for a rim crossing) and the slot of its piece (-1: none)."""
    radius = max(a[2], b[2])
    m = radius + 2e-9
    x0, x1 = min(a[0], b[0]) - m, max(a[0], b[0]) + m
    y0, y1 = min(a[1], b[1]) - m, max(a[1], b[1]) + m
    # Room for every vertex of a group whose box meets the centre segment's, and two
    # crossings per outline piece and per disc for each base.
    room = 4 * len(disc)
    gb = pk.gbox
    for g in cand:
        if gb[g, 0] <= x1 and gb[g, 2] >= x0 and gb[g, 1] <= y1 and gb[g, 3] >= y0:
            room += pk.vert_at[g + 1] - pk.vert_at[g] + 4 * (pk.edge_at[g + 1] - pk.edge_at[g])
    # (not zeroed: the room is five times what is used, and each row is set whole)
    pts = np.empty((room, 9))
    n = 0
    cone = pk.vert_cone
    # A group whose box lies beside the capsule (by a slack far above rounding) has no
    # vertex near the segment: the grid offers about twice the groups that have one.
    ux, uy, length = axis(a, b)
    reach = radius + 1e-9 + GRID_SLACK * (1.0 + max(abs(a[0]), abs(a[1]), abs(b[0]),
                                                    abs(b[1])) + length + a[2] + b[2])
    for g in cand:
        if gb[g, 0] > x1 or gb[g, 2] < x0 or gb[g, 1] > y1 or gb[g, 3] < y0:
            continue
        if box_beside(gb, g, a, ux, uy, -reach, length + reach, reach):
            continue
        for v in range(pk.vert_at[g], pk.vert_at[g + 1]):
            x, y = pk.vert[v, 0], pk.vert[v, 1]
            if (x0 <= x <= x1 and y0 <= y <= y1
                    and _to_segment(x, y, a[0], a[1], b[0], b[1]) <= radius + 1e-9):
                pts[n, 0], pts[n, 1] = x, y
                for j in range(6):
                    pts[n, 2 + j] = cone[v, j]
                pts[n, 8] = slot_of[g]
                n += 1
    n = _rim(pk, cand, a, disc, pts, n)
    n = _rim(pk, cand, b, disc, pts, n)
    return pts[:n]


@jit
def _rim_row(pts: Array, n: int, x: float, y: float) -> None:
    """Row ``n`` of :func:`features` for a rim crossing: no corner, no piece."""
    pts[n, 0], pts[n, 1] = x, y
    for j in range(2, 8):
        pts[n, j] = 0.0
    pts[n, 8] = -1.0


@jit
def _rim(pk: Any, cand: Ints, c: Array, disc: Array, pts: Array, n: int) -> int:
    """Append the points where base ``c``'s rim crosses outlines, then near discs."""
    cx, cy, rad = c[0], c[1], c[2]
    bx0, by0, bx1, by1 = cx - rad, cy - rad, cx + rad, cy + rad
    gb = pk.gbox
    for sgn in (-1.0, 1.0):
        for g in cand:
            if gb[g, 0] > bx1 or gb[g, 2] < bx0 or gb[g, 1] > by1 or gb[g, 3] < by0:
                continue
            for k in range(pk.edge_at[g], pk.edge_at[g + 1]):
                ex0, ey0, ex1, ey1 = pk.edge[k, 0], pk.edge[k, 1], pk.edge[k, 2], pk.edge[k, 3]
                if (min(ex0, ex1) > bx1 or max(ex0, ex1) < bx0 or min(ey0, ey1) > by1
                        or max(ey0, ey1) < by0):
                    continue
                dx, dy = ex1 - ex0, ey1 - ey0
                fx, fy = ex0 - cx, ey0 - cy
                qa = dx * dx + dy * dy
                qb = 2 * (fx * dx + fy * dy)
                qc = (fx * fx + fy * fy) - rad * rad
                root = qb * qb - 4 * qa * qc
                if root >= 0 and qa > 0:
                    t = (-qb + sgn * math.sqrt(root)) / (2 * qa)
                    if 0 <= t <= 1:
                        _rim_row(pts, n, ex0 + t * dx, ey0 + t * dy)
                        n += 1
    for sgn in (1.0, -1.0):
        for i in range(len(disc)):
            wx, wy, rr = disc[i, 0] - cx, disc[i, 1] - cy, disc[i, 2]
            dd = math.sqrt(wx * wx + wy * wy)
            if not (dd > 0 and dd <= rad + rr and dd >= abs(rad - rr)):
                continue
            along = (dd * dd + rad * rad - rr * rr) / (2 * dd)
            h = math.sqrt(max(rad * rad - along * along, 0.0))
            wwx, wwy = wx / dd, wy / dd
            _rim_row(pts, n, cx + along * wwx + sgn * h * -wwy,
                     cy + along * wwy + sgn * h * wwx)
            n += 1
    return n
