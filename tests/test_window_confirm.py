"""End turn asks first when it would turn Ready models Used (issue 34; render/input/confirm.py).

R-TURN-4/R-TURN-6: End turn turns the side's Ready models Used without an
activation. The first press (button or T) with Ready models only asks, naming
them; the second ends the turn. With no Ready model it ends at once.
Events only, under the dummy driver.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame

from sim.engine.actions import EndActivation, EndTurn
from sim.engine.gamedata import Phase, Readiness
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


def ready_knight(d: Driver) -> None:
    d.click_button("Commonwealth Settlers goes first")
    d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner
    d.click_model("knight")
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.key(pygame.K_b)
    assert d.state.phase is Phase.ACTIVATE
    assert d.state.model("knight").readiness is Readiness.READY


def test_end_turn_with_a_ready_model_asks_then_ends_on_the_second_press(
        tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        ready_knight(d)
        before = d.state.history
        d.click_button("End turn")
        assert d.state.history == before  # nothing applied: it asks
        assert d.controller.status_error and "Knight" in d.controller.status
        assert "again to confirm" in d.controller.status
        d.key(pygame.K_t)  # the same action again (its key): confirmed
        assert isinstance(d.state.history[-1], EndTurn)
        assert d.state.model("knight").readiness is Readiness.USED
    finally:
        d.close()


def test_an_action_between_asks_again(tmp_path: Path) -> None:
    """The question is for the position it was asked in: after another engine action
    (and its undo), End turn asks anew."""
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        ready_knight(d)
        d.key(pygame.K_t)
        d.click_model("knight")  # activate it instead
        assert d.state.activation is not None
        d.key(pygame.K_z, pygame.KMOD_CTRL)  # and take that back
        assert d.state.activation is None
        before = d.state.history
        d.key(pygame.K_t)
        assert d.state.history == before  # asks again
        d.key(pygame.K_t)
        assert isinstance(d.state.history[-1], EndTurn)
    finally:
        d.close()


def test_end_turn_without_ready_models_does_not_ask(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        ready_knight(d)
        d.click_model("knight")
        d.key(pygame.K_e)  # End activation: the knight is Used, no model Ready
        assert isinstance(d.state.history[-1], EndActivation)
        if d.state.phase is Phase.ACTIVATE and "End turn" in d.labels():
            d.click_button("End turn")
            assert isinstance(d.state.history[-1], EndTurn)
    finally:
        d.close()
