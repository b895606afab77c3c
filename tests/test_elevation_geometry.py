"""Surfaces, the elevated relation and significant edges (R-ELEV-1..5, R-UNIT-1).

Expected values are worked out by hand from the drawn boards (lengths of
outline parts), or by an independent oracle that samples heights on both
sides of an outline.
"""

from __future__ import annotations

import doctest
import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

import geometry.elevation.edges as elevation
from geometry.discs import Disc
from geometry.elevation.cover import cover_edges, cover_filter_applies, within_orange_of_target
from geometry.elevation.edges import (
    EdgeMap,
    Surface,
    blocks_at_heights,
    is_elevated,
    is_surface,
    significant_edges,
)
from geometry.elevation.walls import distance_to_edge, sight_edges, sight_walls
from sim.scenario.rules import default_rules

ORANGE = default_rules().orange
R = 0.6  # a 30 mm base is 0.59 in; round numbers keep the hand sums easy


def lengths(m: EdgeMap) -> dict[str, float]:
    return {e.id: round(e.geometry.length, 6) for e in m.edges}


def test_docstring_examples() -> None:
    assert doctest.testmod(elevation).failed == 0


# --- R-ELEV-1 -----------------------------------------------------------------


def test_exactly_orange_higher_is_elevated() -> None:
    """R-ELEV-1: at least Orange higher, so exactly Orange counts."""
    assert is_elevated(ORANGE, 0.0, ORANGE)
    assert is_elevated(6.0 + ORANGE, 6.0, ORANGE)
    assert not is_elevated(ORANGE - 0.01, 0.0, ORANGE)
    assert not is_elevated(0.0, ORANGE, ORANGE)  # the lower one never is


def test_orange_comes_from_the_argument() -> None:
    """The Orange length is rules data: a longer Orange changes the answer."""
    assert is_elevated(2.0, 0.0, 2.0)
    assert not is_elevated(2.0, 0.0, 3.0)


# --- R-ELEV-5 -----------------------------------------------------------------


def test_blocking_piece_blocks_only_when_both_bases_are_below_its_top() -> None:
    assert blocks_at_heights(1.5, 0.0, 0.0)
    assert not blocks_at_heights(1.5, 6.0, 0.0)  # a shot from a roof
    assert not blocks_at_heights(1.5, 0.0, 6.0)  # and back
    assert not blocks_at_heights(4.0, 4.0, 0.0)  # at its top is not below it
    assert blocks_at_heights(4.0, 3.99, 0.0)


def test_blocking_piece_without_height_blocks_at_any_height() -> None:
    """Decision (docs/elevation.md): height 0 means not given, not flat."""
    assert blocks_at_heights(0.0, 6.0, 0.0)


def test_area_terrain_is_no_surface() -> None:
    assert is_surface(4.0, area=False)
    assert not is_surface(4.0, area=True)
    assert not is_surface(0.0, area=False)


# --- R-ELEV-2: deriving the edges ---------------------------------------------


def test_whole_outline_of_a_tall_building_is_significant() -> None:
    m = significant_edges([Surface("b", shapely.box(0, 0, 10, 6), 4.0)], ORANGE)
    assert lengths(m) == {"b:edge": 32.0}
    assert len(m.edge("b").sides) == 4
    assert all(s.top == 4.0 for s in m.sides)


def test_a_drop_just_under_orange_is_not_significant() -> None:
    low = Surface("low", shapely.box(0, 0, 4, 4), ORANGE - 0.01)
    exact = Surface("exact", shapely.box(10, 0, 14, 4), ORANGE)
    assert lengths(significant_edges([low, exact], ORANGE)) == {"exact:edge": 16.0}


def test_lower_neighbour_fills_the_drop_where_it_touches() -> None:
    """A crate 1 lower against the wall: no drop along that stretch of wall."""
    house = Surface("house", shapely.box(0, 0, 10, 10), 6.0)
    crate = Surface("crate", shapely.box(10, 2, 12, 5), 5.0)
    m = significant_edges([house, crate], ORANGE)
    # House: 40 minus the 3 in of wall behind the crate; crate: its three free sides.
    assert lengths(m) == {"house:edge": 37.0, "crate:edge": 7.0}


def test_neighbour_an_orange_lower_leaves_the_wall_significant() -> None:
    high = Surface("high", shapely.box(0, 0, 4, 4), 6.0)
    low = Surface("low", shapely.box(4, 0, 8, 4), 6.0 - ORANGE)
    m = significant_edges([high, low], ORANGE)
    # The shared wall belongs to the higher piece only.
    assert lengths(m) == {"high:edge": 16.0, "low:edge": 12.0}


