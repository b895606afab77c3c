"""Solo play in the window (issue 18): the AI side plays whole turns at its pace, its
reasons in the log, the human cannot act for it, and undo goes back over the AI's
turn to the human's last decision. The AI thinks off the frame loop: the window
answers while it does, a decision about a position since undone is dropped, and
quitting does not wait for it. Every human input is a pygame event (dummy driver).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from render.input.ai_turns import MARK, AiTurns
from sim.engine.gamedata import Phase, Readiness
from sim.engine.state import GameState
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.window_driver import Driver

HUMAN, AI = "settlers", "mutants"
PACE = 500


class Clock:
    """The window's frame clock, stepped by the test."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[tuple[Driver, Clock]]:
    d = Driver(load_scenario(SCENARIOS / "skirmish.toml"), tmp_path)
    d.controller.ai = AiTurns.named({AI: "greedy"})
    d.controller.ai.pace_ms = PACE
    clock = Clock()
    d.app.clock = clock
    yield d, clock
    d.close()


def wait_for_human(d: Driver, clock: Clock, limit: int = 200) -> int:
    """Let frames pass until the human is to act; the AI actions taken meanwhile."""
    taken = 0
    for _ in range(limit):
        st = d.state
        if st.is_over or st.acting == HUMAN:
            return taken
        before = len(st.history)
        d.step()  # not due yet: the frame only draws (and the AI thinks)
        assert len(st.history) == before, "the AI acted before its pace"
        clock.now += PACE
        ai = d.controller.ai
        assert ai is not None and ai.wait(60), "the AI never decided"
        d.step()
        taken += len(st.history) - before
    raise AssertionError("the AI never handed the turn back")


def human_turn(d: Driver) -> dict[str, object]:
    """The human plays one turn through events; the state before its last decision."""
    st: GameState = d.state
    side_name = d.controller.scenario.sides[HUMAN].name
    last = st.to_dict()
    while st.acting == HUMAN and not st.is_over:
        last = st.to_dict()
        if st.phase is Phase.CHOOSE_FIRST:
            d.click_button(f"{side_name} goes first")
        elif st.phase is Phase.READY:
            d.click_model(next(m.id for m in st.side_models(HUMAN)
                               if m.readiness is Readiness.UNREADY))
        elif st.phase is Phase.CHOOSE_OPTION:
            d.click_button("Activate Ready (option B)")
        elif st.phase is Phase.ACTIVATE:
            d.click_model(next(m.id for m in st.side_models(HUMAN)
                               if m.readiness is Readiness.READY))
        else:
            d.click_button("End activation")
        assert not d.controller.status_error, d.controller.status
    return last


def test_the_ai_side_plays_whole_turns_with_its_reasons_in_the_log(
        driver: tuple[Driver, Clock]) -> None:
    d, clock = driver
    st = d.state
    ai_turns = 0
    for _ in range(3):
        wait_for_human(d, clock)
        human_turn(d)
        ended = sum(1 for e in st.events if e.kind == "turn-ended")
        taken = wait_for_human(d, clock)
        assert taken >= 3  # ready, option B, activate, its actions ...
        ai_turns += sum(1 for e in st.events if e.kind == "turn-ended") - ended
    assert ai_turns >= 3
    movers = [a.model_id for a in st.history if a.model_id is not None]
    assert any(st.model(m).side == AI for m in movers)
    log = d.controller.view().log
    reasons = [line for line in log if line.startswith(MARK)]
    assert len(reasons) >= 9 and any("Super Mutant" in r or "Mutant Hound" in r
                                     or "Behemoth" in r for r in reasons)


def test_the_human_cannot_act_for_the_ai(driver: tuple[Driver, Clock]) -> None:
    d, clock = driver
    st = d.state
    wait_for_human(d, clock)
    human_turn(d)
    assert st.acting == AI
    assert d.controller.view().buttons == ()
    before = st.to_dict()
    d.click_model(st.side_models(AI)[0].id)
    assert st.to_dict() == before
    assert d.controller.status_error and "played by the AI" in d.controller.status


def test_undo_goes_back_over_the_ai_turn_to_the_human_decision(
        driver: tuple[Driver, Clock]) -> None:
    d, clock = driver
    st = d.state
    wait_for_human(d, clock)
    human_turn(d)
    wait_for_human(d, clock)
    before_last = human_turn(d)
    taken = wait_for_human(d, clock)
    assert taken > 0 and st.acting == HUMAN
    d.key(pygame.K_z, pygame.KMOD_LCTRL)
    assert st.to_dict() == before_last
    assert st.acting == HUMAN and "undone" in d.controller.status
    # The AI does not replay at once: it is the human's decision again.
    clock.now += 10 * PACE
    d.step()
    assert st.to_dict() == before_last
    ai = d.controller.ai
    assert ai is not None and all(i < len(st.history) for i in ai.reasons)
    reasons = [line for line in d.controller.view().log if line.startswith(MARK)]
    assert len(reasons) == len(ai.reasons)


@pytest.mark.parametrize(("value", "code", "words"), [
    ("orcs", 1, ["'orcs'", "settlers, mutants"]),
    ("mutants=genius", 2, ["'genius'", "random, greedy, search"]),
])
def test_play_names_a_bad_ai_argument(capsys: pytest.CaptureFixture[str], value: str,
                                      code: int, words: list[str]) -> None:
    from sim.cli import main

    assert main(["play", "skirmish", "--ai", value]) == code
    err = capsys.readouterr().err
    assert all(w in err for w in words) and "Traceback" not in err
