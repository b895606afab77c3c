"""Objectives in play, R-OBJ-1..6 (issue 35): zones and markers held at the end of a
round, cargo picked up, dropped, carried off or lost, points per kill, and the score
and the end of hand-worked games. Every expected score below is worked out by hand
in the comments, from the positions and the rules, never copied from a run."""

from __future__ import annotations

from pathlib import Path

from sim.engine.kinds import KindRegistry
from sim.engine.state import GameState
from sim.engine.turns import score
from sim.game.kinds import new_game, parse_action
from sim.game.save import load_game, save_game
from sim.movement.kinds import LeaveKind, MoveKind
from sim.scenario.format.loader import load_scenario, load_scenario_text
from sim.scenario.objects import Scenario
from tests.engine_util import ZapKind

KINDS = KindRegistry((MoveKind(), LeaveKind(), ZapKind()))

# A unit without weapons (no dice): a 32 mm base is 0.63 in of radius (R-UNIT-1), its
# move the yellow ruler, 4 in (R-RULER-1). vts-1.5: readying activates at once and the
# turn ends with the activation (R-TURN-9), so each line below is one whole turn.
HEAD = """
format = 1
name = "Objectives by hand"
rules = "vts-1.5"
board = [20, 20]
rounds = 2
advantage = "a"
{extra}

[sides.a]
name = "Side A"
[sides.b]
name = "Side B"

[units.grunt]
name = "Grunt"
base = 32
move = "yellow"
charge = "red"
special = {{ S = 5, P = 5, E = 5, C = 5, I = 5, A = 5, L = 5 }}
skills = {{}}
health = 3
armor = {{ physical = 0, energy = 0, radiation = 0 }}
weapons = []
"""


def model(mid: str, side: str, x: float, y: float) -> str:
    return f'\n[[models]]\nid = "{mid}"\nunit = "grunt"\nside = "{side}"\nat = [{x}, {y}]\n'


def scenario(extra: str, models: str, objectives: str) -> Scenario:
    return load_scenario_text(HEAD.format(extra=extra) + models + objectives, "by-hand.toml")


def play(state: GameState, *texts: str) -> None:
    for text in texts:
        state.apply(KINDS.parse(text))


ZONES = scenario(
    "kill_points = 3",
    model("a1", "a", 10, 13) + model("a2", "a", 3, 4.5)
    + model("b1", "b", 10, 6.5) + model("b2", "b", 5, 3),
    """
[[objectives]]
id = "well"
kind = "zone"
at = [10, 10]
radius = 2
points = 2

[[objectives]]
id = "radio"
kind = "marker"
at = [3, 3]
points = 1
""")


def test_a_zone_and_a_marker_held_then_contested_by_hand() -> None:
    """R-OBJ-2/3/6. Gaps from the base's edge (radius 0.63): a1 at (10, 13) is 3 - 0.63 =
    2.37 in from the well's centre, outside its 2 in; b1 at (10, 6.5) 2.87, outside.
    a2 at (3, 4.5) is 1.5 - 0.63 = 0.87 from the radio, within 1; b2 at (5, 3) 1.37, not.

    Round 1: a1 walks to (10, 11.5): 0.87 from the centre, in the zone. At the round's
    end A has 1 model in the well against 0: +2; the radio has a2 and no enemy: +1.
    A 3, B 0. Round 2: b1 walks to (10, 8.5), also 0.87 in: 1 against 1, nobody holds
    the well; b2 walks to (4, 3): 0.37 from the radio, both sides there, nobody holds
    it. The last round ends: A 3, B 0, A wins."""
    state = GameState(ZONES, seed=1, kinds=KINDS)
    play(state, "first a", "ready a1", "move a1 10 11.5", "end-activation",
         "ready b1", "end-activation", "ready a2", "end-activation",
         "ready b2", "end-activation")
    assert state.round == 2
    assert (score(state, "a"), score(state, "b")) == (3, 0)
    held = [(e.data["objective"], e.data["side"], e.data["points"])
            for e in state.events if e.kind == "objective-held"]
    assert held == [("well", "a", 2), ("radio", "a", 1)]
    play(state, "first b", "ready b1", "move b1 10 8.5", "end-activation",
         "ready a1", "end-activation", "ready b2", "move b2 4 3", "end-activation",
         "ready a2", "end-activation")
    assert state.is_over
    assert state.result is not None
    assert dict(state.result.scores) == {"a": 3, "b": 0}
    assert state.result.winner == "a"
    assert len([e for e in state.events if e.kind == "objective-held"]) == 2


