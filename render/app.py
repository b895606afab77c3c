"""The window loop: pygame events -> controller -> update -> draw.

Event handling, update and draw are separate steps (pygame_gui style), so a
test can post synthetic events and call :meth:`App.step` under the dummy
video driver. The app only turns pixels and keys into controller calls; the
controller holds the game flow and asks the engine everything.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
import pygame

from render.draw import theme
from render.draw.banner import banner_rect
from render.draw.board import BoardLayers
from render.draw.dice_card import card_rect
from render.draw.frame import board_transform, draw_frame
from render.draw.layout import MIN_WINDOW, Layout, compute_layout
from render.draw.panels import BUTTON_TOP, button_rects, max_scroll
from render.draw.pinned import scrolled_rect
from render.draw.view import TextLine
from render.explain.show import Show
from render.input.controller import Controller
from sim.errors import UsageError, WastelandError

DEFAULT_SIZE = (1280, 800)
SCREEN_MARGIN = (40, 80)  # room left on the screen for a title bar and a task bar
HEADLESS_DRIVERS = ("dummy", "offscreen")  # SDL drivers that show nothing
MAX_WINDOW_SIDE = 16384  # pixels: beyond any screen
SHOW_SAVED_MS = 1200  # the last frame, naming the save, stays up this long
DRAG_PX = 6  # a press that moves further than this is a drag, not a click
FPS = 60  # frames a second
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
WHEEL_ROWS = 3  # text rows per notch of the mouse wheel
CTRL_KEYS: dict[int, str] = {pygame.K_z: "undo", pygame.K_s: "save", pygame.K_q: "quit"}
DIGITS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}
# Letters press the button with that fixed key (render.input.hotkeys), else KEYS.
LETTERS = {getattr(pygame, f"K_{c}"): c.upper() for c in "abcdefghijklmnopqrstuvwxyz"}


class App:
    """A window (or, in tests, the dummy driver's surface) showing a controller."""

    def __init__(self, controller: Controller, surface: Any) -> None:
        self.controller = controller
        self.surface: Any = surface
        self.running = True
        self._press: tuple[int, int] | None = None
        self._dragging = False
        self.stopped_by: str | None = None  # the signal or key that ended the loop
        self.layers = BoardLayers()  # the drawn terrain, kept until a resize
        self.show = Show()  # banner, dice card, headlines, "what if" (issue 16)
        self.clock = pygame.time.get_ticks  # the frame clock (tests step their own)
        self.layout = self._layout()

    # --- events --------------------------------------------------------------
    def _layout(self) -> Layout:
        return compute_layout(self.surface.get_size(), self.controller.scenario.board)

    def handle(self, event: Any) -> None:
        """Turn one pygame event into a controller call."""
        c = self.controller
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self._resize(event)
        elif event.type == pygame.KEYDOWN:
            self.show.dismiss()  # the key still does what it does
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            board = self.layout.board  # the banner sits lower while a dice card shows
            card = card_rect(board) if self.show.card_up(self.clock()) else None
            if self.show.dismiss() and banner_rect(board, card).contains(*event.pos):
                return  # a click on the banner only dismisses it; elsewhere it acts too
            if event.button == 1:
                self._press, self._dragging = event.pos, False
            elif event.button == 3:
                c.command("escape")
        elif event.type == pygame.MOUSEMOTION:
            self._motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._release(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self._wheel(event)

    def _wheel(self, event: Any) -> None:
        """The wheel scrolls the event log under the pointer, else Details.

        Over the board it scrolls Details too: a shot preview lasts only while
        the pointer stays on its target, so it must be readable from there.
        """
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        lay, view = self.layout, self.controller.view()
        if lay.details.contains(*pos) or lay.board_area.contains(*pos):
            self.controller.scroll_by("details", -event.y * WHEEL_ROWS,
                                      self.details_scroll_limit())
        elif lay.log.contains(*pos) and not (lay.legend_shares_log and view.show_legend):
            limit = max_scroll(lay.log, [TextLine(s) for s in view.log])
            self.controller.scroll_by("log", event.y * WHEEL_ROWS, limit)

    def details_scroll_limit(self) -> int:
        """How far the wheel scrolls Details: its text under the pinned headlines."""
        pinned = self.show.headlines + self.show.what_if.text
        return max_scroll(scrolled_rect(self.layout.details, pinned),
                          self.controller.view().details)

    def _resize(self, event: Any) -> None:
        size = getattr(event, "size", None) or (getattr(event, "x", 0), getattr(event, "y", 0))
        w, h = max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1])
        display = pygame.display.get_surface()
        if display is not None and display is self.surface and display.get_size() != (w, h):
            flags = pygame.RESIZABLE if pygame.display.get_driver() != "dummy" else 0
            self.surface = pygame.display.set_mode((w, h), flags)
        self.layout = self._layout()
        self.layers.clear()

    def _key(self, event: Any) -> None:
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

    def _board_point(self, pos: tuple[int, int]) -> tuple[float, float] | None:
        if not self.layout.board.contains(*pos):
            return None
        t = board_transform(self.layout, self.controller.scene())
        return t.to_board(*pos)

    def _motion(self, pos: tuple[int, int]) -> None:
        if self._press is not None:
            dx, dy = pos[0] - self._press[0], pos[1] - self._press[1]
            if not self._dragging and dx * dx + dy * dy > DRAG_PX * DRAG_PX:
                start = self._board_point(self._press)
                self._dragging = start is not None and self.controller.drag_start(*start)
            if self._dragging:
                p = self._board_point(pos)
                if p is not None:
                    self.controller.hover(p)  # the card follows the pointer, not the start
                    self.controller.drag_to(*p)
                return
        p = self._board_point(pos)
        self.controller.hover(p)
        rects = button_rects(self.layout.buttons, self.controller.captions())
        hover = next((i for i, r in enumerate(rects) if r.contains(*pos)), None)
        self.controller.hover_button(hover)

    def _release(self, pos: tuple[int, int]) -> None:
        press, dragging = self._press, self._dragging
        self._press, self._dragging = None, False
        if press is None:
            return
        if dragging:
            p = self._board_point(pos)
            self.controller.drag_end(*(p if p is not None else (None, None)))
            return
        self.click(press)

    def click(self, pos: tuple[int, int]) -> None:
        """A left click at ``pos``: a button, a model or the board."""
        rects = button_rects(self.layout.buttons, self.controller.captions())
        for i, r in enumerate(rects):
            if r.contains(*pos):
                self.controller.press_button(i)
                return
        log = self.layout.log
        if self.layout.legend_shares_log and log.contains(*pos) and pos[1] < log.y + BUTTON_TOP:
            self.controller.command("legend")  # the shared box's title switches it
            return
        p = self._board_point(pos)
        if p is not None:
            self.controller.click(*p)

    # --- loop ----------------------------------------------------------------
    def step(self, events: Iterable[Any] | None = None) -> None:
        """Handle ``events`` (default: the queue), update, draw."""
        for event in pygame.event.get() if events is None else events:
            self.handle(event)
        if self.controller.quit_requested:
            self.running = False
        self.controller.tick()
        if self.controller.ai is not None:  # solo play: the AI acts at its pace
            self.controller.ai.tick(self.controller, self.clock(), self.controller.say)
        self.show.update(self.controller, self.clock())
        self.draw()

    def draw(self) -> None:
        scene = self.controller.scene()
        draw_frame(self.surface, self.layout, scene, self.controller.view(), self.layers,
                   self.show.shown(self.clock(), scene))

    def run(self) -> int:
        """The loop until the window closes; 0 unless a changed game could not be saved.

        Every way out keeps the game: closing the window, Ctrl+Q, Ctrl+C or
        SIGINT in the terminal, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT
        all end the loop and save a changed game; should a bug stop the loop, the
        game so far is saved first and the file named, then the error goes on
        (``wasteland play --load``).
        """
        clock = pygame.time.Clock()
        try:
            with _stop_on_signals(self):
                while self.running:
                    self.step()
                    pygame.display.flip()
                    clock.tick(self.frame_rate())
        except KeyboardInterrupt:  # no handler (not the main thread), or before it was set
            self.stopped_by = "Ctrl+C"
        except Exception:
            self.rescue()
            raise
        return 0 if self.save_on_quit() is not None or not self.controller.unsaved else 1

    def frame_rate(self) -> int:
        """Frames a second now: fewer while an AI player thinks (THINKING_FPS)."""
        ai = self.controller.ai
        return THINKING_FPS if ai is not None and ai.thinking else FPS

    def stop(self, why: str) -> None:
        """End the loop at the next frame (a signal handler calls this)."""
        self.stopped_by = why
        self.running = False

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
        self._show_last_frame()
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

    def _show_last_frame(self) -> None:
        """Draw the status bar saying where the game went, and leave it up a moment."""
        try:
            self.draw()
            pygame.display.flip()
            if pygame.display.get_driver() not in HEADLESS_DRIVERS:
                pygame.time.wait(SHOW_SAVED_MS)
        except Exception:  # the window is gone, or drawing is what failed: stderr said it
            pass


