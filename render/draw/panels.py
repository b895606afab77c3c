"""The side panel, the status bar, the help overlay and the game-over screen."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pygame

from render.draw import theme
from render.draw.controls import CONTROLS
from render.draw.layout import Rect
from render.draw.view import Button, TextLine
from render.scene import Scene

BUTTON_H = 26
BUTTON_GAP = 4
BUTTON_TOP = 22


def draw_box(surface: Any, rect: Rect) -> None:
    """An empty panel box (under a legend drawn in the event log's place)."""
    _panel_box(surface, rect)


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
    if max_w is not None:
        text = text[:max_w + 1]  # no glyph is narrower than a pixel: the rest never shows
    img = theme.text(text, size, colour)
    if max_w is not None and img.get_width() > max_w:
        img = theme.text(cut_text(text, size, max_w), size, colour)
    surface.blit(img, pos)
    return int(f.get_linesize())


def fit_label(text: str, size: int, max_w: int) -> str:
    """``text`` fitted to ``max_w`` pixels, cut before a closing ``(id)`` so that the
    tag that tells two models of one unit apart stays readable ("Super Mu… (mutant-2)")."""
    f = theme.font(size)
    if f.size(text)[0] <= max_w or not text.endswith(")") or " (" not in text:
        return text
    head, tag = text.rsplit(" (", 1)
    tag = " (" + tag
    room = max_w - f.size(tag)[0]
    return text if room <= 0 else cut_text(head, size, room) + tag


@lru_cache(maxsize=2048)
def cut_text(text: str, size: int, max_w: int) -> str:
    """``text`` shortened with an ellipsis to fit ``max_w`` pixels: the longest prefix that
    fits, found by halving (a few measures, not one a character: issue 31)."""
    f = theme.font(size)
    lo, hi = 0, min(len(text), max_w + 1)  # prefix lengths: lo fits, above hi cannot
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid] + "…")[0] <= max_w:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…"


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
    rows: tuple[tuple[str | None, str], ...] = ((scene.advantage, "Advantage"),
                                                 (scene.side_to_act, "To act"))
    if scene.round is None:  # a set-up (the editor's): no turn, and no advantage until set
        rows = rows[:1] if scene.advantage is not None else ()
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


def _fits_half(label: str, col_w: int) -> bool:
    """Whether a numbered button label fits a half-width button uncut."""
    return bool(theme.font(17).size(f"9. {label}")[0] <= col_w - 10)


def button_rects(rect: Rect, buttons: int | Sequence[str]) -> list[Rect]:
    """Where the buttons go: two columns under the title, as many as fit.

    Given the labels, a label too long for half the width gets a whole row,
    so no choice is shown cut off (``Commonwealth Settlers goes first``).
    """
    labels = [""] * buttons if isinstance(buttons, int) else list(buttons)
    out = _button_rects(rect, labels, whole_rows=True)
    if len(out) < len(labels):  # long labels would push choices out: two columns for all
        out = _button_rects(rect, labels, whole_rows=False)
    return out


