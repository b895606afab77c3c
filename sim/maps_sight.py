"""Line of sight between one model and every cell a second model could stand on, exact
per cell and computed only where the map needs it (issue 17, docs/maps.md).

The question per cell is the one :func:`sim.analysis.analyse` asks for the pair
(R-LOS-1..4, R-ELEV-2, R-ELEV-5): the same sight index (the pair's blocking
pieces, :func:`sim.analysis.blocking_pieces`) and the same per-query obstacles
(huge bases and significant edges, :func:`sim.analysis.sight_extras`). Cells
whose queries get the very same obstacles form a *group*; within a group sight
is a property of the base's disc among fixed obstacles, and two facts settle
most cells without a query of their own:

- **a free segment proves every base it passes through**: the kernel's witness
  for one cell is a free segment from the other base to this one; any cell whose
  disc the segment enters sees along part of it (R-LOS-1: some segment between
  the two bases is free);
- **a blocked disc blocks every disc inside it**: a square block of cells is
  blocked for all when the disc covering all their bases (its radius the base's
  plus half the block's diagonal) is blocked, since every segment from a smaller
  disc inside is one from the larger.

Rounds go from coarse to fine: query the cells still open on a subgrid of
stride 8, 4, 2 and 1 (the last round queries every open cell), marking the
cells each witness proves; between them, query the covering disc of each
block of open cells. Each round is one batched
:meth:`~geometry.sight.SightIndex.sight_many` call per group.

When is a group more than one cell? When neither model is elevated relative
to the other (R-ELEV-1), no significant edge joins the query (R-ELEV-2) and the
blocking pieces depend on the two heights only (R-ELEV-5), so all cells at
one height form one group. Otherwise the obstacles are asked for cell by cell
and cells are grouped by the obstacle objects they get (an edge's wall
depends on where the elevated model stands).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from geometry.discs import Disc
from geometry.sight import Obstacle, SightIndex
from sim.analysis import blocking_pieces, prepared_board, sight_extras
from sim.maps_grid import BoolGrid, FloatGrid, Grid
from sim.maps_kernel import mark_segments
from sim.positions import Position
from sim.scenario import Scenario
from sim.shot_analysis import ShotPair

# A witness proves a cell when it passes this far inside the cell's base, and a
# covering disc is this much larger than it must be (inches): far above the
# sight kernel's tolerance (1e-7), far below anything on a table.
MARGIN = 1e-6
STRIDES = (8, 4, 2, 1)
# Groups of fewer cells are queried cell by cell, pooled with other small groups.
SMALL = 32


@dataclass(frozen=True)
class Mover:
    """The model the map is for (its id, base radius and side)."""

    id: str
    r: float
    side: str


class _Group:
    """Cells whose sight queries get the same obstacles: whole masks, or cells one by one."""

    def __init__(self, index: SightIndex, extras: list[Obstacle], shape: tuple[int, ...]
                 ) -> None:
        self.index = index
        self.extras = extras
        self.shape = shape
        self.masks: list[BoolGrid] = []
        self.cells: list[tuple[int, int]] = []

    def add(self, mask: BoolGrid | None, ij: tuple[int, int]) -> None:
        if mask is None:
            self.cells.append(ij)
        else:
            self.masks.append(mask)

    def size(self) -> int:
        return len(self.cells) + sum(int(m.sum()) for m in self.masks)

    def where(self) -> list[tuple[int, int]]:
        """Every cell, as (row, col)."""
        if not self.masks:
            return list(self.cells)
        return [(int(i), int(j)) for i, j in zip(*np.nonzero(self.mask()), strict=True)]

    def mask(self) -> BoolGrid:
        out = np.zeros(self.shape, dtype=bool)
        for m in self.masks:
            out |= m
        if self.cells:
            rows, cols = zip(*self.cells, strict=True)
            out[list(rows), list(cols)] = True
        return out


@dataclass(frozen=True)
class _Query:
    """One sight question of the map: the other model and the pair's direction."""

    other: str
    disc: Disc
    z: float
    side: str
    mover_attacks: bool  # the mover is the attacker (``sees``), else the target


