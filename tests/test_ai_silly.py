"""The two silly positions of issue 37, seen playing against the AI for a whole game:
both hounds in turn walked to the same open spot and the first was shot; a Super
Mutant stood for rounds taking ~10% shots when it could walk to a better place.

Small boards of our own (30 x 30 in): Settler Riflemen (hunting rifle: red short
band, black long, R-RANGE-1), Mutant Hounds (red move, blue charge, R-RULER-1),
a Super Mutant (yellow move, assault rifle: red short band, green long).
"""

from __future__ import annotations

from pathlib import Path

from sim.ai.registry import make_player
from sim.ai.scoring import Scorer, situation_with
from sim.combat.plan import Shoot
from sim.engine.actions import ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario


def _model(i: str, unit: str, side: str, x: float, y: float) -> str:
    return f'[[models]]\nid = "{i}"\nunit = "{unit}"\nside = "{side}"\nat = [{x}, {y}]\n'


def _block(i: str, poly: str, low: bool = False) -> str:
    if low:  # a low wall: cover, difficult ground, no block of sight
        return (f'[[terrain]]\nid = "{i}"\npolygon = {poly}\nmovement = "difficult"\n'
                'cover = true\nheight = 1\n')
    return (f'[[terrain]]\nid = "{i}"\npolygon = {poly}\nmovement = "impassable"\n'
            'blocks_los = true\ncover = true\nheight = 3\n')


def _game(tmp_path: Path, body: str, seed: int) -> GameState:
    text = ('format = 1\nname = "Silly positions"\nrules = "rulebook"\nboard = [30, 30]\n'
            'rounds = 6\ninclude = ["wasteland:units/wasteland.toml"]\n'
            '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n' + body)
    path = tmp_path / "silly.toml"
    path.write_text(text, encoding="utf-8")
    return new_game(load_scenario(path), seed=seed)


def _to_activation(state: GameState, model: str) -> None:
    """Greedy plays both sides until ``model`` is activated (the mutants ready it)."""
    greedy = make_player("greedy", 1)
    while not (state.phase is Phase.ACTIVATION and state.activation is not None
               and state.activation.model == model):
        action = greedy.decide(state).action
        if state.acting == "mutants" and isinstance(action, ReadyModel):
            action = ReadyModel(model)
        state.apply(action)


def _two_hounds(tmp_path: Path) -> GameState:
    """Hound 1 walked (greedy) into the open in front of the Rifleman and was shot at
    (one hit: 1 health left); now hound 2, at the same distance, is to act. Two
    buildings, left and right, hide the ground behind them from the Rifleman."""
    state = _game(tmp_path, _block("left", "[[3, 14], [10, 14], [10, 19], [3, 19]]")
                  + _block("right", "[[20, 14], [27, 14], [27, 19], [20, 19]]")
                  + _model("rifle", "settler_rifle", "settlers", 15, 3)
                  + _model("pistol", "settler", "settlers", 27, 3)
                  + _model("hound-1", "mutant_hound", "mutants", 12, 27)
                  + _model("hound-2", "mutant_hound", "mutants", 18, 27), seed=3)
    _to_activation(state, "hound-1")
    _to_activation(state, "hound-2")
    return state


def test_the_two_hounds_position_is_as_the_issue_saw_it(tmp_path: Path) -> None:
    """The position itself: hound 1 stands in the open, wounded by the Rifleman's
    shots (R-LOS-1: it sees it), and greedy walks hound 2 into its sight as well."""
    state = _two_hounds(tmp_path)
    h1 = state.model("hound-1")
    assert h1.in_play and h1.health < 3
    assert Scorer().best_shot(situation_with(state, "hound-1", h1.position),
                              "rifle", "hound-1") is not None
    assert _rifle_sees_hound_2_after(state, "greedy")


def _rifle_sees_hound_2_after(state: GameState, player: str) -> bool:
    """Whether the Rifleman sees hound 2 where ``player``'s activation of it ends."""
    sim = state.copy()
    p = make_player(player, 1)
    while sim.activation is not None and sim.activation.model == "hound-2":
        sim.apply(p.decide(sim).action)
    at = sim.model("hound-2").position
    return Scorer().best_shot(situation_with(sim, "hound-2", at), "rifle", "hound-2") is not None


def test_search_does_not_send_the_second_hound_where_the_first_was_shot(
        tmp_path: Path) -> None:
    """What a player expects: hound 2 keeps behind a building, out of the Rifleman's
    sight (R-LOS-1), rather than walk to the open ground where hound 1 was just shot:
    from there a move and a charge (blue, 10 in) still reach the Rifleman next round."""
    state = _two_hounds(tmp_path)
    assert not _rifle_sees_hound_2_after(state, "search")


def test_a_super_mutant_does_not_stand_and_fire_long_shots(tmp_path: Path) -> None:
    """A Super Mutant in the open, the Rifleman in cover behind a low wall 9.6 in
    away (R-COV-2): from where it stands its assault rifle's long band gives ~10%
    to hit. Two such shots are the idle mutant of the issue; search walks closer or
    to a better place with one of its actions. (On today's main search already does
    here: this position could not be made to fail, see docs/ai.md.)"""
    state = _game(tmp_path, _block("wall", "[[12, 5.6], [18, 5.6], [18, 6.0], [12, 6.0]]", True)
                  + _block("block", "[[19, 10], [23, 10], [23, 14], [19, 14]]")
                  + _model("rifle", "settler_rifle", "settlers", 15, 4)
                  + _model("mutant", "super_mutant", "mutants", 15, 15), seed=5)
    while state.phase is not Phase.ACTIVATION or state.acting != "mutants":
        state.apply(make_player("greedy", 1).decide(state).action)
    start = state.model("mutant").position
    search = make_player("search", 1)
    chosen = []
    while state.activation is not None and state.activation.model == "mutant":
        d = search.decide(state)
        chosen.append(d.action)
        state.apply(d.action)
    assert not all(isinstance(a, Shoot) for a in chosen), chosen
    assert state.model("mutant").position != start
