"""The plain-float line-of-cover test against Shapely's predicates (R-COV-1, R-COV-2, R-COV-4).

:func:`geometry.cover.lines.lines_of_cover` answers most (line, polygon) combinations
in plain floats and hands near-degenerate ones to Shapely. Both must give the
same enters / passes-through / touches-the-attacker answers; Shapely's path
(:func:`geometry.cover.table.polygon_flags`, the former implementation) is the oracle.
Coordinates on a coarse grid make lines through vertices, along edges and
centres on outlines common, where a wrong fast answer would show.
"""

from __future__ import annotations

import math
import random

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.cover import kernel
from geometry.cover.lines import CoverObject, lines_of_cover
from geometry.cover.objects import EPS
from geometry.cover.table import CoverTable, as_code, disc_code, polygon_flags
from geometry.discs import Disc, gap

TOL = 0.01  # R-UNIT-2 touch tolerance


def fast_hit(ax: float, ay: float, bx: float, by: float, obj: CoverObject
             ) -> tuple[bool, bool] | None:
    """The plain-float (enters, passes through) of one combination, None if deferred."""
    code = CoverTable([obj]).codes([(Disc(ax, ay, 0.5), Disc(bx, by, 0.5))], [(0, 0)], TOL)[0]
    return None if code == kernel.DEFER else (bool(code & kernel.ENTERS),
                                              bool(code & kernel.PASSES))

grid = st.integers(0, 24).map(lambda v: v / 2)  # 0, 0.5, ... 12: many exact coincidences
fine = st.floats(0, 12, allow_nan=False, allow_infinity=False)
coord = st.one_of(grid, fine)


@st.composite
def polygons(draw: st.DrawFn) -> shapely.Geometry:
    """Boxes, star-shaped (non-convex) polygons, rings with a hole, two-part multipolygons."""
    kind = draw(st.sampled_from(["box", "star", "hole", "multi"]))
    x, y = draw(grid), draw(grid)
    if kind == "box":
        return shapely.box(x, y, x + draw(st.integers(1, 8)) / 2, y + draw(st.integers(1, 8)) / 2)
    if kind == "hole":
        w = draw(st.integers(3, 10)) / 2
        return shapely.Polygon([(x, y), (x + w, y), (x + w, y + w), (x, y + w)],
                               holes=[[(x + 0.5, y + 0.5), (x + w - 0.5, y + 0.5),
                                       (x + w - 0.5, y + w - 0.5), (x + 0.5, y + w - 0.5)]])
    if kind == "multi":
        return shapely.MultiPolygon([shapely.box(x, y, x + 1, y + 2),
                                     shapely.box(x + 2, y, x + 3.5, y + 1)])
    n = draw(st.integers(3, 8))
    radii = draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))
    pts = [(round(x + r / 2 * math.cos(2 * math.pi * k / n), 1),
            round(y + r / 2 * math.sin(2 * math.pi * k / n), 1)) for k, r in enumerate(radii)]
    poly = shapely.Polygon(pts)
    return poly if poly.is_valid and poly.area > 0 else shapely.box(x, y, x + 1, y + 1)


@settings(max_examples=400, deadline=None)
@given(coord, coord, coord, coord, st.sampled_from([0.5, 0.6, 1.0, 2.0]),
       st.lists(polygons(), min_size=1, max_size=3))
def test_plain_float_cover_matches_shapely(ax: float, ay: float, bx: float, by: float,
                                           r: float, shapes: list[shapely.Geometry]) -> None:
    """R-COV-2, R-COV-4: enters, passes through and touches-the-attacker agree with the
    Shapely oracle for every object, degenerate lines included."""
    a, b = Disc(ax, ay, r), Disc(bx, by, r)
    objs = [CoverObject(f"o{k}", g) for k, g in enumerate(shapes)]
    got = lines_of_cover([(a, b)], [objs], TOL)[0]
    expect = polygon_flags([(a, b)], [(0, o) for o in objs], TOL)
    for hit, (enters, passes, touches) in zip(got.hits, expect, strict=True):
        assert (hit.enters, hit.passes_through, hit.touches_attacker) == (enters, passes, touches)


