"""A whole round of the default scenario played through the window (issue 8).

Only synthetic mouse and key events reach the window (tests/window_driver.py
posts them to pygame's queue under the dummy driver); after each step the
engine state is checked. Rules exercised: R-TURN-3 (choose the first side),
R-TURN-4 (ready, option A/B), R-TURN-6 (activate, end activation, Used),
R-TURN-7 (actions of an activation), R-TURN-8 (round ends when all are Used).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import math
from pathlib import Path

import pygame
import pytest

from sim.engine.gamedata import Phase, Readiness
from sim.engine.state import GameState
from sim.game.save import load_game
from sim.movement.plan import Step
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"


def phase(st: GameState) -> Phase:
    """The phase now (a call, so the type checker does not pin it between steps)."""
    return st.phase


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    yield d
    d.close()


def legal_move_pixel(d: Driver, model: str) -> tuple[int, int]:
    """A pixel on the board where the engine accepts a move of ``model``.

    The engine is the oracle (``why_illegal``); the action is built by the
    window's own controller, so the test only picks where to click.
    """
    setup = d.controller.setup
    assert setup is not None and setup.model == model
    p = d.state.model(model).position
    for dist in (1.5, 1.0, 0.6):
        for k in range(16):
            a = k * math.tau / 16
            px = d.board_px(p.x + dist * math.cos(a), p.y + dist * math.sin(a))
            action = d.controller.build(setup, [Step("walk", *d.board_point(px))])
            if action is not None and d.state.why_illegal(action) is None:
                return px
    raise AssertionError(f"no legal move found for {model}")


def activate_and_move(d: Driver, model: str) -> None:
    """Activate ``model`` by clicking it, move it by clicks, end its activation."""
    d.click_model(model)
    act = d.state.activation
    assert d.state.phase is Phase.ACTIVATION and act is not None and act.model == model
    left = act.actions_left
    d.click_button("Move")
    assert d.controller.setup is not None, d.controller.status
    px = legal_move_pixel(d, model)
    x, y = d.board_point(px)
    d.click_px(px)
    if d.controller.setup is not None:  # a waypoint path: Enter commits it
        d.key(pygame.K_RETURN)
    pos = d.state.model(model).position
    assert (pos.x, pos.y) == pytest.approx((x, y), abs=1e-9), d.controller.status
    act = d.state.activation
    assert act is not None and act.actions_left == left - 1
    rnd = d.state.round
    d.click_button("End activation")
    assert d.state.activation is None
    # Used, unless that was the round's last activation (markers are removed, R-TURN-8)
    assert d.state.model(model).readiness is Readiness.USED or d.state.round == rnd + 1


def test_a_whole_round_through_events(driver: Driver) -> None:
    d = driver
    st = d.state
    assert phase(st) is Phase.CHOOSE_FIRST and st.round == 1
    holder = st.acting
    assert holder is not None
    first = st.opponent(holder)
    d.click_button(f"{d.controller.scenario.sides[first].name} goes first")
    assert phase(st) is Phase.READY and st.acting == first

    option_a_used = False
    turns = 0
    while st.round == 1:
        turns += 1
        assert turns < 40, "the round does not end"
        side = st.acting
        assert side is not None
        if phase(st) is Phase.READY:
            model = next(m.id for m in st.side_models(side)
                         if m.readiness is Readiness.UNREADY)
            d.click_model(model)
            assert st.model(model).readiness is Readiness.READY
            if phase(st) is Phase.CHOOSE_OPTION and not option_a_used:
                option_a_used = True
                d.click_button("Activate none (option A)")
                assert st.model(model).readiness is Readiness.READY
                assert st.acting == st.opponent(side) or phase(st) is not Phase.CHOOSE_OPTION
                continue
            if phase(st) is Phase.CHOOSE_OPTION:
                d.click_button("Activate Ready (option B)")
        assert phase(st) is Phase.ACTIVATE and st.acting == side
        while phase(st) is Phase.ACTIVATE and st.acting == side and st.round == 1:
            ready = [m.id for m in st.side_models(side) if m.readiness is Readiness.READY]
            if not ready:
                d.click_button("End turn")
                break
            activate_and_move(d, ready[0])
    assert option_a_used
    assert st.round == 2
    assert all(m.readiness is Readiness.UNREADY for m in st.models.values() if m.in_play)
    assert any(e.kind == "round-ended" for e in st.events)


def test_illegal_click_shows_the_engine_reason_and_changes_nothing(driver: Driver) -> None:
    d = driver
    st = d.state
    holder = st.acting
    assert holder is not None
    first = st.opponent(holder)
    d.click_button(f"{d.controller.scenario.sides[first].name} goes first")
    enemy = st.side_models(st.opponent(first))[0].id
    before = st.to_dict()
    d.click_model(enemy)  # readying an enemy model is illegal (R-TURN-4)
    assert st.to_dict() == before
    assert d.controller.status_error
    ready = __import__("sim.engine.actions", fromlist=["ReadyModel"]).ReadyModel
    why = st.why_illegal(ready(enemy))
    assert why is not None and why.reason in d.controller.status
    assert d.controller.view().status == d.controller.status


def test_undo_and_save_through_keys_then_reload(driver: Driver, tmp_path: Path) -> None:
    d = driver
    st = d.state
    holder = st.acting
    assert holder is not None
    first = st.opponent(holder)
    d.click_button(f"{d.controller.scenario.sides[first].name} goes first")
    start = st.to_dict()
    model = st.side_models(first)[0].id
    d.click_model(model)
    assert st.model(model).readiness is Readiness.READY
    d.key(pygame.K_z, pygame.KMOD_LCTRL)
    assert st.to_dict() == start
    assert "undone" in d.controller.status
    d.click_model(model)
    if phase(st) is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    d.key(pygame.K_s, pygame.KMOD_LCTRL)
    saves = sorted(tmp_path.glob("*.json"))
    assert len(saves) == 1
    assert str(saves[0]) in d.controller.status
    assert load_game(saves[0]).to_dict() == st.to_dict()


def test_help_and_debug_keys(driver: Driver) -> None:
    d = driver
    d.key(pygame.K_F1)
    assert d.controller.view().show_help
    d.key(pygame.K_ESCAPE)
    assert not d.controller.view().show_help
    d.key(pygame.K_F2)
    assert d.controller.view().debug


def test_window_tests_play_seeded_games(tmp_path: Path) -> None:
    """Issue 30: no shipped scenario has a seed, so an unseeded test game drew one at random
    and about 1 in 140 ended at the first shot. The driver seeds every game it makes."""
    from tests.window_driver import SEED

    first = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    assert first.state.seed == SEED
    first.close()
    again = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    assert again.state.seed == SEED
