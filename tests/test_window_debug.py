"""The debug view (F2) through synthetic events: any two models, never a crash."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

from pathlib import Path

import pygame
import pytest

from sim.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(load_scenario(ROOT / "scenarios" / "seed-cover-1.toml"), save_dir=tmp_path)
    yield d
    d.close()


def test_clicking_the_same_model_twice_keeps_one_pick(driver: Driver) -> None:
    d = driver
    d.key(pygame.K_F2)
    d.click_model("knight")
    d.click_model("knight")
    d.step()
    assert d.controller.debug_picks == ["knight"]
    assert not d.controller.view().overlays or all(
        type(o).__name__ != "ShotOverlay" for o in d.controller.view().overlays)


def test_two_models_show_the_pair_analysis(driver: Driver) -> None:
    d = driver
    d.key(pygame.K_F2)
    d.click_model("knight")
    d.click_model("mutant")
    d.step()
    assert d.controller.debug_picks == ["knight", "mutant"]
    text = " ".join(line.text for line in d.controller.view().details)
    assert "crate" in text and "line of sight" in text
