"""Push back at height (R-EDGE-3, R-FALL-1..4; docs/movement.md, Decisions), through the
engine: a knight on a top hits its target with the power fist (push back Orange) in
``scenarios/move-push-height.toml``, scripted dice, both rule sets; and a property
of the geometry underneath (geometry.movement.push with a floor).

A push that carries the base centre over the edge of the top it stands on ends
there; the model falls to the level below and lands at the nearest free spot."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
import shapely
import shapely.affinity
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.movement.obstacles import ObstacleSet
from geometry.movement.push import push_back
from sim.engine.gamedata import Status
from sim.engine.state import GameState
from sim.game.kinds import parse_action
from sim.scenario.positions import Position
from tests.combat_util import armor, at_activation, face, scenario, skill, variant
from tests.dice_script import ScriptedRoll
from tests.movement_util import RULE_SETS

R40 = 20 / 25.4  # radius of a 40 mm base
# The landing outlines are circumscribed: a landed base touches, at most a hair away.
NEAR = 2e-3

# The power fist hits: skill 6 against S 6, blank damage and armor-reduction dice,
# armor roll 1 against physical armor 1: 3 - 1 = 2 damage (docs/combat.md).
HIT: tuple[ScriptedRoll, ...] = (skill(6), face("damage"), face("armor-reduction"), armor(1))


def blow(rules: str, knight: str, target: str, *fall: ScriptedRoll) -> GameState:
    """``knight`` hits ``target`` with the power fist; ``fall`` dice are scripted after the hit."""
    sc = variant(scenario("move-push-height"), rules=rules)
    state = at_activation(sc, knight, [*HIT, *fall])
    state.apply(parse_action(f"close-combat {knight} {target} power_fist"))
    assert state.rng.remaining == 0  # type: ignore[attr-defined]
    return state


def fall_dice(rules: str, *dice: ScriptedRoll) -> tuple[ScriptedRoll, ...]:
    """The fall's dice: none in vts-1.5, where no fall deals damage (R-CLIMB-5, revised)."""
    return dice if rules == "rulebook" else ()


def kinds(state: GameState) -> list[str]:
    return [e.kind for e in state.events]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pushed_off_a_roof_falls_to_the_foot_of_the_wall(rules: str) -> None:
    """4 in roof, pushed east: over the edge at x = 10 (0.43 in), a Yellow fall (+2):
    blank black die, armor roll 1 blocks 1: 1 damage on top of the blow's 2. In
    vts-1.5 the same fall deals nothing and rolls nothing (R-CLIMB-5, revised)."""
    state = blow(rules, "knight-a", "mutant-a", *fall_dice(rules, face("damage"), armor(1)))
    m = state.model("mutant-a")
    fall_dealt = 1 if rules == "rulebook" else 0
    assert m.in_play and m.health == 4 - 2 - fall_dealt
    # At the foot of the east wall, on the ground, where it went over.
    assert m.position.z == 0.0 and m.position.y == pytest.approx(5.0, abs=1e-9)
    assert m.position.x == pytest.approx(10 + R40, abs=NEAR) and m.position.x >= 10 + R40
    pushed = next(e for e in state.events if e.kind == "pushed")
    assert pushed.data["fell"] and pushed.data["travelled"] == pytest.approx(10 - (8 + 2 * R40))
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["distance"] == pytest.approx(4.0) and fell.data["dealt"] == fall_dealt
    assert fell.data.get("colour") == ("yellow" if rules == "rulebook" else None)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_power_armor_pushed_off_a_tower_is_unhurt(rules: str) -> None:
    """R-FALL-4: 13 in, no fall dice, still on the table, on the ground."""
    state = blow(rules, "knight-b", "paladin-b")
    p = state.model("paladin-b")
    assert p.in_play and p.position.z == 0.0
    assert p.position.x == pytest.approx(20 + R40, abs=NEAR)
    hit = next(e for e in state.events if e.kind == "hit")
    assert p.health == 5 - hit.data["dealt"]
    assert next(e for e in state.events if e.kind == "fell").data["ignored"]


def test_pushed_off_above_black_is_removed() -> None:
    """R-FALL-1 (rulebook): a fall of 13 in (above Black) removes the mutant; no dice."""
    state = blow("rulebook", "knight-b", "mutant-b")
    assert state.model("mutant-b").status is Status.ELIMINATED
    assert "removed" in kinds(state)


def test_vts_pushed_off_above_black_stays_in_play() -> None:
    """R-CLIMB-5 (revised): in vts-1.5 no fall removes a model, whatever the height."""
    state = blow("vts-1.5", "knight-b", "mutant-b")
    m = state.model("mutant-b")
    assert m.in_play and m.position.z == 0.0 and m.health == 4 - 2
    assert "removed" not in kinds(state)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pushed_down_onto_a_lower_top_stays_on_it(rules: str) -> None:
    """6 in roof beside a 4 in shelf: a 2 in drop (Orange, no dice) onto the shelf;
    the roof's wall rises above the shelf, so the base lands clear of it."""
    state = blow(rules, "knight-c", "mutant-c")
    m = state.model("mutant-c")
    assert m.in_play and m.health == 4 - 2 and m.position.z == 4.0
    assert m.position.x == pytest.approx(8 + R40, abs=NEAR)
    assert 8 < m.position.x < 12 and m.position.y == pytest.approx(15.0, abs=1e-9)
    fell = next(e for e in state.events if e.kind == "fell")
    assert fell.data["distance"] == pytest.approx(2.0) and fell.data["dealt"] == 0