def test_points_per_kill_come_from_the_scenario() -> None:
    """R-OBJ-5: kill_points = 3, so b1 zapped to 0 health (3 damage, no armor roll in the
    test kind) gives A 3 points; the well is then A's alone at the round's end (+2),
    the radio too (+1): A 6, B 0."""
    state = GameState(ZONES, seed=1, kinds=KINDS)
    play(state, "first a", "ready a1", "move a1 10 11.5", "zap a1 b1 3")
    assert score(state, "a") == 3
    play(state, "ready b2", "end-activation", "ready a2", "end-activation")
    assert state.round == 2
    assert (score(state, "a"), score(state, "b")) == (6, 0)


CARGO = scenario(
    "kill_points = 2",
    model("a1", "a", 10, 6) + model("a2", "a", 3, 18) + model("b1", "b", 17, 10)
    + model("b2", "b", 17, 18),
    """
[[objectives]]
id = "crate"
kind = "cargo"
at = [10, 4]
points = 4
exits = { a = "north", b = "east" }
""")


def test_cargo_carried_off_by_its_exit_scores_and_gives_no_kill_point() -> None:
    """R-OBJ-4/6. a1 at (10, 6) walks 1.5 in to (10, 4.5): 0.5 - 0.63 < 1 from the crate,
    so it picks it up after the move. It leaves north: from y = 4.5 its base crosses the
    edge when the centre is at y = 0.63, 3.87 in along, within the 4 in ruler. A scores
    the crate's 4 points and B gets no point for a1 gone (R-OBJ-4, not R-EDGE-2's)."""
    state = GameState(CARGO, seed=1, kinds=KINDS)
    play(state, "first a", "ready a1", "move a1 10 4.5")
    assert state.objectives.carried_by("a1") == "crate"
    play(state, "leave a1 10 -1")
    assert state.objectives.cargo["crate"].gone == "scored"
    assert (score(state, "a"), score(state, "b")) == (4, 0)


def test_cargo_taken_off_another_edge_is_lost_and_counts_as_a_kill() -> None:
    """R-OBJ-4 with R-EDGE-2: the same walk and leave as above, but A's exit is east.
    a1 leaves north with the crate: the crate is lost, A scores nothing, and B scores
    kill_points = 2 for a1 gone off the board as R-EDGE-2 says."""
    other = scenario("kill_points = 2", model("a1", "a", 10, 6) + model("a2", "a", 3, 18)
                     + model("b1", "b", 17, 10) + model("b2", "b", 17, 18), """
[[objectives]]
id = "crate"
kind = "cargo"
at = [10, 4]
points = 4
exits = { a = "east" }
""")
    state = GameState(other, seed=1, kinds=KINDS)
    play(state, "first a", "ready a1", "move a1 10 4.5", "leave a1 10 -1")
    assert state.objectives.cargo["crate"].gone == "lost"
    assert (score(state, "a"), score(state, "b")) == (0, 2)


def test_a_carrier_eliminated_drops_the_cargo_where_it_stood_and_undo_restores_it() -> None:
    """R-OBJ-4: a1 picks the crate up at (10, 4.5) and ends its activation; in B's turn
    b1 zaps it for 3, its whole health. The crate lies free at (10, 4.5) again and B
    has kill_points = 2. Undo takes the zap back: a1 carries the crate again."""
    state = GameState(CARGO, seed=1, kinds=KINDS)
    play(state, "first a", "ready a1", "move a1 10 4.5", "end-activation")
    assert state.objectives.carried_by("a1") == "crate"
    play(state, "ready b1", "zap b1 a1 3")
    crate = state.objectives.cargo["crate"]
    assert (crate.at, crate.carrier, crate.gone) == ((10.0, 4.5), None, None)
    assert (score(state, "a"), score(state, "b")) == (0, 2)
    state.undo()
    assert state.objectives.carried_by("a1") == "crate"
    assert score(state, "b") == 0


def test_a_save_keeps_who_carries_what(tmp_path: Path) -> None:
    """Saves store the seed and the actions (docs/engine.md): loading one replays them,
    so the carrier and the points come back with the game."""
    path = tmp_path / "cargo.toml"
    path.write_text(HEAD.format(extra="") + model("a1", "a", 10, 6) + model("b1", "b", 17, 10)
                    + '\n[[objectives]]\nid = "crate"\nkind = "cargo"\nat = [10, 4]\n'
                    'points = 4\nexits = { a = "north" }\n', encoding="utf-8")
    state = new_game(load_scenario(path), seed=3)
    for text in ("first a", "ready a1", "move a1 10 4.5", "end-activation"):
        state.apply(parse_action(text))
    save_game(state, tmp_path / "game.json")
    again = load_game(tmp_path / "game.json")
    assert again.objectives == state.objectives
    assert again.to_dict()["objectives"]["cargo"]["crate"]["carrier"] == "a1"
