"""Sight on crowded boards: the broad phase changes no answer (R-LOS-1, issue 33).

A :class:`SightIndex` files its pieces in a grid, and a pair looks only at the
groups of the cells its corridor crosses (``geometry.sight.corridor.groups_near``).
That must never drop a piece that could matter: on boards of 300 to 500 pieces of
four kinds (convex, dense, with holes, walls of blocks with thin gaps plus round
pieces and zero-thickness walls, ``bench.boards.crowded_board``) every answer, its
witness and its blockers are the same as without the grid (every pair scanning
every piece), alone, in a batch and with per-query obstacles, and the independent
oracle (``tests/sight_oracle.py``) accepts them. The grid's offer is also checked
against Shapely directly: every piece that reaches into a pair's corridor is
offered.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely

from bench.boards import KINDS, Board, crowded_board
from geometry.discs import Disc
from geometry.sight.corridor import _INSERTION, _ascending, groups_near
from geometry.sight.index import Obstacle, Sight, SightIndex
from tests.sight_oracle import Oracle

Pair = tuple[Disc, Disc]


def _both(board: Board) -> tuple[SightIndex, SightIndex]:
    """The board with the broad phase, and without it."""
    return (SightIndex(board.obstacles, board.merge_gap),
            SightIndex(board.obstacles, board.merge_gap, broad_phase=False))


def _extras(pairs: list[Pair]) -> list[list[Obstacle]]:
    """Per-query obstacles for every third pair: a huge base beside the middle of the
    centre line, and a significant edge across it (R-LOS-3, R-ELEV-2)."""
    out: list[list[Obstacle]] = []
    for k, (a, b) in enumerate(pairs):
        if k % 3:
            out.append([])
            continue
        mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
        out.append([Obstacle("huge", Disc(mx + 0.9, my, 0.6)),
                    Obstacle("edge", shapely.LineString([(mx - 0.4, my - 1.0),
                                                         (mx - 0.3, my + 1.0)]))])
    return out


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("seed,pieces", [(1, 300), (2, 500)])
def test_broad_phase_gives_the_answers_of_the_full_scan(kind: str, seed: int,
                                                        pieces: int) -> None:
    """All pairs of a crowded board, in one batch, one by one and with per-query
    obstacles: the same sight, witness (to the last bit) and blockers (R-LOS-1)."""
    board = crowded_board(kind, seed, pieces)
    grid, scan = _both(board)
    pairs = list(itertools.combinations(board.bases, 2))
    assert len(pairs) >= 200
    many = grid.sight_many(pairs)
    assert many == scan.sight_many(pairs)
    assert 0 < sum(s.visible for s in many) < len(pairs)  # both answers occur
    for (a, b), got in list(zip(pairs, many, strict=True))[::7]:
        assert grid.sight(a, b) == got == scan.sight(a, b)
    extras = _extras(pairs)
    assert grid.sight_many(pairs, extras) == scan.sight_many(pairs, extras)


# Bases judged per kind: the oracle's critical segments grow with the square of the
# vertices near a pair (minutes for 66 pairs among 400 pieces with holes).
_JUDGED = {"convex": 12, "dense": 10, "holes": 6, "gap_walls": 7}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_crowded_answers_pass_the_oracle(kind: str) -> None:
    """The independent oracle accepts every answer on a crowded board: a free witness
    when visible, no free segment when blocked, blockers that are pieces (R-LOS-1)."""
    board = crowded_board(kind, 3, 300)
    index = SightIndex(board.obstacles, board.merge_gap)
    oracle = Oracle.of(list(board.obstacles), board.merge_gap)
    pairs = list(itertools.combinations(board.bases[:_JUDGED[kind]], 2))
    ids = {o.id for o in board.obstacles}
    wrong = []
    answers = index.sight_many(pairs)
    for (a, b), seen in zip(pairs, answers, strict=True):
        error = oracle.judge(a, b, seen)
        if error is not None:
            wrong.append(f"{kind} {a} {b}: {error}")
        if not seen.visible and not (seen.blocked_by and set(seen.blocked_by) <= ids):
            wrong.append(f"{kind} {a} {b}: blocked by {seen.blocked_by}")
    assert not wrong, "\n".join(wrong[:10])
    assert {s.visible for s in answers} == {True, False}


def _offered(index: SightIndex, a: Disc, b: Disc) -> set[str]:
    """The obstacle ids of the groups the broad phase offers this pair."""
    packed = index._static.packed  # (the broad phase itself is under test)
    got = groups_near(packed, np.ones(len(packed.gbox), dtype=np.bool_),
                      np.array(a, np.float64), np.array(b, np.float64))
    return {pid for g in got.tolist() for pid in index._groups[g]}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_grid_offers_every_piece_reaching_into_the_corridor(kind: str) -> None:
    """Every piece whose shape (Shapely, not the kernel's arrays) comes within the
    larger radius of the centre segment is offered: what a sight line between the
    two bases can meet, and the vertices stage 2 draws lines through (R-LOS-1).
    And the offer is small: a short corridor is offered a small share of the board."""
    board = crowded_board(kind, 4, 400)
    index = SightIndex(board.obstacles, board.merge_gap)
    shapes = {o.id: (shapely.Point(o.shape.x, o.shape.y).buffer(o.shape.r)
                     if isinstance(o.shape, Disc) else o.shape) for o in board.obstacles}
    short = []
    for a, b in itertools.combinations(board.bases[:14], 2):
        corridor = shapely.LineString([(a.x, a.y), (b.x, b.y)]).buffer(max(a.r, b.r))
        reaching = {pid for pid, shape in shapes.items() if shape.intersects(corridor)}
        offered = _offered(index, a, b)
        assert reaching <= offered, (a, b, sorted(reaching - offered))
        if math.hypot(a.x - b.x, a.y - b.y) < 8:
            short.append(len(offered))
    assert short and max(short) < len(board.obstacles) / 4


def test_groups_offered_once_each_in_ascending_order() -> None:
    """The kernel lists elements and features group by group in the order offered, so
    the named search's first free line (its witness) depends on that order: ascending,
    whether the corridor offers few groups (put in order by insertion) or many."""
    board = crowded_board("convex", 4, 400)
    packed = SightIndex(board.obstacles, board.merge_gap)._static.packed
    ok = np.ones(len(packed.gbox), dtype=np.bool_)
    sizes = []
    for a, b in itertools.combinations(board.bases, 2):
        got = groups_near(packed, ok, np.array(a, np.float64), np.array(b, np.float64)).tolist()
        assert got == sorted(set(got))
        sizes.append(len(got))
    assert min(sizes) <= _INSERTION < max(sizes)
    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 3, 17, _INSERTION, _INSERTION + 1, 200):
        ids = rng.permutation(3 * n)[:n].astype(np.int64)
        assert _ascending(ids.copy()).tolist() == sorted(ids.tolist())


@pytest.mark.parametrize("shift", [0.0, 1e5])
def test_broad_phase_at_the_edges_of_the_grid(shift: float) -> None:
    """Bases beyond the grid's cells, a piece spanning many cells, a pair along a cell
    border and a diagonal corridor, near the origin and far from it: the answers of
    the full scan (R-LOS-1)."""
    def at(x: float, y: float, r: float) -> Disc:
        return Disc(x + shift, y + shift, r)

    pieces = [Obstacle(f"p{i}-{j}", shapely.box(i + shift, j + shift, i + 0.3 + shift,
                                              j + 0.3 + shift))
              for i in range(0, 20, 2) for j in range(0, 20, 2)]
    pieces.append(Obstacle("long", shapely.box(shift - 1, 9.5 + shift, 21 + shift,
                                               9.6 + shift)))
    pieces.append(Obstacle("rock", Disc(5.5 + shift, 13.1 + shift, 0.25)))
    grid, scan = (SightIndex(pieces, 0.01, broad_phase=on) for on in (True, False))
    pairs = [(at(-5, -5, 0.5), at(-5, 30, 0.7)),  # wholly outside the grid
             (at(-3, 4.15, 0.5), at(25, 4.15, 0.5)),  # along a row of pieces
             (at(5.0, 8.0, 0.5), at(5.0, 12.0, 0.5)),  # across the long piece
             (at(1.15, -2, 0.6), at(1.15, 9, 0.6)),  # between two columns
             (at(1.0, 1.0, 0.5), at(19.0, 19.0, 0.5)),  # diagonal
             (at(0.5, 11, 0.8), at(8.5, 15.5, 0.6)),
             (at(1.65, 1.65, 0.5), at(1.65, 3.0, 0.3))]
    answers = grid.sight_many(pairs)
    assert answers == scan.sight_many(pairs)
    assert [grid.sight(a, b) for a, b in pairs] == answers
    assert answers[0].visible
    assert answers[2] == Sight(False, None, ("long",))


def test_empty_board_and_one_piece_have_a_grid() -> None:
    """No piece at all, and a single piece: each pair is answered (R-LOS-1)."""
    a, b = Disc(0, 0, 0.5), Disc(10, 0, 0.5)
    assert SightIndex([]).sight(a, b) == Sight(True, ((0.5, 0.0), (9.5, 0.0)))
    wall = SightIndex([Obstacle("wall", shapely.box(4, -3, 5, 3))])
    assert wall.sight(a, b) == Sight(False, None, ("wall",))
    assert wall.sight(a, Disc(10, 7, 0.5)).visible
