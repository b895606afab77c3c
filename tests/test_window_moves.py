"""Moving through the window: climb steps and dragged paths (issue 8).

R-CLIMB-1: a climb is offered at the heights the base touches and costs its
height (scenarios/move-climb.toml: the climber's ledge is 1.2 in high).
R-MOV-5: a dragged path is a path of straight legs; the model ends where the
drag was released. Events only; the engine state is checked after each step.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import math
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from sim.engine.gamedata import Phase, Status
from sim.movement.kinds import Charge, Move
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


def start(d: Driver, model: str) -> None:
    side = d.state.model(model).side
    d.click_button(f"{d.controller.scenario.sides[side].name} goes first")
    d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner (a click on it does only that)
    d.click_model(model)  # ready it (in vts-1.5 that activates it, R-TURN-9)
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    if d.state.phase is Phase.ACTIVATE:
        d.click_model(model)
    act = d.state.activation
    assert act is not None and act.model == model
    d.click_button("Move")


def test_climb_onto_the_ledge(tmp_path: Path) -> None:
    # vts-1.5: no AGI test (R-CLIMB-5), so the climb does not hang on a die roll
    scenario = replace(load_scenario(ROOT / "scenarios" / "move-climb.toml"), rules="vts-1.5")
    d = Driver(scenario, save_dir=tmp_path)
    try:
        start(d, "climber")
        assert "Climb to 1.2 in" in d.labels()
        d.click_button("Climb to 1.2 in")
        assert d.state.model("climber").position.z == 0.0  # nothing applied yet
        px = d.board_px(4.0, 4.0)
        d.click_px(px)
        d.key(pygame.K_RETURN)
        pos = d.state.model("climber").position
        assert pos.z == pytest.approx(1.2)
        assert (pos.x, pos.y) == pytest.approx(d.board_point(px), abs=1e-9)
        last = d.state.history[-1]
        assert isinstance(last, Move) and [s.kind for s in last.steps] == ["climb", "walk"]
    finally:
        d.close()


def test_dragged_path_ends_where_released(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        start(d, "knight")
        p = d.state.model("knight").position
        a = d.board_px(p.x, p.y)
        b = d.board_px(p.x + 1.0, p.y + 1.5)
        c = d.board_px(p.x + 2.0, p.y + 1.0)
        d.post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
        d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        for q in (b, c):
            d.post(pygame.MOUSEMOTION, pos=q, rel=(0, 0), buttons=(1, 0, 0))
        d.post(pygame.MOUSEBUTTONUP, pos=c, button=1)
        d.step()
        setup = d.controller.setup
        assert setup is not None and len(setup.points) >= 2  # a path, not one click
        assert setup.points[-1] == pytest.approx(d.board_point(c))
        before = len(d.state.history)
        d.key(pygame.K_RETURN)
        assert len(d.state.history) == before + 1, d.controller.status
        pos = d.state.model("knight").position
        assert (pos.x, pos.y) == pytest.approx(d.board_point(c), abs=1e-9)
        last = d.state.history[-1]
        assert isinstance(last, Move) and len(last.steps) == len(setup.points)
    finally:
        d.close()


def test_backspace_and_escape(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        start(d, "knight")
        p = d.state.model("knight").position
        d.click_px(d.board_px(p.x + 1, p.y + 1))
        d.click_px(d.board_px(p.x + 2, p.y + 1))
        setup = d.controller.setup
        assert setup is not None and len(setup.points) == 2
        d.key(pygame.K_BACKSPACE)
        assert len(setup.points) == 1
        before = d.state.to_dict()
        d.click_px(d.board_px(p.x, p.y), button=3)  # right click cancels
        assert d.controller.setup is None and d.state.to_dict() == before
    finally:
        d.close()


def test_charge_picks_a_target_then_a_path(tmp_path: Path) -> None:
    """A Charge asks for its target first, then its path (R-MOV-*, issue 7 charge)."""
    scenario = load_scenario(ROOT / "scenarios" / "combat-arena.toml")
    d = Driver(scenario, save_dir=tmp_path)
    try:
        d.click_button(f"{scenario.sides['mutants'].name} goes first")
        d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner
        d.click_model("hound")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.click_button("Activate Ready (option B)")
        d.click_model("hound")
        listed = [a for a in d.state.legal_actions() if isinstance(a, Charge)]
        assert listed, "the arena is built so the hound can charge in round 1"
        sample = listed[0]
        d.click_button("Charge")
        d.click_model(sample.target)
        setup = d.controller.setup
        assert setup is not None and setup.target == sample.target
        assert d.controller.view().highlight >= {sample.target}
        end = sample.steps[-1]
        # a click a little short of contact: the window puts the base in contact
        t = d.state.model(sample.target).position
        px = d.board_px(end.x + (end.x - t.x) * 0.05, end.y + (end.y - t.y) * 0.05)
        before = len(d.state.history)
        d.click_px(px)
        d.key(pygame.K_RETURN)
        assert len(d.state.history) == before + 1, d.controller.status
        last = d.state.history[-1]
        assert isinstance(last, Charge) and last.target == sample.target
        moved = d.state.model("hound").position
        gap = (math.hypot(moved.x - t.x, moved.y - t.y) - scenario.radius_of("hound")
               - scenario.radius_of(sample.target))
        assert abs(gap) <= scenario.rules_data.touch_tolerance  # in base contact
    finally:
        d.close()


def test_leave_the_board_on_purpose(tmp_path: Path) -> None:
    """R-EDGE-2: a model may leave by its own movement; it is then out of play,
    no longer drawn, and the window says where it went."""
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        mutants = d.state.model("mutant-1").side
        d.click_button(f"{d.controller.scenario.sides[mutants].name} goes first")
        d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner
        d.click_model("mutant-1")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.click_button("Activate Ready (option B)")
        d.click_model("mutant-1")
        p = d.state.model("mutant-1").position
        assert p.y > 30  # it stands near the bottom edge of the 36 in board
        d.click_button("Leave")
        d.click_px(d.board_px(p.x, 35.9))
        d.key(pygame.K_RETURN)
        assert d.state.model("mutant-1").status is Status.LEFT, d.controller.status
        assert "mutant-1" not in d.state.positions()
        assert not d.controller.scene().model("mutant-1").on_board
        assert any("out of play: Super Mutant (mutant-1) (left the board)" in line.text
                   for line in d.controller.view().details)
    finally:
        d.close()
