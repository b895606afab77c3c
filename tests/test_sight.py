"""Exact line of sight (R-LOS-1..4): degenerate cases and property tests.

The oracle is a dense sampler written here and nowhere else: it tries many
segments between points of the two bases and calls a segment free only when
it stays clear of every obstacle grown by a small margin, so whenever it finds
one the exact method must report sight (R-LOS-1). Witnesses are checked with
Shapely predicates against obstacles shrunk by a small margin.
"""

from __future__ import annotations

import itertools
import math
import os

import numpy as np
import pytest
import shapely
import shapely.affinity
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.sight.index import Obstacle, Sight, SightIndex, line_of_sight

MARGIN = 1e-6


# --- independent oracle -------------------------------------------------------


def _shape(ob: Obstacle) -> BaseGeometry:
    if isinstance(ob.shape, Disc):
        return shapely.Point(ob.shape.x, ob.shape.y).buffer(ob.shape.r, quad_segs=64)
    return ob.shape


def _is_wall(ob: Obstacle) -> bool:
    return not isinstance(ob.shape, Disc) and "LineString" in ob.shape.geom_type


def _robustly_free(seg: BaseGeometry, obstacles: list[Obstacle]) -> bool:
    """Free with room to spare: clear of every obstacle by MARGIN."""
    for ob in obstacles:
        if isinstance(ob.shape, Disc):
            if seg.distance(shapely.Point(ob.shape.x, ob.shape.y)) <= ob.shape.r + MARGIN:
                return False
        elif seg.distance(ob.shape) <= MARGIN:
            return False
    return True


def _disc_points(d: Disc, n: int) -> list[tuple[float, float]]:
    pts = [(d.x, d.y)]
    for k in range(n):
        ang = 2 * math.pi * k / n
        for f in (1.0, 0.5):
            pts.append((d.x + f * d.r * math.cos(ang), d.y + f * d.r * math.sin(ang)))
    return pts


def sampler_sees(a: Disc, b: Disc, obstacles: list[Obstacle], n: int = 24) -> bool:
    """Test-only oracle: some sampled segment is robustly free."""
    pa, pb = _disc_points(a, n), _disc_points(b, n)
    segs = shapely.linestrings([[p, q] for p in pa for q in pb if p != q])
    union_poly = shapely.unary_union(
        [_shape(o) for o in obstacles if not _is_wall(o)] or [shapely.Polygon()])
    walls = [o.shape for o in obstacles if _is_wall(o)]
    everything = shapely.unary_union([union_poly, *walls])
    if everything.is_empty:
        return True
    far = shapely.distance(segs, everything) > MARGIN
    return bool(np.any(far))


def witness_is_free(sight: Sight, a: Disc, b: Disc, obstacles: list[Obstacle]) -> bool:
    """The witness joins the two bases and passes through no obstacle's inside."""
    assert sight.witness is not None
    p, q = sight.witness
    if math.dist(p, a.center) > a.r + 1e-7 or math.dist(q, b.center) > b.r + 1e-7:
        return False
    seg = shapely.LineString([p, q]) if p != q else shapely.Point(p)
    for ob in obstacles:
        if isinstance(ob.shape, Disc):
            if seg.distance(shapely.Point(ob.shape.x, ob.shape.y)) < ob.shape.r - MARGIN:
                return False
        elif _is_wall(ob):
            for part in getattr(ob.shape, "geoms", [ob.shape]):
                cs = list(part.coords)
                for u, w in itertools.pairwise(cs):
                    wall = shapely.LineString([u, w])
                    ends_clear = min(seg.distance(shapely.Point(u)),
                                     seg.distance(shapely.Point(w))) > MARGIN
                    tips_clear = min(wall.distance(shapely.Point(p)),
                                     wall.distance(shapely.Point(q))) > MARGIN
                    if ends_clear and tips_clear and seg.crosses(wall):
                        return False
        elif seg.intersects(ob.shape.buffer(-MARGIN, join_style="mitre")):
            return False
    return True


# --- hand-made cases ------------------------------------------------------------


def test_open_board_centre_line_is_the_witness() -> None:
    """R-LOS-1: nothing in the way, the segment between the near points is reported."""
    s = line_of_sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5), [])
    assert s.visible
    assert s.witness == ((0.5, 0.0), (9.5, 0.0))


def test_wall_wider_than_both_bases_blocks_and_is_named() -> None:
    """R-LOS-1: a blocking piece between the bases with no way around."""
    s = line_of_sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5),
                      [Obstacle("wall", shapely.box(4, -3, 5, 3))])
    assert not s.visible
    assert s.blocked_by == ("wall",)
    assert "wall" in str(s)


