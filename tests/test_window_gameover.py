"""The game-over screen (issue 8; R-TURN-8, R-TURN-10) reached through events only.

A one-round game of the default scenario: every turn readies one model and
takes option A (R-TURN-4); once only Ready models are left the side plays
option B without readying (R-TURN-5) and ends its turn, so they turn Used
(R-TURN-6). After the last round the engine ends the game; the window then
offers no choice and shows the engine's result.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame

from sim.engine.gamedata import Phase, Readiness
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"


def phase(st: GameState) -> Phase:
    return st.phase


def test_last_round_ends_in_the_game_over_screen(tmp_path: Path) -> None:
    scenario = load_scenario(SKIRMISH)
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=5, rounds=1))
    try:
        st = d.state
        holder = st.acting
        assert holder is not None
        d.click_button(f"{scenario.sides[holder].name} goes first")
        for _ in range(60):
            if st.is_over:
                break
            side = st.acting
            assert side is not None
            if phase(st) is Phase.READY:
                model = next(m.id for m in st.side_models(side)
                             if m.readiness is Readiness.UNREADY)
                d.click_model(model)
                assert st.model(model).readiness is not Readiness.UNREADY
            if phase(st) is Phase.CHOOSE_OPTION:
                d.click_button("Activate none (option A)")
            elif phase(st) is Phase.ACTIVATE:
                d.click_button("End turn")
        assert st.is_over and st.result is not None
        view = d.controller.view()
        assert view.game_over == str(st.result)
        assert view.buttons == ()
        # clicks after the end change nothing
        before = st.to_dict()
        d.click_model(st.side_models(st.sides[0])[0].id)
        d.key(pygame.K_1)
        assert st.to_dict() == before
        # undo brings the game back from its end
        d.key(pygame.K_z, pygame.KMOD_LCTRL)
        assert not st.is_over and d.controller.view().game_over is None
    finally:
        d.close()
