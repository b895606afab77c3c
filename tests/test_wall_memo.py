"""The walls of significant edges kept by their owner (WallMemo, issue 15): the
frozen EdgeMap is never written, and a sight query meets the same obstacle for the
same wall (R-ELEV-2)."""

from __future__ import annotations

import dataclasses

import shapely

from geometry.discs import Disc
from geometry.elevation.edges import Surface, significant_edges
from geometry.elevation.wall_memo import WallMemo
from geometry.elevation.walls import sight_walls
from geometry.sight.index import Obstacle
from sim.scenario.rules import default_rules

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
