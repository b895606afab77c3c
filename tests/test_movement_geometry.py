"""Movement geometry: swept-base checks, the squeeze, the board edge, push back
and the reachable area (R-MOV-1..5, R-EDGE-1, R-EDGE-3, R-UNIT-2).

Expected values come from hand geometry (radii, gaps and distances worked
out in the comments), never from the code under test."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.movement.obstacles import MoveObstacle, ObstacleSet
from geometry.movement.paths import Level, check_legs, edge_crossing
from geometry.movement.push import push_back
from geometry.movement.reach import reachable_area

TOL = 0.01
R = 15 / 25.4  # a 30 mm base (R-UNIT-1)


def level(*blocking: MoveObstacle, difficult: tuple[MoveObstacle, ...] = (),
          occupied: tuple[MoveObstacle, ...] = (), board: tuple[float, float] = (30.0, 20.0),
          floor: shapely.Geometry | None = None) -> Level:
    return Level(board, ObstacleSet(blocking), ObstacleSet(difficult), ObstacleSet(occupied),
                 tolerance=TOL, floor=floor)


def box(name: str, x0: float, y0: float, x1: float, y1: float) -> MoveObstacle:
    return MoveObstacle.polygon(name, shapely.box(x0, y0, x1, y1))


# --- R-MOV-3: impassable pieces ---------------------------------------------------

def test_wall_refused_and_named_detour_legal() -> None:
    lvl = level(box("wall", 10, 0, 11, 12))
    rep = check_legs(lvl, R, [(5, 6), (15, 6)])
    assert not rep.legal and rep.blocked_by == ("wall",) and "'wall'" in rep.reason
    # The waypoint is one radius above the wall's end, but the legs cut its
    # corners (10, 12) and (11, 12): refused.
    assert not check_legs(lvl, R, [(5, 6), (10.5, 12 + R), (15, 6)]).legal
    # Waypoints diagonally off both corners: every leg keeps r from the wall.
    clear = check_legs(lvl, R, [(5, 6), (10 - R, 12 + R), (11 + R, 12 + R), (15, 6)])
    assert clear.legal, clear.reason
    expected = (math.dist((5, 6), (10 - R, 12 + R)) + (1 + 2 * R)
                + math.dist((11 + R, 12 + R), (15, 6)))
    assert clear.length == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("gap", "legal"), [
    (2 * R, True),  # exactly one base wide
    (2 * R - 0.019, True),  # 0.0095 in overlap each side: within the touch tolerance
    (2 * R - 0.025, False),  # a hair narrower: 0.0125 in overlap each side
])
def test_squeeze_between_two_pieces(gap: float, legal: bool) -> None:
    """R-MOV-3 with R-UNIT-2: a gap one base wide is passable, narrower is not."""
    lvl = level(box("south", 10, 0, 11, 9), box("north", 10, 9 + gap, 11, 20))
    y = 9 + gap / 2
    rep = check_legs(lvl, R, [(7, y), (14, y)])
    assert rep.legal is legal, rep.reason
    if not legal:
        assert set(rep.blocked_by) == {"north", "south"}


def test_exact_circles_not_polygons() -> None:
    """A post is a circle: passing at exactly r + R from its centre is legal."""
    post = MoveObstacle.circle("post", (10.0, 10.0), 1.0)
    lvl = level(post)
    assert check_legs(lvl, R, [(5, 10 - 1 - R), (15, 10 - 1 - R)]).legal
    assert check_legs(lvl, R, [(5, 10 - 1 - R + TOL), (15, 10 - 1 - R + TOL)]).legal
    assert not check_legs(lvl, R, [(5, 10 - 1 - R + 0.011), (15, 10 - 1 - R + 0.011)]).legal


# --- R-MOV-1: difficult pieces ---------------------------------------------------------

def test_difficult_crossed_reported_touching_is_not_crossing() -> None:
    mud = box("mud", 10, 0, 12, 8)
    lvl = level(difficult=(mud,))
    assert check_legs(lvl, R, [(5, 4), (15, 4)]).difficult == ("mud",)
    # Running along the mud with the base exactly touching it: not crossing.
    assert check_legs(lvl, R, [(5, 8 + R), (15, 8 + R)]).difficult == ()
    # Starting on it counts (the base passes over it).
    assert check_legs(lvl, R, [(11, 4), (11, 12)]).difficult == ("mud",)


# --- R-MOV-4: bases -----------------------------------------------------------------

def test_friend_crossed_but_not_ended_on() -> None:
    friend = MoveObstacle.circle("friend", (10.0, 5.0), R)
    lvl = level(occupied=(friend,))
    assert check_legs(lvl, R, [(5, 5), (15, 5)]).legal
    rep = check_legs(lvl, R, [(5, 5), (10.5, 5)])
    assert not rep.legal and rep.ends_on == ("friend",)
    # Ending in base contact (centres 2r apart) is fine.
    assert check_legs(lvl, R, [(5, 5), (10 - 2 * R, 5)]).legal


# --- R-EDGE-1: the board edge -----------------------------------------------------------

def test_edge_crossing_point_and_length() -> None:
    lvl = level(board=(20.0, 10.0))
    # Touching the edge is not crossing.
    assert check_legs(lvl, R, [(5, 5), (R, 5)]).legal
    rep = check_legs(lvl, R, [(5, 5), (-3, 5)])
    assert not rep.legal and rep.edge_at is not None and rep.edge_after is not None
    # The centre is first off when it passes r - tol from the edge.
    assert rep.edge_at[0] == pytest.approx(R - TOL, abs=1e-12)
    assert rep.edge_after == pytest.approx(5 - (R - TOL), abs=1e-12)
    # Part-way through a movement counts too: out and back in.
    assert edge_crossing((20.0, 10.0), [(5, 1), (5, 0.2), (6, 5)], R, TOL) is not None


# --- above the ground: the floor -------------------------------------------------------

def test_floor_keeps_the_base_on_its_surface() -> None:
    roof = shapely.box(5, 5, 15, 15)
    lvl = level(floor=roof)
    assert check_legs(lvl, R, [(6, 6), (14, 14)]).legal
    # Stepping to the lip (centre off the roof, base still on it) is fine in transit.
    assert check_legs(lvl, R, [(10, 10), (5 - R, 10)], rest=False).legal
    assert not check_legs(lvl, R, [(10, 10), (5 - R, 10)]).legal
    assert not check_legs(lvl, R, [(10, 10), (3, 10)], rest=False).legal


# --- R-EDGE-3: push back -----------------------------------------------------------------

def test_push_stops_touching_a_wall() -> None:
    wall = ObstacleSet((box("wall", 8, 0, 9, 10),))
    res = push_back((20.0, 20.0), wall, R, (5.0, 5.0), (3.0, 5.0), 6.0, TOL)
    # The base stops when it touches the wall: centre at 8 - r.
    assert res.end[0] == pytest.approx(8 - R, abs=1e-8)
    assert res.stopped_by == ("wall",) and not res.into_edge
    assert res.travelled == pytest.approx(3 - R, abs=1e-8)


def test_push_stops_at_a_base_and_goes_straight_away() -> None:
    other = ObstacleSet((MoveObstacle.circle("other", (9.0, 9.0), R),))
    res = push_back((20.0, 20.0), other, R, (5.0, 5.0), (4.0, 4.0), 10.0, TOL)
    # Along the diagonal until the centres are 2r apart.
    stop = 4 * math.sqrt(2) - 2 * R
    assert res.travelled == pytest.approx(stop, abs=1e-8)
    assert res.end[0] == pytest.approx(res.end[1], abs=1e-12)
    assert res.stopped_by == ("other",)


def test_push_into_the_edge() -> None:
    res = push_back((20.0, 20.0), ObstacleSet(), R, (2.0, 5.0), (4.0, 5.0), 2.0, TOL)
    assert res.into_edge and res.end[0] == pytest.approx(R, abs=1e-12)
    again = push_back((20.0, 20.0), ObstacleSet(), R, res.end, (4.0, 5.0), 2.0, TOL)
    assert again.into_edge and again.travelled == pytest.approx(0.0, abs=1e-12)
    # Ending exactly at the edge is not a push over it.
    exact = push_back((20.0, 20.0), ObstacleSet(), R, (2.0 + R, 5.0), (4.0, 5.0), 2.0, TOL)
    assert not exact.into_edge
    # Pushed parallel to an edge it touches: nothing is pushed over it.
    along = push_back((20.0, 20.0), ObstacleSet(), R, (R, 5.0), (R, 3.0), 2.0, TOL)
    assert not along.into_edge and along.end == pytest.approx((R, 7.0))


# --- the reachable area ----------------------------------------------------------------

def test_open_ground_reach_is_the_disc() -> None:
    lvl = level(board=(40.0, 40.0))
    reach = reachable_area(lvl, R, (20.0, 20.0), 6.0)
    full = math.pi * 36
    assert full * 0.995 < reach.area.area <= full
    assert reach.area.covers(shapely.Point(25.9, 20.0))
    assert not reach.area.covers(shapely.Point(26.01, 20.0))


def test_reach_goes_around_a_wall() -> None:
    """Behind a wall only the way round counts (geodesic, not straight distance)."""
    lvl = level(box("wall", 9, 2, 10, 18), board=(30.0, 20.0))
    reach = reachable_area(lvl, R, (6.0, 10.0), 12.0)
    # (13, 10) is 7 in away in a straight line but the way round the wall's
    # end (9 - r, 18 + r) ... (10 + r, 18 + r) is longer than 12.
    around = (math.dist((6, 10), (9 - R, 18 + R)) + 1 + 2 * R
              + math.dist((10 + R, 18 + R), (13, 10)))
    assert around > 12
    assert not reach.area.covers(shapely.Point(13, 10))
    # (11, 19.3) is reachable round the end with room to spare.
    assert reach.area.covers(shapely.Point(11, 19.2))
    path = reach.path_to((11, 19.2))
    assert path is not None
    rep = check_legs(lvl, R, path)
    assert rep.legal and rep.length <= 12


def test_reach_avoiding_difficult_ground() -> None:
    mud = box("mud", 10, 0, 12, 20)
    lvl = level(difficult=(mud,), board=(30.0, 20.0))
    reach = reachable_area(lvl, R, (6.0, 10.0), 10.0, avoid_difficult=True)
    assert not reach.area.covers(shapely.Point(14, 10))
    assert reach.area.covers(shapely.Point(9, 10))
    assert reachable_area(lvl, R, (11.0, 10.0), 10.0, avoid_difficult=True).area.is_empty


def _random_level(data: st.DataObject) -> tuple[Level, tuple[float, float]]:
    rng = np.random.default_rng(data.draw(st.integers(0, 10_000), label="board seed"))
    items: list[MoveObstacle] = []
    diff: list[MoveObstacle] = []
    occ: list[MoveObstacle] = []
    for i in range(int(rng.integers(3, 9))):
        x, y = rng.uniform(2, 22, 2)
        kind = rng.integers(0, 4)
        if kind == 0:
            items.append(MoveObstacle.circle(f"post-{i}", (x, y), float(rng.uniform(0.3, 1.5))))
        elif kind == 1:
            w, h = rng.uniform(0.3, 5, 2)
            items.append(box(f"block-{i}", x, y, x + w, y + h))
        elif kind == 2:
            w, h = rng.uniform(1, 4, 2)
            diff.append(box(f"mud-{i}", x, y, x + w, y + h))
        else:
            occ.append(MoveObstacle.circle(f"friend-{i}", (x, y), R))
    lvl = Level((24.0, 24.0), ObstacleSet(tuple(items)), ObstacleSet(tuple(diff)),
                ObstacleSet(tuple(occ)), tolerance=TOL)
    for _ in range(200):
        s = (float(rng.uniform(1, 23)), float(rng.uniform(1, 23)))
        if check_legs(lvl, R, [s], rest=False).legal:
            return lvl, s
    return lvl, (12.0, 12.0)


@settings(max_examples=12, deadline=None)
@given(st.data(), st.sampled_from([4.0, 6.0, 10.0]), st.booleans())
def test_property_reach_agrees_with_the_move_check(
    data: st.DataObject, length: float, avoid: bool
) -> None:
    """Every end point in the area has a path the move check accepts within the
    length; every point outside is refused for a straight move, up to grazing
    and the length margin of the documented approximation (docs/movement.md)."""
    lvl, start = _random_level(data)
    if not check_legs(lvl, R, [start], rest=False).legal:
        return
    reach = reachable_area(lvl, R, start, length, avoid_difficult=avoid)
    rng = np.random.default_rng(7)
    pts = rng.uniform(start[0] - length - 1, start[0] + length + 1, (400, 2))
    pts[:, 1] = rng.uniform(start[1] - length - 1, start[1] + length + 1, 400)
    inside = shapely.contains_xy(reach.area, pts[:, 0], pts[:, 1])
    for (x, y), ok in zip(pts.tolist(), inside.tolist(), strict=True):
        p = (x, y)
        if ok:
            path = reach.path_to(p)
            assert path is not None, p
            rep = check_legs(lvl, R, path)
            assert rep.legal, (p, path, rep.reason)
            assert rep.length <= length + 1e-9
            if avoid:
                assert rep.difficult == ()
            continue
        rep = check_legs(lvl, R, [start, p])
        if not rep.legal or rep.length > length - 0.02 or (avoid and rep.difficult):
            continue
        # Legal, short and outside: only allowed where the straight leg grazes
        # something within the approximation's margin.
        seg = shapely.LineString([start, p])
        margins = [float(o.clearance(seg).min()) - (R - TOL)
                   for o in (lvl.blocking, lvl.difficult if avoid else ObstacleSet())
                   if len(o)]
        occ = [float(shapely.distance(shapely.Point(p), ob.shape)) - ob.inflate - (R - TOL)
               for ob in lvl.occupied]
        edge = min(p[0] - R, p[1] - R, 24 - R - p[0], 24 - R - p[1]) + TOL
        assert min([*margins, *occ, edge]) < 0.03, (p, "legal but outside the area")


@pytest.mark.parametrize("dense", [True, False], ids=["array", "tree"])
def test_clearance_queries_name_every_close_obstacle(dense: bool, monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """The legality and reach of every move rest on "which obstacles come within the
    base's radius of this leg" (R-MOV-2): both ways of finding the candidates (bounds
    compared at once for few pairs, the tree for many) must name the same obstacles as
    the exact distance to each, bounds that only touch included."""
    import geometry.movement.obstacles as obstacles

    monkeypatch.setattr(obstacles, "DENSE_PAIRS", 10**9 if dense else 0)
    items = [box(f"b{i}{j}", i * 3, j * 3, i * 3 + 2, j * 3 + 2)
             for i in range(4) for j in range(4)]
    items += [MoveObstacle.circle(f"c{i}", (i * 3 + 2.5, 11.5), 0.5) for i in range(4)]
    obs = ObstacleSet(tuple(items))
    legs = [shapely.LineString([(x, y), (x + dx, y + dy)])
            for x in (0.0, 2.0, 2.5, 5.0) for y in (0.0, 2.5, 11.0)
            for dx, dy in ((3.0, 0.0), (0.0, 3.0), (4.0, 4.0))] + [shapely.Point(2.5, 2.5)]
    for threshold in (0.0, 0.5, 1.0):
        rows = obs.closer_than(legs, threshold)
        blocked = obs.blocked(legs, threshold)
        for leg, row, hit in zip(legs, rows, blocked, strict=True):
            exact = [k for k, o in enumerate(items)
                     if shapely.distance(leg, o.shape) - o.inflate < threshold - 1e-9]
            assert row == exact, (leg.wkt, threshold)
            assert hit == bool(exact)


def test_end_checks_against_bases_name_what_point_geometries_name() -> None:
    """Where a move ends against the bases it may not end on (R-MOV-4) is asked with
    bare centres (``points_closer_than``): the same bases as the point geometries'
    exact distances, touching within the tolerance included, and the general path
    for a set that is not all circles."""
    rng = np.random.default_rng(7)
    bases = [MoveObstacle.circle(f"m{i}", tuple(rng.uniform(0, 24, 2)), rng.choice([0.5, 0.75]))
             for i in range(12)]
    ends = [tuple(rng.uniform(0, 24, 2)) for _ in range(300)]
    # ends exactly at a touching distance of the first base, and on its centre
    c, rad = bases[0].shape, bases[0].inflate
    ends += [(c.x + rad + 0.5, c.y), (c.x, c.y - rad - 0.49), (c.x, c.y)]
    mixed = ObstacleSet((*bases, box("crate", 10, 10, 12, 12)))
    for obs in (ObstacleSet(tuple(bases)), mixed):
        for threshold in (0.49, 0.5, 0.74):
            rows = obs.points_closer_than(ends, threshold)
            for p, row in zip(ends, rows, strict=True):
                exact = [k for k, o in enumerate(obs)
                         if shapely.distance(shapely.Point(p), o.shape) - o.inflate
                         < threshold - 1e-9]
                assert row == exact, (p, threshold)
