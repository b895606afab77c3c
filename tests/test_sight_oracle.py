"""Exact line of sight against an independent oracle on random boards (R-LOS-1, issue 11).

Every answer of :meth:`SightIndex.sight` (one pair) and of
:meth:`SightIndex.sight_many` (all pairs of a board in one batch) is judged by
``tests/sight_oracle.py``, which shares no code with ``geometry/sight*.py``:
a *visible* answer must carry a free witness, a *blocked* one must leave no
free segment on a fine rim grid or among the critical lines the oracle builds.
Both ways must agree. Boards come from ``bench/boards.py`` (four kinds,
fixed seeds, so every run judges the same 5,000+ pairs), with pairs of bases
aimed through the thin gaps between pieces (``Board.probes``). More cases
aim at what random pairs rarely reach: per-query discs (a huge base; two discs
with a narrow gap between them) and bases standing partly inside pieces.

Each family was checked to fail on a broken copy of the exact method: the
sliver of issue 11 (the code before the fix: 11 tests, 58 wrong answers), no
merge bridges, erosion by 1e-4 instead of ``EPS``, discs 0.1% smaller or
larger, no lines through two points or no tangents in stage 2, walls ignored,
and no rim crossings as features.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
import shapely

from bench.boards import KINDS, Board, make_board
from bench.sampler import Sampler
from geometry.discs import Disc
from geometry.sight.index import Obstacle, Sight, SightIndex
from tests.sight_oracle import Oracle

BASES = 16  # bases per board used: 120 pairs
SEEDS = range(11)  # per kind: 4 kinds x 11 boards x 120 pairs = 5,280 pairs
EXTRA_SEEDS = range(100, 103)


def _pairs(board: Board, count: int = BASES) -> list[tuple[Disc, Disc]]:
    return list(itertools.combinations(board.bases[:count], 2))


def _judge_all(board: Board, pairs: list[tuple[Disc, Disc]], index: SightIndex,
               oracle: Oracle, extras: list[list[Obstacle]]) -> list[str]:
    """Every wrong answer, described with its board and pair; also where the single
    and the batched way disagree."""
    single = [index.sight(a, b, ex) for (a, b), ex in zip(pairs, extras, strict=True)]
    batched = index.sight_many(pairs, extras)
    ids = {o.id for o in board.obstacles} | {o.id for ex in extras for o in ex}
    wrong = []
    for k, ((a, b), ex, one, many) in enumerate(zip(pairs, extras, single, batched,
                                                    strict=True)):
        judge = oracle.with_extras(ex) if ex else oracle
        where = f"{board.kind} seed {board.seed} pair {k} {a} {b} extra {ex}"
        error = judge.judge(a, b, one)
        if error is not None:
            wrong.append(f"{where}: sight(): {error}")
        if (one.visible, one.blocked_by) != (many.visible, many.blocked_by):
            wrong.append(f"{where}: sight() {one} but sight_many() {many}")
        elif many.visible and many.witness != one.witness:
            error = judge.judge(a, b, many)
            if error is not None:
                wrong.append(f"{where}: sight_many(): {error}")
        if not one.visible and not (one.blocked_by and set(one.blocked_by) <= ids):
            wrong.append(f"{where}: blocked by {one.blocked_by}, not obstacles of the board")
    return wrong


# --- the issue's reproducer -------------------------------------------------------


WALL_A = ("POLYGON ((15.45031394357 21.246639182636, 14.622635771935 20.645921202534, "
          "20.886810528246 16.005335932644, 21.714488699881 16.606053912746, "
          "15.45031394357 21.246639182636))")
WALL_B = ("POLYGON ((14.8012250746 21.727492984034, 14.220613682829 20.94374459627, "
          "14.71920194862 20.574383674524, 15.299813340391 21.358132062288, "
          "14.8012250746 21.727492984034))")


def test_issue_11_overlapping_wall_blocks_do_not_block_a_distant_line() -> None:
    """Issue 11: two overlapping wall blocks, a centre line 2.47 in from the nearer one;
    a sliver triangle of the merged outline used to block it (R-LOS-1)."""
    obstacles = [Obstacle("wall-a", shapely.from_wkt(WALL_A)),
                 Obstacle("wall-b", shapely.from_wkt(WALL_B))]
    attacker, target = Disc(26.0414, 20.6818, 0.59), Disc(20.5602, 7.2529, 0.79)
    centre = shapely.LineString([attacker.center, target.center])
    assert centre.distance(shapely.unary_union([o.shape for o in obstacles])) > 2.4
    index = SightIndex(obstacles, 0.0)
    for seen in (index.sight(attacker, target), index.sight_many([(attacker, target)] * 60)[0]):
        assert seen.visible and seen.witness is not None, seen
        assert Oracle.of(obstacles, 0.0).witness_error(attacker, target, seen.witness) is None


# --- the oracle itself can fail -------------------------------------------------------


def test_oracle_rejects_a_wrong_blocked_answer_and_a_wrong_witness() -> None:
    """The oracle is only worth its passes if it catches wrong answers: a false
    "blocked" with a free corridor, and witnesses through a piece, a disc, a wall
    or a crack between pieces that touch (R-LOS-1, R-UNIT-2)."""
    a, b = Disc(0, 0, 0.5), Disc(10, 0, 0.5)
    wall = Obstacle("wall", shapely.box(4, 0.2, 5, 3))
    oracle = Oracle.of([wall], 0.0)
    assert oracle.judge(a, b, Sight(False, None, ("wall",))) is not None
    assert oracle.judge(a, b, Sight(True, ((0, 0.5), (10, 0.5)))) is not None  # through it
    assert oracle.judge(a, b, Sight(True, ((0, -0.4), (10, -0.4)))) is None
    assert oracle.judge(a, b, Sight(True, ((0, -0.6), (10, -0.6)))) is not None  # off a base
    disc = Oracle.of([Obstacle("rock", Disc(5, 0, 0.3))], 0.0)
    assert disc.judge(a, b, Sight(True, ((0, 0.25), (10, 0.25)))) is not None
    assert disc.judge(a, b, Sight(True, ((0, 0.3), (10, 0.3)))) is None  # grazing
    edge = Oracle.of([Obstacle("edge", shapely.LineString([(5, -1), (5, 0.5)]))], 0.0)
    assert edge.judge(a, b, Sight(True, ((0.5, 0), (9.5, 0)))) is not None
    assert edge.judge(a, b, Sight(True, ((0, 0.5), (10, 0.5)))) is None  # its end
    # Two blocks 0.005 in apart and bases on both sides of the crack between them:
    # within the merge gap the crack is shut, beyond it the crack gives sight.
    left, right = shapely.box(4, -3, 4.995, 3), shapely.box(5, -3, 6, 3)
    pieces = [Obstacle("left", left), Obstacle("right", right)]
    low, high = Disc(4.9975, -5, 0.5), Disc(4.9975, 5, 0.5)
    through = Sight(True, ((4.9975, -4.5), (4.9975, 4.5)))
    blocked = Sight(False, None, ("left", "right"))
    shut, open_ = Oracle.of(pieces, 0.01), Oracle.of(pieces, 0.001)
    assert shut.judge(low, high, through) is not None
    assert shut.judge(low, high, blocked) is None
    assert open_.judge(low, high, through) is None
    assert open_.judge(low, high, blocked) is not None


# --- property tests ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_exact_sight_agrees_with_the_oracle(kind: str, seed: int) -> None:
    """All pairs of 16 bases on a random board: no wrong answer, single and batched
    agree (R-LOS-1)."""
    board = make_board(kind, seed)
    pairs = _pairs(board)
    assert len(pairs) == BASES * (BASES - 1) // 2
    pairs += board.probes
    index = SightIndex(board.obstacles, board.merge_gap)
    wrong = _judge_all(board, pairs, index, Oracle.of(board.obstacles, board.merge_gap),
                       [[] for _ in pairs])
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("merge_gap", [0.0, 0.01])
def test_sight_through_thin_gaps_between_wall_blocks(merge_gap: float) -> None:
    """Bases aimed straight through the gaps (up to 0.06 in) between wall blocks, on
    40 gap-wall boards: a crack within the merge gap is shut, a wider one gives
    sight where it is free (R-LOS-1, R-UNIT-2)."""
    wrong, seen, total = [], 0, 0
    for seed in range(200, 240):
        board = replace(make_board("gap_walls", seed), merge_gap=merge_gap)
        pairs = list(board.probes)
        if not pairs:
            continue
        index = SightIndex(board.obstacles, merge_gap)
        wrong += _judge_all(board, pairs, index, Oracle.of(board.obstacles, merge_gap),
                            [[] for _ in pairs])
        seen += sum(s.visible for s in index.sight_many(pairs))
        total += len(pairs)
    assert total > 100
    assert not wrong, "\n".join(wrong)
    assert 0 < seen < total  # some cracks shut or blocked beyond, some open


def _huge_base(rng: np.random.Generator, a: Disc, b: Disc) -> Disc | None:
    """A huge base (R-LOS-3) near the line between two bases, overlapping neither."""
    t, side = rng.uniform(0.2, 0.8), rng.uniform(-2.5, 2.5)
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    r = rng.uniform(1.6, 2.6)
    huge = Disc(a.x + t * dx - side * dy / length, a.y + t * dy + side * dx / length, r)
    for d in (a, b):
        if math.hypot(huge.x - d.x, huge.y - d.y) <= huge.r + d.r:
            return None
    return huge


@pytest.mark.parametrize("seed", EXTRA_SEEDS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_exact_sight_with_a_huge_base_as_extra(kind: str, seed: int) -> None:
    """A huge base passed per query (R-LOS-3) blocks like any disc, in both ways."""
    board = make_board(kind, seed)
    rng = np.random.default_rng(seed)
    pairs, extras = [], []
    for a, b in _pairs(board, 13):
        huge = _huge_base(rng, a, b)
        if huge is not None:
            pairs.append((a, b))
            extras.append([Obstacle(f"huge-{len(pairs)}", huge)])
    assert len(pairs) > 40
    index = SightIndex(board.obstacles, board.merge_gap)
    wrong = _judge_all(board, pairs, index, Oracle.of(board.obstacles, board.merge_gap), extras)
    assert not wrong, "\n".join(wrong)
    assert any(not s.visible for s in index.sight_many(pairs, extras))


def _two_discs(rng: np.random.Generator, a: Disc, b: Disc) -> list[Disc] | None:
    """Two discs across the middle of the line between two bases with a gap between
    them beside the centre line (so the centre line is blocked and a free line, if
    any, passes the gap, usually grazing a disc), overlapping neither base."""
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    mx, my = a.x + dx * rng.uniform(0.35, 0.65), a.y + dy * rng.uniform(0.35, 0.65)
    # Some gaps only a few thousandths wide: a disc off by 1e-3 shuts or opens them.
    gap = rng.uniform(0.0005, 0.004) if rng.random() < 0.4 else rng.uniform(0.02, 0.6)
    off = rng.choice([-1.0, 1.0]) * rng.uniform(0.35, 1.2)
    r1, r2 = rng.uniform(0.6, 2.0, 2)
    up, down = off + gap / 2 + r1, off - gap / 2 - r2
    discs = [Disc(mx + up * nx, my + up * ny, r1), Disc(mx + down * nx, my + down * ny, r2)]
    if any(math.hypot(d.x - e.x, d.y - e.y) <= d.r + e.r for d in discs for e in (a, b)):
        return None
    return discs


@pytest.mark.parametrize("seed", range(300, 304))
def test_exact_sight_through_the_gap_between_two_discs(seed: int) -> None:
    """Two discs per query (huge bases, R-LOS-3) with a gap beside the centre line:
    witnesses graze exact discs and some gaps are a few thousandths wide, so a disc
    taken even a little smaller or larger shows (R-LOS-1: discs are exact)."""
    board = make_board("convex", seed)
    rng = np.random.default_rng(seed)
    pairs, extras = [], []
    for a, b in _pairs(board, 14):
        discs = _two_discs(rng, a, b)
        if discs is not None:
            pairs.append((a, b))
            extras.append([Obstacle(f"huge-{len(pairs)}-{i}", d) for i, d in enumerate(discs)])
    assert len(pairs) > 40
    index = SightIndex(board.obstacles, board.merge_gap)
    wrong = _judge_all(board, pairs, index, Oracle.of(board.obstacles, board.merge_gap), extras)
    assert not wrong, "\n".join(wrong)


def _bases_in_pieces(board: Board, rng: np.random.Generator, count: int) -> list[Disc]:
    """Bases that stand partly inside a piece (a model at the edge of dense terrain,
    R-LOS-4), none wholly inside one, none overlapping another base."""
    polys = [o.shape for o in board.obstacles if not isinstance(o.shape, Disc)
             and o.shape.geom_type.endswith("Polygon")]
    union = shapely.unary_union(polys)
    shapely.prepare(union)
    out: list[Disc] = []
    for _ in range(count * 40):
        r = float(rng.uniform(0.59, 1.57))
        x, y = (float(v) for v in rng.uniform(r, 36 - r, 2))
        circle = shapely.Point(x, y).buffer(r, quad_segs=16)
        if not union.intersects(circle) or union.contains(circle):
            continue
        if all(math.hypot(x - d.x, y - d.y) > r + d.r for d in out):
            out.append(Disc(x, y, r))
            if len(out) == count:
                break
    return out


@pytest.mark.parametrize("seed", range(400, 406))
def test_exact_sight_from_bases_partly_inside_pieces(seed: int) -> None:
    """Bases partly inside pieces see and are seen only by their part outside
    (R-LOS-1, R-LOS-4); pairs of such bases with clear ones, all judged."""
    board = make_board(sorted(KINDS)[seed % len(KINDS)], seed)
    rng = np.random.default_rng(seed)
    bases = _bases_in_pieces(board, rng, 8) + list(board.bases[:6])
    pairs = [(a, b) for a, b in itertools.combinations(bases, 2)
             if math.hypot(a.x - b.x, a.y - b.y) > a.r + b.r]
    assert len(pairs) > 60
    index = SightIndex(board.obstacles, board.merge_gap)
    wrong = _judge_all(board, pairs, index, Oracle.of(board.obstacles, board.merge_gap),
                       [[] for _ in pairs])
    assert not wrong, "\n".join(wrong)


def _contact_pairs(board: Board, rng: np.random.Generator, count: int
                   ) -> list[tuple[Disc, Disc]]:
    """Pairs of bases in base contact (touching) at a point near a piece's outline:
    the contact point lies inside the piece about half the time, and each base may
    stand partly inside a piece (never wholly)."""
    polys = [o.shape for o in board.obstacles if not isinstance(o.shape, Disc)
             and o.shape.geom_type.endswith("Polygon")]
    union = shapely.unary_union(polys)
    shapely.prepare(union)
    outline = union.boundary
    out: list[tuple[Disc, Disc]] = []
    while len(out) < count:
        ra, rb = (float(v) for v in rng.uniform(0.59, 1.57, 2))
        at = outline.interpolate(float(rng.uniform(0, outline.length)))
        cx, cy = at.x + float(rng.uniform(-0.3, 0.3)), at.y + float(rng.uniform(-0.3, 0.3))
        ang = float(rng.uniform(0, 2 * np.pi))
        ux, uy = math.cos(ang), math.sin(ang)
        a = Disc(cx - ra * ux, cy - ra * uy, ra)
        b = Disc(cx + rb * ux, cy + rb * uy, rb)
        if not all(d.r <= d.x <= 36 - d.r and d.r <= d.y <= 36 - d.r for d in (a, b)):
            continue
        if any(union.contains(shapely.Point(d.x, d.y).buffer(d.r, quad_segs=8)) for d in (a, b)):
            continue
        out.append((a, b))
    return out


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_exact_sight_between_bases_in_contact(kind: str) -> None:
    """Bases in contact see each other through their shared point unless it lies
    inside a piece, and otherwise along any free line (R-LOS-1 Decision)."""
    board = make_board(kind, 500)
    pairs = _contact_pairs(board, np.random.default_rng(500), 120)
    index = SightIndex(board.obstacles, board.merge_gap)
    wrong = _judge_all(board, pairs, index, Oracle.of(board.obstacles, board.merge_gap),
                       [[] for _ in pairs])
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_benchmark_sampler_sees_only_through_free_segments(kind: str, seed: int) -> None:
    """``bench/sampler.py``, the baseline of ``make bench``, must not see what is not
    there, or its "sampler sees, exact does not" count would accuse the exact method
    falsely: every segment it calls free passes the oracle's witness check (the
    bench's own boards: seeds 1 to 4)."""
    board = make_board(kind, seed)
    sampler = Sampler(board.obstacles, board.merge_gap)
    oracle = Oracle.of(board.obstacles, board.merge_gap)
    checked, wrong = 0, []
    for a, b in [*_pairs(board, 12), *board.probes]:
        for seg in sampler.witnesses(a, b)[::7]:
            checked += 1
            error = oracle.witness_error(a, b, seg)
            if error is not None:
                wrong.append(f"{kind} seed {seed} {a} {b}: {error}")
    assert checked > 100
    assert not wrong, "\n".join(wrong[:20])
