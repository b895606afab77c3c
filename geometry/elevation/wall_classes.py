"""Many positions of one base sorted by the significant edges their sight queries get
(R-ELEV-2), in bulk: the batched helper of :mod:`geometry.elevation.walls` for maps.

A visibility map asks one sight query per cell between a fixed base and a base
at each cell. When one of the two is elevated, :func:`~geometry.elevation.walls.sight_walls`
(which edges join, as which wall) and
:func:`~geometry.elevation.walls.footprint_stand_ins` (which lifted pieces block as their
edge would) decide per pair, and they depend on where the cell's base stands
only through these tests, per edge:

- whether the edge's box meets the box of the two bases (``wall_memo.choices``);
- for a round edge, whether it joins as its exact circle (the same);
- when the cell's base is the elevated one, which sides are more than Orange
  from it (``wall_memo.far_sides``; the wall is built from those sides alone);
- whether the cell's base reaches into the edge's footprint (``wall_memo.meets``).

:func:`wall_classes` evaluates the same tests with the same arithmetic for many
cells at once and numbers the cells by their outcomes: cells with the same
number get the same walls (equal values) and the same stand-ins, so the rules
glue's answer for one of them is every one's. Distances go through ``hypot``,
whose last bit may differ between ``math`` and numpy: a cell with such a
distance within :data:`TIE` of its threshold is marked unsure (ask it on its own).

>>> import shapely
>>> from geometry.elevation.edges import Surface, significant_edges
>>> m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
>>> xs, ys = np.array([3.0, 5.0, 9.0]), np.array([5.0, 5.0, 5.0])
>>> [(ids, sure)] = wall_classes(m, [(Disc(20.0, 5.0, 0.5), 0.0)], xs, ys, 0.5, 6.0)
>>> ids[0] == ids[1], ids[1] == ids[2], bool(sure.all())  # x=9: the east side is near
(np.True_, np.False_, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.discs import Disc
from geometry.elevation.edges import EPS, EdgeMap, is_elevated

# A distance this close to its threshold may compare differently with math.hypot
# (the rules glue's scalar test) than with numpy's (inches; far above float noise
# on a table, far below the sight tolerance).
TIE = 1e-9

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]


def wall_classes(edges: EdgeMap, others: Sequence[tuple[Disc, float]], xs: FloatArray,
                 ys: FloatArray, r: float, z: float) -> list[tuple[IntArray, BoolArray]]:
    """For each of ``others`` (a base and its height): the class numbers of the bases of
    radius ``r`` at ``(xs, ys)``, height ``z``, paired with it (either as attacker: the
    tests are symmetric), and whether each cell's class is sure (the module's
    docstring). What depends on the cells alone is measured once for all."""
    n = len(xs)
    orange = edges.orange
    cells = _CellTests(edges, xs, ys, r)
    out = []
    for other, z_other in others:
        sure = np.ones(n, dtype=bool)
        if not edges.sides or not (is_elevated(z, z_other, orange)
                                   or is_elevated(z_other, z, orange)):
            out.append((np.zeros(n, dtype=np.intp), sure))
            continue
        cols = _columns(edges, cells, other, is_elevated(z, z_other, orange), sure)
        out.append((_row_ids(np.array(cols, dtype=np.int32).T), sure))
    return out


class _CellTests:
    """The tests that depend on the cells alone, each made when first needed: the far
    sides of each edge as the cells' base is the elevated one, and whether the base
    reaches into each edge's footprint."""

    def __init__(self, edges: EdgeMap, xs: FloatArray, ys: FloatArray, r: float) -> None:
        self.edges, self.xs, self.ys, self.r = edges, xs, ys, r
        self.sure = np.ones(len(xs), dtype=bool)
        self.far: dict[int, tuple[IntArray, BoolArray]] = {}
        self.meets: dict[int, BoolArray] = {}

    def far_sides(self, e: int) -> tuple[IntArray, BoolArray]:
        """Per cell, a number for its set of far sides of edge ``e`` (equal sets, equal
        numbers), and whether every side is far."""
        if e not in self.far:
            far = _far_sides(self.edges, e, self.xs, self.ys, self.r, self.sure)
            self.far[e] = (_row_ids(np.packbits(far, axis=0).T), np.asarray(far.all(axis=0)))
        return self.far[e]

    def meets_outline(self, e: int, outline: shapely.Geometry) -> BoolArray:
        if e not in self.meets:
            self.meets[e] = _meets(outline, self.edges.edge_boxes[e], self.xs, self.ys, self.r)
        return self.meets[e]


