"""The hand-over banner and the per-side strip (issue 16), driven by window events.

R-TURN-3 (the advantage holder chooses who goes first), R-TURN-4 (ready a
model), R-TURN-1 (Unready, Ready, Used markers).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw.banner import banner_rect, strip_entries
from sim.engine.gamedata import Phase, Readiness
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    yield d
    d.close()


def side_name(d: Driver, side: str) -> str:
    return d.controller.scenario.sides[side].name


def banner_px(d: Driver) -> tuple[int, int]:
    r = banner_rect(d.app.layout.board)
    return (r.x + 5, r.y + r.h // 2)


def test_a_new_game_opens_with_the_banner_of_the_side_to_act(driver: Driver) -> None:
    banner, acting = driver.app.show.banner, driver.state.acting
    assert banner is not None and acting is not None
    assert banner.title == f"{side_name(driver, acting)} - your turn, round 1"


def test_a_click_on_the_banner_only_dismisses_it(driver: Driver) -> None:
    history = driver.state.history
    driver.click_px(banner_px(driver))
    assert driver.app.show.banner is None
    assert driver.state.history == history  # nothing was chosen by that click


def test_a_key_dismisses_it_and_still_acts(driver: Driver) -> None:
    driver.key(pygame.K_F1)
    assert driver.app.show.banner is None and driver.controller.show_help


def test_the_next_side_gets_its_banner_and_a_button_click_is_not_swallowed(
        driver: Driver) -> None:
    """R-TURN-3: the holder lets the other side go first; that side's banner follows."""
    first = driver.state.acting
    other = next(s for s in driver.state.sides if s != first)
    label = next(lb for lb in driver.labels() if side_name(driver, other) in lb)
    driver.click_button(label)  # with the banner up: dismissed, and the choice made
    assert driver.state.phase is Phase.READY and driver.state.acting == other
    banner = driver.app.show.banner
    assert banner is not None and banner.title.startswith(side_name(driver, other))
    driver.click_px(banner_px(driver))
    assert driver.app.show.banner is None


def test_the_strip_shows_every_model_with_the_engines_readiness_and_health(
        driver: Driver) -> None:
    driver.click_px(banner_px(driver))
    st = driver.state
    driver.click_button(driver.labels()[0])  # who goes first
    driver.click_px(banner_px(driver))
    mine = next(m for m in st.models.values() if m.side == st.acting and m.in_play)
    driver.click_model(mine.id)  # R-TURN-4: ready it
    assert st.model(mine.id).readiness is Readiness.READY
    rows = strip_entries(driver.controller.scene())
    assert [name for name, _ in rows] == [side_name(driver, s) for s in st.sides]
    shown = {m.id: (m.readiness, m.health) for _, models in rows for m, _ in models}
    assert shown == {i: (m.readiness, m.health) for i, m in st.models.items()}
    assert shown[mine.id][0] is Readiness.READY