@pytest.mark.parametrize("rules", RULE_SETS)
def test_an_obstacle_on_the_roof_stops_the_push_first(rules: str) -> None:
    """The chimney (5 in, in the way at 3 in) stops the base in contact, on the roof."""
    state = blow(rules, "knight-d", "mutant-d")
    m = state.model("mutant-d")
    assert m.position.z == 3.0 and m.position.x == pytest.approx(22.5 - R40, abs=1e-8)
    assert "fell" not in kinds(state) and "landed" not in kinds(state)
    assert next(e for e in state.events if e.kind == "pushed").data["stopped_by"] == [
        "chimney-d"]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_roof_at_the_board_edge_is_a_hard_edge(rules: str) -> None:
    """R-EDGE-3 at height: the board edge comes before the roof's edge: 1 damage, no fall."""
    state = blow(rules, "knight-e", "mutant-e")
    m = state.model("mutant-e")
    assert m.in_play and m.health == 4 - 2 - 1
    assert m.position == Position(pytest.approx(48 - R40), 5.0, 3.0)  # type: ignore[arg-type]
    assert "fell" not in kinds(state)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pushed_off_onto_another_base_lands_beside_it(rules: str) -> None:
    """The hound stands at the foot of the wall where the mutant would land (34, 5):
    the mutant lands at the nearest free spot: against the wall (x = 34 + r) and in
    contact with the hound, south of it (the hound stands 0.3 in north)."""
    state = blow(rules, "knight-f", "mutant-f", *fall_dice(rules, face("damage"), armor(1)))
    m = state.model("mutant-f")
    hound = state.model("hound-f").position
    assert m.in_play and m.position.z == 0.0
    expected_y = hound.y - math.sqrt((2 * R40) ** 2 - (34 + R40 - hound.x) ** 2)
    assert m.position.x == pytest.approx(34 + R40, abs=NEAR)
    assert m.position.y == pytest.approx(expected_y, abs=NEAR)
    assert math.dist(m.position.xy, hound.xy) >= 2 * R40 - 1e-9
    landed = next(e for e in state.events if e.kind == "landed")
    assert landed.data["aside"] == pytest.approx(math.dist((34, 5), (34 + R40, expected_y)),
                                                 abs=NEAR)


def test_a_push_on_the_ground_never_falls() -> None:
    """The old behaviour is kept on the ground: the push goes its whole length."""
    base = variant(scenario("move-push-height"), at={"knight-a": (2.0, 20.0),
                                                     "mutant-a": (2 + 2 * R40, 20.0)})
    sc = replace(base, models=tuple(replace(m, z=0.0) if m.id in ("knight-a", "mutant-a")
                                    else m for m in base.models))
    state = at_activation(sc, "knight-a", list(HIT))
    state.apply(parse_action("close-combat knight-a mutant-a power_fist"))
    m = state.model("mutant-a")
    assert m.position.x == pytest.approx(2 + 2 * R40 + 2.0) and m.position.z == 0.0
    assert kinds(state)[-1] == "pushed"


@settings(max_examples=40, deadline=None)
@given(st.floats(0.5, 9.5), st.floats(0.5, 9.5), st.floats(0, 2 * math.pi),
       st.floats(0.1, 6.0), st.integers(0, 2))
def test_property_push_goes_over_the_edge_exactly_where_the_centre_leaves(
    x: float, y: float, angle: float, length: float, shape: int
) -> None:
    """geometry.movement.push.push_back with a floor (R-EDGE-3 at height): the centre stays on
    the floor all the way to where it ends; it ``fell`` exactly when going a hair
    further along the push would leave the floor (and it never went further than
    asked), else it went the whole length (nothing else is in the way)."""
    floors = [shapely.box(0, 0, 10, 10),
              shapely.Polygon([(0, 0), (10, 0), (10, 4), (4, 4), (4, 10), (0, 10)]),
              shapely.Point(5, 5).buffer(5, quad_segs=16)]
    # Well inside a 100 in board: its edge never comes first.
    floor = shapely.affinity.translate(floors[shape], 20, 20)
    x, y = x + 20, y + 20
    centre = (x, y)
    if not floor.covers(shapely.Point(centre)):
        res = push_back((100.0, 100.0), ObstacleSet(), 0.5, centre, (x - 1, y), length,
                        0.01, floor=floor)
        assert res.fell and res.travelled == 0.0
        return
    source = (x - math.cos(angle), y - math.sin(angle))
    res = push_back((100.0, 100.0), ObstacleSet(), 0.5, centre, source, length, 0.01,
                    floor=floor)
    assert res.travelled <= length + 1e-12
    walked = shapely.LineString([centre, res.end]) if res.travelled > 0 else None
    if walked is not None:
        assert floor.buffer(1e-9).covers(walked)
    beyond = (res.end[0] + math.cos(angle) * 1e-6, res.end[1] + math.sin(angle) * 1e-6)
    if res.fell:
        assert not floor.covers(shapely.Point(beyond))
    else:
        assert res.travelled == pytest.approx(length)
