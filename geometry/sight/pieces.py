"""The convex pieces the proof of blocking works with, listed once per packed board
(R-LOS-1, issue 33; :mod:`geometry.sight.certify`).

A group that is one convex polygon (:func:`one_convex`) is one piece: the hull of its
eroded triangles' corners, each corner once, in the order the triangles first name
it. Any other group gives one piece per eroded triangle. :func:`pieces` lists them
with their corners and boxes so that a pair only projects the corners of the pieces
whose box may lie between its bases (it ran over every triangle corner, checking
for repeats, pair after pair). Compiled (numba), called by
:func:`geometry.sight.packing.pack` on plain arrays (this module imports nothing of
the packing).
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
    box = np.empty((ntri, 4))
    p = m = 0
    for g in range(ngroup):
        whole = one_convex(tri_at, vert_at, vert, vert_cone, edge_at, edge, disc_at,
                           wall_at, g)
        for t in range(tri_at[g], tri_at[g + 1]):
            if not whole or t == tri_at[g]:  # a piece starts here
                box[p, 0] = box[p, 1] = np.inf
                box[p, 2] = box[p, 3] = -np.inf
            for j in range(3):
                x, y = tri_p[t, 2 * j], tri_p[t, 2 * j + 1]
                known = False
                for i in range(corner_at[p], m):  # a corner the piece's triangles share: once
                    known = known or (corner[i, 0] == x and corner[i, 1] == y)
                if not known:
                    corner[m, 0], corner[m, 1] = x, y
                    m += 1
                    box[p, 0], box[p, 1] = min(box[p, 0], x), min(box[p, 1], y)
                    box[p, 2], box[p, 3] = max(box[p, 2], x), max(box[p, 3], y)
            if not whole or t == tri_at[g + 1] - 1:  # a piece ends here
                p += 1
                corner_at[p] = m
        piece_at[g + 1] = p
    return piece_at, corner_at[:p + 1].copy(), corner[:m].copy(), box[:p].copy()
