"""Greedy's places worked out in one batched pass are the places worked out one at a
time (issue 33; docs/ai.md, Speed).

:meth:`sim.ai.scoring.Scorer.places` analyses every candidate spot's shots both
ways (the model at each spot against the enemies, each enemy against the model
there) in one call per weapon (:func:`sim.shooting.analysis.analyse_moved`);
:meth:`Scorer.spot` on a fresh scorer and a fresh copy of the state works each spot
out alone, by :func:`sim.shooting.analysis.analyse` per pair. The expected values
are always the one-at-a-time road's, never the batch's own (R-SHOOT-1, R-LOS-1,
R-COV-2..6, R-RANGE-1, R-ELEV-1..5).
"""

from __future__ import annotations

import pytest

from sim.ai.candidates import Reaches, activation_actions
from sim.ai.greedy import GreedyPlayer, _ends
from sim.ai.scoring import Scorer, situation_with
from sim.combat.situation import BoardKey, Situation
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.errors import UsageError
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse, analyse_moved
from tests.conftest import SCENARIOS

#: Boards with cover, dense terrain, heights and huge bases.
BOARDS = ("skirmish", "seed-cover-4-dense", "elev-two-storey", "errata-huge-cover",
          "combat-arena")


def _activations(name: str, seed: int, count: int) -> list[GameState]:
    """Copies of the first ``count`` activation states of a greedy game."""
    state = new_game(load_scenario(SCENARIOS / f"{name}.toml"), seed=seed)
    greedy = GreedyPlayer(seed)
    out: list[GameState] = []
    for _ in range(400):
        if state.is_over or len(out) >= count:
            break
        if state.phase is Phase.ACTIVATION:
            out.append(state.copy())
        state.apply(greedy.decide(state).action)
    assert out, f"{name}: no activation reached"
    return out


def _spots(state: GameState, model: str) -> list[Position]:
    """The candidate ends greedy weighs, where the model stands, and spots on a grid
    around it (some in reach of enemies, some inside terrain: the analysis still
    answers)."""
    here = state.model(model).position
    ends = list(_ends(state, list(activation_actions(state, Reaches(), False))))
    grid = [Position(here.x + dx, here.y + dy, 0.0) for dx in (-6.0, -1.5, 2.0, 7.5)
            for dy in (-5.0, 0.0, 4.5)]
    return list(dict.fromkeys([here, *ends, *grid]))


@pytest.mark.parametrize("name", BOARDS)
def test_places_worked_out_together_are_the_places_worked_out_alone(name: str) -> None:
    """Every spot's best attack, threat, most dangerous attack and gap (so its score)
    are the same floats whether the spots were batched or asked one at a time."""
    compared = 0
    for k, state in enumerate(_activations(name, 3, 4)):
        act = state.activation
        assert act is not None
        model = act.model
        spots = _spots(state, model)
        batched, batch_state = Scorer(), state.copy()
        batched.places(batch_state, model, spots)
        for left in (0, 1):
            for at in spots:
                got = batched.spot(batch_state, model, at, left)
                alone = Scorer().spot(state.copy(), model, at, left)
                assert got == alone, (name, k, at)
                compared += 1
    assert compared > 40


@pytest.mark.parametrize("name", BOARDS)
def test_shots_analysed_on_many_boards_are_the_shots_analysed_alone(name: str) -> None:
    """R-LOS-1, R-COV-2..6, R-RANGE-1: the mover's shots from each spot and the enemies'
    shots at it there, analysed in one call, have the verdicts, cover, reasons and
    numbers of :func:`analyse` on that spot's board."""
    state = _activations(name, 5, 1)[0]
    act = state.activation
    assert act is not None
    model, sc = act.model, state.scenario
    positions = state.positions()
    side = state.model(model).side
    enemies = [e for e in positions if state.model(e).side != side]
    spots = [s for s in _spots(state, model) if s.z == positions[model].z]
    weapon = next(w for w in sc.unit_of(model).weapons if sc.weapons[w].skill != "melee")
    climbing = [m for m in positions if m != model and state.model(m).climbing]
    pairs = [(s, e) for s in spots for e in enemies]
    mine = analyse_moved(sc, positions, model, [e for _, e in pairs], weapon, climbing,
                         model, [s for s, _ in pairs], names=False)
    e = enemies[0]
    theirs_weapon = next(w for w in sc.unit_of(e).weapons if sc.weapons[w].skill != "melee")
    theirs = analyse_moved(sc, positions, e, [model] * len(spots), theirs_weapon, climbing,
                           model, spots, names=False)

    def key(a: object) -> object:
        return a._replace(sight=a.sight.visible)  # type: ignore[attr-defined]

    for (s, t), got in zip(pairs, mine, strict=True):
        board = {**positions, model: s}
        assert key(got) == key(analyse(sc, board, model, t, weapon, climbing, names=False))
    for s, got in zip(spots, theirs, strict=True):
        board = {**positions, model: s}
        assert key(got) == key(analyse(sc, board, e, model, theirs_weapon, climbing,
                                       names=False))
    assert {a.line_of_sight for a in mine} >= {True}


def test_moved_shots_refuse_a_mover_outside_its_pairs() -> None:
    """A moved analysis names what it expects when the mover is in no pair."""
    sc = load_scenario(SCENARIOS / "skirmish.toml")
    state = new_game(sc, seed=0)
    ids = list(state.positions())
    a, b, c = ids[0], ids[-1], ids[1]
    with pytest.raises(UsageError, match="mover"):
        analyse_moved(sc, state.positions(), a, [b], None, (), c, [Position(1.0, 1.0, 0.0)])


@pytest.mark.parametrize("name", BOARDS)
def test_a_moved_board_is_the_board_made_anew(name: str) -> None:
    """A spot's board, made from the state's by moving one model (its key not sorted
    anew), is the board made from scratch: the same positions, climbing models and
    health, and a key equal to a fresh one, so the analyses kept under it are found."""
    state = _activations(name, 1, 1)[0]
    act = state.activation
    assert act is not None
    model = act.model
    for at in _spots(state, model)[1:6]:
        got = situation_with(state, model, at)
        base = Situation.of_state(state)
        anew = Situation(state.scenario, {**base.positions, model: at}, base.sides,
                         base.climbing - {model}, base.health)
        assert got == anew and got.memo is not state.memo
        assert got.board == BoardKey(anew.positions) and hash(got.board) == hash(
            BoardKey(anew.positions))
