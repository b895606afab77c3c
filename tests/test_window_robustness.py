"""The window never loses a game: the debug view with any clicks, and a save on a crash."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

from pathlib import Path

import pygame
import pytest

from sim.scenario.format.loader import load_scenario
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


def test_an_unexpected_error_saves_the_game_before_the_window_stops(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing is lost: a bug that stops the loop leaves a save that loads to the game."""
    from sim.game.kinds import parse_action
    from sim.game.save import load_game

    d = driver
    d.state.apply(parse_action(str(next(iter(d.state.legal_actions())))))

    def broken() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(d.controller, "tick", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        d.app.run()
    saves = sorted(tmp_path.glob("*.save.json"))
    assert len(saves) == 1
    assert load_game(saves[0]).to_dict() == d.state.to_dict()
    assert f"wasteland play --load {saves[0]}" in capsys.readouterr().err


def _quit(d: Driver) -> None:
    """Close the window as a player does, and let the loop finish."""
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert d.app.run() == 0


def test_closing_the_window_saves_a_changed_game(
        driver: Driver, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.game.save import load_game

    d = driver
    d.click_button(d.labels()[0])  # the first choice of the game
    assert d.state.history
    _quit(d)
    saves = sorted(tmp_path.glob("*.save.json"))
    assert len(saves) == 1
    assert load_game(saves[0]).to_dict() == d.state.to_dict()
    assert f"wasteland play --load {saves[0]}" in capsys.readouterr().err


def test_closing_an_unchanged_or_just_saved_game_writes_nothing_more(
        driver: Driver, tmp_path: Path) -> None:
    d = driver
    _quit(d)
    assert list(tmp_path.glob("*.save.json")) == []
    d.app.running = True
    d.click_button(d.labels()[0])
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    _quit(d)
    assert len(list(tmp_path.glob("*.save.json"))) == 1
