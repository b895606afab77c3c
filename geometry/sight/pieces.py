"""The convex pieces the proof of blocking works with, listed once per packed board
(R-LOS-1, issue 33; :mod:`geometry.sight.certify`).

A group that is one convex polygon (:func:`one_convex`) is one piece: the hull of its
eroded triangles' corners, each corner once, in the order the triangles first name
it. Any other group's eroded triangles are joined greedily into convex parts
(:func:`convex_parts`: a triangle joins a part across a side they share, bit for
bit, while the part stays convex), one piece each: the proof visits a piece at
about the same cost whatever its corners, and on crowded boards a non-convex group
has a dozen triangles or more. A part is the union of its triangles (they tile it:
constrained Delaunay, sides shared whole), so a line crossing it crosses one of
them, as the kernel tests it. :func:`pieces` lists them with their corners and
boxes so that a pair only projects the corners of the pieces whose box may lie
between its bases. Compiled (numba), called by :func:`geometry.sight.packing.pack`
on plain arrays (this module imports nothing of the packing).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit

Array = NDArray[np.float64]
Ints = NDArray[np.int64]


@jit
def one_convex(tri_at: Ints, vert_at: Ints, vert: Array, vert_cone: Array, edge_at: Ints,
               edge: Array, disc_at: Ints, wall_at: Ints, g: int) -> bool:
    """Is group ``g`` one convex polygon (one ring, every corner convex, triangles
    left after erosion, nothing else)? Its eroded triangles then make one convex
    piece, the hull of their corners."""
    v0, v1 = vert_at[g], vert_at[g + 1]
    e0 = edge_at[g]
    if (v1 - v0 < 3 or edge_at[g + 1] - e0 != v1 - v0 or tri_at[g + 1] == tri_at[g]
            or disc_at[g + 1] > disc_at[g] or wall_at[g + 1] > wall_at[g]):
        return False
    fx, fy = vert[v0, 0], vert[v0, 1]
    for i in range(v1 - v0):
        if vert_cone[v0 + i, 4] < 0.5:
            return False
        closes = edge[e0 + i, 2] == fx and edge[e0 + i, 3] == fy
        if closes != (i == v1 - v0 - 1):  # one ring: only the last side closes it
            return False
    return True


@jit
def pieces(tri_at: Ints, tri_p: Array, vert_at: Ints, vert: Array, vert_cone: Array,
           edge_at: Ints, edge: Array, disc_at: Ints, wall_at: Ints
           ) -> tuple[Ints, Ints, Array, Array]:
    """Every group's pieces: ``piece_at`` (group ``g``'s pieces are ``piece_at[g]:
    piece_at[g + 1]``), ``corner_at`` (piece ``p``'s corners are ``corner_at[p]:
    corner_at[p + 1]``), the corners ``(C, 2)`` and each piece's box ``(P, 4)``
    (x0, y0, x1, y1 of its corners)."""
    ngroup = len(tri_at) - 1
    ntri = len(tri_p)
    piece_at = np.zeros(ngroup + 1, np.int64)
    corner_at = np.zeros(ntri + 1, np.int64)
    corner = np.empty((3 * ntri, 2))
    nb = neighbours(tri_p)
    p = m = 0
    for g in range(ngroup):
        t0, t1 = tri_at[g], tri_at[g + 1]
        if t1 == t0:
            piece_at[g + 1] = p
            continue
        if one_convex(tri_at, vert_at, vert, vert_cone, edge_at, edge, disc_at, wall_at, g):
            for t in range(t0, t1):  # the hull of every corner, each once
                for j in range(3):
                    x, y = tri_p[t, 2 * j], tri_p[t, 2 * j + 1]
                    known = False
                    for i in range(corner_at[p], m):
                        known = known or (corner[i, 0] == x and corner[i, 1] == y)
                    if not known:
                        corner[m, 0], corner[m, 1] = x, y
                        m += 1
            p += 1
            corner_at[p] = m
        else:
            starts = convex_parts(tri_p, nb, t0, t1, corner[m:])
            for k in range(1, len(starts)):
                p += 1
                corner_at[p] = m + starts[k]
            m += starts[-1]
        piece_at[g + 1] = p
    box = np.empty((p, 4))
    for q in range(p):
        c = corner[corner_at[q]:corner_at[q + 1]]
        box[q, 0], box[q, 1] = c[:, 0].min(), c[:, 1].min()
        box[q, 2], box[q, 3] = c[:, 0].max(), c[:, 1].max()
    return piece_at, corner_at[:p + 1].copy(), corner[:m].copy(), box


@jit
def _side(tri_p: Array, t: int, j: int) -> tuple[float, float, float, float]:
    """Side ``j`` of triangle ``t``: from corner j to corner j + 1."""
    k = (j + 1) % 3
    return tri_p[t, 2 * j], tri_p[t, 2 * j + 1], tri_p[t, 2 * k], tri_p[t, 2 * k + 1]


@jit
def neighbours(tri_p: Array) -> Ints:
    """``(T, 3)``: the triangle across side j of each (corner j to j + 1; -1: none), by
    the same two corners, bit for bit, the other way round. The sides go into a hash
    table of their corners' bits (linear probing: a group may have a thousand
    triangles, and numba's sort took longer than the rest of the listing)."""
    ntri = len(tri_p)
    bits = tri_p.view(np.int64)
    size = 16
    for _ in range(60):  # (a bounded loop: numba)
        if size >= 6 * ntri:
            break
        size *= 2
    table = np.full(size, -1, np.int64)
    nb = np.full((ntri, 3), -1, np.int64)
    for t in range(ntri):
        for j in range(3):
            k = (j + 1) % 3
            # Symmetric in the two ends: a side and its reverse land in one place.
            h = (((bits[t, 2 * j] * 1000003) ^ (bits[t, 2 * j + 1] * 998244353))
                 + ((bits[t, 2 * k] * 1000003) ^ (bits[t, 2 * k + 1] * 998244353)))
            at = h & (size - 1)
            for _ in range(size):
                q = table[at]
                if q < 0:
                    table[at] = 3 * t + j
                    break
                x0, y0, x1, y1 = _side(tri_p, t, j)
                u0, v0, u1, v1 = _side(tri_p, q // 3, q % 3)
                if x0 == u1 and y0 == v1 and x1 == u0 and y1 == v0:
                    nb[t, j], nb[q // 3, q % 3] = q // 3, t
                at = (at + 1) & (size - 1)
    return nb


@jit
def _turn(ax: float, ay: float, bx: float, by: float, cx: float, cy: float) -> float:
    """Cross product of b - a and c - b: >= 0 where a, b, c turn left or run straight."""
    return (bx - ax) * (cy - by) - (by - ay) * (cx - bx)


@jit
def convex_parts(tri_p: Array, nb: Ints, t0: int, t1: int, cyc: Array) -> Ints:
    """Triangles ``t0:t1`` (one group's, counter-clockwise) joined greedily into convex
    parts: a triangle joins a part across a side they share (the same two corners, bit
    for bit) when both ends of that side still turn left (or run straight) after it.
    (A turn taken for straight may be reflex by rounding, some 1e-16 in: the triangles'
    seam growth, 1e-9 in, covers that.) ``nb``: :func:`neighbours`. ``cyc`` (rows of
    x, y) receives each part's corners counter-clockwise, each once. Returns where
    each part's corners start in ``cyc`` (and the end)."""
    n = t1 - t0
    part = np.full(n, -1, np.int64)  # each triangle's part
    tried = np.full(n, -1, np.int64)  # the last part a triangle failed to join
    starts = np.zeros(n + 1, np.int64)
    members = np.empty(n, np.int64)
    k = m = 0
    for s in range(n):
        if part[s] >= 0:
            continue
        c0 = m
        for j in range(3):
            cyc[m + j, 0], cyc[m + j, 1] = tri_p[t0 + s, 2 * j], tri_p[t0 + s, 2 * j + 1]
        m += 3
        part[s] = k
        members[0] = s
        size = 1
        for r in range(n):  # each member once, as it joins: a side refused stays refused
            if r >= size:
                break
            e = members[r]
            for j in range(3):
                t = nb[t0 + e, j] - t0
                if t < 0 or t >= n or part[t] >= 0 or tried[t] == k:
                    continue
                if _join(tri_p, t0 + t, t0 + e, j, cyc, c0, m):
                    m += 1
                    part[t] = k
                    members[size] = t
                    size += 1
                else:
                    tried[t] = k
        k += 1
        starts[k] = m
    return starts[:k + 1].copy()


@jit
def _join(tri_p: Array, t: int, e: int, j: int, cyc: Array, c0: int, m: int) -> bool:
    """Add triangle ``t`` to the part ``cyc[c0:m]`` across member ``e``'s side ``j``
    (corners v = e's j, u = e's j + 1) when the part stays convex: its third corner w
    goes between v and u. False (nothing changed) otherwise."""
    vx, vy = tri_p[e, 2 * j], tri_p[e, 2 * j + 1]
    ux, uy = tri_p[e, 2 * ((j + 1) % 3)], tri_p[e, 2 * ((j + 1) % 3) + 1]
    w = -1
    for i in range(3):
        x, y = tri_p[t, 2 * i], tri_p[t, 2 * i + 1]
        if not ((x == vx and y == vy) or (x == ux and y == uy)):
            w = i
    if w < 0:
        return False
    wx, wy = tri_p[t, 2 * w], tri_p[t, 2 * w + 1]
    size = m - c0
    at = -1
    for i in range(size):
        nxt = c0 + (i + 1) % size
        if (cyc[c0 + i, 0] == vx and cyc[c0 + i, 1] == vy
                and cyc[nxt, 0] == ux and cyc[nxt, 1] == uy):
            at = i
    if at < 0:
        return False
    before = c0 + (at - 1 + size) % size
    after = c0 + (at + 2) % size
    if (_turn(cyc[before, 0], cyc[before, 1], vx, vy, wx, wy) < 0.0
            or _turn(wx, wy, ux, uy, cyc[after, 0], cyc[after, 1]) < 0.0):
        return False
    for i in range(m, c0 + at + 1, -1):  # w goes after v
        cyc[i, 0], cyc[i, 1] = cyc[i - 1, 0], cyc[i - 1, 1]
    cyc[c0 + at + 1, 0], cyc[c0 + at + 1, 1] = wx, wy
    return True
