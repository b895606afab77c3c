"""The side panel, the status bar, the help overlay and the game-over screen."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pygame

from render import theme
from render.controls import CONTROLS
from render.layout import Rect
from render.scene import Scene
from render.view import Button, TextLine

BUTTON_H = 26
BUTTON_GAP = 4
BUTTON_TOP = 22


def _panel_box(surface: Any, rect: Rect, title: str | None = None) -> None:
    pygame.draw.rect(surface, theme.PANEL, rect.as_tuple(), border_radius=4)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect.as_tuple(), 1, border_radius=4)
    if title:
        img = theme.text(title, 18, theme.TEXT, bold=True)
        surface.blit(img, (rect.x + 6, rect.y + 4))


def _text(
    surface: Any,
    text: str,
    pos: tuple[int, int],
    colour: theme.Colour = theme.TEXT,
    size: int = 17,
    max_w: int | None = None,
) -> int:
    """Blit one line (cut with an ellipsis to ``max_w``); returns its height."""
    f = theme.font(size)
    img = theme.text(text, size, colour)
    if max_w is not None and img.get_width() > max_w:
        img = theme.text(_cut(text, size, max_w), size, colour)
    surface.blit(img, pos)
    return int(f.get_linesize())


@lru_cache(maxsize=2048)
def _cut(text: str, size: int, max_w: int) -> str:
    """``text`` shortened with an ellipsis to fit ``max_w`` pixels."""
    f = theme.font(size)
    while text and f.size(text + "…")[0] > max_w:
        text = text[:-1]
    return text + "…"


def side_name(scene: Scene, side: str | None) -> str:
    if side is None:
        return "-"
    s = scene.scenario.sides.get(side)
    return s.name if s else side


def draw_header(surface: Any, rect: Rect, scene: Scene) -> None:
    """Round and phase, the advantage marker, the side to act (R-TURN-2, R-TURN-3)."""
    _panel_box(surface, rect)
    rounds = f"/{scene.rounds}" if scene.rounds else ""
    rnd = f"Round {scene.round}{rounds}" if scene.round is not None else scene.scenario.name
    title = theme.text(rnd, 20, theme.TEXT, bold=True)
    surface.blit(title, (rect.x + 6, rect.y + 4))
    x_phase = rect.x + 14 + title.get_width()
    _text(surface, scene.phase, (x_phase, rect.y + 6), theme.TEXT_DIM, 16, rect.right - x_phase - 6)
    rows = ((scene.advantage, "Advantage"), (scene.side_to_act, "To act"))
    for i, (side, what) in enumerate(rows):
        y = rect.y + 24 + i * 18
        if side is not None:
            colour = theme.side_colour(scene.side_index(side), False)
            if what == "Advantage":
                pygame.draw.circle(surface, colour, (rect.x + 12, y + 7), 6)
                pygame.draw.circle(surface, theme.READY_MARK, (rect.x + 12, y + 7), 6, 2)
            else:
                pygame.draw.rect(surface, colour, (rect.x + 7, y + 2, 11, 11))
        _text(surface, f"{what}: {side_name(scene, side)}", (rect.x + 24, y), size=17,
              max_w=rect.w - 30)


def button_rects(rect: Rect, count: int) -> list[Rect]:
    """Where the buttons go: two columns under the title, as many as fit."""
    col_w = (rect.w - 3 * BUTTON_GAP) // 2
    per_col = max(1, (rect.h - BUTTON_TOP - BUTTON_GAP) // (BUTTON_H + BUTTON_GAP))
    out = []
    for i in range(min(count, per_col * 2)):
        col, row = (i % 2, i // 2)
        if row >= per_col:
            break
        out.append(
            Rect(
                rect.x + BUTTON_GAP + col * (col_w + BUTTON_GAP),
                rect.y + BUTTON_TOP + row * (BUTTON_H + BUTTON_GAP),
                col_w,
                BUTTON_H,
            )
        )
    return out


def draw_buttons(
    surface: Any, rect: Rect, title: str, buttons: Sequence[Button], hover: int | None
) -> None:
    _panel_box(surface, rect, title)
    for i, (b, r) in enumerate(zip(buttons, button_rects(rect, len(buttons)), strict=False)):
        fill = (70, 90, 120) if b.enabled else (55, 55, 58)
        if hover == i and b.enabled:
            fill = (95, 125, 170)
        pygame.draw.rect(surface, fill, r.as_tuple(), border_radius=4)
        pygame.draw.rect(surface, theme.PANEL_EDGE, r.as_tuple(), 1, border_radius=4)
        label = f"{i + 1}. {b.label}" if i < 9 else b.label
        colour = theme.TEXT if b.enabled else theme.TEXT_DIM
        _text(surface, label, (r.x + 6, r.y + 5), colour, 17, r.w - 10)


@lru_cache(maxsize=2048)
def wrap(text: str, size: int, max_w: int) -> tuple[str, ...]:
    """Split ``text`` into lines no wider than ``max_w`` pixels (at word breaks)."""
    f = theme.font(size)
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and f.size(trial)[0] > max_w:
            out.append(line)
            line = "  " + word
        else:
            line = trial
    out.append(line)
    return tuple(out)


def draw_lines(surface: Any, rect: Rect, title: str, lines: Sequence[TextLine],
               newest_last: bool = False) -> None:
    """A titled box of text lines, wrapped; with ``newest_last`` the last lines that fit."""
    _panel_box(surface, rect, title)
    f = theme.font(16)
    step = int(f.get_linesize())
    fit = max(0, (rect.h - 26) // step)
    rows = [(part, line.colour) for line in lines for part in wrap(line.text, 16, rect.w - 14)]
    shown = rows[-fit:] if newest_last else rows[:fit]
    y = rect.y + 24
    for text, colour in shown:
        _text(surface, text, (rect.x + 6, y), colour, 16, rect.w - 12)
        y += step


def draw_status(surface: Any, rect: Rect, text: str, error: bool) -> None:
    pygame.draw.rect(surface, (20, 22, 26), rect.as_tuple())
    pygame.draw.line(surface, theme.PANEL_EDGE, (rect.x, rect.y), (rect.right, rect.y))
    colour = theme.TEXT_BAD if error else theme.TEXT
    _text(surface, text, (rect.x + 8, rect.y + 6), colour, 18, rect.w - 16)


def draw_help(surface: Any, window: Rect) -> None:
    """The F1 overlay: every control from :data:`render.controls.CONTROLS`."""
    shade = pygame.Surface((window.w, window.h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 190))
    surface.blit(shade, (0, 0))
    f = theme.font(19)
    step = int(f.get_linesize()) + 3
    w = min(window.w - 40, 900)
    h = min(window.h - 40, 60 + step * len(CONTROLS))
    box = Rect((window.w - w) // 2, (window.h - h) // 2, w, h)
    _panel_box(surface, box, "Help (F1 or Esc to close)")
    col = int(w * 0.34)
    y = box.y + 34
    for c in CONTROLS:
        _text(surface, c.input, (box.x + 12, y), theme.READY_MARK, 19, col - 16)
        _text(surface, c.action, (box.x + col, y), theme.TEXT, 19, w - col - 12)
        y += step


def draw_game_over(surface: Any, board: Rect, text: str) -> None:
    """The result over the board."""
    shade = pygame.Surface((board.w, board.h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    surface.blit(shade, (board.x, board.y))
    big = theme.font(48, bold=True).render("Game over", True, (255, 255, 255))
    surface.blit(big, big.get_rect(center=(board.x + board.w // 2, board.y + board.h // 2 - 30)))
    small = theme.font(26).render(text, True, theme.READY_MARK)
    surface.blit(
        small, small.get_rect(center=(board.x + board.w // 2, board.y + board.h // 2 + 20))
    )
