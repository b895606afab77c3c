"""The reachable area above the ground and across difficult ground agrees with the
move check (R-MOV-1, R-MOV-3, R-MOV-4, R-TER-2; docs/movement.md), in
``scenarios/move-reach-height.toml``, both rule sets.

Properties: every end point inside a model's area (Move or Charge) is accepted by
the engine's check along the area's witness path, whether the model stands on a
roof, a round rock shelf or the ground beside rubble; points outside that are
off the model's top, on impassable ground, on a base or beyond the ruler are
refused as straight moves."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.state import GameState
from sim.movement.kinds import Charge, Move, reachable, walk
from tests.movement_util import RULE_SETS, activated, why

SCENARIO = "move-reach-height"
MOVERS = ("roofer", "mutant", "sentry", "rock", "claw", "hound", "yarder")
R30 = 15 / 25.4


def _inside_points(area: shapely.Geometry, seed: int, n: int) -> list[tuple[float, float]]:
    rng = np.random.default_rng(seed)
    minx, miny, maxx, maxy = area.bounds
    pts = np.column_stack([rng.uniform(minx, maxx, n), rng.uniform(miny, maxy, n)])
    inside = shapely.contains_xy(area, pts[:, 0], pts[:, 1])
    return [(float(x), float(y)) for x, y in pts[inside]]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(MOVERS), st.integers(0, 2**16), st.sampled_from(RULE_SETS))
def test_property_every_point_in_the_area_is_a_legal_move(
    model: str, seed: int, rules: str
) -> None:
    state = activated(SCENARIO, model, rules)
    area = reachable(state, model)
    assert not area.area.is_empty
    points = _inside_points(area.area, seed, 80)
    assert points
    for p in points:
        path = area.path_to(p)
        assert path is not None
        action = Move(model, walk(*path[1:]))
        assert state.why_illegal(action) is None, str(action)


def _clearly_bad(state: GameState, model: str, p: tuple[float, float]) -> bool:
    """Whether no movement (walking only) of ``model`` can end at ``p``, judged
    without the movement code: off its top, in an impassable piece, on a base, off
    the board or beyond the full ruler."""
    me = state.model(model).position
    r = state.radius(model)
    w, h = state.scenario.board
    pt = shapely.Point(p)
    if math.dist(p, me.xy) > state.rules.ruler(state.scenario.unit_of(model).move) + 1e-6:
        return True
    if not (r - 0.011 <= p[0] <= w - r + 0.011 and r - 0.011 <= p[1] <= h - r + 0.011):
        return True
    if me.z > 0:
        tops = [t.footprint for t in state.scenario.terrain if abs(t.props.height - me.z) < 1e-9]
        if not any(f.buffer(-1e-6).contains(pt) for f in tops) and not any(
                f.buffer(1e-6).contains(pt) for f in tops):
            return True
    walls = [t.footprint for t in state.scenario.terrain
             if t.props.movement == "impassable" and t.props.height > me.z]
    if any(f.contains(pt) for f in walls):
        return True
    return any(math.dist(p, q.xy) < state.radius(o) + r - 0.02
               for o, q in state.positions().items() if o != model and abs(q.z - me.z) < 1e-6)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(MOVERS), st.integers(0, 2**16), st.sampled_from(RULE_SETS))
def test_property_points_outside_are_refused(model: str, seed: int, rules: str) -> None:
    state = activated(SCENARIO, model, rules)
    area = reachable(state, model).area
    me = state.model(model).position
    rng = np.random.default_rng(seed)
    pts = me.xy + rng.uniform(-7, 7, (200, 2))
    checked = 0
    for x, y in pts.tolist():
        if area.covers(shapely.Point(x, y)) or not _clearly_bad(state, model, (x, y)):
            continue
        checked += 1
        assert state.why_illegal(Move(model, walk((x, y)))) is not None, (model, x, y)
    assert checked > 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_model_on_a_roof_reaches_only_the_roof(rules: str) -> None:
    """Every vertex of the roofer's area lies on the roof (centre on the surface),
    within Yellow; the annex half an inch away is not in it (no walking across a gap
    without a jump or climb); the chimney and the enemy are kept clear of."""
    state = activated(SCENARIO, "roofer", rules)
    area = reachable(state, "roofer").area
    roof = next(t.footprint for t in state.scenario.terrain if t.id == "roof")
    assert roof.covers(area)
    annex = next(t.footprint for t in state.scenario.terrain if t.id == "annex")
    assert not area.intersects(annex)
    sentry_state = activated(SCENARIO, "mutant", rules)
    mutant_area = reachable(sentry_state, "mutant").area
    chimney = shapely.box(10, 3, 11, 4)
    assert mutant_area.distance(chimney) >= 20 / 25.4 - 0.01
    assert roof.covers(mutant_area)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_debris_on_the_roof_shortens_the_ruler(rules: str) -> None:
    """R-MOV-1 at height: the debris (3.5 in) is difficult for a model at 3 in. A spot
    in it 3.5 in away needs the Orange ruler (2 in): not in the area, refused; a spot
    1 in away short of it is in the area and legal."""
    state = activated(SCENARIO, "roofer", rules)
    area = reachable(state, "roofer").area
    assert not area.covers(shapely.Point(5.0, 4.5))
    reason = why(state, "move roofer 5.0 4.5")
    assert reason is not None and "(difficult ground)" in reason
    assert area.covers(shapely.Point(5.0, 7.0))
    assert why(state, "move roofer 5.0 7.0") is None
    # Through the debris with the Orange ruler: 1.9 in south ends in it, legal.
    assert why(state, "move roofer 5.0 6.1") is None
    assert area.covers(shapely.Point(5.0, 6.2))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_round_shelf_keeps_its_models_on_it(rules: str) -> None:
    """The rock shelf is a circle of radius 3.5 at 2 in: the settler's area stays on
    it, and the unhindered deathclaw's too."""
    for model in ("rock", "claw"):
        state = activated(SCENARIO, model, rules)
        area = reachable(state, model).area
        assert not area.is_empty
        far = max(math.dist((22, 6), q) for q in shapely.get_coordinates(area).tolist())
        assert far <= 3.5 + 1e-9, model


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from(RULE_SETS))
def test_property_charge_area_at_height(seed: int, rules: str) -> None:
    """The deathclaw on the shelf charges the settler beside it: every point of its
    charge area is a legal Charge along the witness path (base contact at 2 in)."""
    state = activated(SCENARIO, "claw", rules)
    area = reachable(state, "claw", charge=True)
    assert not area.area.is_empty
    for p in _inside_points(area.area, seed, 400)[:20]:
        path = area.path_to(p)
        assert path is not None
        action = Charge("claw", "rock", walk(*path[1:]))
        assert state.why_illegal(action) is None, str(action)


def test_paths_on_a_non_convex_top_bend_at_its_inner_corner() -> None:
    """An L-shaped top: a point round the corner, out of straight sight, is reached
    by a path bending at the inner (reflex) corner, within the length; the witness
    path is accepted by the exact check; a point just beyond the length is not."""
    from geometry.movement.paths import Level, check_legs, path_length
    from geometry.movement.reach import reachable_area

    floor = shapely.Polygon([(0, 0), (10, 0), (10, 3), (3, 3), (3, 10), (0, 10)])
    level = Level((20.0, 20.0), tolerance=0.01, floor=floor)
    start, goal = (1.5, 8.0), (8.0, 1.5)
    corner = (3.0, 3.0)
    shortest = math.dist(start, corner) + math.dist(corner, goal)
    reach = reachable_area(level, 0.5, start, shortest + 0.2)
    assert reach.area.covers(shapely.Point(goal))
    path = reach.path_to(goal)
    assert path is not None and len(path) >= 3
    report = check_legs(level, 0.5, path)
    assert report.legal and path_length(path) <= shortest + 0.2
    assert not reachable_area(level, 0.5, start, shortest - 0.05).area.covers(
        shapely.Point(goal))
