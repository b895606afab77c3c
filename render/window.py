"""The window loop both windows share: pygame events -> a screen -> draw.

The game (:class:`render.app.App`) and the editor (:class:`render.editor.app.EditorApp`)
are two windows over one loop. The loop asks what it shows only what
:class:`Screen` lists, so the editor need not pose as a game, and each window
adds its own updates, frame rate and way of keeping work on the way out.
Event handling, update and draw are separate steps (pygame_gui style), so a
test can post synthetic events and call :meth:`Window.step` under the dummy
video driver.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import pygame

from render.draw import theme
from render.draw.board import BoardLayers
from render.draw.frame import board_transform
from render.draw.layout import MIN_WINDOW, Camera, Layout, compute_layout
from render.draw.panels import BUTTON_TOP, button_rects, max_scroll
from render.draw.pinned import scrolled_rect
from render.draw.transform import panned, refitted, zoomed
from render.draw.view import TextLine, ViewState
from render.scene import Scene
from sim.errors import WastelandError
from sim.scenario.objects import Scenario

DEFAULT_SIZE = (1280, 800)
SCREEN_MARGIN = (40, 80)  # room left on the screen for a title bar and a task bar
HEADLESS_DRIVERS = ("dummy", "offscreen")  # SDL drivers that show nothing
SHOW_SAVED_MS = 1200  # the last frame, naming the save, stays up this long
DRAG_PX = 6  # a press that moves further than this is a drag, not a click
FPS = 60  # frames a second
WHEEL_ROWS = 3  # text rows per notch of the mouse wheel
ZOOM_STEP = 1.25  # the board's zoom per notch of the wheel over it (issue 34)
FIT_KEYS = (pygame.K_HOME,)  # the whole board again
PAN_BUTTON = 2  # a middle-button drag always pans; a left drag pans when it draws no path
RESIZE_EVENTS = (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED)


class Screen(Protocol):
    """What the loop asks of what a window shows: the game's controller or the editor's."""

    quit_requested: bool

    @property
    def scenario(self) -> Scenario: ...
    @property
    def unsaved(self) -> bool: ...
    def scene(self) -> Scene: ...
    def view(self) -> ViewState: ...
    def captions(self) -> list[str]: ...
    def command(self, name: str) -> None: ...
    def press_button(self, index: int) -> None: ...
    def hover_button(self, index: int | None) -> None: ...
    def hover(self, point: tuple[float, float] | None) -> None: ...
    def click(self, x: float, y: float) -> None: ...
    def drag_start(self, x: float, y: float) -> bool: ...
    def drag_to(self, x: float, y: float) -> None: ...
    def drag_end(self, x: float | None, y: float | None) -> None: ...
    def scroll_by(self, box: str, rows: int, limit: int) -> None: ...
    def tick(self) -> None: ...


S = TypeVar("S", bound=Screen)


class Window(Generic[S]):
    """A window (or, in tests, the dummy driver's surface) showing ``controller``."""

    def __init__(self, controller: S, surface: Any) -> None:
        self.controller = controller
        self.surface: Any = surface
        self.running = True
        self._press: tuple[int, int] | None = None
        self._dragging = False
        self._pan: tuple[int, int] | None = None  # the last pixel of a drag that pans
        self._tape: tuple[int, int] | None = None  # where a right press began (the tape)
        self._taping = False
        self.stopped_by: str | None = None  # the signal or key that ended the loop
        self.layers = BoardLayers()  # the drawn terrain, kept until a resize
        self.clock = pygame.time.get_ticks  # the frame clock (tests step their own)
        self.layout = self._layout()

    # --- what each window adds ---------------------------------------------------
    def _layout(self) -> Layout:
        return compute_layout(self.surface.get_size(), self.controller.scenario.board)

    def key(self, event: Any) -> None:
        """One key press (each window has its own keys)."""

    def dismiss(self, pos: tuple[int, int] | None = None) -> bool:
        """Input came (a click at ``pos``, or a key): close what input closes; True when
        the click was on it and that is all the click does."""
        return False

    def measure(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        """A right drag on the board from ``start`` to ``end`` (inches): the game's tape."""

    def pinned(self) -> Sequence[TextLine]:
        """Lines pinned above Details (the game's headlines); the wheel scrolls below them."""
        return ()

    def update(self) -> None:
        """What changes each frame besides the input (the game: the AI, dice, banners)."""
        self.controller.tick()

    def draw(self) -> None:
        raise NotImplementedError

    def frame_rate(self) -> int:
        """Frames a second now."""
        return FPS

    def save_on_quit(self) -> Path | None:
        """Leaving keeps changed work; returns where it went."""
        raise NotImplementedError

    def rescue(self) -> Path | None:
        """Keep the work after an unexpected error."""
        return self.save_on_quit()

    # --- events --------------------------------------------------------------
    def handle(self, event: Any) -> None:
        """Turn one pygame event into a controller call."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in RESIZE_EVENTS:
            self._resize(event)
        elif event.type == pygame.KEYDOWN:
            self.dismiss()  # the key still does what it does
            if event.key in FIT_KEYS:
                self.set_camera(Camera())
            else:
                self.key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if self.dismiss(event.pos):
                return
            if event.button == 1:
                self._press, self._dragging = event.pos, False
            elif event.button == PAN_BUTTON and self.layout.board.contains(*event.pos):
                self._pan = event.pos
            elif event.button == 3 and self.layout.board.contains(*event.pos):
                self._tape, self._taping = event.pos, False  # a drag lays the tape
            elif event.button == 3:
                self.controller.command("escape")
        elif event.type == pygame.MOUSEMOTION:
            self._motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == PAN_BUTTON:
            self._pan = None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            if self._tape is not None and not self._taping:
                self.controller.command("escape")  # a right click, not a drag
            self._tape = None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._release(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self._wheel(event)

    def _wheel(self, event: Any) -> None:
        """The wheel zooms the board at the pointer; elsewhere it scrolls the event log
        under the pointer, else Details.

        With Shift held it scrolls Details over the board too: a shot preview lasts
        only while the pointer stays on its target, so it must be readable from there.
        """
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        lay, view = self.layout, self.controller.view()
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        if lay.board.contains(*pos) and not shift:
            board = self.controller.scenario.board
            self.set_camera(zoomed(lay.camera, lay.board, board, pos, ZOOM_STEP ** event.y))
            self._motion(pos)  # the pointer is over another spot of the board now
        elif lay.details.contains(*pos) or lay.board_area.contains(*pos):
            self.controller.scroll_by("details", -event.y * WHEEL_ROWS,
                                      self.details_scroll_limit())
        elif lay.log.contains(*pos) and not (lay.legend_shares_log and view.show_legend):
            limit = max_scroll(lay.log, [TextLine(s) for s in view.log])
            self.controller.scroll_by("log", event.y * WHEEL_ROWS, limit)

    def set_camera(self, camera: Camera) -> None:
        """Zoom and pan the board (drawing and clicks alike go through it)."""
        self.layout = replace(self.layout, camera=camera)

    def _panned(self, pos: tuple[int, int]) -> None:
        """A drag that pans: the board follows the pointer."""
        assert self._pan is not None
        dx, dy = pos[0] - self._pan[0], pos[1] - self._pan[1]
        self._pan = pos
        lay = self.layout
        self.set_camera(panned(lay.camera, lay.board, self.controller.scenario.board, dx, dy))

    def details_scroll_limit(self) -> int:
        """How far the wheel scrolls Details: its text under the pinned lines."""
        return max_scroll(scrolled_rect(self.layout.details, self.pinned()),
                          self.controller.view().details)

    def _resize(self, event: Any) -> None:
        size = getattr(event, "size", None) or (getattr(event, "x", 0), getattr(event, "y", 0))
        w, h = max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1])
        display = pygame.display.get_surface()
        if display is not None and display is self.surface and display.get_size() != (w, h):
            flags = pygame.RESIZABLE if pygame.display.get_driver() != "dummy" else 0
            self.surface = pygame.display.set_mode((w, h), flags)
        old = self.layout
        self.layout = self._layout()
        board = self.controller.scenario.board  # a zoom outlives a resize
        self.set_camera(refitted(old.camera, old.board, self.layout.board, board))
        self.layers.clear()

    def _board_point(self, pos: tuple[int, int]) -> tuple[float, float] | None:
        if not self.layout.board.contains(*pos):
            return None
        t = board_transform(self.layout, self.controller.scene())
        return t.to_board(*pos)

    def _motion(self, pos: tuple[int, int]) -> None:
        if self._pan is not None:
            self._panned(pos)
            return
        if self._tape is not None:
            dx, dy = pos[0] - self._tape[0], pos[1] - self._tape[1]
            self._taping = self._taping or dx * dx + dy * dy > DRAG_PX * DRAG_PX
            a, b = self._board_point(self._tape), self._board_point(pos)
            if self._taping and a is not None and b is not None:
                self.measure(a, b)
        if self._press is not None:
            dx, dy = pos[0] - self._press[0], pos[1] - self._press[1]
            if not self._dragging and dx * dx + dy * dy > DRAG_PX * DRAG_PX:
                start = self._board_point(self._press)
                self._dragging = start is not None and self.controller.drag_start(*start)
                if start is not None and not self._dragging:  # no path to draw: pan
                    self._pan, self._press = self._press, None
                    self._panned(pos)
                    return
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
        if press is None and self._pan is not None:  # a left drag that panned
            self._pan = None
            return
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
        self.update()
        self.draw()

    def run(self) -> int:
        """The loop until the window closes; 0 unless changed work could not be kept.

        Every way out keeps the work: closing the window, Ctrl+Q, Ctrl+C or
        SIGINT in the terminal, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT
        all end the loop and save; should a bug stop the loop, the work so far
        is kept first and the file named, then the error goes on.
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

    def stop(self, why: str) -> None:
        """End the loop at the next frame (a signal handler calls this)."""
        self.stopped_by = why
        self.running = False

    def show_last_frame(self) -> None:
        """Draw the status bar saying where the work went, and leave it up a moment."""
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


@contextmanager
def _stop_on_signals(window: Window[Any]) -> Iterator[None]:
    """SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl+\\, handled: no core
    dump) end the loop at the next frame, and the work is then kept."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = {sig: name for sig, name in (
        (signal.SIGINT, "Ctrl+C"), (signal.SIGTERM, "SIGTERM"),
        (getattr(signal, "SIGHUP", None), "SIGHUP"),  # neither on Windows
        (getattr(signal, "SIGQUIT", None), "SIGQUIT")) if sig is not None}
    previous = {sig: signal.getsignal(sig) for sig in names}

    def handler(signum: int, frame: Any) -> None:
        window.stop(names.get(signal.Signals(signum), "a signal"))

    for sig in names:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class NoDisplayError(WastelandError):
    """The window cannot be opened: there is no display to open it on."""


def open_display(caption: str, size: tuple[int, int] | None = None) -> Any:
    """The display surface; :class:`NoDisplayError` when there is no usable display.

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
    pygame.display.set_caption(caption)
    return surface


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


def close_window() -> None:
    """Close the window and shut pygame down."""
    pygame.quit()
    theme.reset_fonts()
