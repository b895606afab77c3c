"""No game is ever lost (issue 13): every way out of the window saves a changed game.

Close, Ctrl+Q, Ctrl+C / SIGINT, SIGTERM, SIGHUP, SIGQUIT and an unexpected error all save,
name the file on stderr and in the status bar of the last frame; a save
folder that cannot be written sends the game to the user's data folder; the
exit status is 1 only when nothing could be saved. ``play`` without a usable
display says so in one line and exits 1.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame is imported anywhere

import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from render.app import fitting_size, parse_size
from render.draw.layout import MIN_WINDOW
from sim.errors import UsageError
from sim.game.save import load_game
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "seed-cover-1.toml"
WASTELAND = Path(sys.executable).parent / "wasteland"


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(load_scenario(SCENARIO), save_dir=tmp_path)
    d.click_button(d.labels()[0])  # the first choice: the game has changed
    assert d.state.history
    yield d
    d.close()


def _stop_from_tick(d: Driver, monkeypatch: pytest.MonkeyPatch,
                    how: Callable[[], None]) -> None:
    """Make the next frame do ``how`` (a signal, an exception), as if it came meanwhile."""
    def tick() -> None:
        how()

    monkeypatch.setattr(d.controller, "tick", tick)


def _one_save(folder: Path) -> Path:
    saves = sorted(folder.glob("*.save.json"))
    assert len(saves) == 1, saves
    return saves[0]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_loop_and_saves_the_game(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], sig: signal.Signals) -> None:
    d = driver
    before = signal.getsignal(sig)
    _stop_from_tick(d, monkeypatch, lambda: os.kill(os.getpid(), sig))
    assert d.app.run() == 0
    save = _one_save(tmp_path)
    assert load_game(save).to_dict() == d.state.to_dict()
    err = capsys.readouterr().err
    assert f"wasteland play --load {save}" in err
    assert str(save) in d.controller.status  # on screen too
    assert signal.getsignal(sig) == before  # the window's handler is gone again


def test_ctrl_c_as_keyboardinterrupt_saves_the_game(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where no handler is installed (not the main thread), Ctrl+C arrives as an exception."""
    def interrupt() -> None:
        raise KeyboardInterrupt

    _stop_from_tick(driver, monkeypatch, interrupt)
    assert driver.app.run() == 0
    save = _one_save(tmp_path)
    assert "Ctrl+C" in capsys.readouterr().err
    assert load_game(save).to_dict() == driver.state.to_dict()


def test_ctrl_q_saves_the_game(driver: Driver, tmp_path: Path) -> None:
    driver.key(pygame.K_q, pygame.KMOD_CTRL)
    assert driver.app.run() == 0
    assert load_game(_one_save(tmp_path)).to_dict() == driver.state.to_dict()


def _unwritable(tmp_path: Path) -> Path:
    """A save 'folder' that cannot be written: it is a file (root ignores chmod)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    return blocker


def test_an_unwritable_save_folder_saves_to_the_users_data_folder(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # platformdirs reads it
    blocked = _unwritable(tmp_path)
    driver.controller.save_dir = blocked
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert driver.app.run() == 0
    save = _one_save(tmp_path / "data" / "wasteland-sim" / "saves")
    assert load_game(save).to_dict() == driver.state.to_dict()
    err = capsys.readouterr().err
    assert str(blocked) in err and "user's data folder" in err and str(save) in err
    assert str(save) in driver.controller.status


def test_nothing_saved_anywhere_exits_1_and_says_so(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(_unwritable(tmp_path)))
    driver.controller.save_dir = _unwritable(tmp_path)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert driver.app.run() == 1
    assert "could not be saved" in capsys.readouterr().err


def test_an_unexpected_error_with_an_unwritable_folder_still_saves(
        driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    driver.controller.save_dir = _unwritable(tmp_path)

    def broken() -> None:
        raise RuntimeError("a bug")

    _stop_from_tick(driver, monkeypatch, broken)
    with pytest.raises(RuntimeError, match="a bug"):
        driver.app.run()
    save = _one_save(tmp_path / "data" / "wasteland-sim" / "saves")
    assert load_game(save).to_dict() == driver.state.to_dict()
    assert "unexpected error" in capsys.readouterr().err


# --- a real process, a real signal -------------------------------------------------

CHILD = textwrap.dedent("""
    import os, sys
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from pathlib import Path
    from render.app import open_window
    from render.input.controller import Controller
    from sim.scenario.format.loader import load_scenario
    controller = Controller(load_scenario(sys.argv[1]), save_dir=Path(sys.argv[2]))
    state = controller.state
    state.apply(next(iter(state.legal_actions())))  # a change since the start
    app = open_window(controller)
    tick = controller.tick

    def first_tick():  # the loop runs: its signal handlers are in place
        print("ready", flush=True)
        controller.tick = tick
        tick()

    controller.tick = first_tick
    sys.exit(app.run())
