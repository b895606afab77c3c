"""``wasteland play``: the default scenario from package data, and ``--load``
continuing a saved game in the window (issues 2 and 8; R-ALL-1)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path
from typing import Any

import pygame
import pytest

from render.app import App
from sim.cli import main
from sim.game.kinds import new_game, parse_action
from sim.game.save import save_game
from sim.scenario.format.loader import load_scenario

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[App]:
    """Each window ``play`` opens, closed again at once by a QUIT event."""
    seen: list[App] = []
    original = App.run

    def run_once(self: App) -> int:
        seen.append(self)
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return original(self)

    monkeypatch.setattr(App, "run", run_once)
    return seen


def test_play_opens_the_default_scenario(opened: list[App]) -> None:
    assert main(["play"]) == 0
    assert len(opened) == 1
    scenario = opened[0].controller.scenario
    assert scenario == load_scenario(ROOT / "scenarios" / "skirmish.toml")
    assert opened[0].controller.state is not None


def test_play_load_continues_the_saved_game(opened: list[App], tmp_path: Path,
                                            monkeypatch: Any) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "skirmish.toml")
    state = new_game(scenario, seed=11)
    for _ in range(3):
        state.apply(next(iter(state.legal_actions())))
    save = tmp_path / "game.save.json"
    save_game(state, save)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--load", str(save)]) == 0
    loaded = opened[0].controller.state
    assert loaded is not None and loaded.to_dict() == state.to_dict()
    # the window goes on from there: the next choice applies to the loaded game
    nxt = next(iter(loaded.legal_actions()))
    loaded.apply(parse_action(str(nxt)))
    assert len(loaded.history) == 4


def test_play_load_of_another_scenario_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "skirmish.toml")
    save = tmp_path / "game.save.json"
    save_game(new_game(scenario, seed=1), save)
    other = ROOT / "scenarios" / "combat-arena.toml"
    assert main(["play", str(other), "--load", str(save)]) == 2
    assert "--load" in capsys.readouterr().err
