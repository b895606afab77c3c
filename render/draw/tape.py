"""The measuring tape drawn over the board (issue 34; render.explain.tape measures it)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from render.draw import theme
from render.draw.labels import Placer
from render.draw.transform import BoardTransform

TICK_PX = 5  # half the length of an inch mark


@dataclass(frozen=True)
class TapeOverlay:
    """A tape from ``start`` to ``end`` (inches) in a ruler's colour, a mark every inch
    from its start, its length at its end."""

    start: tuple[float, float]
    end: tuple[float, float]
    colour: tuple[int, int, int]
    text: str

    def draw(self, surface: Any, t: BoardTransform) -> None:
        a, b = t.to_screen_f(*self.start), t.to_screen_f(*self.end)
        pygame.draw.line(surface, (0, 0, 0), a, b, 5)
        pygame.draw.line(surface, self.colour, a, b, 3)
        length = math.dist(self.start, self.end)
        if length > 0:
            ux, uy = (b[0] - a[0]) / t.length(length), (b[1] - a[1]) / t.length(length)
            for i in range(1, math.ceil(length)):
                cx, cy = a[0] + ux * t.length(i), a[1] + uy * t.length(i)
                tick = TICK_PX * (2 if i % 6 == 0 else 1)
                pygame.draw.line(surface, (0, 0, 0), (cx - uy * tick, cy + ux * tick),
                                 (cx + uy * tick, cy - ux * tick), 2)
        for p in (a, b):
            pygame.draw.circle(surface, self.colour, p, 4)

    def draw_top(self, surface: Any, t: BoardTransform, placer: Placer | None = None) -> None:
        """Its length over the end (or beside it, where ``placer`` finds room: off names,
        pips and other labels), inside the board."""
        ex, ey = t.to_screen_f(*self.end)
        img = theme.text(self.text, 16, self.colour, bold=True)
        w, h = img.get_size()
        clip = surface.get_clip()
        placer = placer or Placer(clip=clip if clip.w else None)
        box = placer.place((w + 6, h + 2), [(ex, ey - 18), (ex, ey + 18),
                                            (ex + w / 2 + 12, ey), (ex - w / 2 - 12, ey)])
        box = box.inflate(-6, -2)
        bg = pygame.Surface(box.inflate(6, 2).size, pygame.SRCALPHA)
        bg.fill((0, 0, 0, 190))
        surface.blit(bg, box.inflate(6, 2))
        surface.blit(img, box)
