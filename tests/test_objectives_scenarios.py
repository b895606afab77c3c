"""The shipped objective scenarios demonstrate R-OBJ-2..4 (issue 35):
``scenarios/objectives-zones.toml`` (Pump Stations: hold the zones) and
``scenarios/objectives-cargo.toml`` (Salvage Run: carry the cargo). Every base
there is 40 mm, 0.787 in of radius (R-UNIT-1)."""

from __future__ import annotations

from dataclasses import replace

from sim.engine.objectives import holder
from sim.engine.turns import score
from sim.game.kinds import new_game, parse_action
from sim.scenario.objects import Scenario
from tests.combat_util import scenario

R = 40 / 2 / 25.4  # a 40 mm base's radius in inches


def placed(s: Scenario, **at: tuple[float, float]) -> Scenario:
    """The scenario with some models set down elsewhere (on the ground)."""
    return replace(s, models=tuple(replace(m, at=at.get(m.id.replace("-", "_"), m.at))
                                   for m in s.models))


def test_no_model_starts_on_an_objective_so_a_game_of_stays_is_scoreless() -> None:
    """Pump Stations: the nearest start to an objective is the hound at (12, 2), 4 in
    from radio-north's point (12, 6): its base is 4 - 0.787 = 3.21 in away, beyond the
    1 in; the mutants at (5, 2) are 7.07 in from pump-west's centre (4, 9), 4.5 in
    beyond its 2 in. Every model ends every activation where it stands, so nothing
    is held and nobody is removed: 0-0 after the last round (R-OBJ-2/3/6)."""
    state = new_game(scenario("objectives-zones"), seed=5)
    while not state.is_over:
        phase = str(state.phase)
        acts = [str(a) for a in state.legal_actions()]
        pick = next(a for a in acts if a.split()[0] in {
            "first", "ready", "option-b", "activate", "end-activation"}
            and (phase != "activation" or a == "end-activation"))
        state.apply(parse_action(pick))
    assert state.result is not None
    assert dict(state.result.scores) == {"north": 0, "south": 0}
    assert state.result.winner is None


def test_a_pump_goes_to_the_side_with_more_bases_on_it() -> None:
    """R-OBJ-2 on pump-west (centre (4, 9), radius 2): north-mutant-1 at (4, 6.5) is
    2.5 - 0.787 = 1.71 in from the centre, on it; south-mutant-2 at (4, 11.6) is 2.6 -
    0.787 = 1.81, on it too: one each, nobody holds it. With north-hound at (2.2, 9),
    1.8 - 0.787 = 1.01 from the centre, North has two to one and holds it."""
    s = scenario("objectives-zones")
    pump = s.objective("pump-west")
    even = new_game(placed(s, north_mutant_1=(4, 6.5), south_mutant_2=(4, 11.6)), seed=1)
    assert holder(even, pump) is None
    more = new_game(placed(s, north_mutant_1=(4, 6.5), south_mutant_2=(4, 11.6),
                           north_hound=(2.2, 9)), seed=1)
    assert holder(more, pump) == "north"


def test_a_radio_is_held_only_without_an_enemy_near() -> None:
    """R-OBJ-3 on radio-south (point (12, 12), within 1 in): south-hound at (12, 13.5)
    is 1.5 - 0.787 = 0.71 in from it, so South holds it; north-hound at (12, 10.6) is
    1.4 - 0.787 = 0.61 in from it: both near, nobody holds it (a marker is not counted
    by numbers, unlike a zone)."""
    s = scenario("objectives-zones")
    radio = s.objective("radio-south")
    alone = new_game(placed(s, south_hound=(12, 13.5)), seed=1)
    assert holder(alone, radio) == "south"
    both = new_game(placed(s, south_hound=(12, 13.5), north_hound=(12, 10.6)), seed=1)
    assert holder(both, radio) is None


def test_a_crate_picked_up_in_salvage_run_rides_with_its_carrier() -> None:
    """R-OBJ-4 on crate-west ((6, 10), within 1 in): north-mutant-1 set down at (5, 6) is
    4.12 - 0.787 = 3.34 in from it. It walks 3.24 in to (5.5, 9.2) (yellow: 4 in), now
    0.94 - 0.787 = 0.16 in from the crate: it picks it up. North's exit is the north
    edge; from y = 9.2 its base crosses it after 9.2 - 0.787 = 8.41 in, beyond one move,
    so the crate is not home yet: North has 0 points and the crate rides with it."""
    s = placed(scenario("objectives-cargo"), north_mutant_1=(5, 6))
    state = new_game(s, seed=2)
    for text in ("first north", "ready north-mutant-1", "option-b", "activate north-mutant-1",
                 "move north-mutant-1 5.5 9.2"):
        state.apply(parse_action(text))
    assert state.objectives.carried_by("north-mutant-1") == "crate-west"
    assert score(state, "north") == 0
    assert not state.is_legal(parse_action("leave north-mutant-1 5.5 -1"))
