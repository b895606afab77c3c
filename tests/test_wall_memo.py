"""The walls of significant edges kept by their owner (WallMemo, issue 15): the
frozen EdgeMap is never written, and a sight query meets the same obstacle for the
same wall (R-ELEV-2)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.discs import Disc
from geometry.elevation.edges import Surface, significant_edges
from geometry.elevation.wall_memo import WallMemo
from geometry.elevation.walls import footprint_stand_ins, sight_walls
from geometry.sight.index import Obstacle
from sim.scenario.format.loader import load_scenario
from sim.scenario.rules import default_rules
from sim.shooting.elevation_rules import board_elevation

R = 0.6
ROOF = [Surface("roof", shapely.box(0, 0, 10, 10), 6.0)]


def test_the_same_wall_comes_back_as_the_same_obstacle_for_every_target() -> None:
    edges = significant_edges(ROOF, default_rules().orange)
    memo: WallMemo[Obstacle] = WallMemo(Obstacle)
    sniper = Disc(9.0, 5.0, R)  # near the east side: a wall of the other three sides
    one = memo.obstacles(edges, sniper, 6.0, Disc(13.0, 13.0, R), 0.0)
    other = memo.obstacles(edges, sniper, 6.0, Disc(5.0, 13.0, R), 0.0)
    assert [o.id for o in one] == ["roof:edge"] and one[0] is other[0]
    assert (one[0].id, one[0].shape) == sight_walls(edges, sniper, 6.0, Disc(13.0, 13.0, R),
                                                    0.0)[0]
    # Another position of the sniper has its own entry (here the same three sides).
    moved = memo.obstacles(edges, Disc(9.0, 6.0, R), 6.0, Disc(13.0, 13.0, R), 0.0)
    assert moved[0] is not one[0] and moved[0] == one[0]


def test_sight_walls_leave_the_edge_map_as_it_was() -> None:
    edges = significant_edges(ROOF, default_rules().orange)
    before = {f.name: getattr(edges, f.name) for f in dataclasses.fields(edges)}
    memo: WallMemo[Obstacle] = WallMemo(Obstacle)
    for x in (5.0, 7.0, 9.0):
        sight_walls(edges, Disc(x, 5.0, R), 6.0, Disc(13.0, 13.0, R), 0.0, memo=memo)
        memo.obstacles(edges, Disc(x, 5.0, R), 6.0, Disc(13.0, 13.0, R), 0.0)
    after = {f.name: getattr(edges, f.name) for f in dataclasses.fields(edges)}
    assert after.keys() == before.keys()
    assert all(after[k] is before[k] for k in before)
    assert len(memo.built) == 3


TWO_STOREY = Path(__file__).resolve().parent.parent / "scenarios" / "elev-two-storey.toml"
HEIGHTS = (0.0, 3.0, 4.0, 8.0)  # the board's tops (and the ground)
spots = st.tuples(st.floats(0.0, 36.0), st.floats(0.0, 36.0), st.sampled_from(HEIGHTS))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(spots, spots), min_size=1, max_size=12), st.booleans())
def test_a_kept_memo_never_changes_walls_or_stand_ins(pairs: list[Any], skip_roofs: bool
                                                      ) -> None:
    """One memo kept across many pairs (elevated bases met again, at other lower
    heights, as either model) gives each pair the walls and stand-ins it gets alone:
    the same values, on a board with stacked tops, a round top and ring edges."""
    edges = board_elevation(load_scenario(TWO_STOREY)).edges
    memo: WallMemo[Obstacle] = WallMemo(Obstacle)
    pieces = tuple(e.piece for e in edges.edges)
    skip = {"building-1", "water-tower"} if skip_roofs else set()
    # Each pair twice, the second time with the bases swapped (the memo met them both ways).
    for (xa, ya, za), (xb, yb, zb) in [*pairs, *[(q, p) for p, q in pairs]]:
        a, b = Disc(xa, ya, R), Disc(xb, yb, 1.0)
        alone = sight_walls(edges, a, za, b, zb, skip)
        kept = memo.obstacles(edges, a, za, b, zb, skip)
        assert [(o.id, o.shape) for o in kept] == [(i, w) for i, w in alone]
        assert footprint_stand_ins(edges, pieces, a, za, b, zb, memo) == footprint_stand_ins(
            edges, pieces, a, za, b, zb)


def test_a_memo_refuses_another_boards_edges() -> None:
    """A memo's entries are numbered by its board's edges: asked with another board's
    map it must not hand back the first board's walls (a roof's wall for a tower)."""
    roof = significant_edges(ROOF, default_rules().orange)
    tower = significant_edges([Surface("tower", shapely.box(0, 0, 10, 10), 6.0)],
                              default_rules().orange)
    memo: WallMemo[Obstacle] = WallMemo(Obstacle)
    sniper, foot = Disc(9.0, 5.0, R), Disc(13.0, 13.0, R)
    assert [o.id for o in memo.obstacles(roof, sniper, 6.0, foot, 0.0)] == ["roof:edge"]
    with pytest.raises(ValueError, match="another board"):
        memo.obstacles(tower, sniper, 6.0, foot, 0.0)
    with pytest.raises(ValueError, match="another board"):
        sight_walls(tower, sniper, 6.0, foot, 0.0, memo=memo)
