"""The search player's look-ahead parts (issue 18, docs/ai.md): the leaf evaluation
of both sides' threats (sim.ai.leaf) and the charges it weighs.

Small boards of our own: a Behemoth (close combat only, the green charge ruler:
8 in, R-RULER-1) and Settlers (a pipe pistol, 30 mm bases).
"""

from __future__ import annotations

from pathlib import Path

from sim.ai.leaf import firepower
from sim.ai.registry import make_player
from sim.ai.scoring import Scorer
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.movement.kinds import Charge
from sim.scenario.format.loader import load_scenario

BEHEMOTH_RADIUS = 80 / 25.4 / 2
SETTLER_RADIUS = 30 / 25.4 / 2


def _board(tmp_path: Path, settlers: list[tuple[float, float]], behemoth: tuple[float, float],
           terrain: str = "") -> GameState:
    models = "".join(
        f'[[models]]\nid = "settler-{k}"\nunit = "settler"\nside = "settlers"\nat = [{x}, {y}]\n'
        for k, (x, y) in enumerate(settlers))
    text = (
        'format = 1\nname = "Search test"\nrules = "rulebook"\nboard = [30, 30]\nrounds = 6\n'
        'include = ["wasteland:units/wasteland.toml"]\n'
        '[sides.settlers]\nname = "Settlers"\n[sides.mutants]\nname = "Mutants"\n'
        f'{terrain}{models}'
        f'[[models]]\nid = "behemoth"\nunit = "behemoth"\nside = "mutants"\n'
        f'at = [{behemoth[0]}, {behemoth[1]}]\n')
    path = tmp_path / "search-test.toml"
    path.write_text(text, encoding="utf-8")
    return new_game(load_scenario(path), seed=3)


def test_a_melee_model_threatens_an_enemy_within_its_charge_ruler_only(tmp_path: Path) -> None:
    """Greedy's spot counts close combat only in base contact; the leaf counts the
    charge a model could make (the Behemoth has no gun: its threat is its charge)."""
    gap = 6.0  # between the bases: within the green ruler (8 in)
    near = _board(tmp_path, [(5, 5)], (5, 5 + SETTLER_RADIUS + BEHEMOTH_RADIUS + gap))
    assert firepower(near, Scorer(), "mutants") > 0.0
    gap = 9.0  # beyond it
    far = _board(tmp_path, [(5, 5)], (5, 5 + SETTLER_RADIUS + BEHEMOTH_RADIUS + gap))
    assert firepower(far, Scorer(), "mutants") == 0.0
    assert firepower(far, Scorer(), "settlers") > 0.0  # the pistol still reaches (12 in)


def test_greedy_and_search_charge_across_difficult_ground(tmp_path: Path) -> None:
    """R-MOV-1: a charge may cross difficult ground on the shorter ruler (red, 6 in
    for the green charge). A low wall lies between the Behemoth and a Settler 3 in
    away; the charge over it is the Behemoth's best action (a 2-health target). (The
    sampled charges avoid difficult ground: the kinds' straight charges find it.)"""
    wall = ('[[terrain]]\nid = "low-wall"\npolygon = [[2, 9.3], [12, 9.3], [12, 9.7], [2, 9.7]]\n'
            'movement = "difficult"\ncover = true\nheight = 1\n')
    y = 9.5 + 1.5 + BEHEMOTH_RADIUS
    state = _board(tmp_path, [(7, 9.5 - 1.5 - SETTLER_RADIUS), (28, 2)], (7, y), wall)
    greedy = make_player("greedy", 1)
    while state.phase is not Phase.ACTIVATION:  # the Mutants, fewer, take the first turn
        state.apply(greedy.decide(state).action)
    assert state.activation is not None and state.activation.model == "behemoth"
    for player in ("greedy", "search"):
        decision = make_player(player, 1).decide(state)
        assert isinstance(decision.action, Charge), f"{player}: {decision.why}"
        assert decision.action.target == "settler-0"