def sight_grids(scenario: Scenario, positions: Mapping[str, Position], mover: str,
                others: Sequence[str], grid: Grid, z: FloatGrid, cells: Sequence[BoolGrid],
                mover_attacks: bool, off_table: frozenset[str] = frozenset()) -> list[BoolGrid]:
    """For each of ``others`` (where it stands in ``positions``): whether it and
    ``mover``'s base at each of its ``cells`` (at height ``z``) see each other, as
    ``analyse`` answers for that pair: ``mover`` shooting it when ``mover_attacks``,
    else it shooting ``mover``."""
    board = prepared_board(scenario)
    me = Mover(mover, board.radius[mover], board.side[mover])
    queries = []
    for other in others:
        pos = positions[other]
        queries.append(_Query(other, Disc(pos.x, pos.y, board.radius[other]), pos.z,
                              board.side[other], mover_attacks))
    out = []
    for q, groups in zip(queries, _groups(scenario, positions, me, queries, grid, z, cells,
                                          off_table), strict=True):
        seen = np.zeros(z.shape, dtype=bool)
        few: list[_Group] = []
        for group in groups:
            if group.size() >= SMALL:
                _solve(group, me, q, grid, seen)
            else:
                few.append(group)
        _direct(few, me, q, grid, seen)
        out.append(seen)
    return out


def sight_grid(scenario: Scenario, positions: Mapping[str, Position], mover: str, other: str,
               grid: Grid, z: FloatGrid, cells: BoolGrid, mover_attacks: bool,
               off_table: frozenset[str] = frozenset()) -> BoolGrid:
    """:func:`sight_grids` for one other model."""
    return sight_grids(scenario, positions, mover, [other], grid, z, [cells], mover_attacks,
                       off_table)[0]


def _direct(groups: list[_Group], me: Mover, q: _Query, grid: Grid, seen: BoolGrid) -> None:
    """Every cell of small groups queried as it is, one batch per sight index (each
    pair with its own per-query obstacles)."""
    gx, gy = grid.centres()
    by_index: dict[int, tuple[SightIndex, list[tuple[int, int]], list[list[Obstacle]]]] = {}
    for group in groups:
        entry = by_index.setdefault(id(group.index), (group.index, [], []))
        for ij in group.where():
            entry[1].append(ij)
            entry[2].append(group.extras)
    for index, where, extras in by_index.values():
        discs = [Disc(float(gx[i, j]), float(gy[i, j]), me.r) for i, j in where]
        pairs = [(d, q.disc) for d in discs] if q.mover_attacks else [(q.disc, d) for d in discs]
        for (i, j), s in zip(where, index.sight_many(pairs, extras), strict=True):
            seen[i, j] = s.visible


def _pair(me: Mover, q: _Query, x: float, y: float, z: float, off_table: frozenset[str]
          ) -> ShotPair:
    cell = Disc(x, y, me.r)
    if q.mover_attacks:
        return ShotPair(me.id, q.other, cell, q.disc, z, q.z, me.side, off_table)
    return ShotPair(q.other, me.id, q.disc, cell, q.z, z, q.side, off_table)


def _groups(scenario: Scenario, positions: Mapping[str, Position], me: Mover,
            queries: Sequence[_Query], grid: Grid, z: FloatGrid, cells: Sequence[BoolGrid],
            off_table: frozenset[str]) -> list[list[_Group]]:
    """Each query's cells split by the obstacles their queries get (the module's
    docstring). Equal obstacles in other objects (an edge's wall built again for
    another position of the elevated model) join the same group: the sight index
    finds them by value, so the queries are the same."""
    board = prepared_board(scenario)
    gx, gy = grid.centres()
    found: list[dict[tuple[frozenset[str], tuple[Obstacle, ...]], _Group]] = [
        {} for _ in queries]

    def add(k: int, pair: ShotPair, where: BoolGrid | None, ij: tuple[int, int]) -> None:
        key = blocking_pieces(board, pair)
        extras = sight_extras(scenario, positions, pair, key)
        ident = (key, tuple(extras))
        group = found[k].get(ident)
        if group is None:
            group = found[k][ident] = _Group(board.sight_index(key), extras, z.shape)
        group.add(where, ij)

    everywhere = np.logical_or.reduce(list(cells)) if cells else np.zeros(z.shape, dtype=bool)
    for h in np.unique(z[everywhere]).tolist():
        at = [c & (z == h) for c in cells]
        flat: list[int] = []
        for k, q in enumerate(queries):
            if not at[k].any():
                continue
            if board.elevation.has_elevated(q.z, h):
                flat.append(k)
                continue
            # No edge joins (R-ELEV-2) and the blocking pieces depend on the heights
            # only (R-ELEV-5): one query's obstacles are every cell's.
            i, j = (int(v[0]) for v in np.nonzero(at[k]))
            add(k, _pair(me, q, float(gx[i, j]), float(gy[i, j]), h, off_table), at[k], (i, j))
        if not flat:
            continue
        # Cell by cell, every query at once: the elevated model's walls are built
        # once per position and reused by the other queries.
        union = np.logical_or.reduce([at[k] for k in flat])
        for i, j in zip(*(v.tolist() for v in np.nonzero(union)), strict=True):
            x, y = float(gx[i, j]), float(gy[i, j])
            for k in flat:
                if at[k][i, j]:
                    add(k, _pair(me, queries[k], x, y, h, off_table), None, (i, j))
    return [list(f.values()) for f in found]