def test_grazing_a_corner_gives_sight() -> None:
    """R-LOS-1 Decision: the only free lines graze the wall's corner."""
    wall = Obstacle("wall", shapely.box(4, -10, 5, 3))
    # The tangent below touches A at (0, 3.5)... place B so that the only line
    # runs along the wall's top edge y = 3 (A and B both touch y = 3 from above).
    a, b = Disc(0, 2.5, 0.5), Disc(10, 2.5, 0.5)
    s = line_of_sight(a, b, [wall])
    assert s.visible
    assert s.witness is not None
    (_, y0), (_, y1) = s.witness
    assert y0 == pytest.approx(3.0) and y1 == pytest.approx(3.0)


def test_sight_line_through_a_vertex_between_two_pieces() -> None:
    """R-LOS-1: a line through one corner of each of two pieces (no other line)."""
    lower = Obstacle("lower", shapely.box(3, -10, 4, 0))
    upper = Obstacle("upper", shapely.box(6, 1, 7, 10))
    # The free lines pass between (4, 0) and (6, 1); bases far up and down.
    a, b = Disc(0, -1, 0.5), Disc(10, 2, 0.5)
    s = line_of_sight(a, b, [lower, upper])
    assert s.visible
    assert witness_is_free(s, a, b, [lower, upper])
    # Nudge the upper piece down: the slot closes, the two pieces do not touch.
    closed = Obstacle("upper", shapely.box(6, -0.5, 7, 10))
    s2 = line_of_sight(a, b, [lower, closed])
    assert not s2.visible
    assert set(s2.blocked_by) <= {"lower", "upper"}


def test_touching_pieces_leave_no_crack() -> None:
    """R-LOS-1 Decision: two blocking pieces sharing an edge act as one."""
    left = Obstacle("left", shapely.box(4, -3, 5, 0))
    right = Obstacle("right", shapely.box(4, 0, 5, 3))
    s = line_of_sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5), [left, right])
    assert not s.visible
    assert set(s.blocked_by) == {"left", "right"}


def test_corner_touching_pieces_leave_no_crack() -> None:
    """R-LOS-1 Decision: pieces meeting at a single corner act as one."""
    p1 = Obstacle("p1", shapely.box(3, -5, 5, 0))
    p2 = Obstacle("p2", shapely.box(5, 0, 7, 5))
    a, b = Disc(0, 3, 0.3), Disc(10, -3, 0.3)  # the only lines would pass (5, 0)
    assert not line_of_sight(a, b, [p1, p2]).visible


def test_pieces_within_merge_gap_act_as_one() -> None:
    """R-UNIT-2: pieces a hair apart touch; with the touch tolerance no crack."""
    p1 = Obstacle("p1", shapely.box(4, -3, 5, 0))
    p2 = Obstacle("p2", shapely.box(4, 0.005, 5, 3))
    a, b = Disc(0, 0, 0.5), Disc(10, 0, 0.5)
    assert line_of_sight(a, b, [p1, p2]).visible  # a real, if thin, gap
    assert not line_of_sight(a, b, [p1, p2], merge_gap=0.01).visible


def test_collinear_edges_sight_along_them() -> None:
    """R-LOS-1 Decision: a line running along two collinear edges is not blocked."""
    p1 = Obstacle("p1", shapely.box(2, 0, 3, 5))
    p2 = Obstacle("p2", shapely.box(6, 0, 7, 5))
    a, b = Disc(0, -0.5, 0.5), Disc(10, -0.5, 0.5)  # both bases touch y = 0
    s = line_of_sight(a, b, [p1, p2])
    assert s.visible
    assert witness_is_free(s, a, b, [p1, p2])


def test_touching_and_overlapping_bases_see_each_other() -> None:
    """R-LOS-1: bases in contact always share a point."""
    wall = Obstacle("wall", shapely.box(-5, 3, 5, 4))
    assert line_of_sight(Disc(0, 0, 0.5), Disc(1, 0, 0.5), [wall]).visible
    assert line_of_sight(Disc(0, 0, 0.5), Disc(0.8, 0, 0.5), [wall]).visible


def test_base_touching_blocking_piece() -> None:
    """R-LOS-1: a base against a wall sees along the wall, not through it."""
    wall = Obstacle("wall", shapely.box(2, -5, 3, 5))
    a = Disc(1.5, 0, 0.5)  # touches the wall's left face
    assert not line_of_sight(a, Disc(6, 0, 0.5), [wall]).visible
    assert line_of_sight(a, Disc(1.5, 8, 0.5), [wall]).visible


def test_target_inside_dense_area_is_hidden_partly_inside_is_seen() -> None:
    """R-LOS-4: a base wholly inside dense area terrain cannot be seen from outside."""
    forest = Obstacle("forest", shapely.box(5, -3, 11, 3))
    a = Disc(0, 0, 0.5)
    assert not line_of_sight(a, Disc(8, 0, 0.5), [forest]).visible
    edge = Disc(5.2, 0, 0.5)  # partly outside the forest
    s = line_of_sight(a, edge, [forest])
    assert s.visible and witness_is_free(s, a, edge, [forest])