def test_stacked_gantry_on_building() -> None:
    """A gantry (top 8) flush with a building's corner (top 4): each place named once."""
    building = Surface("building", shapely.box(0, 0, 10, 10), 4.0)
    gantry = Surface("gantry", shapely.box(0, 0, 4, 4), 8.0)
    m = significant_edges([building, gantry], ORANGE)
    # The 8 in of the building's wall under the gantry are the gantry's edge.
    assert lengths(m) == {"building:edge": 32.0, "gantry:edge": 16.0}


def test_stacked_upper_storey_less_than_orange_above_the_roof() -> None:
    building = Surface("building", shapely.box(0, 0, 10, 10), 4.0)
    loft = Surface("loft", shapely.box(0, 0, 4, 4), 4.0 + ORANGE / 2)
    m = significant_edges([building, loft], ORANGE)
    # The loft's inner sides drop only to the roof; its outer sides drop to the ground.
    assert lengths(m) == {"building:edge": 32.0, "loft:edge": 8.0}


def test_crate_on_a_roof_touching_the_parapet_from_inside_changes_nothing() -> None:
    house = Surface("house", shapely.box(0, 0, 10, 10), 6.0)
    crate = Surface("crate", shapely.box(0, 2, 1, 3), 5.0)  # lower than the roof: hidden
    assert lengths(significant_edges([house, crate], ORANGE)) == {"house:edge": 40.0}


def test_courtyard_hole_has_an_edge() -> None:
    fort = Surface("fort", shapely.box(0, 0, 10, 10).difference(shapely.box(3, 3, 7, 7)), 5.0)
    m = significant_edges([fort], ORANGE)
    assert lengths(m) == {"fort:edge": 56.0}
    assert len(m.edge("fort").sides) == 8


def test_hairline_crack_between_equal_tops_is_no_drop() -> None:
    a = Surface("a", shapely.box(0, 0, 4, 4), 6.0)
    b = Surface("b", shapely.box(4 + 1e-9, 0, 8, 4), 6.0)
    m = significant_edges([a, b], ORANGE)
    assert lengths(m) == {"a:edge": 12.0, "b:edge": 12.0}


def test_neighbour_touching_at_a_point_leaves_the_side_whole() -> None:
    """A diamond touching the wall at one point must not cut a gap into it."""
    house = Surface("house", shapely.box(0, 0, 10, 10), 6.0)
    diamond = Surface("d", shapely.Polygon([(10, 5), (11, 4), (12, 5), (11, 6)]), 6.0)
    m = significant_edges([house, diamond], ORANGE)
    east = [s for s in m.edge("house").sides if s.line.coords[0][0] == s.line.coords[-1][0] == 10]
    assert len(east) == 1
    assert math.isclose(east[0].line.length, 10.0)


def test_sides_of_a_ring_form_one_closed_chain() -> None:
    m = significant_edges([Surface("b", shapely.box(0, 0, 10, 10), 4.0)], ORANGE)
    assert sorted(m.successors) == [0, 1, 2, 3]
    # Walking the successors from side 0 visits every side and comes back.
    k, seen = 0, []
    for _ in range(4):
        seen.append(k)
        k = m.successors[k]
    assert k == 0 and sorted(seen) == [0, 1, 2, 3]


def test_round_tower_has_a_closed_edge() -> None:
    tower = Surface("tower", shapely.Point(5, 5).buffer(3, quad_segs=16), 8.0)
    m = significant_edges([tower], ORANGE)
    assert math.isclose(m.edge("tower").geometry.length, tower.footprint.length, rel_tol=1e-9)


def level(surfaces: list[Surface], x: float, y: float) -> float:
    """The top seen from above at a point: the highest footprint containing it."""
    p = shapely.Point(x, y)
    return max([s.height for s in surfaces if s.footprint.contains(p)], default=0.0)


rects = st.lists(
    st.tuples(
        st.integers(0, 8), st.integers(0, 8), st.integers(1, 5), st.integers(1, 5),
        st.sampled_from([1.0, 1.5, 2.0, 3.0, 4.0, 5.5, 6.0, 8.0]),
    ),
    min_size=1, max_size=4,
)


