"""The board's sight elements packed for the compiled kernel, and what its modules share.

:func:`pack` sorts the arrays of :class:`~geometry.sight.parts.Parts` by group and
adds each group's element ranges and box (:class:`Packed`); it runs once per board
in plain Python. Every kernel function is compiled by :func:`geometry.jit.jit` (numba,
nopython, ``cache=True``).

numba's cache notices an edit only in a function's own file, while the kernel's
functions call each other across kernel.py, corridor.py and this module:
geometry/sight/__init__.py drops the cached code when any file here is newer
(geometry/numba_cache.py).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from geometry.sight.parts import Parts
from geometry.sight.pieces import pieces

Array = NDArray[np.float64]
Ints = NDArray[np.int64]


# Slack of the corridor tests (inches): far above rounding, far below any piece.
NEAR = 1e-6
# Growth of a triangle's clipping box: ten times the seam growth, a tenth of EPS.
BOX_GROW = 1e-8
# Slack of the grid (inches, plus this much per inch of coordinate): a group is
# filed in every cell its box grown by this meets, and a corridor walks every cell
# its oriented box grown by NEAR and this meets, so rounding never loses a group.
GRID_SLACK = 1e-6
# At most this many cells along a side; about one group per cell on average.
_MAX_CELLS = 256


class Packed(NamedTuple):
    """Elements sorted by group; ``*_at[g]:*_at[g + 1]`` are group ``g``'s rows."""

    gbox: Array  # (G, 4) box of everything a group's elements can block
    tri_at: Ints
    tri_n: Array  # (T, 6) inward unit normals of the three sides
    tri_h: Array  # (T, 3) offsets: inside when n . x >= h
    tri_box: Array  # (T, 4) box clipping the closed test (robust to any triangle)
    tri_p: Array  # (T, 6) corners, for the corridor test
    vert_at: Ints
    vert: Array  # (V, 2)
    vert_cone: Array  # (V, 6) each vertex's corner (geometry.sight.parts.Parts)
    edge_at: Ints
    edge: Array  # (E, 4)
    disc_at: Ints
    disc: Array  # (D, 3)
    wall_at: Ints
    wall: Array  # (W, 4)
    grid: Array  # (5,) x0, y0, cell side, columns, rows
    cell_at: Ints  # (C + 1,) cell ``c``'s groups are ``cell_g[cell_at[c]:cell_at[c + 1]]``
    cell_g: Ints  # group ids, ascending within a cell
    piece_at: Ints  # (G + 1,) the proof's convex pieces by group (geometry.sight.pieces)
    corner_at: Ints  # (P + 1,) each piece's corners' rows
    corner: Array  # (C, 2)
    piece_box: Array  # (P, 4) box of each piece's corners


def _starts(groups: Ints, ngroup: int) -> Ints:
    """Row ranges per group of a group-sorted array: ``at[g]:at[g + 1]``."""
    at: Ints = np.zeros(ngroup + 1, np.int64)
    np.cumsum(np.bincount(groups, minlength=ngroup), out=at[1:])
    return at


