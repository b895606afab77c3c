"""Line of sight between one model and every cell a second model could stand on, exact
per cell and computed only where the map needs it (issue 17, docs/maps.md).

The question per cell is the one :func:`sim.shooting.analysis.analyse` asks for the pair
(R-LOS-1..4, R-ELEV-2, R-ELEV-5): the same sight index (the pair's blocking
pieces, :func:`sim.shooting.analysis.blocking_pieces`) and the same per-query obstacles
(huge bases and significant edges, :func:`sim.shooting.analysis.sight_extras`). Cells
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
stride 16, 8, 4, 2 and 1 (the last round queries every open cell), marking the
cells each witness proves; between them, query the covering disc of each
block of open cells (blocks with a seen cell are skipped: their disc sees).
All groups of one other model go in step, each round one batched
:meth:`~geometry.sight.index.SightIndex.sight_many` call per sight index.

When is a group more than one cell? When neither model is elevated relative
to the other (R-ELEV-1), no significant edge joins the query (R-ELEV-2) and the
blocking pieces depend on the two heights only (R-ELEV-5), so all cells at
one height form one group. Otherwise the obstacles are asked for cell by cell
and cells are grouped by the obstacles they get, by value (an edge's wall
depends on where the elevated model stands, and comes back equal for cells
with the same far sides).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from geometry.discs import Disc
from geometry.elevation.edges import EdgeMap
from geometry.elevation.wall_classes import wall_classes
from geometry.sight.index import Obstacle, SightIndex
from sim.maps.grid import BoolGrid, FloatGrid, Grid
from sim.maps.kernel import mark_segments_of
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import blocking_pieces, prepared_board, sight_extras
from sim.shooting.shot_analysis import ShotPair

# A witness proves a cell when it passes this far inside the cell's base, and a
# covering disc is this much larger than it must be (inches): far above the
# sight kernel's tolerance (1e-7), far below anything on a table.
MARGIN = 1e-6
STRIDES = (16, 8, 4, 2, 1)
IntArray = NDArray[np.intp]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
# Which cells join a group: a mask, (rows, cols) arrays, or the one cell given with it.
Where = BoolGrid | tuple[IntArray, IntArray] | None
# Groups of fewer cells skip the coarse rounds and the covering discs, pooled with
# other small groups.
SMALL = 32
SMALL_STRIDE = 2  # and take part in the rounds of this stride and finer only


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
        self.spots: list[tuple[IntArray, IntArray]] = []  # cells as (rows, cols) arrays
        self.cells: list[tuple[int, int]] = []

    def add(self, where: Where, ij: tuple[int, int]) -> None:
        if where is None:
            self.cells.append(ij)
        elif isinstance(where, tuple):
            self.spots.append(where)
        else:
            self.masks.append(where)

    def size(self) -> int:
        return (len(self.cells) + sum(int(m.sum()) for m in self.masks)
                + sum(len(r) for r, _ in self.spots))

    def where(self) -> list[tuple[int, int]]:
        """Every cell, as (row, col)."""
        if not self.masks and not self.spots:
            return list(self.cells)
        return [(int(i), int(j)) for i, j in zip(*np.nonzero(self.mask()), strict=True)]

    def rowcols(self) -> tuple[IntArray, IntArray]:
        """Every cell as (rows, cols) arrays (each cell once: a query's cells are split
        between its groups)."""
        rows = [r for r, _ in self.spots]
        cols = [c for _, c in self.spots]
        if self.masks:
            r, c = np.nonzero(np.logical_or.reduce(self.masks))
            rows.append(r)
            cols.append(c)
        if self.cells:
            rows.append(np.array([i for i, _ in self.cells], dtype=np.intp))
            cols.append(np.array([j for _, j in self.cells], dtype=np.intp))
        if not rows:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
        return np.concatenate(rows), np.concatenate(cols)

    def mask(self) -> BoolGrid:
        out = np.zeros(self.shape, dtype=bool)
        for m in self.masks:
            out |= m
        for rows, cols in self.spots:
            out[rows, cols] = True
        if self.cells:
            rs, cs = zip(*self.cells, strict=True)
            out[list(rs), list(cs)] = True
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
    for q, groups in zip(queries, cell_groups(scenario, positions, me, queries, grid, z,
                                              cells, off_table), strict=True):
        seen = np.zeros(z.shape, dtype=bool)
        _solve(groups, me, q, grid, seen)
        out.append(seen)
    return out


def sight_grid(scenario: Scenario, positions: Mapping[str, Position], mover: str, other: str,
               grid: Grid, z: FloatGrid, cells: BoolGrid, mover_attacks: bool,
               off_table: frozenset[str] = frozenset()) -> BoolGrid:
    """:func:`sight_grids` for one other model."""
    return sight_grids(scenario, positions, mover, [other], grid, z, [cells], mover_attacks,
                       off_table)[0]


def _pair(me: Mover, q: _Query, x: float, y: float, z: float, off_table: frozenset[str]
          ) -> ShotPair:
    cell = Disc(x, y, me.r)
    if q.mover_attacks:
        return ShotPair(me.id, q.other, cell, q.disc, z, q.z, me.side, off_table)
    return ShotPair(q.other, me.id, q.disc, cell, q.z, z, q.side, off_table)


def cell_groups(scenario: Scenario, positions: Mapping[str, Position], me: Mover,
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
    # The same obstacle objects come back cell after cell (cached by the rules glue):
    # found by identity first, the objects held so their ids are not reused.
    by_id: list[dict[tuple[frozenset[str], tuple[int, ...]],
                     tuple[_Group, list[Obstacle]]]] = [{} for _ in queries]

    def add(k: int, pair: ShotPair, where: Where, ij: tuple[int, int]) -> None:
        key = blocking_pieces(board, pair)
        extras = sight_extras(scenario, positions, pair, key)
        quick = (key, tuple(map(id, extras)))
        hit = by_id[k].get(quick)
        if hit is None:
            ident = (key, tuple(extras))
            group = found[k].get(ident)
            if group is None:
                group = found[k][ident] = _Group(board.sight_index(key), extras, z.shape)
            hit = by_id[k][quick] = (group, extras)
        hit[0].add(where, ij)

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
        for k, split in zip(flat, _by_walls([queries[k] for k in flat], [at[k] for k in flat],
                                            grid, me.r, h, board.elevation.edges), strict=True):
            for where, (i, j) in split:
                add(k, _pair(me, queries[k], float(gx[i, j]), float(gy[i, j]), h, off_table),
                    where, (i, j))
    return [list(f.values()) for f in found]


def _by_walls(qs: Sequence[_Query], ats: Sequence[BoolGrid], grid: Grid, r: float, h: float,
              edges: EdgeMap) -> list[list[tuple[Where, tuple[int, int]]]]:
    """The cells ``ats`` at height ``h`` of each elevated pair, split by the walls their
    queries get (:func:`geometry.elevation.wall_classes.wall_classes`): each class as
    its cells with one of them (the rules glue is asked for that cell), and the
    unsure cells one by one."""
    if not qs:
        return []
    gx, gy = grid.centres()
    union = np.logical_or.reduce(list(ats))
    rows, cols = np.nonzero(union)
    classes = wall_classes(edges, [(q.disc, q.z) for q in qs], gx[rows, cols], gy[rows, cols],
                           r, h)
    out = []
    for at, (ids, sure) in zip(ats, classes, strict=True):
        key = np.where(sure & at[rows, cols], ids, -1)  # unsure cells, and others', apart
        order = np.argsort(key, kind="stable")
        split: list[tuple[Where, tuple[int, int]]] = []
        for run in np.split(order, np.flatnonzero(np.diff(key[order]) != 0) + 1):
            if len(run) == 0 or key[run[0]] < 0:
                continue
            split.append(((rows[run], cols[run]), (int(rows[run[0]]), int(cols[run[0]]))))
        split += [(None, (int(rows[p]), int(cols[p])))
                  for p in np.flatnonzero(~sure & at[rows, cols])]
        out.append(split)
    return out


@dataclass
class _Ask:
    """Sight questions of one group: discs of these centres and radii against the other
    model; ``seen`` and the witness segments ``segs`` of those that see, once asked."""

    group: _Group
    xs: list[float]
    ys: list[float]
    radii: list[float]
    seen: list[bool] = field(default_factory=list)
    segs: list[tuple[float, float, float, float]] = field(default_factory=list)


def _ask(asks: list[_Ask], q: _Query) -> None:
    """Every question asked, one batched query per sight index (each pair with its
    group's per-query obstacles)."""
    by_index: dict[SightIndex, list[_Ask]] = {}  # an index hashes as itself, kept alive here
    for a in asks:
        if a.xs:
            by_index.setdefault(a.group.index, []).append(a)
    for same in by_index.values():
        pairs: list[tuple[Disc, Disc]] = []
        extras: list[list[Obstacle]] = []
        for a in same:
            discs = [Disc(x, y, r) for x, y, r in zip(a.xs, a.ys, a.radii, strict=True)]
            pairs += [(d, q.disc) for d in discs] if q.mover_attacks else [
                (q.disc, d) for d in discs]
            extras += [a.group.extras] * len(discs)
        # (verdicts and witnesses only: a map never names a blocker)
        found = same[0].group.index.sight_many(pairs, extras, names=False)
        at = 0
        for a in same:
            mine = found[at:at + len(a.xs)]
            at += len(a.xs)
            a.seen = [f.visible for f in mine]
            a.segs = [(w[0][0], w[0][1], w[1][0], w[1][1]) for f in mine
                      if (w := f.witness) is not None]


def _solve(groups: list[_Group], me: Mover, q: _Query, grid: Grid, seen: BoolGrid) -> None:
    """Settle every cell of every group, coarse to fine (the module's docstring), all
    groups in step so that each round is one batched query per sight index. Small
    groups only take part in the last two rounds (every other cell, then every open
    cell: the witnesses of the first prove many of the second). The groups' cells are
    held together: a grid of each cell's group (``label``) and one of the open ones."""
    gx, gy = grid.centres()
    label = np.full(seen.shape, -1, dtype=np.intp)
    for k, g in enumerate(groups):
        rows, cols = g.rowcols()
        label[rows, cols] = k
    todo = label >= 0
    small = np.array([g.size() < SMALL for g in groups] + [False], dtype=bool)
    rows, cols = np.nonzero(todo)
    labels = label[rows, cols]
    for stride in STRIDES:
        open_ = todo[rows, cols]
        rows, cols, labels = rows[open_], cols[open_], labels[open_]  # settled ones drop out
        on = ~small[labels] if stride > SMALL_STRIDE else np.ones(len(rows), dtype=bool)
        if stride > 1:
            on &= (rows % stride == 0) & (cols % stride == 0)
        asked_r, asked_c, asked_k = rows[on], cols[on], labels[on]
        order = np.argsort(asked_k, kind="stable")
        asked_r, asked_c, asked_k = asked_r[order], asked_c[order], asked_k[order]
        cuts = np.flatnonzero(np.diff(asked_k)) + 1
        asks, owners = [], []
        for part_r, part_c, part_k in zip(np.split(asked_r, cuts), np.split(asked_c, cuts),
                                          np.split(asked_k, cuts), strict=True):
            if len(part_r):
                asks.append(_Ask(groups[int(part_k[0])], gx[part_r, part_c].tolist(),
                                 gy[part_r, part_c].tolist(), [me.r] * len(part_r)))
                owners.append(int(part_k[0]))
        _ask(asks, q)
        todo[asked_r, asked_c] = False
        ok = np.array([v for a in asks for v in a.seen], dtype=bool)
        if len(ok):
            seen[asked_r[ok], asked_c[ok]] = True
        segs = [s for a in asks for s in a.segs]
        if segs and me.r - MARGIN > 0:
            owner = np.array([k for a, k in zip(asks, owners, strict=True) for _ in a.segs],
                             dtype=np.intp)
            mark_segments_of(np.array(segs, dtype=np.float64), owner, me.r - MARGIN, grid.x0,
                             grid.y0, grid.cell, label, todo, seen)
        if stride > 1:
            _blocks(groups, small, (rows, cols, labels), todo, me, q, grid, stride, seen)


def _blocks(groups: list[_Group], small: BoolArray, cells: tuple[IntArray, IntArray, IntArray],
            todo: BoolGrid, me: Mover, q: _Query, grid: Grid, size: int, seen: BoolGrid
            ) -> None:
    """Blocks of ``size`` x ``size`` cells of one group: a block's open cells are
    blocked when the disc covering all their bases is (they stay unseen and are
    settled). Blocks with a cell already seen are left to the next round: a shadow's
    edge runs through them, so their covering disc almost always sees (a query that
    would settle nothing). Every group's blocks are found in one pass (block ids
    numbered per group); small groups have none."""
    ny, nx = seen.shape
    by, bx = -(-ny // size), -(-nx // size)
    per = by * bx
    pad = np.zeros((by * size, bx * size), dtype=bool)
    pad[:ny, :nx] = seen
    lit = pad.reshape(by, size, bx, size).any(axis=(1, 3)).ravel()
    rows, cols, labels = cells
    on = todo[rows, cols] & ~small[labels]
    on[on] = ~lit[(rows[on] // size) * bx + cols[on] // size]
    if on.sum() < 2:
        return
    ids, xs, ys, radii = _covering(rows[on], cols[on], labels[on], nx, size, grid, me.r)
    owner = ids // per
    cuts = np.flatnonzero(np.diff(owner)) + 1
    asks = []
    for run in np.split(np.arange(len(ids)), cuts):
        if len(run):
            asks.append(_Ask(groups[int(owner[run[0]])], xs[run].tolist(), ys[run].tolist(),
                             radii[run].tolist()))
    _ask(asks, q)
    visible = np.array([v for a in asks for v in a.seen], dtype=bool)
    dark = ids[~visible]
    if len(dark):  # every cell of a blocked block (of its group) is settled
        open_ = todo[rows, cols]
        key = labels * per + (rows // size) * bx + cols // size
        shut = open_ & np.isin(key, dark)
        todo[rows[shut], cols[shut]] = False


def _covering(rows: IntArray, cols: IntArray, owner: IntArray, nx: int, size: int, grid: Grid,
              r: float) -> tuple[IntArray, FloatArray, FloatArray, FloatArray]:
    """The blocks of ``size`` x ``size`` cells with at least two of the open cells
    ``rows, cols`` of one group (``owner``; one cell is asked in the next round anyway):
    their ids (``owner * blocks + block``, in order) and the discs covering their open
    cells' bases (centred on the open cells' box, radius ``r`` plus half its diagonal)."""
    bx = -(-nx // size)
    per = -(-grid.ny // size) * bx
    bid = owner * per + (rows // size) * bx + cols // size
    order = np.argsort(bid, kind="stable")
    rows, cols, bid = rows[order], cols[order], bid[order]
    ids, start, count = np.unique(bid, return_index=True, return_counts=True)
    keep = count >= 2
    r0, r1 = np.minimum.reduceat(rows, start)[keep], np.maximum.reduceat(rows, start)[keep]
    c0, c1 = np.minimum.reduceat(cols, start)[keep], np.maximum.reduceat(cols, start)[keep]
    cell = grid.cell
    xs = grid.x0 + cell * (c0 + c1) / 2
    ys = grid.y0 + cell * (r0 + r1) / 2
    half = cell * np.sqrt((c1 - c0) ** 2 + (r1 - r0) ** 2) / 2
    return ids[keep], xs, ys, r + half + MARGIN