@settings(max_examples=40, deadline=None)
@given(rects)
def test_edges_match_sampled_drops(spec: list[tuple[int, int, int, int, float]]) -> None:
    """R-ELEV-2 oracle: at sample points on each outline, look just inside and outside.

    A point of piece i's outline lies on i's significant edge exactly when no
    higher top covers it, the top just inside is i's, and the level just
    outside is at least Orange lower.
    """
    surfaces = [
        Surface(f"p{k}", shapely.box(x, y, x + w, y + h), z)
        for k, (x, y, w, h, z) in enumerate(spec)
    ]
    m = significant_edges(surfaces, ORANGE)
    by_id = {e.piece: e.geometry for e in m.edges}
    d = 1e-4
    for s in surfaces:
        x0, y0, x1, y1 = s.footprint.bounds
        for t in (0.13, 0.37, 0.61, 0.89):
            # (point on the outline, outward normal) for each of the four sides
            for (px, py), (nx, ny) in (
                ((x0 + t * (x1 - x0), y0), (0, -1)), ((x0 + t * (x1 - x0), y1), (0, 1)),
                ((x0, y0 + t * (y1 - y0)), (-1, 0)), ((x1, y0 + t * (y1 - y0)), (1, 0)),
            ):
                p = shapely.Point(px, py)
                if any(o is not s and o.footprint.boundary.distance(p) < 1e-3 for o in surfaces):
                    continue  # too close to another outline to sample cleanly
                inside = level(surfaces, px - nx * d, py - ny * d)
                outside = level(surfaces, px + nx * d, py + ny * d)
                expected = inside <= s.height and s.height - outside >= ORANGE - 1e-9
                geom = by_id.get(s.id)
                found = geom is not None and geom.distance(p) < 1e-9
                assert found == expected, (s.id, px, py, inside, outside)


def test_distance_to_edge_is_from_the_base_rim() -> None:
    m = significant_edges([Surface("b", shapely.box(0, 0, 10, 10), 4.0)], ORANGE)
    assert math.isclose(distance_to_edge(Disc(5.0, 3.0, R), m.edge("b")), 3.0 - R)
    east = next(s for s in m.sides if s.line.bounds[0] == 10.0)
    assert math.isclose(distance_to_edge(Disc(5.0, 3.0, R), east), 5.0 - R)


# --- R-ELEV-2: which edges join a sight query ---------------------------------


ROOF = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], ORANGE)
FOOT = Disc(12.0, 5.0, R)


EAST = shapely.LineString([(10, 0), (10, 10)])


def east_wall_joins(walls: tuple[elevation.EdgeSide, ...]) -> bool:
    return any(math.isclose(w.line.intersection(EAST).length, 10.0) for w in walls)


def test_edge_joins_when_the_elevated_model_is_more_than_orange_back() -> None:
    sniper = Disc(10.0 - R - ORANGE - 0.01, 5.0, R)
    walls = sight_edges(ROOF, sniper, 6.0, FOOT, 0.0)
    assert [w.id for w in walls] == ["roof:edge"]
    assert east_wall_joins(walls)


def test_edge_within_orange_of_the_elevated_model_stays_out() -> None:
    at_orange = Disc(10.0 - R - ORANGE, 5.0, R)  # exactly Orange: "more than" fails
    walls = sight_edges(ROOF, at_orange, 6.0, FOOT, 0.0)
    assert not east_wall_joins(walls)
    assert math.isclose(sum(w.line.length for w in walls), 30.0)  # the three far sides


def test_no_edges_without_an_elevated_model() -> None:
    sniper = Disc(5.0, 5.0, R)
    assert sight_edges(ROOF, sniper, 6.0, FOOT, 6.0 - ORANGE + 0.01) == ()


def test_edge_does_not_hide_a_model_standing_at_its_top() -> None:
    """An edge hides only what is below its top: a model on an equal roof is seen."""
    other = Disc(12.0, 5.0, R)  # standing on something of height 6, far below the sniper
    assert sight_edges(ROOF, Disc(5.0, 5.0, R), 6.0 + ORANGE, other, 6.0) == ()


def test_edge_choice_is_symmetric() -> None:
    sniper = Disc(5.0, 5.0, R)
    one = sight_edges(ROOF, sniper, 6.0, FOOT, 0.0)
    other = sight_edges(ROOF, FOOT, 0.0, sniper, 6.0)
    assert [w.line.wkt for w in one] == [w.line.wkt for w in other]


