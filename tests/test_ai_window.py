"""Solo play in the window (issue 18): the AI side plays whole turns at its pace, its
reasons in the log, the human cannot act for it, and undo goes back over the AI's
turn to the human's last decision. The AI thinks off the frame loop: the window
answers while it does, a decision about a position since undone is dropped, and
quitting does not wait for it. Every human input is a pygame event (dummy driver).
"""

from __future__ import annotations

import os
import threading

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from render.app import FPS, THINKING_FPS
from render.draw.frame import shown_log
from render.input.ai_turns import MARK, SEARCH_SECONDS, AiTurns
from sim.ai.greedy import GreedyPlayer
from sim.ai.player import Decision
from sim.ai.search import SearchPlayer
from sim.engine.actions import Action
from sim.engine.gamedata import Phase, Readiness
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.window_driver import Driver

HUMAN, AI = "settlers", "mutants"
HUMAN_FIRST = 2  # a seed where the human chooses who goes first
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


def human_turn(d: Driver, pick: int = 0) -> dict[str, object]:
    """The human plays one turn through events, readying the ``pick``-th unready model;
    the state before its last decision."""
    st: GameState = d.state
    side_name = d.controller.scenario.sides[HUMAN].name
    last = st.to_dict()
    while st.acting == HUMAN and not st.is_over:
        last = st.to_dict()
        if st.phase is Phase.CHOOSE_FIRST:
            d.click_button(f"{side_name} goes first")
        elif st.phase is Phase.READY:
            d.click_model([m.id for m in st.side_models(HUMAN)
                           if m.readiness is Readiness.UNREADY][pick])
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
    # The log the frame draws (the window's, with the attacks' verdicts) holds them too,
    # each before the events its action caused.
    drawn = list(shown_log(d.controller.view(), d.app.show.shown(clock.now, d.controller.scene())))
    assert [line for line in drawn if line.startswith(MARK)] == reasons
    assert len(drawn) == len(log)


def test_the_hand_over_banner_greets_the_human_only(driver: tuple[Driver, Clock]) -> None:
    """Solo play has no one to hand the screen to on the AI's turn: no "your turn"
    banner for the AI's side; the human's turn still opens with one."""
    d, clock = driver
    st = d.state
    wait_for_human(d, clock)
    human_turn(d)
    assert st.acting == AI
    d.step()
    assert d.app.show.banner is None
    wait_for_human(d, clock)
    d.step()
    banner = d.app.show.banner
    assert banner is not None and banner.title.startswith("Commonwealth Settlers - your turn")


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
    ("mutants=genius", 2, ["'genius'", "random, greedy, greedy-blind, search"]),
])
def test_play_names_a_bad_ai_argument(capsys: pytest.CaptureFixture[str], value: str,
                                      code: int, words: list[str]) -> None:
    from sim.cli import main

    assert main(["play", "skirmish", "--ai", value]) == code
    err = capsys.readouterr().err
    assert all(w in err for w in words) and "Traceback" not in err


# --- thinking off the frame loop -----------------------------------------------------

class Gate:
    """A player that thinks until the test lets it go, then decides as greedy does."""

    name = "slow"

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.release = threading.Event()
        self.calls = 0
        self.seen: list[GameState] = []  # the states it was asked about
        self.inner = GreedyPlayer(0)

    def decide(self, state: GameState) -> Decision:
        self.calls += 1
        call = self.calls
        self.seen.append(state)
        self.asked.set()
        self.release.wait(60)
        d = self.inner.decide(state)
        return Decision(d.action, f"call {call}: {d.why}")


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[tuple[Driver, Clock, Gate]]:
    state = new_game(load_scenario(SCENARIOS / "skirmish.toml"), seed=HUMAN_FIRST)
    assert state.acting == HUMAN  # so the AI is first asked in a turn, not to choose
    d = Driver(state.scenario, tmp_path, state=state)
    gate = Gate()
    d.controller.ai = AiTurns({AI: gate}, pace_ms=PACE)
    clock = Clock()
    d.app.clock = clock
    yield d, clock, gate
    gate.release.set()  # its thread ends
    d.close()


def ai_thinking(d: Driver, clock: Clock, gate: Gate) -> dict[str, object]:
    """Play the human's turn (if it is theirs) until the slow AI is asked; the state
    before the human's last decision."""
    last = d.state.to_dict()
    if d.state.acting == HUMAN:
        last = human_turn(d)
    assert d.state.acting == AI
    d.step()
    assert gate.asked.wait(30), "the AI was never asked"
    clock.now += 10 * PACE  # its pace is long over: only the thinking holds it up
    return last


