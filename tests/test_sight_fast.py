"""One query against the same pair inside a batch (R-LOS-1..4, R-ELEV-2).

:meth:`geometry.sight.index.SightIndex.sight` answers one pair;
:meth:`~geometry.sight.index.SightIndex.sight_many` answers a batch whose pairs
carry different per-query obstacles (huge bases, significant edges), in
chunks. A pair's answer must not depend on the company it is asked in: the
same sight, the same pieces blocking it and the same witness, with touching
and overlapping bases, bases against pieces, lines through vertices, blocking
discs and zero-thickness walls. (Whether the answer is right is
tests/test_sight.py's and tests/test_sight_oracle.py's job.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.discs import Disc
from geometry.sight import index as sight_module
from geometry.sight.index import Obstacle, Sight, SightIndex
from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import initial_positions
from sim.shooting import analysis

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def in_company(index: SightIndex, a: Disc, b: Disc, extra: list[Obstacle]) -> Sight:
    """The pair asked in the middle of a batch whose other pairs see other obstacles."""
    others = [(Disc(b.x, b.y, b.r), Disc(a.x, a.y, a.r)), (Disc(0, 0, 0.5), Disc(9, 9, 0.5))]
    pairs = [others[0], (a, b), others[1]]
    lone = Obstacle("elsewhere", Disc(5.0, 5.0, 0.7))
    return index.sight_many(pairs, [[lone], extra, []])[1]


def assert_same(fast: Sight, slow: Sight) -> None:
    assert fast.visible == slow.visible
    assert fast.blocked_by == slow.blocked_by
    if slow.witness is not None:
        assert fast.witness is not None
        flat = [v for point in fast.witness for v in point]
        assert flat == pytest.approx([v for point in slow.witness for v in point], abs=1e-9)


grid = st.integers(0, 20).map(lambda v: v / 2)  # coincidences: lines through vertices
coord = st.one_of(grid, st.floats(0, 10, allow_nan=False, allow_infinity=False))
radius = st.sampled_from([0.5, 0.6, 1.0, 1.5])


@st.composite
def scenes(draw: st.DrawFn) -> tuple[list[Obstacle], list[Obstacle]]:
    """Static pieces (boxes, some touching; an L-shape; a ring with a hole; a round
    piece) and per-query obstacles (a blocking disc, a wall)."""
    static: list[Obstacle] = []
    for k in range(draw(st.integers(0, 4))):
        x, y = draw(grid), draw(grid)
        w, h = draw(st.integers(1, 6)) / 2, draw(st.integers(1, 6)) / 2
        kind = draw(st.sampled_from(["box", "box", "ell", "ring", "round"]))
        shape: shapely.Geometry | Disc
        if kind == "box":
            shape = shapely.box(x, y, x + w, y + h)
        elif kind == "round":  # a round piece: an exact disc in the index
            shape = Disc(x, y, w)
        elif kind == "ell":
            shape = shapely.Polygon([(x, y), (x + 2 * w, y), (x + 2 * w, y + h),
                                     (x + w, y + h), (x + w, y + 2 * h), (x, y + 2 * h)])
        else:
            shape = shapely.Polygon([(x, y), (x + 3, y), (x + 3, y + 3), (x, y + 3)],
                                    holes=[[(x + 1, y + 1), (x + 2, y + 1), (x + 2, y + 2),
                                            (x + 1, y + 2)]])
        static.append(Obstacle(f"p{k}", shape))
    extra: list[Obstacle] = []
    if draw(st.booleans()):
        extra.append(Obstacle("huge", Disc(draw(coord), draw(coord), draw(radius))))
    if draw(st.booleans()):
        pts = [(draw(grid), draw(grid)) for _ in range(draw(st.integers(2, 3)))]
        if pts[0] != pts[1]:
            extra.append(Obstacle("edge", shapely.LineString(pts)))
    return static, extra


@settings(max_examples=300, deadline=None)
@given(scenes(), coord, coord, radius, coord, coord, radius)
def test_one_pair_alone_matches_in_company(scene: tuple[list[Obstacle], list[Obstacle]],
                                           ax: float, ay: float, ar: float, bx: float,
                                           by: float, br: float) -> None:
    """R-LOS-1..3: the same sight, blockers and witness on random boards."""
    static, extra = scene
    index = SightIndex(static, merge_gap=0.01)
    a, b = Disc(ax, ay, ar), Disc(bx, by, br)
    assert_same(index.sight(a, b, extra), in_company(index, a, b, extra))


@pytest.mark.parametrize("name", ["skirmish", "elev-two-storey", "seed-cover-4-dense"])
def test_every_pair_of_a_board_matches_in_company(name: str) -> None:
    """R-LOS-1..4, R-ELEV-2: every ordered pair of a shipped board, with the rules'
    blocking pieces and per-query obstacles (huge bases, significant edges)."""
    path = SCENARIOS / f"{name}.toml"
    assert path.exists(), f"{path.name} is not shipped any more: update this test"
    scenario = load_scenario(path)
    positions = initial_positions(scenario)
    board = analysis.prepared_board(scenario)
    ids = list(positions)
    for a_id in ids:
        for t_id in ids:
            if a_id == t_id:
                continue
            pair = analysis._make_pair(scenario, positions, a_id, t_id)
            index = board.sight_index(analysis.blocking_pieces(board, pair))
            extra = analysis.sight_extras(scenario, positions, pair)
            assert_same(index.sight(pair.a, pair.t, extra),
                        in_company(index, pair.a, pair.t, extra))


def test_chunks_give_the_answers_of_single_queries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch longer than a chunk (R-LOS-1): every pair as if asked alone."""
    monkeypatch.setattr(sight_module, "_CHUNK", 7)
    wall = Obstacle("wall", shapely.box(4, -3, 5, 3))
    index = SightIndex([wall, Obstacle("post", Disc(7, 4, 0.6))])
    pairs = [(Disc(0, y / 3, 0.5), Disc(10, 8 - y / 2, 0.6)) for y in range(30)]
    extras = [[Obstacle("huge", Disc(2, 1, 1.0))] if i % 3 == 0 else [] for i in range(30)]
    many = index.sight_many(pairs, extras)
    assert {s.visible for s in many} == {True, False}  # both kinds of answer occur
    for (a, b), extra, got in zip(pairs, extras, many, strict=True):
        assert_same(got, index.sight(a, b, extra))