def say_on_stderr(text: str) -> None:
    """Say ``text`` on stderr, if there is still a terminal (SIGHUP: it was closed)."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=sys.stderr, flush=True)


def fallback_save_dir() -> Path:
    """Where a game goes when the save folder cannot be written (platformdirs)."""
    return Path(platformdirs.user_data_dir("wasteland-sim", appauthor=False)) / "saves"


@contextmanager
def _stop_on_signals(app: App) -> Iterator[None]:
    """SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl+\\, handled: no core
    dump) end the loop at the next frame, and the game is then saved."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = {sig: name for sig, name in (
        (signal.SIGINT, "Ctrl+C"), (signal.SIGTERM, "SIGTERM"),
        (getattr(signal, "SIGHUP", None), "SIGHUP"),  # neither on Windows
        (getattr(signal, "SIGQUIT", None), "SIGQUIT")) if sig is not None}
    previous = {sig: signal.getsignal(sig) for sig in names}

    def handler(signum: int, frame: Any) -> None:
        app.stop(names.get(signal.Signals(signum), "a signal"))

    for sig in names:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class NoDisplayError(WastelandError):
    """The window cannot be opened: there is no display to open it on."""


def open_window(controller: Controller, size: tuple[int, int] | None = None) -> App:
    """Create the display surface; :class:`NoDisplayError` when there is no usable display.

    ``size`` None: :data:`DEFAULT_SIZE`, shrunk to fit the screen. SDL falls
    back to a driver that shows nothing (``offscreen``) when DISPLAY names a
    dead X server: that counts as no display unless SDL_VIDEODRIVER asked
    for it (tests use ``dummy``).
    """
    try:
        with _quiet_stderr():  # SDL prints its probing of absent drivers (Wayland, X11)
            pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
            raise NoDisplayError(f"no usable display: SDL fell back to its {driver!r} driver "
                                 f"(DISPLAY={os.environ.get('DISPLAY', '')!r})")
        pygame.font.init()
        theme.reset_fonts()  # fonts of an earlier pygame session are dead
        flags = pygame.RESIZABLE if driver != "dummy" else 0
        surface = pygame.display.set_mode(size or fitting_size(), flags)
    except NoDisplayError:
        pygame.quit()
        raise
    except pygame.error as exc:
        pygame.quit()
        raise NoDisplayError(str(exc)) from None
    pygame.display.set_caption(f"wasteland - {controller.scenario.name}")
    return App(controller, surface)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 goes to /dev/null meanwhile (C libraries write there directly)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def fitting_size(screen: tuple[int, int] | None = None) -> tuple[int, int]:
    """:data:`DEFAULT_SIZE`, shrunk to fit ``screen`` (default: the desktop), never below
    :data:`~render.draw.layout.MIN_WINDOW` (the layout scales down to that)."""
    if screen is None:
        sizes = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
        screen = sizes[0] if sizes else DEFAULT_SIZE
    w = min(DEFAULT_SIZE[0], screen[0] - SCREEN_MARGIN[0])
    h = min(DEFAULT_SIZE[1], screen[1] - SCREEN_MARGIN[1])
    return max(w, MIN_WINDOW[0]), max(h, MIN_WINDOW[1])


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> ``(1280, 800)``; :class:`UsageError` unless it is WxH in range."""
    w_text, sep, h_text = text.lower().partition("x")
    if sep and w_text.isdigit() and h_text.isdigit():
        w, h = int(w_text), int(h_text)
        if MIN_WINDOW[0] <= w <= MAX_WINDOW_SIDE and MIN_WINDOW[1] <= h <= MAX_WINDOW_SIDE:
            return w, h
    raise UsageError(f"--size: expected WIDTHxHEIGHT in pixels from {MIN_WINDOW[0]}x"
                     f"{MIN_WINDOW[1]} to {MAX_WINDOW_SIDE}x{MAX_WINDOW_SIDE}, got {text!r}")


def close_window() -> None:
    """Close the window and shut pygame down."""
    pygame.quit()
    theme.reset_fonts()
