"""The editor's window: the game's :class:`~render.app.App` with the editor's keys and panel.

The loop, the drawing (render.draw.frame), the mouse (clicks, drags, the
wheel), resizing and the signals are the game window's own; this adds the
editor's keys and typed text, a side panel with room for the tools, and
"play this" (F5): the same window then runs a game of the saved file (a
game's :class:`~render.app.App` on the same surface, which this window hands
every event to), and Ctrl+E comes back to the editor.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame

from render.app import App
from render.draw.frame import draw_frame
from render.draw.layout import Camera, Layout, Rect, compute_layout
from render.editor.controller import EditorController
from render.input.controller import Controller
from render.window import FIT_KEYS, Window, close_window, open_display, say_on_stderr
from sim.scenario.format.loader import load_scenario

# Key -> editor command (render.editor.controller.EditorController.command).
KEYS: dict[int, str] = {
    pygame.K_F1: "help", pygame.K_F2: "debug", pygame.K_F3: "all_sight",
    pygame.K_F4: "edges_reach", pygame.K_F5: "play",
    pygame.K_RETURN: "confirm", pygame.K_KP_ENTER: "confirm", pygame.K_ESCAPE: "escape",
    pygame.K_BACKSPACE: "backspace", pygame.K_DELETE: "delete",
    pygame.K_s: "tool_select", pygame.K_r: "tool_rect", pygame.K_c: "tool_circle",
    pygame.K_p: "tool_polygon", pygame.K_m: "tool_model", pygame.K_TAB: "next_preset",
    pygame.K_u: "next_unit", pygame.K_v: "next_side", pygame.K_l: "legend",
    pygame.K_o: "tool_objective", pygame.K_k: "next_objective_kind",
    pygame.K_LEFTBRACKET: "rotate:-15", pygame.K_RIGHTBRACKET: "rotate:15",
    pygame.K_MINUS: "scale:0.9", pygame.K_EQUALS: "scale:1.1", pygame.K_PLUS: "scale:1.1",
}
CTRL_KEYS: dict[int, str] = {pygame.K_z: "undo", pygame.K_y: "redo", pygame.K_s: "save",
                             pygame.K_q: "quit", pygame.K_d: "duplicate", pygame.K_c: "copy",
                             pygame.K_v: "paste"}
NUDGES = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1),
          pygame.K_DOWN: (0, 1)}
NUDGE = 0.1  # inches an arrow key moves the selection (Shift: ten times that)
DIGITS = {getattr(pygame, f"K_{i}"): i for i in range(1, 10)}
EDITING_KEYS = ("confirm", "escape", "backspace")  # the keys a field being typed takes


def editor_layout(size: tuple[int, int], board: tuple[float, float]) -> Layout:
    """The game's layout with a taller buttons box (the tools and properties) and the legend
    sharing the log's box."""
    lay = compute_layout(size, board)
    top, bottom = lay.buttons.y, (lay.status.y if lay.status is not None else lay.window.h) - 5
    rest = bottom - top
    x, w = lay.buttons.x, lay.buttons.w
    buttons = Rect(x, top, w, int(rest * 0.53) - 4)
    details = Rect(x, buttons.bottom + 4, w, int(rest * 0.30) - 4)
    log = Rect(x, details.bottom + 4, w, bottom - details.bottom - 8)
    return replace(lay, buttons=buttons, details=details, legend=log, log=log)