@settings(max_examples=300, deadline=None)
@given(coord, coord, coord, coord, polygons())
def test_fast_answer_when_given_is_shapely_answer(ax: float, ay: float, bx: float, by: float,
                                                  shape: shapely.Geometry) -> None:
    """When the plain-float test answers at all, it is Shapely's answer (R-COV-2)."""
    obj = CoverObject("o", shape)
    assert obj.outlines is not None
    fast = fast_hit(ax, ay, bx, by, obj)
    if fast is not None:
        a, b = Disc(ax, ay, 0.5), Disc(bx, by, 0.5)
        assert fast == polygon_flags([(a, b)], [(0, obj)], TOL)[0][:2]


def test_degenerate_lines_go_to_shapely() -> None:
    """A LoC through a corner of the shrunk piece, along its edge, or starting on its
    outline is left to Shapely (R-COV-2 grazing)."""
    crate = CoverObject("crate", shapely.box(10, 10, 12, 12))
    assert crate.outlines is not None
    cx, cy, _, _ = crate.outlines[1].box  # the shrunk corner lies exactly on the diagonal
    assert fast_hit(0.0, 0.0, 2 * cx, 2 * cy, crate) is None
    assert fast_hit(0.0, cy, 20.0, cy, crate) is None
    assert fast_hit(cx, 11.0, 20.0, 11.0, crate) is None
    # ... and a plain crossing is answered directly.
    assert fast_hit(0.0, 11.0, 20.0, 11.3, crate) == (True, True)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coord, coord, coord, coord, st.sampled_from([0.5, 1.0])),
                min_size=1, max_size=5),
       st.lists(polygons(), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_many_lines_in_one_call_answer_as_each_alone(
        ends: list[tuple[float, float, float, float, float]], shapes: list[shapely.Geometry],
        rnd: random.Random) -> None:
    """R-COV-2, R-COV-4: lines batched with different objects each (packed into one
    compiled call) get the answers each line gets alone."""
    objs = [CoverObject(f"o{k}", g, area=k % 2 == 1) for k, g in enumerate(shapes)]
    lines = [(Disc(ax, ay, r), Disc(bx, by, r)) for ax, ay, bx, by, r in ends]
    offered = [rnd.sample(objs, rnd.randint(0, len(objs))) for _ in lines]
    together = lines_of_cover(lines, offered, TOL)
    for line, objects, got in zip(lines, offered, together, strict=True):
        assert got == lines_of_cover([line], [objects], TOL)[0]


def _disc_oracle(a: Disc, b: Disc, disc: Disc) -> int:
    """The line of cover and a disc, by another route than the code under test: it
    enters the disc shrunk by EPS when the centre segment comes closer than that radius
    to its centre, passes through when it enters and both centres lie outside (R-COV-2),
    and touches the attacker within the touch tolerance (R-UNIT-2)."""
    r = disc.r - EPS
    length = math.dist(a.center, b.center)
    to_c = np.array([disc.x - a.x, disc.y - a.y])
    closest = math.inf
    if length > 0:  # (a point has no stretch inside)
        u = np.array([b.x - a.x, b.y - a.y]) / length
        along = float(np.clip(to_c @ u, 0.0, length))
        closest = float(np.linalg.norm(to_c - along * u))
    enters = r > 0 and closest < r
    outside = (math.dist(a.center, disc.center) > r and math.dist(b.center, disc.center) > r)
    touches = math.dist(a.center, disc.center) - a.r - disc.r <= TOL
    return ((kernel.ENTERS if enters else 0) | (kernel.PASSES if enters and outside else 0)
            | (kernel.TOUCHES if touches else 0))


@settings(max_examples=300, deadline=None)
@given(coord, coord, coord, coord, st.sampled_from([0.5, 1.0]), grid, grid,
       st.sampled_from([0.5, 1.0, 1.5, 3.0]))
def test_disc_test_matches_an_independent_oracle(ax: float, ay: float, bx: float, by: float,
                                                 r: float, cx: float, cy: float,
                                                 cr: float) -> None:
    """R-COV-2, R-COV-5: a disc (a base, a round piece) is entered, passed through and
    touching the attacker exactly as the independent formulation says."""
    a, b, disc = Disc(ax, ay, r), Disc(bx, by, r), Disc(cx, cy, cr)
    assert disc_code(a, b, disc, TOL) == _disc_oracle(a, b, disc)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coord, coord, coord, coord, st.sampled_from([0.5, 1.0])),
                min_size=1, max_size=5),
       st.lists(st.one_of(polygons(), st.tuples(grid, grid, st.sampled_from([0.5, 1.5]))),
                min_size=1, max_size=5),
       st.randoms(use_true_random=False))
