"""The line of cover and what counts as cover (R-COV-1, R-COV-2, R-COV-4).

The geometry (:mod:`geometry.cover`) says how the line meets each object; whether
it counts is asked of :func:`sim.shooting.cover_count.count_cover`, the function
every shot of the game (engine, CLI, window, maps, AI) counts cover with, fed the
same bits the game feeds it (:meth:`geometry.cover.table.CoverTable.hits`).
"""

from __future__ import annotations

from itertools import product

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.cover.kernel import ENTERS, PASSES, TOUCHES
from geometry.cover.lines import CoverObject, line_of_cover
from geometry.cover.table import CoverTable
from geometry.discs import Disc
from sim.shooting.cover_count import count_cover, gives_cover
from sim.shooting.shot_analysis import ENTERS_ONLY, TOUCHES_ATTACKER, IgnoredCover

TOL = 0.01  # R-UNIT-2 touch tolerance
A, B = Disc(0, 0, 0.6), Disc(10, 0, 0.6)


def counted(a: Disc, b: Disc, objects: list[CoverObject]) -> tuple[str, ...]:
    """The ids that give cover to ``b`` against ``a``, as the game counts them."""
    return count(a, b, objects)[0]


def count(a: Disc, b: Disc, objects: list[CoverObject]
          ) -> tuple[tuple[str, ...], tuple[IgnoredCover, ...]]:
    codes = CoverTable(objects).hits([(a, b)], [range(len(objects))], TOL)[0]
    return count_cover(objects, codes)


@pytest.mark.parametrize("enters, passes, touches, area", [
    c for c in product([False, True], repeat=4) if c[0] or not c[1]])  # passing enters
def test_gives_cover_is_the_rule(enters: bool, passes: bool, touches: bool, area: bool) -> None:
    """R-COV-2: passed through and not touching the attacker; R-COV-4: area terrain
    merely entered (and not touching) counts too."""
    code = (ENTERS if enters else 0) | (PASSES if passes else 0) | (TOUCHES if touches else 0)
    rule = not touches and (passes or (area and enters))
    assert gives_cover(code, area) is rule


def test_crate_passed_through_counts() -> None:
    """R-COV-2: the LoC enters and exits the crate."""
    loc = line_of_cover(A, B, [CoverObject("crate", shapely.box(4, -1, 5, 1))], TOL)
    hit = loc.hit("crate")
    assert hit.enters and hit.passes_through and not hit.touches_attacker
    assert counted(A, B, [CoverObject("crate", shapely.box(4, -1, 5, 1))]) == ("crate",)


def test_object_touching_attacker_is_ignored() -> None:
    """R-COV-2: cover touching the attacker's base is ignored."""
    building = CoverObject("building", shapely.box(0.6, -2, 3, 2))  # against A's rim
    loc = line_of_cover(A, B, [building], TOL)
    hit = loc.hit("building")
    assert hit.touches_attacker and hit.passes_through
    assert count(A, B, [building]) == ((), (IgnoredCover("building", TOUCHES_ATTACKER),))
    # Shooting the other way the same building counts (R-COV-2, seed 004 example 1).
    assert counted(B, A, [building]) == ("building",)


def test_object_within_touch_tolerance_touches() -> None:
    """R-UNIT-2: a gap of at most the tolerance is touching; more is not."""
    near = CoverObject("near", shapely.box(0.605, -2, 3, 2))
    far = CoverObject("far", shapely.box(0.62, -2, 3, 2))
    loc = line_of_cover(A, B, [near, far], TOL)
    assert loc.hit("near").touches_attacker and not loc.hit("far").touches_attacker


def test_entering_without_exiting_gives_no_cover() -> None:
    """R-COV-2: the target stands on the desk; the LoC enters but does not pass through."""
    desk = CoverObject("desk", shapely.box(9, -1, 11, 1))
    loc = line_of_cover(A, B, [desk], TOL)
    assert loc.hit("desk").enters and not loc.hit("desk").passes_through
    assert count(A, B, [desk]) == ((), (IgnoredCover("desk", ENTERS_ONLY),))


