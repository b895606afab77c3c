"""The game's window: the shared loop (render.window) showing a game's controller.

The window only turns pixels and keys into controller calls; the controller
holds the game flow and asks the engine everything. This adds the game's
keys, the banner, dice cards and headlines (render.explain.show), the AI's
turns in solo play, and saving the game on every way out.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs
import pygame

from render.draw.banner import banner_rect
from render.draw.dice_card import card_rect
from render.draw.frame import draw_frame
from render.draw.layout import MIN_WINDOW
from render.draw.view import TextLine
from render.explain.show import Show
from render.input.controller import Controller
from render.window import (
    DEFAULT_SIZE,
    FPS,
    NoDisplayError,
    Window,
    close_window,
    fitting_size,
    open_display,
    say_on_stderr,
)
from sim.errors import UsageError

__all__ = [
    "DEFAULT_SIZE",
    "FPS",
    "THINKING_FPS",
    "App",
    "NoDisplayError",
    "close_window",
    "fitting_size",
    "open_window",
    "parse_size",
    "say_on_stderr",
]

MAX_WINDOW_SIDE = 16384  # pixels: beyond any screen
# While an AI player thinks (solo play) nothing moves and every frame drawn is time
# the player's thread does not get (docs/ai.md): keys still answer within 70 ms.
THINKING_FPS = 15

# Key -> controller command; Ctrl+key in CTRL_KEYS. The help table
# (render.draw.controls.CONTROLS) documents the same keys.
KEYS: dict[int, str] = {
    pygame.K_F1: "help",
    pygame.K_F2: "debug",
    pygame.K_F3: "all_sight",
    pygame.K_F4: "edges_reach",
    pygame.K_F5: "map",
    pygame.K_TAB: "next_weapon",
    pygame.K_RETURN: "confirm",
    pygame.K_KP_ENTER: "confirm",
    pygame.K_BACKSPACE: "backspace",
    pygame.K_ESCAPE: "escape",
    pygame.K_l: "legend",
}
CTRL_KEYS: dict[int, str] = {pygame.K_z: "undo", pygame.K_s: "save", pygame.K_q: "quit"}
DIGITS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}
# Letters press the button with that fixed key (render.input.hotkeys), else KEYS.
LETTERS = {getattr(pygame, f"K_{c}"): c.upper() for c in "abcdefghijklmnopqrstuvwxyz"}


class App(Window[Controller]):
    """The game's window (or, in tests, the dummy driver's surface)."""

    def __init__(self, controller: Controller, surface: Any) -> None:
        super().__init__(controller, surface)
        self.show = Show()  # banner, dice card, headlines, "what if" (issue 16)

    def dismiss(self, pos: tuple[int, int] | None = None) -> bool:
        """Input closes the hand-over banner; a click on the banner does nothing else (it
        sits lower while a dice card shows: issue 34, bug 2)."""
        board = self.layout.board
        card = card_rect(board) if self.show.card_up(self.clock()) else None
        return self.show.dismiss() and pos is not None and banner_rect(
            board, card).contains(*pos)

    def measure(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        self.controller.measure(start, end)

    def pinned(self) -> Sequence[TextLine]:
        return self.show.headlines + self.show.what_if.text

    def key(self, event: Any) -> None:
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if ctrl and event.key in CTRL_KEYS:
            name = CTRL_KEYS[event.key]
            if name == "quit":
                self.running = False
            else:
                self.controller.command(name)
        elif event.key in DIGITS and not ctrl:
            self.controller.press_number(DIGITS[event.key])  # a shown menu's entry only
        elif event.key == pygame.K_F6 and not ctrl:
            self.controller.say(self.show.toggle_side())
        elif not ctrl and event.key in LETTERS and self.controller.press_hotkey(
                LETTERS[event.key]):
            pass
        elif event.key in KEYS:
            self.controller.command(KEYS[event.key])

    def update(self) -> None:
        self.controller.tick()
        if self.controller.ai is not None:  # solo play: the AI acts at its pace
            self.controller.ai.tick(self.controller, self.clock(), self.controller.say)
        self.show.update(self.controller, self.clock())

    def draw(self) -> None:
        scene = self.controller.scene()
        draw_frame(self.surface, self.layout, scene, self.controller.view(), self.layers,
                   self.show.shown(self.clock(), scene))

    def frame_rate(self) -> int:
        """Frames a second now: fewer while an AI player thinks or a threat map is made
        (THINKING_FPS: the thread gets the time the frames do not take)."""
        ai = self.controller.ai
        busy = (ai is not None and ai.thinking) or self.controller.maps.busy
        return THINKING_FPS if busy else FPS

    def save_on_quit(self) -> Path | None:
        """Leaving keeps a changed game: it is saved, and the file named on screen and stderr."""
        if not self.controller.unsaved:
            return None
        why = f" ({self.stopped_by})" if self.stopped_by else ""
        return self._save_and_say(f"wasteland play{why}: ")

    def rescue(self) -> Path | None:
        """Save the game after an unexpected error and say where, on stderr."""
        return self._save_and_say("wasteland play: an unexpected error stopped the window; ")

    def _save_and_say(self, lead: str) -> Path | None:
        path, failed = self.save_anywhere()
        if path is None:
            say_on_stderr(f"{lead}the game could not be saved: {self.controller.status}")
        elif failed is not None:
            say_on_stderr(f"{lead}the save folder {str(failed)!r} cannot be written; the game is "
                       f"saved in the user's data folder instead: {path} (continue it with: "
                       f"wasteland play --load {path})")
        else:
            say_on_stderr(f"{lead}the game is saved in {path} (continue it with: "
                       f"wasteland play --load {path})")
        self.show_last_frame()
        return path

    def save_anywhere(self) -> tuple[Path | None, Path | None]:
        """Save in the save folder, else in the user's data folder.

        Returns the save (None when nothing could be written) and, when the
        save folder failed, that folder.
        """
        c = self.controller
        path = c.save()
        if path is not None:
            return path, None
        failed, problem = c.save_dir, c.status
        try:
            c.save_dir = fallback_save_dir()
            c.save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            c.save_dir = failed
            c.say(f"{problem}; the user's data folder cannot be made either: {exc}", error=True)
            return None, failed
        path = c.save()
        if path is None:
            c.save_dir = failed
            c.say(f"{problem}; and in the user's data folder: {c.status}", error=True)
            return None, failed
        c.say(f"the save folder {str(failed)!r} cannot be written: saved to {path}")
        return path, failed


def fallback_save_dir() -> Path:
    """Where a game goes when the save folder cannot be written (platformdirs)."""
    return Path(platformdirs.user_data_dir("wasteland-sim", appauthor=False)) / "saves"


def open_window(controller: Controller, size: tuple[int, int] | None = None) -> App:
    """The game's window (:func:`render.window.open_display`; NoDisplayError as there)."""
    return App(controller, open_display(f"wasteland - {controller.scenario.name}", size))


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> ``(1280, 800)``; :class:`UsageError` unless it is WxH in range."""
    w_text, sep, h_text = text.lower().partition("x")
    if sep and w_text.isdigit() and h_text.isdigit():
        w, h = int(w_text), int(h_text)
        if MIN_WINDOW[0] <= w <= MAX_WINDOW_SIDE and MIN_WINDOW[1] <= h <= MAX_WINDOW_SIDE:
            return w, h
    raise UsageError(f"--size: expected WIDTHxHEIGHT in pixels from {MIN_WINDOW[0]}x"
                     f"{MIN_WINDOW[1]} to {MAX_WINDOW_SIDE}x{MAX_WINDOW_SIDE}, got {text!r}")