""")


def _signalled_child(tmp_path: Path, sig: signal.Signals, *, close_stderr: bool = False
                     ) -> tuple[int, str]:
    """The window in a process of its own, sent ``sig`` once its loop runs: its exit status
    and stderr (``close_stderr``: the terminal is gone, nobody reads it)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(SCENARIO), str(tmp_path)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT)
    try:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().strip() == "ready"
        if close_stderr:
            child.stderr.close()
            child.stderr = None
        child.send_signal(sig)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    return child.returncode, err or ""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT],
                         ids=["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"])
def test_a_signal_to_the_process_saves_the_game(tmp_path: Path, sig: signal.Signals) -> None:
    """Issue 31, defect 2: SIGHUP (the terminal closed) ended the game unsaved, SIGQUIT in a
    segfault; each now ends the loop, saves, and exits 0 (no core dump)."""
    code, err = _signalled_child(tmp_path, sig)
    assert code == 0, err
    save = _one_save(tmp_path)
    assert len(load_game(save).history) == 1
    assert str(save) in err and sig.name.replace("SIGINT", "Ctrl+C") in err


def test_sighup_with_the_terminal_gone_still_saves(tmp_path: Path) -> None:
    """Closing the terminal also closes stderr: saying where the save went fails quietly."""
    code, _ = _signalled_child(tmp_path, signal.SIGHUP, close_stderr=True)
    assert code == 0
    assert len(load_game(_one_save(tmp_path)).history) == 1


# --- no usable display ----------------------------------------------------------------

def test_play_with_a_dead_x_server_prints_one_line_and_exits_1(tmp_path: Path) -> None:
    """SDL falls back to its offscreen driver when DISPLAY names no server: refused."""
    display = next(f":{n}" for n in range(99, 200)
                   if not Path(f"/tmp/.X11-unix/X{n}").exists())
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env["DISPLAY"] = display
    done = subprocess.run([str(WASTELAND), "play", str(SCENARIO)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and display in lines[0]
    assert list(tmp_path.iterdir()) == []


# --- window size (issue 14: the window fits the screen) ------------------------------------

def test_the_default_window_fits_a_small_screen() -> None:
    w, h = fitting_size((1366, 768))
    assert w <= 1366 and h < 768  # room for a title bar
    assert (w, h) >= MIN_WINDOW
    assert fitting_size((3840, 2160)) == (1280, 800)  # a big screen: the designed size


def test_size_option_is_parsed_and_checked() -> None:
    assert parse_size("1366x700") == (1366, 700)
    for bad in ("big", "100x100", "1366", "x700", "1366x-7", "99999x700"):
        with pytest.raises(UsageError, match="--size"):
            parse_size(bad)


def test_play_refuses_a_bad_size_as_usage(capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    assert main(["play", str(SCENARIO), "--size", "10x10"]) == 2
    assert "--size" in capsys.readouterr().err