def test_consecutive_sides_come_back_as_one_polyline() -> None:
    """A sight line through a roof corner must meet one wall, not two loose ends."""
    sniper = Disc(5.0, 5.0, R)
    corner_target = Disc(12.0, 12.0, R)
    walls = sight_edges(ROOF, sniper, 6.0, corner_target, 0.0)
    # Every side is more than Orange from the sniper: the whole ring, closed.
    assert len(walls) == 1
    line = walls[0].line
    assert line.is_closed and math.isclose(line.length, 40.0)


def test_nearby_side_is_cut_out_of_the_ring() -> None:
    sniper = Disc(10.0 - R - 1.0, 5.0, R)  # 1 in from the east wall
    walls = sight_edges(ROOF, sniper, 6.0, Disc(5.0, 12.0, R), 0.0)
    # North, west and south walls in one open chain; the east wall is left out.
    assert len(walls) == 1
    assert list(walls[0].line.coords) == [(10.0, 10.0), (0.0, 10.0), (0.0, 0.0), (10.0, 0.0)]


def test_wall_of_a_piece_is_the_same_value_for_every_target() -> None:
    """The wall depends on the elevated base only: batched and repeated queries share it."""
    sniper = Disc(5.0, 5.0, R)
    one = sight_walls(ROOF, sniper, 6.0, Disc(12.0, 5.0, R), 0.0)
    other = sight_walls(ROOF, sniper, 6.0, Disc(5.0, 13.0, R), 0.0)
    assert one == other and one[0][0] == "roof:edge"


def test_edges_out_of_reach_of_every_sight_line_stay_out() -> None:
    far_roof = significant_edges(
        [Surface("roof", shapely.box(0, 0, 10, 10), 6.0),
         Surface("shed", shapely.box(30, 30, 32, 32), 3.0)], ORANGE)
    walls = sight_walls(far_roof, Disc(5.0, 5.0, R), 6.0, Disc(12.0, 5.0, R), 0.0)
    assert [i for i, _ in walls] == ["roof:edge"]


def test_edges_of_a_piece_that_blocks_anyway_stay_out() -> None:
    walls = sight_walls(ROOF, Disc(5.0, 5.0, R), 6.0, Disc(12.0, 5.0, R), 0.0, skip={"roof"})
    assert walls == ()


# --- R-ELEV-3 and R-ELEV-4: cover ---------------------------------------------


def test_edge_near_the_elevated_target_is_cover_once() -> None:
    target = Disc(9.0, 5.0, R)  # within Orange of the east wall
    attacker = Disc(14.0, 5.0, R)
    cover = cover_edges(ROOF, attacker, 0.0, target, 6.0, 0.01)
    assert cover.counted == ("roof:edge",)


def test_edge_far_from_the_elevated_target_is_no_cover() -> None:
    cover = cover_edges(ROOF, Disc(14.0, 5.0, R), 0.0, Disc(5.0, 5.0, R), 6.0, 0.01)
    assert cover.counted == ()
    assert [e for e, _ in cover.ignored] == ["roof:edge"]


def test_edge_is_no_cover_for_a_shot_from_above() -> None:
    cover = cover_edges(ROOF, Disc(9.0, 5.0, R), 6.0, Disc(14.0, 5.0, R), 0.0, 0.01)
    assert cover.counted == () and cover.ignored == ()


def test_edge_high_above_a_base_against_the_wall_does_not_touch_it() -> None:
    """R-COV-2 (revised Decision): an edge touches at its own height. The 6 in roof edge
    lies over the outline of a ground base standing against the wall, but 6 in above
    it: it does not touch that base, and counts as cover (R-ELEV-3)."""
    attacker = Disc(10.0 + R, 5.0, R)  # back against the wall
    cover = cover_edges(ROOF, attacker, 0.0, Disc(9.0, 5.0, R), 6.0, 0.01)
    assert cover.counted == ("roof:edge",) and cover.ignored == ()
    assert cover.high == ("roof:edge",)


def test_edge_less_than_orange_above_a_touching_base_is_ignored() -> None:
    """R-COV-2 still holds for an edge within Orange above the attacker's base: from
    4.5 in (1.5 in below the 6 in roof edge) against the wall, at a target at 8 in."""
    attacker = Disc(10.0 + R, 5.0, R)
    cover = cover_edges(ROOF, attacker, 4.5, Disc(9.0, 5.0, R), 8.0, 0.01)
    assert cover.counted == () and cover.high == ()
    assert cover.ignored == (("roof:edge", "touches the attacker's base (R-COV-2)"),)