def _button_rects(rect: Rect, labels: Sequence[str], whole_rows: bool) -> list[Rect]:
    """:func:`button_rects`, with long labels on whole rows or not."""
    col_w = (rect.w - 3 * BUTTON_GAP) // 2
    rows = max(1, (rect.h - BUTTON_TOP - BUTTON_GAP) // (BUTTON_H + BUTTON_GAP))
    out: list[Rect] = []
    row, col = 0, 0
    for label in labels:
        wide = whole_rows and bool(label) and not _fits_half(label, col_w)
        if wide and col == 1:
            row, col = row + 1, 0
        if row >= rows:
            break
        y = rect.y + BUTTON_TOP + row * (BUTTON_H + BUTTON_GAP)
        if wide:
            out.append(Rect(rect.x + BUTTON_GAP, y, rect.w - 2 * BUTTON_GAP, BUTTON_H))
            row += 1
        else:
            out.append(Rect(rect.x + BUTTON_GAP + col * (col_w + BUTTON_GAP), y, col_w,
                            BUTTON_H))
            row, col = (row + 1, 0) if col == 1 else (row, 1)
    return out


def draw_buttons(
    surface: Any, rect: Rect, title: str, buttons: Sequence[Button], hover: int | None
) -> None:
    _panel_box(surface, rect, title)
    rects = button_rects(rect, [b.caption for b in buttons])
    for i, (b, r) in enumerate(zip(buttons, rects, strict=False)):
        fill, edge, colour = button_colours(b, hover == i)
        pygame.draw.rect(surface, fill, r.as_tuple(), border_radius=4)
        pygame.draw.rect(surface, edge, r.as_tuple(), 1, border_radius=4)
        label = b.caption  # its number or fixed key (render.input.hotkeys)
        size = 17 if theme.font(17).size(label)[0] <= r.w - 10 else 15
        _text(surface, fit_label(label, size, r.w - 10), (r.x + 6, r.y + 5 + 17 - size),
              colour, size, r.w - 10)
        if not b.enabled:  # struck through: it cannot be pressed now (an illegal path)
            y = r.y + r.h // 2
            pygame.draw.line(surface, theme.TEXT_DIM, (r.x + 6, y), (r.x + 6 + min(
                r.w - 12, theme.font(17).size(label)[0]), y), 1)


BUTTON_FILL = (70, 90, 120)
BUTTON_HOVER = (95, 125, 170)


def button_colours(b: Button, hovered: bool) -> tuple[theme.Colour, theme.Colour, theme.Colour]:
    """Fill, edge and text of a button: a disabled one greyed, a minor one (Leave) drawn as
    an outline on the panel, quieter than the choices players usually want."""
    if not b.enabled:
        return (48, 48, 52), (62, 62, 66), (110, 110, 114)
    if b.minor:
        return (BUTTON_HOVER if hovered else theme.PANEL), theme.PANEL_EDGE, theme.TEXT_DIM
    return (BUTTON_HOVER if hovered else BUTTON_FILL), theme.PANEL_EDGE, theme.TEXT


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


def text_rows(rect: Rect, lines: Sequence[TextLine]) -> list[tuple[str, theme.Colour]]:
    """``lines`` wrapped to the width of a text box: the rows it has to show."""
    return [(part, line.colour) for line in lines for part in wrap(line.text, 16, rect.w - 14)]


def rows_that_fit(rect: Rect) -> int:
    """How many text rows a titled box of ``rect`` shows."""
    return max(1, (rect.h - 26) // int(theme.font(16).get_linesize()))


def max_scroll(rect: Rect, lines: Sequence[TextLine]) -> int:
    """How far the text of a box can scroll (0: it all fits)."""
    return max(0, len(text_rows(rect, lines)) - rows_that_fit(rect))


def draw_lines(surface: Any, rect: Rect, title: str, lines: Sequence[TextLine],
               newest_last: bool = False, scroll: int = 0) -> None:
    """A titled box of text lines, wrapped, scrolled by ``scroll`` rows.

    Without ``newest_last`` the box shows the first rows (scrolling moves
    down); with it the last rows (scrolling moves back in time). Rows that do
    not fit are never cut silently: a dim last (or first) row says how many
    more there are and that the mouse wheel shows them.
    """
    _panel_box(surface, rect, title)
    step = int(theme.font(16).get_linesize())
    fit = rows_that_fit(rect)
    rows = text_rows(rect, lines)
    hidden = max(0, len(rows) - fit)
    scroll = max(0, min(scroll, hidden))
    if newest_last:
        shown = rows[len(rows) - fit - scroll: len(rows) - scroll] if hidden else rows
        before, after = len(rows) - fit - scroll, scroll
    else:
        shown = rows[scroll: scroll + fit]
        before, after = scroll, max(0, len(rows) - scroll - fit)
    if hidden:
        if before > 0:
            what = "earlier" if newest_last else "more"
            shown = [(f"^ {before + 1} {what} rows: mouse wheel", theme.TEXT_DIM), *shown[1:]]
        if after > 0:
            more = "newer" if newest_last else "more"
            shown = [*shown[:-1], (f"v {after + 1} {more} rows: mouse wheel", theme.TEXT_DIM)]
    y = rect.y + 24
    for text, colour in shown:
        _text(surface, text, (rect.x + 6, y), colour, 16, rect.w - 12)
        y += step


def draw_status(surface: Any, rect: Rect, text: str, error: bool) -> None:
    pygame.draw.rect(surface, (20, 22, 26), rect.as_tuple())
    pygame.draw.line(surface, theme.PANEL_EDGE, (rect.x, rect.y), (rect.right, rect.y))
    colour = theme.TEXT_BAD if error else theme.TEXT
    _text(surface, text, (rect.x + 8, rect.y + 6), colour, 18, rect.w - 16)


def help_column(box: Rect) -> int:
    """Where the help's second column (what an input does) starts, from the box's left."""
    return int(box.w * 0.34)


def help_layout(window: Rect) -> tuple[int, list[tuple[str, ...]], Rect]:
    """The help's font size, each control's wrapped rows, and its box.

    The largest font at which every control fits the window, wrapped, so no
    line is cut off even at the minimum window size.
    """
    w = min(window.w - 40, 900)
    col = help_column(Rect(0, 0, w, 0))
    size, rows, h = 13, [], 0
    for size in (19, 17, 15, 13):
        step = int(theme.font(size).get_linesize()) + 3
        rows = [wrap(c.action, size, w - col - 12) for c in CONTROLS]
        h = 50 + step * sum(len(r) for r in rows)
        if h <= window.h - 20:
            break
    h = min(window.h - 20, h)
    return size, rows, Rect((window.w - w) // 2, (window.h - h) // 2, w, h)


def draw_help(surface: Any, window: Rect) -> None:
    """The F1 overlay: every control from :data:`render.draw.controls.CONTROLS`."""
    shade = pygame.Surface((window.w, window.h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 190))
    surface.blit(shade, (0, 0))
    size, rows, box = help_layout(window)
    step = int(theme.font(size).get_linesize()) + 3
    w, col = box.w, help_column(box)
    _panel_box(surface, box, "Help (F1 or Esc to close)")
    y = box.y + 34
    for c, parts in zip(CONTROLS, rows, strict=True):
        _text(surface, c.input, (box.x + 12, y), theme.READY_MARK, size, col - 16)
        for part in parts:
            _text(surface, part, (box.x + col, y), theme.TEXT, size, w - col - 12)
            y += step


def draw_game_over(surface: Any, board: Rect, text: str) -> None:
    """The result over the board, wrapped to its width, and what can be done now."""
    shade = pygame.Surface((board.w, board.h), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    surface.blit(shade, (board.x, board.y))
    cx, cy = board.x + board.w // 2, board.y + board.h // 2
    big = theme.font(48, bold=True).render("Game over", True, (255, 255, 255))
    surface.blit(big, big.get_rect(center=(cx, cy - 40)))
    y = cy
    for line in game_over_rows(board, text):
        img = theme.text(line.strip(), 26, theme.READY_MARK)
        surface.blit(img, img.get_rect(midtop=(cx, y)))
        y += int(theme.font(26).get_linesize())
    hint = theme.text("Ctrl+Z takes the last action back, Ctrl+S saves, Ctrl+Q quits",
                      16, theme.TEXT)
    if hint.get_width() <= board.w - 20:
        surface.blit(hint, hint.get_rect(midtop=(cx, y + 12)))


def game_over_rows(board: Rect, text: str) -> tuple[str, ...]:
    """The result wrapped to the board's width (a long result is never cut)."""
    return wrap(text, 26, board.w - 40)