def _ask(group: _Group, me: Mover, q: _Query, xs: list[float], ys: list[float],
         radii: list[float]) -> tuple[list[bool], list[tuple[float, float, float, float]]]:
    """Sight for discs of these centres and radii, one batched query; and the witness
    segments of those that see."""
    discs = [Disc(x, y, r) for x, y, r in zip(xs, ys, radii, strict=True)]
    pairs = [(d, q.disc) for d in discs] if q.mover_attacks else [(q.disc, d) for d in discs]
    found = group.index.sight_many(pairs, [group.extras] * len(pairs))
    seen = [s.visible for s in found]
    segs = [(w[0][0], w[0][1], w[1][0], w[1][1]) for s in found if (w := s.witness) is not None]
    return seen, segs


def _solve(group: _Group, me: Mover, q: _Query, grid: Grid, seen: BoolGrid) -> None:
    """Settle every cell of a group, coarse to fine (the module's docstring)."""
    todo = group.mask()
    gx, gy = grid.centres()
    for stride in STRIDES:
        if not todo.any():
            return
        sub = np.zeros(todo.shape, dtype=bool)
        sub[::stride, ::stride] = todo[::stride, ::stride]
        rows, cols = np.nonzero(sub)
        ok, segs = _ask(group, me, q, gx[rows, cols].tolist(), gy[rows, cols].tolist(),
                        [me.r] * len(rows))
        todo[rows, cols] = False
        seen[rows[ok], cols[ok]] = True
        _mark(segs, me.r - MARGIN, grid, todo, seen)
        if stride > 1:
            _blocks(group, me, q, grid, stride, todo)


def _mark(segs: list[tuple[float, float, float, float]], reach: float, grid: Grid,
          todo: BoolGrid, seen: BoolGrid) -> None:
    if segs and reach > 0:
        mark_segments(np.array(segs, dtype=np.float64), reach, grid.x0, grid.y0, grid.cell,
                      todo, seen)


def _blocks(group: _Group, me: Mover, q: _Query, grid: Grid, size: int, todo: BoolGrid) -> None:
    """Blocks of ``size`` x ``size`` cells: each block's open cells are blocked when the
    disc covering all their bases is (they stay unseen and are settled)."""
    rows, cols = np.nonzero(todo)
    if len(rows) < 2:
        return
    bx = -(-todo.shape[1] // size)
    bid = (rows // size) * bx + cols // size
    order = np.argsort(bid, kind="stable")
    rows, cols, bid = rows[order], cols[order], bid[order]
    ids, start, count = np.unique(bid, return_index=True, return_counts=True)
    keep = count >= 2  # one open cell is asked in the next round anyway
    if not keep.any():
        return
    r0, r1 = np.minimum.reduceat(rows, start)[keep], np.maximum.reduceat(rows, start)[keep]
    c0, c1 = np.minimum.reduceat(cols, start)[keep], np.maximum.reduceat(cols, start)[keep]
    ids = ids[keep]
    cell = grid.cell
    xs = grid.x0 + cell * (c0 + c1) / 2
    ys = grid.y0 + cell * (r0 + r1) / 2
    half = cell * np.sqrt((c1 - c0) ** 2 + (r1 - r0) ** 2) / 2
    ok, _ = _ask(group, me, q, xs.tolist(), ys.tolist(), (me.r + half + MARGIN).tolist())
    for b, visible in zip(ids.tolist(), ok, strict=True):
        if not visible:
            i, j = divmod(b, bx)
            todo[i * size:(i + 1) * size, j * size:(j + 1) * size] = False
