"""Shooting through the window: preview on hover, shot on click (issue 8).

Seed 004, cover example 1 (scenarios/seed-cover-1.toml), by synthetic
events only. The preview must say what the seed says (knight -> mutant:
the crate counts, the building touches the knight and is ignored, R-COV-2)
and what the engine will roll; the click must make exactly one Shoot action
whose dice and outcome then show (R-SHOOT-1..2, R-TURN-7).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw.overlays import ShotOverlay
from sim.engine.gamedata import Phase
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
COVER_1 = ROOT / "scenarios" / "seed-cover-1.toml"


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(load_scenario(COVER_1), save_dir=tmp_path)
    yield d
    d.close()


def activate(d: Driver, model: str) -> None:
    side = d.state.model(model).side
    d.click_button(f"{d.controller.scenario.sides[side].name} goes first")
    d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner (a click on it does only that)
    d.click_model(model)
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    d.click_model(model)
    act = d.state.activation
    assert act is not None and act.model == model


def details(d: Driver) -> str:
    return "\n".join(line.text for line in d.controller.view().details)


def test_hover_previews_then_click_shoots(driver: Driver) -> None:
    d = driver
    activate(d, "knight")
    d.click_button("Shoot")
    p = d.state.model("mutant").position
    before = d.state.to_dict()
    d.move_to(d.board_px(p.x, p.y))
    assert d.state.to_dict() == before  # hovering never changes the game
    shots = [o for o in d.controller.view().overlays if isinstance(o, ShotOverlay)]
    assert len(shots) == 1
    marks = {m.id: m.counts for m in shots[0].cover}
    assert marks == {"crate": True, "building": False}
    assert shots[0].witness is not None
    text = details(d)
    assert "line of sight: yes" in text
    assert "touches the attacker" in text
    assert "success" in text  # the odds of the preview
    d.click_model("mutant")
    assert len(d.state.history) == len(before["history"]) + 1
    assert str(d.state.history[-1]).startswith("shoot knight mutant")
    act = d.state.activation
    assert act is not None and act.actions_left == 1
    shot_events = [e.text for e in d.state.events[len(before["events"]):]]
    assert shot_events and all(t in details(d) for t in shot_events)  # dice and outcome shown
    assert d.controller.setup is None


def test_illegal_target_is_refused_with_the_reason(driver: Driver) -> None:
    """A click on a target the engine refuses leaves the state as it was."""
    d = driver
    activate(d, "knight")
    d.click_button("Shoot")
    d.key(pygame.K_ESCAPE)
    assert d.controller.setup is None
    d.click_button("Shoot")
    before = d.state.to_dict()
    d.click_model("knight")  # its own base: not a legal target
    assert d.state.to_dict() == before
    assert d.controller.status_error and "cannot attack itself" in d.controller.status