def test_offered_hits_finds_every_object_a_line_meets_and_answers_it(
        ends: list[tuple[float, float, float, float, float]],
        shapes: list[shapely.Geometry | tuple[float, float, float]], rnd: random.Random) -> None:
    """R-COV-1, R-COV-2: the fused call (near-box filter and cover tests for a whole fan)
    drops no offered object whose shape the centre line meets, and answers each one it
    keeps as Shapely (polygons) and an independent disc formulation (discs) do."""
    objs = [CoverObject(f"o{k}", Disc(*g) if isinstance(g, tuple) else g)
            for k, g in enumerate(shapes)]
    table = CoverTable(objs)
    lines = [(Disc(ax, ay, r), Disc(bx, by, r)) for ax, ay, bx, by, r in ends]
    rows = np.array([(a.x, a.y, a.r, b.x, b.y, b.r) for a, b in lines], dtype=np.float64)
    offer = np.array([[rnd.random() < 0.7 for _ in objs] for _ in lines], dtype=np.bool_)
    footprints = [shapely.Point(o.shape.x, o.shape.y).buffer(o.shape.r)
                  if isinstance(o.shape, Disc) else o.shape for o in objs]
    boxes = np.array([(x0 - 1e-2, y0 - 1e-2, x1 + 1e-2, y1 + 1e-2)
                      for x0, y0, x1, y1 in (f.bounds for f in footprints)], dtype=np.float64)
    met, hits = table.offered_hits(lines, rows, offer, boxes, TOL)
    for i, (a, b) in enumerate(lines):
        segment = shapely.LineString([a.center, b.center])
        for k in range(len(objs)):
            if offer[i, k] and segment.intersects(footprints[k]):
                assert k in met[i], f"line {i} meets object {k} but it was dropped"
        assert all(offer[i, k] for k in met[i]) and met[i] == sorted(met[i])
        for k, code in zip(met[i], hits[i], strict=True):
            obj = objs[k]
            if isinstance(obj.shape, Disc):
                expect = _disc_oracle(a, b, obj.shape)
            else:
                expect = as_code(polygon_flags([(a, b)], [(0, obj)], TOL)[0])
            assert code == expect, (i, k, code, expect)


def test_a_base_at_the_touch_tolerance_touches_as_gap_measures() -> None:
    """R-COV-2, R-UNIT-2: a base whose gap to the attacker's is the touch tolerance to
    the last bit touches it for the line of cover exactly as geometry.discs.gap says
    (the compiled hypot differs from Python's in the last bit here; found by review)."""
    from sim.scenario.format.loader import load_scenario
    from sim.scenario.positions import initial_positions
    from sim.shooting.analysis import analyse, analyse_many
    from tests.conftest import DATA

    s = load_scenario(DATA / "good" / "touch-knife-edge.toml")
    pos = initial_positions(s)
    a, c = (Disc(pos[m].x, pos[m].y, s.radius_of(m)) for m in ("a", "c"))
    assert gap(a, c) <= s.rules_data.touch_tolerance  # the case: touching, by a hair
    for shot in (analyse(s, pos, "a", "t"), analyse_many(s, pos, "a", ["t"])["t"]):
        assert shot.cover == ()
        assert [i.id for i in shot.ignored_cover] == ["c"]
