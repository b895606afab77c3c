"""Where falls and jumps land (R-FALL-1, R-CLIMB-2, R-CLIMB-3, R-JUMP-1, R-FALL-3;
docs/movement.md, Decisions), in ``scenarios/move-landing.toml``, scripted dice.

Every fall lands through ``sim.movement.falls.landing``: on the highest top under the
base centre (at or below where it fell from), else the ground, at the free spot
nearest where it would have landed. A jump must land where a movement could end."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.movement.paths import check_legs
from sim.engine.state import ActionContext
from sim.movement.falls import landing, level_at, push_model
from sim.scenario.rules import default_rules
from tests.dice_script import ScriptedRng, armor_face, effect_face, skill_face
from tests.movement_util import AGAINST_30MM, RULE_SETS, activated, do, scenario, why

RULES = default_rules()
R30, R40 = 15 / 25.4, 20 / 25.4
NEAR = 2e-3  # landing outlines are circumscribed: a landed base touches, at most a hair off


def dice(*rolls: object) -> ScriptedRng:
    return ScriptedRng(rolls)  # type: ignore[arg-type]


def test_a_fall_onto_a_base_lands_at_the_nearest_free_spot() -> None:
    """The survivor fails its AGI test at the lip (9.41, 8) and falls 5 in (Red, +4;
    blank black die, armor 3 rolls 2: 2 damage). The mutant stands there, 0.2 in
    south: it lands against the wall, in contact with the mutant, north of it."""
    rng = dice(skill_face(RULES, 15), effect_face(RULES, "damage", ()), armor_face(RULES, 2))
    state = activated("move-landing", "survivor", rng=rng)
    do(state, f"move survivor {AGAINST_30MM!r} 8.0 climb 3.65")
    s = state.model("survivor")
    mutant = state.model("mutant").position
    wall_x = 10 - R30
    expected_y = mutant.y + math.sqrt((R30 + R40) ** 2 - (wall_x - mutant.x) ** 2)
    assert s.position.z == 0.0 and not s.climbing
    assert s.position.x == pytest.approx(wall_x, abs=NEAR) and s.position.x <= wall_x + 1e-9
    assert s.position.y == pytest.approx(expected_y, abs=NEAR)
    assert math.dist(s.position.xy, mutant.xy) >= R30 + R40 - 1e-9
    assert s.health == 4 - 2 and rng.remaining == 0
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["distance"] == pytest.approx(5.0) and fell.data["colour"] == "red"


def test_the_landing_point_is_kept_when_it_is_free() -> None:
    """Without the mutant in the way the survivor lands right under the lip."""
    base = scenario("move-landing")
    moved = tuple(replace(m, at=(25.0, 17.0)) if m.id == "mutant" else m for m in base.models)
    state = activated(replace(base, models=moved), "survivor")
    spot = landing(state, "survivor", (10 - R30, 8.0), 5.0)
    assert (spot.x, spot.y, spot.z) == (10 - R30, 8.0, 0.0)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_fall_never_lands_inside_impassable_terrain_or_off_the_board(rules: str) -> None:
    """Falling onto the middle of the platform's footprint from above its top would
    land on its top; falling at a point on the house's footprint but off its top
    (below it) lands outside the house; a point past the board edge lands on it."""
    state = activated("move-landing", "survivor", rules)
    on_top = landing(state, "survivor", (23.0, 7.0), 5.0)
    assert (on_top.x, on_top.y, on_top.z) == (23.0, 7.0, 2.0)
    inside = landing(state, "survivor", (10.5, 6.0), 1.0)  # under the roof: the ground
    assert inside.z == 0.0 and inside.x == pytest.approx(10 - R30, abs=NEAR)
    house = shapely.box(10, 4, 16, 12)
    assert house.distance(shapely.Point(inside.x, inside.y)) >= R30 - 1e-9
    edge = landing(state, "survivor", (29.9, 19.9), 3.0)
    assert edge.z == 0.0
    assert edge.x == pytest.approx(30 - R30, abs=NEAR)
    assert edge.y == pytest.approx(20 - R30, abs=NEAR)
    assert edge.x <= 30 - R30 and edge.y <= 20 - R30


def test_a_failed_climb_from_a_shelf_stays_on_the_shelf() -> None:
    """R-CLIMB-2: standing on the 2 in shelf, the settler fails the test climbing the
    tower: it falls 0 in (the shelf is under it) and stays, the action over."""
    rng = dice(skill_face(RULES, 6))
    state = activated("move-landing", "shelfer", rng=rng)
    before = state.model("shelfer").position
    do(state, "move shelfer climb 4.0")
    m = state.model("shelfer")
    assert m.position == before and not m.climbing and m.health == 2
    assert "fell" not in [e.kind for e in state.events]
    assert state.activation is not None and state.activation.actions_left == 1


def test_a_fall_from_part_way_up_lands_on_the_shelf() -> None:
    """Part-way up the tower (4 in) the second test fails: a 2 in fall (Orange, no
    dice) onto the shelf, not 4 in to the ground."""
    rng = dice(skill_face(RULES, 1), skill_face(RULES, 20))
    state = activated("move-landing", "shelfer", rng=rng)
    do(state, "move shelfer climb 4.0")
    assert state.model("shelfer").climbing
    do(state, "move shelfer climb 6.0")
    m = state.model("shelfer")
    assert m.position.z == 2.0 and not m.climbing and m.health == 2
    assert m.position.xy == pytest.approx((6 - R30, 15.0))
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["distance"] == pytest.approx(2.0) and fell.data["dealt"] == 0


def test_a_jump_cannot_land_on_a_base() -> None:
    """R-JUMP-1 with R-MOV-4: a friend stands below the lip; the jump is refused with
    the base named; a jump beside it is legal and harmless (2 in)."""
    state = activated("move-landing", "jumper", rng=dice())
    reason = why(state, f"move jumper {10 + AGAINST_30MM!r} 7.0 jump 0.0")
    assert reason is not None and "jump cannot land" in reason
    assert "the base would overlap 'buddy'" in reason
    do(state, f"move jumper {10 + AGAINST_30MM!r} 8.6 jump 0.0")
    m = state.model("jumper")
    assert (m.position.x, m.position.y, m.position.z) == (10 + AGAINST_30MM, 8.6, 0.0)


def test_a_jump_cannot_land_on_an_enemy() -> None:
    """From the house's lip straight down onto the super mutant: refused, named."""
    state = activated("move-landing", "survivor", rng=dice())
    reason = why(state, f"move survivor {AGAINST_30MM!r} 8.0 jump 0.0")
    assert reason is not None and "the base would overlap 'mutant'" in reason
    assert why(state, f"move survivor {AGAINST_30MM!r} 9.5 jump 0.0") is None