def test_obstacle_with_hole_blocks_through_its_ring() -> None:
    """R-LOS-1: a ruin's walls (a polygon with a hole) block; inside the hole one sees out
    only where the ring is open."""
    ring = shapely.Polygon([(3, -3), (9, -3), (9, 3), (3, 3)],
                           holes=[[(4, -2), (8, -2), (8, 2), (4, 2)]])
    ob = Obstacle("ruin", ring)
    assert not line_of_sight(Disc(0, 0, 0.5), Disc(6, 0, 0.5), [ob]).visible
    assert line_of_sight(Disc(5, 0, 0.5), Disc(7, 1, 0.5), [ob]).visible
    assert not line_of_sight(Disc(0, 0, 0.5), Disc(12, 0, 0.5), [ob]).visible


def test_non_convex_piece_l_shape() -> None:
    """R-LOS-1: sight into the notch of an L-shaped building, not through its arm."""
    ell = Obstacle("ell", shapely.Polygon([(4, -4), (6, -4), (6, 2), (10, 2), (10, 4), (4, 4)]))
    a = Disc(0, 0, 0.5)
    assert not line_of_sight(a, Disc(8, 0, 0.5), [ell]).visible
    assert line_of_sight(Disc(8, -3, 0.5), Disc(8, 0, 0.5), [ell]).visible


def test_huge_base_disc_blocks_exactly() -> None:
    """R-LOS-3: an exact disc in the way; sight around it where there is room."""
    behemoth = Obstacle("behemoth", Disc(5, 0, 1.5))
    assert not line_of_sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5), [behemoth]).visible
    # Bases whose outer tangent just clears the disc: grazing gives sight.
    assert line_of_sight(Disc(0, 1.0, 0.5), Disc(10, 1.0, 0.5), [behemoth]).visible
    assert not line_of_sight(Disc(0, 0.99, 0.5), Disc(10, 0.99, 0.5), [behemoth]).visible


def test_wall_linestring_blocks_only_proper_crossings() -> None:
    """R-ELEV-2 seam: a zero-thickness edge blocks a crossing segment, not one ending on it."""
    edge = Obstacle("roof:edge", shapely.LineString([(5, -5), (5, 5)]))
    assert not line_of_sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5), [edge]).visible
    assert line_of_sight(Disc(0, 0, 0.5), Disc(5.5, 0, 0.5), [edge]).visible  # touches it
    assert line_of_sight(Disc(0, 0, 0.5), Disc(8, 9, 0.5), [edge]).visible  # past its end


def test_extra_obstacles_are_per_query() -> None:
    """The index stays static; per-query obstacles (huge bases) join only that query."""
    index = SightIndex([Obstacle("crate", shapely.box(20, 20, 21, 21))])
    a, b = Disc(0, 0, 0.5), Disc(10, 0, 0.5)
    assert not index.sight(a, b, [Obstacle("behemoth", Disc(5, 0, 1.5))]).visible
    assert index.sight(a, b).visible


# --- properties -------------------------------------------------------------------

coord = st.integers(0, 24).map(lambda v: v / 2.0)
radius = st.sampled_from([0.3, 0.5, 0.59, 0.8, 1.2])


@st.composite
def obstacles(draw: st.DrawFn) -> list[Obstacle]:
    out: list[Obstacle] = []
    for k in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["box", "tri", "ell", "hole", "disc", "wall"]))
        x, y = draw(coord), draw(coord)
        w, h = draw(st.integers(1, 8).map(lambda v: v / 2)), draw(
            st.integers(1, 8).map(lambda v: v / 2))
        shape: BaseGeometry | Disc
        if kind == "box":
            shape = shapely.box(x, y, x + w, y + h)
        elif kind == "tri":
            shape = shapely.Polygon([(x, y), (x + w, y + h / 2), (x, y + h)])
        elif kind == "ell":
            shape = shapely.Polygon([(x, y), (x + w + 1, y), (x + w + 1, y + 0.5),
                                     (x + 0.5, y + 0.5), (x + 0.5, y + h + 1), (x, y + h + 1)])
        elif kind == "hole":
            shape = shapely.Polygon(
                [(x, y), (x + w + 2, y), (x + w + 2, y + h + 2), (x, y + h + 2)],
                holes=[[(x + 0.5, y + 0.5), (x + w + 1.5, y + 0.5), (x + w + 1.5, y + h + 1.5),
                        (x + 0.5, y + h + 1.5)]])
        elif kind == "disc":
            shape = Disc(x, y, draw(radius) * 2)
        else:
            shape = shapely.LineString([(x, y), (x + w, y + h)])
        out.append(Obstacle(f"o{k}", shape))
    return out