class EditorApp(Window[EditorController]):
    """The window running the editor, and after F5 a game of the saved file."""

    def __init__(self, editor: EditorController, surface: Any) -> None:
        super().__init__(editor, surface)
        self.editor = editor
        self.game_app: App | None = None  # the game started by F5, on this surface
        self.leaving_game = False  # Ctrl+E was pressed in the game

    def _layout(self) -> Layout:
        return editor_layout(self.surface.get_size(), self.controller.scenario.board)

    @property
    def playing(self) -> bool:
        return self.game_app is not None

    @property
    def game(self) -> Controller | None:
        """The game's controller while a game runs (F5)."""
        return None if self.game_app is None else self.game_app.controller

    def handle(self, event: Any) -> None:
        if self.game_app is not None:
            if not self._leaves_game(event):
                self.game_app.handle(event)
            return
        if event.type == pygame.KEYDOWN:
            self.key_press(event.key, event.mod)
        elif event.type == pygame.TEXTINPUT:
            self.editor.type_text(event.text)
        else:
            super().handle(event)

    def key_press(self, key: int, mod: int) -> None:
        """One key: a field being typed takes Enter, Esc and Backspace (its letters come as
        text), else the editor's keys."""
        e = self.editor
        ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        name = KEYS.get(key)
        if e.editing is not None and not ctrl:
            if name in EDITING_KEYS:
                e.command(name)
            return
        if key in FIT_KEYS:
            self.set_camera(Camera())  # Home fits the board, as in the game (render.window)
        elif ctrl:
            if key == pygame.K_z and mod & pygame.KMOD_SHIFT:
                e.command("redo")
            elif key in CTRL_KEYS:
                e.command(CTRL_KEYS[key])
        elif key in NUDGES:
            step = NUDGE * (10 if mod & pygame.KMOD_SHIFT else 1)
            dx, dy = NUDGES[key]
            e.command(f"nudge:{dx * step:g},{dy * step:g}")
        elif key in DIGITS:
            e.press_button(DIGITS[key] - 1)
        elif name is not None:
            e.command(name)

    def draw(self) -> None:
        """The editor's frame: the game's frame (render.draw.frame) without a game's extras."""
        if self.game_app is not None:
            self.game_app.draw()
            return
        e = self.editor
        draw_frame(self.surface, self.layout, e.scene(), e.view(), self.layers)

    def frame_rate(self) -> int:
        """The game's rate while playing; the editor has no computer player to wait for."""
        return self.game_app.frame_rate() if self.game_app is not None else super().frame_rate()

    def step(self, events: Any = None) -> None:
        """Events, update, draw: the game's step while playing (Ctrl+E leaves it after)."""
        if self.game_app is not None:
            game = self.game_app
            game.step([e for e in (pygame.event.get() if events is None else events)
                       if not self._leaves_game(e)])
            self.surface = game.surface  # a resize while playing made a new one
            if not game.running:  # the game's window was closed, or Ctrl+Q
                self.running, self.stopped_by = False, game.stopped_by
            if self.leaving_game:
                self.back_to_editor()
            return
        super().step(events)
        if self.editor.play_requested:
            self.editor.play_requested = False
            self.start_game()

    def _leaves_game(self, event: Any) -> bool:
        """Ctrl+E: back to the editor once this frame of the game is done."""
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_e
                and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)):
            self.leaving_game = True
            return True
        return False

    def start_game(self) -> None:
        """F5: a new game of the file just saved, in this window."""
        scenario = load_scenario(self.editor.target)
        game = App(Controller(scenario, save_dir=self.editor.save_dir), self.surface)
        game.clock = self.clock
        self.game_app = game
        pygame.display.set_caption(f"wasteland - {scenario.name} (Ctrl+E: back to the editor)")

    def back_to_editor(self) -> None:
        """Ctrl+E in the game: a changed game is saved (as leaving a game always does)."""
        if self.game_app is not None and self.game_app.controller.unsaved:
            self.game_app.save_on_quit()
        self.game_app, self.leaving_game = None, False
        self.layout = self._layout()
        self.layers.clear()
        pygame.display.set_caption(f"wasteland edit - {self.editor.target.name}")

    def save_on_quit(self) -> Path | None:
        """Leaving: a game keeps its save (the game window's way); the editor's draft, when
        changed and not saved, goes to a file beside the target, never over it."""
        if self.game_app is not None:
            self.game_app.stopped_by = self.stopped_by
            return self.game_app.save_on_quit()
        e = self.editor
        if not e.unsaved:
            return None
        why = f" ({self.stopped_by})" if self.stopped_by else ""
        path = e.keep_unsaved()
        if path is None:
            say_on_stderr(f"wasteland edit{why}: the changes could not be kept: {e.status}")
        else:
            say_on_stderr(f"wasteland edit{why}: the changes not saved are kept in {path}")
        return path


def open_editor(editor: EditorController, size: tuple[int, int] | None = None) -> EditorApp:
    """The window (:func:`render.app.open_window`) showing ``editor``; NoDisplayError as there."""
    surface = open_display(f"wasteland edit - {editor.target.name}", size)
    pygame.key.start_text_input()
    return EditorApp(editor, surface)


def run_editor(editor: EditorController, size: tuple[int, int] | None = None) -> int:
    """Open the editor and run it until it is closed (0, or 1 when changes were lost)."""
    app = open_editor(editor, size)
    try:
        return app.run()
    finally:
        close_window()