def test_the_window_answers_while_the_ai_thinks(gated: tuple[Driver, Clock, Gate]) -> None:
    d, clock, gate = gated
    st = d.state
    ai_thinking(d, clock, gate)
    before = st.to_dict()
    d.step()
    assert d.controller.status == "Super Mutants (slow) is thinking..."
    # Fewer frames meanwhile (each one is time the player does not get), but drawn,
    # and keys and the mouse answered.
    assert d.app.frame_rate() == THINKING_FPS < FPS
    plain = pygame.image.tobytes(d.app.surface, "RGB")
    d.key(pygame.K_F1)
    assert d.controller.show_help
    assert pygame.image.tobytes(d.app.surface, "RGB") != plain  # the help was drawn
    d.key(pygame.K_ESCAPE)
    assert not d.controller.show_help
    mutant = st.side_models(AI)[0]
    d.move_to(d.board_px(mutant.position.x, mutant.position.y))
    assert d.controller.hovered == mutant.id
    d.click_model(mutant.id)
    assert d.controller.status_error and "played by the AI (slow)" in d.controller.status
    for _ in range(5):
        clock.now += PACE
        d.step()
    assert st.to_dict() == before and gate.calls == 1
    # It thinks on a copy, never on the state the window draws.
    assert gate.seen[0] is not st
    gate.release.set()
    ai = d.controller.ai
    assert ai is not None and ai.wait(30)
    d.step()
    assert len(st.history) == len(before["history"]) + 1  # type: ignore[arg-type]
    assert d.app.frame_rate() == FPS
    assert any(line.startswith(f"{MARK}call 1") for line in d.controller.view().log)


def test_an_undo_while_the_ai_thinks_drops_its_decision(
        gated: tuple[Driver, Clock, Gate]) -> None:
    d, clock, gate = gated
    st = d.state
    before_last = ai_thinking(d, clock, gate)
    asked = st.history
    d.key(pygame.K_z, pygame.KMOD_LCTRL)  # while it thinks
    assert st.to_dict() == before_last and st.acting == HUMAN
    for _ in range(3):  # back to the human's readying: another model this time
        d.key(pygame.K_z, pygame.KMOD_LCTRL)
    assert st.phase is Phase.READY and st.acting == HUMAN
    human_turn(d, pick=-1)
    # The same length of history and the same side to act, but another position.
    assert len(st.history) == len(asked) and st.history != asked and st.acting == AI
    clock.now += PACE
    d.step()
    assert d.controller.status == "Super Mutants (slow) is thinking..."
    gate.release.set()  # the stale decision comes back ...
    ai = d.controller.ai
    assert ai is not None and ai.wait(30)
    d.step()  # ... is dropped, and the AI asked about this position
    assert ai.wait(30) and gate.calls == 2 and gate.seen[1].history == st.history
    clock.now += PACE
    d.step()
    assert len(st.history) == len(asked) + 1
    reasons = [line for line in d.controller.view().log if line.startswith(MARK)]
    assert reasons and reasons[-1].startswith(f"{MARK}call 2")
    assert not any(r.startswith(f"{MARK}call 1") for r in reasons)


def test_quitting_while_the_ai_thinks_does_not_wait_for_it(
        gated: tuple[Driver, Clock, Gate]) -> None:
    d, clock, gate = gated
    ai_thinking(d, clock, gate)
    # A watchdog lets the player go if the window waits for it, and says so.
    watchdog = threading.Timer(30, gate.release.set)
    watchdog.start()
    try:
        d.post(pygame.QUIT)
        code = d.app.run()
    finally:
        waited = not watchdog.is_alive()
        watchdog.cancel()
    assert not waited and not gate.release.is_set(), "quitting waited for the AI"
    assert code == 0 and not d.app.running
    assert list(d.app.controller.save_dir.glob("*"))  # the changed game was saved


def test_a_failing_player_is_an_error_of_the_window() -> None:
    class Broken:
        name = "broken"

        def decide(self, state: GameState) -> Decision:
            raise RuntimeError("the player's bug")

    class Host:
        def __init__(self, state: GameState) -> None:
            self.state: GameState | None = state

        def apply(self, action: Action) -> bool:
            raise AssertionError("nothing to apply")

    state = new_game(load_scenario(SCENARIOS / "skirmish.toml"))
    ai = AiTurns({side: Broken() for side in state.sides}, pace_ms=0)
    host = Host(state)
    ai.tick(host, 0)
    assert ai.wait(30)
    with pytest.raises(RuntimeError, match="the player's bug"):
        ai.tick(host, 1)


def test_the_window_s_search_player_has_the_time_budget(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from render.app import App
    from sim.cli import main

    seen: list[AiTurns | None] = []

    def run(app: App) -> int:
        seen.append(app.controller.ai)
        return 0

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(App, "run", run)
    assert main(["play", "skirmish", "--ai", "mutants=search", "--size", "1280x800"]) == 0
    ai = seen[0]
    assert ai is not None and set(ai.players) == {"mutants"}
    player = ai.players["mutants"]
    assert isinstance(player, SearchPlayer) and player.seconds == SEARCH_SECONDS
    assert 0 < SEARCH_SECONDS <= 2.0  # docs/ai.md: a wait one reads through, not a freeze
