"""The plain-float path of one sight query against the array path (R-LOS-1..4, R-ELEV-2).

:meth:`geometry.sight.SightIndex.sight` answers one pair in plain Python
floats; :meth:`~geometry.sight.SightIndex.sight_many` answers batches with
numpy arrays. Both run the same exact method, so for every pair they must
agree on whether there is sight and on the pieces that block it, and give the
same witness segment (the same first free critical line), with touching and
overlapping bases, bases against pieces, lines through vertices, blocking
discs and zero-thickness walls.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.discs import Disc
from geometry.sight import Obstacle, Sight, SightIndex
from sim import analysis
from sim.loader import load_scenario
from sim.positions import initial_positions

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def array_sight(index: SightIndex, a: Disc, b: Disc, extra: list[Obstacle]) -> Sight:
    """The array path for one pair (what ``sight_many`` runs for two or more)."""
    parts, groups, allowed = index._batch_parts([extra])
    return index._sight_arrays([(a, b)], parts, groups, allowed)[0]


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
def test_one_pair_in_floats_matches_arrays(scene: tuple[list[Obstacle], list[Obstacle]],
                                           ax: float, ay: float, ar: float, bx: float,
                                           by: float, br: float) -> None:
    """R-LOS-1..3: the same sight, blockers and witness on random boards."""
    static, extra = scene
    index = SightIndex(static, merge_gap=0.01)
    a, b = Disc(ax, ay, ar), Disc(bx, by, br)
    assert_same(index.sight(a, b, extra), array_sight(index, a, b, extra))


@pytest.mark.parametrize("name", ["skirmish", "elev-two-storey", "seed-cover-4-dense"])
def test_every_pair_of_a_board_matches_arrays(name: str) -> None:
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
                        array_sight(index, pair.a, pair.t, extra))