def _grid(box: Array, one_cell: bool) -> tuple[Array, Ints, Ints]:
    """A uniform grid of the groups' boxes: its shape, and each cell's groups (every
    group whose box, grown by GRID_SLACK, meets the cell). ``one_cell``: a single cell
    holding every group (the corridor then scans them all, as before the grid)."""
    live = np.flatnonzero(np.isfinite(box).all(axis=1))  # (a group may have no elements)
    if len(live) == 0:
        return np.array([0.0, 0.0, 1.0, 1.0, 1.0]), np.zeros(2, np.int64), live
    lo, hi = box[live, :2].min(axis=0), box[live, 2:].max(axis=0)
    slack = GRID_SLACK * (1.0 + float(np.abs(np.concatenate([lo, hi])).max()))
    lo, hi = lo - 2 * slack, hi + 2 * slack
    ext = hi - lo
    cell = max(math.sqrt(ext[0] * ext[1] / len(live)), float(ext.max()) / _MAX_CELLS)
    if one_cell:
        cell = float(ext.max())
    nx, ny = (max(1, min(_MAX_CELLS, math.ceil(v / cell))) for v in ext)
    c0 = np.floor((box[live, :2] - slack - lo) / cell).astype(np.int64)
    c1 = np.floor((box[live, 2:] + slack - lo) / cell).astype(np.int64)
    c0, c1 = np.clip(c0, 0, [nx - 1, ny - 1]), np.clip(c1, 0, [nx - 1, ny - 1])
    wide = c1[:, 0] - c0[:, 0] + 1
    count = wide * (c1[:, 1] - c0[:, 1] + 1)
    g = np.repeat(live, count)
    k = np.arange(len(g)) - np.repeat(np.cumsum(count) - count, count)
    wide = np.repeat(wide, count)
    cell_id = ((np.repeat(c0[:, 1], count) + k // wide) * nx
               + np.repeat(c0[:, 0], count) + k % wide)
    order = np.lexsort((g, cell_id))  # by cell, groups ascending within one
    shape = np.array([lo[0], lo[1], cell, nx, ny], np.float64)
    return shape, _starts(cell_id, nx * ny), np.ascontiguousarray(g[order])


def pack(parts: Parts, ngroup: int, one_cell: bool = False) -> Packed:
    """The elements of ``parts`` sorted by group (stable), with each group's ranges,
    the box of everything its elements can block and the grid of those boxes
    (``one_cell``: one cell, no broad phase; the tests compare the two)."""
    gbox = np.empty((ngroup, 4))
    gbox[:, :2], gbox[:, 2:] = np.inf, -np.inf

    def grow(g: Ints, lo: Array, hi: Array) -> None:
        np.minimum.at(gbox[:, 0], g, lo[:, 0])
        np.minimum.at(gbox[:, 1], g, lo[:, 1])
        np.maximum.at(gbox[:, 2], g, hi[:, 0])
        np.maximum.at(gbox[:, 3], g, hi[:, 1])

    t = np.argsort(parts.tri_g, kind="stable")
    tri, tri_g = parts.tri[t], parts.tri_g[t]
    # The closed test is clipped to the triangle's box grown by far less than EPS and
    # far more than rounding: a degenerate triangle cannot block outside it.
    box = np.concatenate([tri.min(axis=1), tri.max(axis=1)], axis=1).reshape(-1, 4)
    box[:, :2] -= BOX_GROW
    box[:, 2:] += BOX_GROW
    grow(tri_g, box[:, :2], box[:, 2:])
    v = np.argsort(parts.vert_g, kind="stable")
    vert, vert_g, vert_cone = parts.vert[v], parts.vert_g[v], parts.vert_cone[v]
    grow(vert_g, vert, vert)
    e = np.argsort(parts.edge_g, kind="stable")
    edge, edge_g = parts.edge[e].reshape(-1, 4), parts.edge_g[e]
    d = np.argsort(parts.disc_g, kind="stable")
    disc, disc_g = parts.disc[d], parts.disc_g[d]
    grow(disc_g, disc[:, :2] - disc[:, 2:], disc[:, :2] + disc[:, 2:])
    w = np.argsort(parts.wall_g, kind="stable")
    wall, wall_g = parts.wall[w].reshape(-1, 4), parts.wall_g[w]
    grow(wall_g, np.minimum(wall[:, :2], wall[:, 2:]), np.maximum(wall[:, :2], wall[:, 2:]))
    gbox[:, :2] -= NEAR
    gbox[:, 2:] += NEAR
    # The grid files each group by its box and its outline pieces (whose rim crossings
    # the corridor lists), so it never misses what the kernel reads of a group.
    filed = gbox.copy()
    if len(edge):
        ends = edge.reshape(-1, 2, 2)
        edge_lo, edge_hi = ends.min(axis=1), ends.max(axis=1)
        np.minimum.at(filed[:, 0], edge_g, edge_lo[:, 0])
        np.minimum.at(filed[:, 1], edge_g, edge_lo[:, 1])
        np.maximum.at(filed[:, 2], edge_g, edge_hi[:, 0])
        np.maximum.at(filed[:, 3], edge_g, edge_hi[:, 1])
    grid, cell_at, cell_g = _grid(filed, one_cell)
    tri_at, tri_p = _starts(tri_g, ngroup), np.ascontiguousarray(tri.reshape(-1, 6))
    vert_at, vert = _starts(vert_g, ngroup), np.ascontiguousarray(vert)
    vert_cone = np.ascontiguousarray(vert_cone)
    edge_at, edge = _starts(edge_g, ngroup), np.ascontiguousarray(edge)
    disc_at, wall_at = _starts(disc_g, ngroup), _starts(wall_g, ngroup)
    piece_at, corner_at, corner, piece_box = pieces(tri_at, tri_p, vert_at, vert, vert_cone,
                                                    edge_at, edge, disc_at, wall_at)
    return Packed(
        gbox=gbox,
        tri_at=tri_at, tri_n=np.ascontiguousarray(parts.tri_n[t].reshape(-1, 6)),
        tri_h=np.ascontiguousarray(parts.tri_h[t]), tri_box=box, tri_p=tri_p,
        vert_at=vert_at, vert=vert, vert_cone=vert_cone, edge_at=edge_at, edge=edge,
        disc_at=disc_at, disc=np.ascontiguousarray(disc),
        wall_at=wall_at, wall=np.ascontiguousarray(wall),
        grid=grid, cell_at=cell_at, cell_g=cell_g,
        piece_at=piece_at, corner_at=corner_at, corner=corner, piece_box=piece_box,
    )