def test_a_jump_cannot_land_on_a_base_even_to_walk_on() -> None:
    """A movement may cross a friend, but a jump that lands on one is refused even
    when more steps follow: a jump that hurts ends the movement where it lands
    (R-FALL-3), and no model may end on another base (R-MOV-4)."""
    state = activated("move-landing", "jumper")
    reason = why(state, f"move jumper {10 + AGAINST_30MM!r} 7.0 jump 0.0 18.0 7.0")
    assert reason is not None and "'buddy'" in reason
    # Beside buddy: 1.72 in to the lip, 2 in down, 0.2 in on: 3.92 in of Yellow's 4.
    assert why(state, f"move jumper {10 + AGAINST_30MM!r} 8.6 jump 0.0 19.2 8.6") is None


def test_a_pushed_climbing_model_is_knocked_off() -> None:
    """R-CLIMB-3 with R-EDGE-3 (rulebook: only it has climbing models, R-CLIMB-5): a
    push knocks a climbing model off its face; it falls from its marker to the ground."""
    rng = dice(skill_face(RULES, 1))
    state = activated("move-climb", "cliffer", rng=rng)
    do(state, "move cliffer climb 2.0")
    marker = state.model("cliffer").position
    res = push_model(ActionContext(state), "cliffer", (marker.x - 1.0, marker.y), "orange",
                     by="claw")
    m = state.model("cliffer")
    assert res.fell and res.travelled == 0.0
    assert not m.climbing and m.position == marker.__class__(marker.x, marker.y, 0.0)
    assert next(e for e in state.events if e.kind == "fell").data["distance"] == 2.0


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["move-landing", "move-push-height"]), st.floats(0, 1),
       st.floats(0, 1), st.sampled_from([0.0, 2.0, 3.0, 4.0, 6.0, 13.0]), st.integers(0, 99))
def test_property_a_fall_lands_on_the_nearest_free_spot(
    name: str, fx: float, fy: float, z_from: float, seed: int
) -> None:
    """Wherever a fall comes down, it lands where a movement could end (the exact
    check), and no clearly free spot at that level (judged by an independent
    sampler: on the board, on the top, clear of impassable pieces rising above it
    and of every base) is nearer the point of impact."""
    state = activated(name, next(iter(scenario(name).models)).id)
    model = next(iter(state.positions()))
    w, h = state.scenario.board
    p = (fx * w, fy * h)
    spot = landing(state, model, p, z_from)
    r, tol = state.radius(model), state.rules.touch_tolerance
    level = level_at(state, model, spot.z)
    assert check_legs(level, r, [spot.xy]).legal
    assert spot.z <= z_from
    d = math.dist(p, spot.xy)
    if d < 1e-9:
        return
    rng = np.random.default_rng(seed)
    ang = rng.uniform(0, 2 * math.pi, 3000)
    rad = d * np.sqrt(rng.uniform(0, 1, 3000))
    pts = np.column_stack([p[0] + rad * np.cos(ang), p[1] + rad * np.sin(ang)])
    margin = 0.003
    ok = ((pts[:, 0] >= r + margin) & (pts[:, 0] <= w - r - margin)
          & (pts[:, 1] >= r + margin) & (pts[:, 1] <= h - r - margin))
    if spot.z > 0:
        tops = shapely.union_all([t.footprint for t in state.scenario.terrain
                                  if abs(t.props.height - spot.z) < 1e-9])
        ok &= shapely.contains_xy(tops.buffer(-margin), pts[:, 0], pts[:, 1])
    walls = [t.footprint for t in state.scenario.terrain
             if t.props.movement == "impassable" and t.props.height > spot.z]
    for wall in walls:
        ok &= shapely.distance(wall, shapely.points(pts)) >= r + margin
    for o, q in state.positions().items():
        if o != model and abs(q.z - spot.z) < 1e-9:
            ok &= np.hypot(pts[:, 0] - q.x, pts[:, 1] - q.y) >= state.radius(o) + r + margin
    nearer = np.hypot(pts[ok, 0] - p[0], pts[ok, 1] - p[1])
    assert not len(nearer) or nearer.min() >= d - 2 * margin - tol / 8
