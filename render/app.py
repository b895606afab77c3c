"""The window loop: pygame events -> controller -> update -> draw.

Event handling, update and draw are separate steps (pygame_gui style), so a
test can post synthetic events and call :meth:`App.step` under the dummy
video driver. The app only turns pixels and keys into controller calls; the
controller holds the game flow and asks the engine everything.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pygame

from render import theme
from render.controller import Controller
from render.frame import board_transform, draw_frame
from render.layout import MIN_WINDOW, Layout, compute_layout
from render.panels import BUTTON_TOP, button_rects, max_scroll
from render.view import TextLine
from sim.errors import WastelandError

DEFAULT_SIZE = (1280, 800)
DRAG_PX = 6  # a press that moves further than this is a drag, not a click

# Key -> controller command; Ctrl+key in CTRL_KEYS. The help table
# (render.controls.CONTROLS) documents the same keys.
KEYS: dict[int, str] = {
    pygame.K_F1: "help",
    pygame.K_F2: "debug",
    pygame.K_F3: "all_sight",
    pygame.K_F4: "edges_reach",
    pygame.K_TAB: "next_weapon",
    pygame.K_RETURN: "confirm",
    pygame.K_KP_ENTER: "confirm",
    pygame.K_SPACE: "confirm",
    pygame.K_BACKSPACE: "backspace",
    pygame.K_ESCAPE: "escape",
    pygame.K_l: "legend",
}
WHEEL_ROWS = 3  # text rows per notch of the mouse wheel
CTRL_KEYS: dict[int, str] = {pygame.K_z: "undo", pygame.K_s: "save", pygame.K_q: "quit"}
DIGITS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}


class App:
    """A window (or, in tests, the dummy driver's surface) showing a controller."""

    def __init__(self, controller: Controller, surface: Any) -> None:
        self.controller = controller
        self.surface: Any = surface
        self.running = True
        self._press: tuple[int, int] | None = None
        self._dragging = False
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
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
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
            limit = max_scroll(lay.details, view.details)
            self.controller.scroll_by("details", -event.y * WHEEL_ROWS, limit)
        elif lay.log.contains(*pos) and not (lay.legend_shares_log and view.show_legend):
            limit = max_scroll(lay.log, [TextLine(s) for s in view.log])
            self.controller.scroll_by("log", event.y * WHEEL_ROWS, limit)

    def _resize(self, event: Any) -> None:
        size = getattr(event, "size", None) or (getattr(event, "x", 0), getattr(event, "y", 0))
        w, h = max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1])
        display = pygame.display.get_surface()
        if display is not None and display is self.surface and display.get_size() != (w, h):
            flags = pygame.RESIZABLE if pygame.display.get_driver() != "dummy" else 0
            self.surface = pygame.display.set_mode((w, h), flags)
        self.layout = self._layout()

    def _key(self, event: Any) -> None:
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        if ctrl and event.key in CTRL_KEYS:
            name = CTRL_KEYS[event.key]
            if name == "quit":
                self.running = False
            else:
                self.controller.command(name)
        elif event.key in DIGITS and not ctrl:
            self.controller.press_button(DIGITS[event.key] - 1)
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
        rects = button_rects(self.layout.buttons, [b.label for b in self.controller.view().buttons])
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
        rects = button_rects(self.layout.buttons, [b.label for b in self.controller.view().buttons])
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
        self.draw()

    def draw(self) -> None:
        draw_frame(self.surface, self.layout, self.controller.scene(), self.controller.view())

    def run(self) -> int:
        """The loop until the window closes; 0 on a normal exit.

        Should a bug stop the loop, the game so far is saved first and the
        file named, so a player loses nothing (``wasteland play --load``).
        """
        clock = pygame.time.Clock()
        try:
            while self.running:
                self.step()
                pygame.display.flip()
                clock.tick(60)
        except Exception:
            self.rescue()
            raise
        self.save_on_quit()
        return 0

    def save_on_quit(self) -> Path | None:
        """Closing the window keeps a changed game: it is saved and the file named."""
        if not self.controller.unsaved:
            return None
        path = self.controller.save()
        if path is not None:
            print(f"wasteland play: the game is saved in {path} "
                  f"(continue it with: wasteland play --load {path})", file=sys.stderr)
        return path

    def rescue(self) -> Path | None:
        """Save the game after an unexpected error and say where, on stderr."""
        path = self.controller.save()
        if path is not None:
            print(f"wasteland play: an unexpected error stopped the window; the game is saved "
                  f"in {path} (continue it with: wasteland play --load {path})",
                  file=sys.stderr)
        return path


class NoDisplayError(WastelandError):
    """The window cannot be opened: there is no display to open it on."""


def open_window(controller: Controller, size: tuple[int, int] = DEFAULT_SIZE) -> App:
    """Create the display surface; :class:`NoDisplayError` when there is no display."""
    try:
        pygame.display.init()
        pygame.font.init()
        theme.reset_fonts()  # fonts of an earlier pygame session are dead
        flags = pygame.RESIZABLE if pygame.display.get_driver() != "dummy" else 0
        surface = pygame.display.set_mode(size, flags)
    except pygame.error as exc:
        pygame.quit()
        raise NoDisplayError(str(exc)) from None
    pygame.display.set_caption(f"wasteland - {controller.scenario.name}")
    return App(controller, surface)


def close_window() -> None:
    """Close the window and shut pygame down."""
    pygame.quit()
    theme.reset_fonts()