def test_elevated_shooter_cover_filter() -> None:
    """R-ELEV-4 applies to an elevated shooter only, and keeps cover near the target."""
    assert cover_filter_applies(6.0, 0.0, ORANGE)
    assert not cover_filter_applies(0.0, 6.0, ORANGE)
    target = Disc(20.0, 5.0, R)
    near = shapely.box(20.0 + R + ORANGE - 0.5, 4, 20.0 + R + ORANGE + 1, 6)
    far = shapely.box(20.0 + R + ORANGE + 0.01, 4, 25, 6)
    assert within_orange_of_target(near, target, ORANGE)
    assert not within_orange_of_target(far, target, ORANGE)
    assert within_orange_of_target(Disc(20.0 + 2 * R + ORANGE, 5.0, R), target, ORANGE)
    assert not within_orange_of_target(Disc(20.0 + 2 * R + ORANGE + 0.01, 5.0, R), target, ORANGE)


@pytest.mark.parametrize("nudge", [0.0, 1e-12, -1e-12, 5e-10, -5e-10, 2e-9, -2e-9, 0.3])
def test_a_footprints_box_never_changes_the_orange_filter(nudge: float) -> None:
    """R-ELEV-4 with the footprint's bounds given (the rules glue keeps them) says what
    the exact distance says, for targets exactly Orange (plus a radius) from a corner or a
    side, and nudged across that distance by less than EPS and by more (where a margin
    that cut into EPS would show). Every target of a grid from each corner is asked."""
    step = (ORANGE + R) / 8  # whole steps from a corner land exactly Orange + R away
    square = shapely.box(10.0, 10.0, 13.0, 12.0)
    diamond = shapely.Polygon([(11.5, 9.0), (14.0, 11.0), (11.5, 13.0), (9.0, 11.0)])
    for foot in (square, diamond):  # (a footprint that is not its own bounds too)
        bounds = tuple(foot.bounds)
        for cx, cy in shapely.get_coordinates(foot.exterior)[:-1].tolist():
            for dx in range(-10, 11):
                for dy in range(-10, 11):
                    x, y = cx + dx * step, cy + dy * step
                    for target in (Disc(x + nudge, y, R), Disc(x, y + nudge, R)):
                        assert within_orange_of_target(foot, target, ORANGE, bounds) == (
                            within_orange_of_target(foot, target, ORANGE)), (foot, target)


# --- raising the whole board --------------------------------------------------


boards = st.lists(
    st.tuples(
        st.integers(0, 12), st.integers(0, 12), st.integers(1, 6), st.integers(1, 6),
        st.sampled_from([1.0, 2.0, 3.0, 4.0, 6.0, 8.0]),
    ),
    min_size=1, max_size=4,
)


@settings(max_examples=25, deadline=None)
@given(
    boards,
    st.tuples(st.floats(0, 20), st.floats(0, 20), st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0])),
    st.tuples(st.floats(0, 20), st.floats(0, 20), st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0])),
    st.sampled_from([2.0, 3.5, 10.0]),
)
def test_raising_everything_on_a_plateau_changes_no_edge_answer(
    spec: list[tuple[int, int, int, int, float]],
    a: tuple[float, float, float], b: tuple[float, float, float], lift: float,
) -> None:
    """Everything on a plateau ``lift`` high (a stacked piece under all): same answers."""
    pieces = [(f"p{k}", shapely.box(x, y, x + w, y + h), z) for k, (x, y, w, h, z) in
              enumerate(spec)]
    low = significant_edges([Surface(i, f, z) for i, f, z in pieces], ORANGE)
    plateau = Surface("plateau", shapely.box(-50, -50, 50, 50), lift)
    high = significant_edges(
        [plateau, *(Surface(i, f, z + lift) for i, f, z in pieces)], ORANGE
    )
    da, db = Disc(a[0], a[1], R), Disc(b[0], b[1], R)

    def shape(walls: tuple[elevation.EdgeSide, ...]) -> list[tuple[str, float]]:
        return sorted((w.id, round(w.line.length, 6)) for w in walls)

    assert shape(sight_edges(low, da, a[2], db, b[2])) == shape(
        sight_edges(high, da, a[2] + lift, db, b[2] + lift)
    )
    lc = cover_edges(low, da, a[2], db, b[2], 0.01)
    hc = cover_edges(high, da, a[2] + lift, db, b[2] + lift, 0.01)
    assert lc == hc