discs = st.builds(Disc, coord, coord, radius)
# SIGHT_EXAMPLES=2000 for a long local run; the suite keeps it short.
PROPS = settings(max_examples=int(os.environ.get("SIGHT_EXAMPLES", "120")), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(discs, discs, obstacles())
def test_sampler_sight_implies_exact_sight(a: Disc, b: Disc, obs: list[Obstacle]) -> None:
    """R-LOS-1: whenever the dense sampler finds a free segment, the exact method sees,
    and every witness it reports is free."""
    exact = line_of_sight(a, b, obs)
    if sampler_sees(a, b, obs):
        assert exact.visible
    if exact.visible:
        assert witness_is_free(exact, a, b, obs)
    else:
        assert exact.blocked_by


@PROPS
@given(discs, discs, obstacles())
def test_sight_is_symmetric(a: Disc, b: Disc, obs: list[Obstacle]) -> None:
    """R-LOS-1: A sees B exactly when B sees A (no elevation involved)."""
    index = SightIndex(obs)
    assert index.sight(a, b).visible == index.sight(b, a).visible


@PROPS
@given(discs, discs, obstacles(), st.integers(0, 3))
def test_moving_an_obstacle_away_never_removes_sight(
        a: Disc, b: Disc, obs: list[Obstacle], k: int) -> None:
    """R-LOS-1: taking a piece off the table (moving it far away) keeps any sight."""
    before = line_of_sight(a, b, obs).visible
    moved = list(obs)
    ob = moved[k % len(moved)]
    if isinstance(ob.shape, Disc):
        moved[k % len(moved)] = Obstacle(ob.id, ob.shape.moved(500, 500))
    else:
        moved[k % len(moved)] = Obstacle(ob.id, shapely.affinity.translate(ob.shape, 500, 500))
    if before:
        assert line_of_sight(a, b, moved).visible


@PROPS
@given(st.lists(st.tuples(discs, discs), min_size=1, max_size=6), obstacles(),
       st.lists(st.sampled_from([0, 1, 2]), min_size=6, max_size=6))
def test_batched_sight_answers_like_single_queries(
        pairs: list[tuple[Disc, Disc]], obs: list[Obstacle], extra_of: list[int]) -> None:
    """``sight_many`` (the UI's one-against-all) gives each pair's own answer, with
    per-pair extra obstacles applying to their pair only (R-LOS-3 huge bases)."""
    index = SightIndex(obs[1:])
    extras = [[obs[0]] if extra_of[i] == 0 else [] for i in range(len(pairs))]
    many = index.sight_many(pairs, extras)
    for (a, b), ex, got in zip(pairs, extras, many, strict=True):
        single = index.sight(a, b, ex)
        assert got.visible == single.visible
        if got.visible:
            assert witness_is_free(got, a, b, obs[1:] + ex)


@PROPS
@given(st.lists(st.tuples(discs, discs), min_size=1, max_size=6), obstacles(),
       st.lists(st.sampled_from([0, 1, 2]), min_size=6, max_size=6))
def test_shared_obstacles_answer_as_if_joined(
        pairs: list[tuple[Disc, Disc]], obs: list[Obstacle], share_of: list[int]) -> None:
    """``sight_many(..., shared=...)``: per-query obstacles passed as tuples that pairs
    share (the pieces outside a batch's index) give each pair the answer of those
    obstacles joined to its own extras, whether pairs share one tuple or equal ones."""
    index = SightIndex(obs[1:-1])
    own = [[obs[0]] if share_of[i] == 1 else [] for i in range(len(pairs))]
    one, again = (obs[-1],), (obs[-1],)  # (equal tuples, not the same object)
    shared = [one if share_of[i] == 0 else again if share_of[i] == 1 else ()
              for i in range(len(pairs))]
    got = index.sight_many(pairs, own, shared=shared)
    assert got == index.sight_many(pairs, [[*ex, *sh] for ex, sh in zip(own, shared,
                                                                        strict=True)])
    for (a, b), ex, sh, sight in zip(pairs, own, shared, got, strict=True):
        assert sight.visible == index.sight(a, b, [*ex, *sh]).visible


def test_no_crack_along_an_internal_diagonal() -> None:
    """R-LOS-1 Decision: a candidate line can run exactly along a diagonal between two
    triangles of an eroded L-shaped piece (found by hypothesis); it must not slip through."""
    ell = Obstacle("ell", shapely.Polygon([(5, 10.5), (6.5, 10.5), (6.5, 11), (5.5, 11),
                                           (5.5, 12), (5, 12)]))
    a, b = Disc(0, 5, 0.5), Disc(5.5, 11, 0.5)
    s = line_of_sight(a, b, [ell])
    assert s.visible and witness_is_free(s, a, b, [ell])
