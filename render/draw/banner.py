"""The hand-over banner and the per-side strip (issue 16).

The banner crosses the board when the round or the side to act changes
("Super Mutants - your turn, round 2") until the next player dismisses it
(render.app: a click or a key). The strip under the board shows, side by
side in scenario order, every model of each side with its readiness
(Unready, Ready, Used; R-TURN-1) and its health; models out of play are
struck through.
"""

from __future__ import annotations

from typing import Any

import pygame

from render.draw import theme
from render.draw.layout import Rect
from render.scene import ModelView, Scene
from sim.engine.gamedata import Readiness
from sim.scenario.names import display_names

READINESS_WORD = {Readiness.UNREADY: "Unready", Readiness.READY: "Ready",
                  Readiness.USED: "Used"}
READINESS_FILL = {Readiness.UNREADY: (70, 74, 82), Readiness.READY: theme.READY_MARK,
                  Readiness.USED: (32, 32, 35)}  # Used: dark, its name dimmed


def banner_rect(board: Rect, avoid: Rect | None = None) -> Rect:
    """The banner across the board, a third of the way down; under ``avoid`` (the dice
    card) when it would cover it, so the last attack's HIT or MISS stays readable
    (issue 34, bug 2)."""
    h = 92
    r = Rect(board.x, board.y + board.h // 3 - h // 2, board.w, h)
    if avoid is not None and r.overlaps(avoid):
        r = Rect(board.x, min(avoid.bottom + 8, board.bottom - h), board.w, h)
    return r


def draw_banner(surface: Any, board: Rect, title: str, hint: str, colour: theme.Colour,
                avoid: Rect | None = None) -> None:
    r = banner_rect(board, avoid)
    shade = pygame.Surface((r.w, r.h), pygame.SRCALPHA)
    shade.fill((15, 16, 20, 225))
    surface.blit(shade, (r.x, r.y))
    pygame.draw.rect(surface, colour, (r.x, r.y, r.w, 6))
    pygame.draw.rect(surface, colour, (r.x, r.bottom - 6, r.w, 6))
    img = theme.text(title, 34, (255, 255, 255), bold=True)
    surface.blit(img, img.get_rect(center=(r.x + r.w // 2, r.y + 34)))
    sub = theme.text(f"{hint} - click or press a key", 17, theme.TEXT)
    surface.blit(sub, sub.get_rect(center=(r.x + r.w // 2, r.y + 66)))


def strip_entries(scene: Scene) -> list[tuple[str, list[tuple[ModelView, str]]]]:
    """Per side in scenario order: its name and each model with the label of its base
    (so a chip is found on the board at a glance)."""
    names = display_names(scene.scenario)
    order = scene.side_order or tuple(scene.scenario.sides)
    return [(names.side(side), [(m, m.id) for m in scene.models if m.side == side])
            for side in order]


def _chip(surface: Any, m: ModelView, name: str, x: int, y: int, h: int, size: int) -> int:
    """One model's chip: readiness fill, name, health pips; returns its width."""
    ink = {Readiness.READY: (0, 0, 0), Readiness.USED: (120, 120, 124)}.get(m.readiness,
                                                                           theme.TEXT)
    img = theme.text(name, size, ink)
    pips = max(1, m.max_health)
    pip = 4 if pips <= 8 else 2
    w = max(img.get_width(), pips * (pip + 1)) + 10
    box = pygame.Rect(x, y, w, h)
    pygame.draw.rect(surface, READINESS_FILL[m.readiness], box, border_radius=3)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=3)
    surface.blit(img, (x + 5, y + 1))
    for i in range(pips):
        colour = (70, 210, 90) if i < m.health else (90, 30, 30)
        pygame.draw.rect(surface, colour, (x + 5 + i * (pip + 1), y + h - 6, pip, 3))
    if not m.on_board:
        pygame.draw.line(surface, theme.TEXT_BAD, (x + 2, y + h // 2), (x + w - 2, y + h // 2), 2)
    return int(w)


def draw_strip(surface: Any, rect: Rect, scene: Scene) -> None:
    """Each side's models as chips (see the module docstring), one row per side."""
    entries = strip_entries(scene)
    if not entries or rect.h < 10:
        return
    row = rect.h // len(entries)
    size = 15 if row >= 22 else 13
    widest = max(theme.font(size).size(side)[0] + sum(
        theme.font(size).size(name)[0] + 14 for _, name in models) for side, models in entries)
    if widest > rect.w:
        size = 13
    for k, (side, models) in enumerate(entries):
        y = rect.y + k * row
        colour = theme.side_colour(k, bool(scene.scenario.sides[
            (scene.side_order or tuple(scene.scenario.sides))[k]].neutral))
        tag = theme.text(side, size, colour, bold=True)
        surface.blit(tag, (rect.x, y + 2))
        x = rect.x + tag.get_width() + 8
        for m, name in models:
            if x > rect.right - 20:
                break
            x += _chip(surface, m, name, x, y + 1, row - 2, size) + 4