def test_area_terrain_counts_when_entered() -> None:
    """R-COV-4: area terrain counts when the LoC merely enters it."""
    forest = CoverObject("forest", shapely.box(9, -3, 14, 3), area=True)
    assert counted(A, B, [forest]) == ("forest",)
    # A base partly in the forest whose centre is outside: the LoC does not enter.
    edge_target = Disc(8.7, 0, 0.6)
    assert count(A, edge_target, [forest]) == ((), ())
    # Area touching the attacker's base is ignored (R-COV-4).
    assert count(B, A, [forest]) == ((), (IgnoredCover("forest", TOUCHES_ATTACKER),))


def test_grazing_corner_or_edge_is_not_entering() -> None:
    """R-COV-2: running along an edge or over a corner does not enter the object."""
    along = CoverObject("along", shapely.box(3, 0, 6, 2))  # its edge lies on the LoC
    corner = CoverObject("corner", shapely.Polygon([(5, 0), (6, 1), (4, 1)]))
    loc = line_of_cover(A, B, [along, corner], TOL)
    assert not loc.hit("along").enters and not loc.hit("corner").enters
    assert count(A, B, [along, corner]) == ((), ())


def test_bases_as_discs_and_non_convex_object_counts_once() -> None:
    """R-COV-5: a model's base is a disc; a U-shaped piece crossed twice counts once."""
    model = CoverObject("mutant", Disc(5, 0.5, 0.6))
    u_shape = CoverObject("u", shapely.Polygon(
        [(2, -2), (8, -2), (8, 2), (7, 2), (7, -1), (3, -1), (3, 2), (2, 2)]))
    assert counted(A, B, [model, u_shape]) == ("mutant", "u")
    grazing = CoverObject("grazer", Disc(5, 1.2, 0.6))
    assert count(A, B, [grazing]) == ((), ())


def test_polygon_with_hole_passed_through() -> None:
    """R-COV-2: a ruin with a courtyard: the LoC passes through its walls."""
    ruin = CoverObject("ruin", shapely.Polygon(
        [(3, -3), (7, -3), (7, 3), (3, 3)], holes=[[(4, -2), (6, -2), (6, 2), (4, 2)]]))
    assert counted(A, B, [ruin]) == ("ruin",)
    # Target in the courtyard: the LoC passes through the near wall only.
    assert counted(A, Disc(5, 0, 0.6), [ruin]) == ("ruin",)


coord = st.floats(0, 20, allow_nan=False).map(lambda v: round(v, 3))


@settings(max_examples=150, deadline=None)
@given(coord, coord, coord, coord, st.lists(st.tuples(coord, coord, coord, coord), min_size=1,
                                            max_size=5))
def test_passing_through_convex_pieces_matches_an_independent_check(
        ax: float, ay: float, bx: float, by: float,
        boxes: list[tuple[float, float, float, float]]) -> None:
    """R-COV-2: for a convex piece, the LoC passes through it exactly when it crosses its
    inside and neither centre lies in it (checked with plain Shapely, robust cases only)."""
    seg = shapely.LineString([(ax, ay), (bx, by)])
    objs = [CoverObject(f"b{k}", shapely.box(min(x0, x1), min(y0, y1), max(x0, x1) + 0.5,
                                             max(y0, y1) + 0.5))
            for k, (x0, y0, x1, y1) in enumerate(boxes)]
    loc = line_of_cover(Disc(ax, ay, 0.5), Disc(bx, by, 0.5), objs, TOL)
    for obj, hit in zip(objs, loc.hits, strict=True):
        shape = obj.shape
        assert not isinstance(shape, Disc)
        inside = seg.intersection(shape).length
        ends_in = [shape.distance(shapely.Point(p)) for p in ((ax, ay), (bx, by))]
        near_boundary = [shape.exterior.distance(shapely.Point(p)) for p in ((ax, ay), (bx, by))]
        if min(near_boundary) < 1e-4 or 0 < inside < 1e-4:
            continue  # too close to call without a tolerance
        expect = inside > 0 and all(d > 0 for d in ends_in)
        grazes = inside > 0 and seg.intersection(shape.exterior).length > 0
        if not grazes:
            assert hit.passes_through == expect
