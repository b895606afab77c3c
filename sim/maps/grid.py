"""The grid of a map and where a model's base could stand on it (issue 17).

A map covers the board with square cells (default 0.25 in). At each cell
centre the model's base could stand when it is on the board, overlaps no
piece that is impassable or blocks sight *in its way at that height*, and
no other base at that height; it stands on the highest top under its centre
(R-ELEV-1, :func:`geometry.elevation.edges.default_height`, the loader's rule for
a model placed without ``z``). A piece whose top is at or below that height
is under the base (:func:`sim.movement.levels.in_the_way`, the movement rules' test),
so a model may stand on a roof it could climb onto (R-MOV-3, R-MOV-4,
docs/maps.md, Decisions).

Everything here is vectorised over the cells (Shapely's array functions);
per cell it is the same test a single placement would make.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.elevation.edges import GROUND
from sim.errors import UsageError
from sim.maps.options import DEFAULT_CELL, MIN_CELL
from sim.movement.levels import Z_EPS
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import prepared_board
from sim.shooting.elevation_rules import surfaces_of

# At most this many cells in a map (a 512 x 512 grid): a finer grid is refused.
MAX_CELLS = 512 * 512
# A base overlaps a shape when it reaches more than this into it (inches): bases
# that only touch may stand side by side (R-UNIT-2).
OVERLAP = 1e-9

FloatGrid = NDArray[np.float64]
BoolGrid = NDArray[np.bool_]


@dataclass(frozen=True)
class Grid:
    """Square cells over the board; cell ``[row][col]`` is centred at
    ``(x0 + col * cell, y0 + row * cell)``."""

    cell: float
    x0: float
    y0: float
    nx: int
    ny: int

    def centres(self) -> tuple[FloatGrid, FloatGrid]:
        """The x and y of every cell centre, each ``(ny, nx)``."""
        xs = self.x0 + self.cell * np.arange(self.nx, dtype=np.float64)
        ys = self.y0 + self.cell * np.arange(self.ny, dtype=np.float64)
        gx, gy = np.meshgrid(xs, ys)
        return gx, gy


def make_grid(board: tuple[float, float], cell: float = DEFAULT_CELL) -> Grid:
    """Cells of ``cell`` inches over a board, centred on it (a 36 in board and
    0.25 in cells: 144 x 144, the first centre at 0.125 in).

    Raises :class:`~sim.errors.UsageError` for a cell that is not a positive
    number of at least :data:`MIN_CELL`, or a grid over :data:`MAX_CELLS`.
    """
    if not (isinstance(cell, (int, float)) and math.isfinite(cell) and cell >= MIN_CELL):
        raise UsageError(f"cell size: expected a number of inches >= {MIN_CELL}, got {cell!r}")
    w, h = board
    nx, ny = max(1, math.floor(w / cell + 1e-9)), max(1, math.floor(h / cell + 1e-9))
    if nx * ny > MAX_CELLS:
        raise UsageError(f"cell size {cell:g} in gives {nx} x {ny} cells; at most {MAX_CELLS} "
                         f"(a cell of at least {math.sqrt(w * h / MAX_CELLS):.3f} in here)")
    return Grid(float(cell), (w - (nx - 1) * cell) / 2, (h - (ny - 1) * cell) / 2, nx, ny)


def cell_heights(scenario: Scenario, grid: Grid) -> FloatGrid:
    """The height a base centred on each cell stands at: the highest top covering the
    centre, boundary included, else the ground (R-ELEV-1, R-TER-1)."""
    gx, gy = grid.centres()
    z = np.full(gx.shape, GROUND)
    for s in surfaces_of(scenario):
        shapely.prepare(s.footprint)
        on = shapely.intersects_xy(s.footprint, gx, gy)  # a point: intersects == covers
        z = np.where(on, np.maximum(z, s.height), z)
    return z


def _in_the_way(height: float, z: FloatGrid) -> BoolGrid:
    """:func:`sim.movement.levels.in_the_way` for every cell's height."""
    if height <= Z_EPS:
        return np.asarray(z <= Z_EPS)
    return np.asarray(z < height - Z_EPS)


def standable(scenario: Scenario, positions: Mapping[str, Position], model: str,
              grid: Grid, z: FloatGrid, off_table: frozenset[str] = frozenset()) -> BoolGrid:
    """Where ``model``'s base could stand at each cell's height ``z``: on the board,
    overlapping no impassable or sight-blocking piece in its way at that height (as the
    model sees the piece, R-TER-2), and no other base on the table at that height.
    ``off_table``: climbing models (R-CLIMB-3), which take no room."""
    board = prepared_board(scenario)
    r = board.radius[model]
    gx, gy = grid.centres()
    w, h = scenario.board
    ok = (gx >= r - OVERLAP) & (gx <= w - r + OVERLAP) & (gy >= r - OVERLAP) & (
        gy <= h - r + OVERLAP)
    for piece, props in zip(board.pieces, board.props_of(model), strict=True):
        if not (props.movement == "impassable" or props.blocks_los):
            continue
        ok &= ~(_overlaps_piece(piece.circle, piece.footprint, gx, gy, r, ok)
                & _in_the_way(props.height, z))
    for other, pos in positions.items():
        if other == model or other in off_table:
            continue
        reach = r + board.radius[other] - OVERLAP
        near = (gx - pos.x) ** 2 + (gy - pos.y) ** 2 < reach * reach
        ok &= ~(near & (np.abs(z - pos.z) <= Z_EPS))
    return np.asarray(ok)


def _overlaps_piece(circle: tuple[tuple[float, float], float] | None,
                    footprint: shapely.Geometry, gx: FloatGrid, gy: FloatGrid, r: float,
                    todo: BoolGrid) -> BoolGrid:
    """Cells (among ``todo``) whose base reaches into a piece: a round piece as its exact
    circle, a polygon by Shapely's distance (0 inside)."""
    if circle is not None:
        (cx, cy), radius = circle
        reach = radius + r - OVERLAP
        return np.asarray((gx - cx) ** 2 + (gy - cy) ** 2 < reach * reach)
    x0, y0, x1, y1 = footprint.bounds
    cand = todo & (gx > x0 - r) & (gx < x1 + r) & (gy > y0 - r) & (gy < y1 + r)
    out = np.zeros(gx.shape, dtype=bool)
    if cand.any():
        shapely.prepare(footprint)
        d = shapely.distance(footprint, shapely.points(gx[cand], gy[cand]))
        out[cand] = d < r - OVERLAP
    return out
