"""The reachable area in a game agrees with the move check (R-MOV-1..4, R-EDGE-1).

Property: every end point inside a model's reachable area is accepted by the
Move (or Charge) check along the area's own witness path; points outside it
are refused for a straight move when they are off the board, on impassable
ground, on another base or beyond the ruler."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.state import GameState
from sim.game.kinds import GAME_KINDS
from sim.movement.kinds import Charge, Move, reachable, walk
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.movement_util import RULE_SETS, activated, scenario

SKIRMISH = load_scenario(SCENARIOS / "skirmish.toml")
MOVERS = ("settler-1", "knight", "paladin", "hound-1", "mutant-2", "behemoth", "sniper")


def _activated_skirmish(model: str, rules: str) -> GameState:
    sc = SKIRMISH if rules == SKIRMISH.rules else replace(SKIRMISH, rules=rules)  # type: ignore[arg-type]
    return activated(sc, model)


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(MOVERS), st.integers(0, 2**16), st.sampled_from(RULE_SETS))
def test_property_every_point_in_the_area_is_a_legal_move(
    model: str, seed: int, rules: str
) -> None:
    state = _activated_skirmish(model, rules)
    area = reachable(state, model)
    assert not area.area.is_empty
    rng = np.random.default_rng(seed)
    minx, miny, maxx, maxy = area.area.bounds
    pts = np.column_stack([rng.uniform(minx, maxx, 60), rng.uniform(miny, maxy, 60)])
    inside = shapely.contains_xy(area.area, pts[:, 0], pts[:, 1])
    checked = 0
    for p, ok in zip(pts.tolist(), inside.tolist(), strict=True):
        if not ok:
            continue
        path = area.path_to((p[0], p[1]))
        assert path is not None
        action = Move(model, walk(*path[1:]))
        reason = state.why_illegal(action)
        assert reason is None, (str(action), reason)
        checked += 1
    assert checked > 0  # some of the 60 points fell inside the area


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(MOVERS), st.integers(0, 2**16), st.sampled_from(RULE_SETS))
def test_property_points_outside_are_refused(model: str, seed: int, rules: str) -> None:
    state = _activated_skirmish(model, rules)
    area = reachable(state, model)
    me = state.model(model).position
    limit = state.rules.ruler(state.scenario.unit_of(model).move)
    r = state.radius(model)
    w, h = state.scenario.board
    impassable = shapely.union_all([p.footprint for p in state.scenario.terrain
                                    if p.props.movement == "impassable"
                                    and me.z < p.props.height])
    others = [shapely.Point(p.xy).buffer(state.radius(o) + r - 0.02)
              for o, p in state.positions().items() if o != model and abs(p.z - me.z) < 1e-6]
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-2, max(w, h) + 2, (300, 2))
    checked = 0
    for x, y in pts.tolist():
        pt = shapely.Point(x, y)
        if area.area.covers(pt):
            continue
        clearly_bad = (
            math.dist((x, y), me.xy) > limit + 1e-6
            or not (r - 0.011 <= x <= w - r + 0.011 and r - 0.011 <= y <= h - r + 0.011)
            or impassable.contains(pt)
            or any(o.contains(pt) for o in others)
        )
        if clearly_bad:
            checked += 1
            assert state.why_illegal(Move(model, walk((x, y)))) is not None, (x, y)
    assert checked > 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_hound_charge_area_is_contact_with_enemies(rules: str) -> None:
    """The charge area holds only places in base contact with an enemy; each is a
    legal Charge; the settler beyond green over the rubble is out of reach."""
    state = activated("seed-hound", "hound-2", rules)
    area = reachable(state, "hound-2", charge=True)
    assert not area.area.is_empty
    far = state.model("settler-far").position
    contact = 15 / 25.4 + 20 / 25.4
    assert not area.area.intersects(shapely.Point(far.xy).buffer(contact + 0.05))
    near = state.model("settler-near").position
    pts = shapely.get_coordinates(shapely.Point(near.xy).buffer(contact).exterior)
    hits = 0
    for x, y in pts.tolist():
        # Probe just inside the band, towards the target's centre.
        dx, dy = near.x - x, near.y - y
        n = math.hypot(dx, dy)
        probe = (x + dx / n * 0.002, y + dy / n * 0.002)
        if not area.area.covers(shapely.Point(probe)):
            continue
        path = area.path_to(probe)
        assert path is not None
        hits += 1
        reason = state.why_illegal(Charge("hound-2", "settler-near", walk(*path[1:])))
        assert reason is None, reason
    assert hits > 0


def test_climbing_model_has_no_area() -> None:
    from sim.scenario.rules import default_rules
    from tests.dice_script import ScriptedRng, skill_face

    rng = ScriptedRng([skill_face(default_rules(), 1)])
    state = activated(scenario("move-climb"), "cliffer", rng=rng)
    state.apply(Move.from_args("move cliffer climb 2.0", ["cliffer", "climb", "2.0"]))
    assert reachable(state, "cliffer").area.is_empty


def test_charge_area_holds_contact_with_a_climbing_enemy(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-CLIMB-3: the cliffer hangs 2 in up the cliff; the deathclaw (ground, within
    Orange below it) sees a charge area round the marker: every point is a legal
    Charge along its witness path, none overlaps the marker by more than the
    tolerance, and there is no area for a climbing enemy more than Orange away."""
    from sim.game.kinds import parse_action
    from sim.scenario.rules import default_rules
    from tests.dice_script import ScriptedRng, skill_face

    monkeypatch.setattr(GAME_KINDS["charge"], "after_contact", None)
    rng = ScriptedRng([skill_face(default_rules(), 1)])
    state = activated(scenario("move-climb"), "cliffer", rng=rng)
    for text in ("move cliffer climb 2.0", "end-activation", "ready claw", "option-b",
                 "activate claw"):
        state.apply(parse_action(text))
    area = reachable(state, "claw", charge=True)
    assert not area.area.is_empty
    marker = state.model("cliffer").position
    reach = state.radius("claw") + state.radius("cliffer")
    # Points across the thin band round the marker (other targets have bands too).
    ang = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    pts = np.concatenate([np.column_stack([marker.x + d * np.cos(ang), marker.y + d * np.sin(ang)])
                          for d in np.linspace(reach - 0.012, reach + 0.012, 9)])
    inside = pts[shapely.contains_xy(area.area, pts[:, 0], pts[:, 1])]
    assert len(inside) > 20
    for x, y in inside[::max(1, len(inside) // 25)].tolist():
        assert math.dist((x, y), marker.xy) >= reach - 0.01
        path = area.path_to((x, y))
        assert path is not None
        reason = state.why_illegal(Charge("claw", "cliffer", walk(*path[1:])))
        assert reason is None, reason