def _row_ids(table: NDArray[np.generic]) -> IntArray:
    """A number per row of ``table`` (cells, tests): equal rows, equal numbers."""
    rows = np.ascontiguousarray(table)
    flat = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
    return np.unique(flat, return_inverse=True)[1].reshape(-1).astype(np.intp)


def _columns(edges: EdgeMap, cells: _CellTests, other: Disc, cell_high: bool,
             sure: BoolArray) -> list[NDArray[np.generic]]:
    """The outcomes of every test for each cell paired with ``other``, as columns."""
    xs, ys, r = cells.xs, cells.ys, cells.r
    cols: list[NDArray[np.generic]] = []
    reach = max(r, other.r) + EPS
    lo_x, hi_x = np.minimum(xs, other.x) - reach, np.maximum(xs, other.x) + reach
    lo_y, hi_y = np.minimum(ys, other.y) - reach, np.maximum(ys, other.y) + reach
    for e, edge in enumerate(edges.edges):
        x0, y0, x1, y1 = edges.edge_boxes[e]
        cols.append(~((x1 < lo_x) | (x0 > hi_x) | (y1 < lo_y) | (y0 > hi_y)))
        circle = None
        if edge.disc is not None:
            circle = _as_circle(edge.disc, other, xs, ys, r, cell_high, edges.orange, sure)
            cols.append(circle)
        if cell_high:
            far, every = cells.far_sides(e)
            if circle is not None:  # the circle joins whole: its sides do not matter
                far = np.where(circle, -1, far)
            cols += [far, every]
            sure &= cells.sure
        if edge.outline is not None:
            cols.append(cells.meets_outline(e, edge.outline))
    return cols


def _as_circle(d: Disc, other: Disc, xs: FloatArray, ys: FloatArray, r: float, cell_high: bool,
               orange: float, sure: BoolArray) -> BoolArray:
    """The circle test of ``wall_memo.choices`` per cell: both bases outside the circle
    and the elevated one more than Orange from it."""
    out_cell = np.hypot(xs - d.x, ys - d.y) - (d.r + r)
    ok = out_cell >= 0.0
    sure &= np.abs(out_cell) > TIE
    ok &= math.hypot(other.x - d.x, other.y - d.y) >= d.r + other.r
    far = orange + EPS
    if cell_high:
        gap = np.hypot(xs - d.x, ys - d.y) - d.r - r
        sure &= np.abs(gap - far) > TIE
        ok &= gap > far
    else:
        ok &= math.hypot(other.x - d.x, other.y - d.y) - d.r - other.r > far
    return np.asarray(ok)


def _far_sides(edges: EdgeMap, e: int, xs: FloatArray, ys: FloatArray, r: float,
               sure: BoolArray) -> BoolArray:
    """``wall_memo.far_sides`` per cell as the cell's base is the elevated one: (sides, cells).
    A cell farther than Orange from the edge's box (with :data:`TIE` to spare) is far
    from every side; the others are measured side by side."""
    far = edges.orange + EPS
    first, last = edges.spans[e]
    out = np.ones((last - first, len(xs)), dtype=bool)
    bx0, by0, bx1, by1 = edges.edge_boxes[e]
    dx = np.maximum(np.maximum(bx0 - xs, xs - bx1), 0.0)
    dy = np.maximum(np.maximum(by0 - ys, ys - by1), 0.0)
    near = np.flatnonzero(np.hypot(dx, dy) - r <= far + 2 * TIE)
    if len(near) == 0:
        return out
    px, py = xs[near], ys[near]
    ends = np.array(edges.xy[first:last], dtype=np.float64).reshape(-1, 4)
    sx0, sy0, sx1, sy1 = (ends[:, c:c + 1] for c in range(4))
    ux, uy = sx1 - sx0, sy1 - sy0
    ll = ux * ux + uy * uy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.minimum(1.0, np.maximum(0.0, ((px - sx0) * ux + (py - sy0) * uy) / ll))
    t = np.where(ll == 0.0, 0.0, t)
    gap = np.hypot(sx0 + t * ux - px, sy0 + t * uy - py) - r
    sure[near] &= (np.abs(gap - far) > TIE).all(axis=0)
    out[:, near] = gap > far
    return out


def _meets(footprint: shapely.Geometry, box: tuple[float, float, float, float],
           xs: FloatArray, ys: FloatArray, r: float) -> BoolArray:
    """``wall_memo.meets`` per cell (the same box test and the same GEOS distance)."""
    x0, y0, x1, y1 = box
    near = ~((xs + r <= x0) | (xs - r >= x1) | (ys + r <= y0) | (ys - r >= y1))
    out = np.zeros(len(xs), dtype=bool)
    if near.any():
        dist = shapely.distance(footprint, shapely.points(xs[near], ys[near]))
        out[near] = dist < r - EPS
    return out
