"""What a frame shows for issue 16, as values: the pinned top of Details, the
banner, the dice card and the "what if" marks (drawn by render.draw.frame).

:class:`Shown` is made by :meth:`render.explain.show.Show.shown` each frame;
the Details box keeps the headlines and "what if" lines at its top, always
visible, and scrolls only the text below them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from render.draw import theme
from render.draw.labels import Placer
from render.draw.layout import Rect
from render.draw.panels import draw_lines, wrap
from render.draw.side_view import SideView
from render.draw.transform import BoardTransform
from render.draw.view import TextLine
from sim.combat.rolls import AttackRoll

Segment = tuple[tuple[float, float], tuple[float, float]]
PIN_SIZE = 17  # font size of the pinned lines
MAX_PINNED = 7  # rows at most, so the rest of Details keeps room


@dataclass(frozen=True)
class Banner:
    """The hand-over: whose turn, which round, what to do first."""

    title: str
    hint: str


@dataclass(frozen=True)
class DiceCard:
    """One attack's dice, from the engine's record, and when it was rolled (frame clock)."""

    roll: AttackRoll
    since_ms: int
    big: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class AgiCard:
    """One AGI test for climbing (R-CLIMB-2), from the engine's dice event, and when."""

    who: str  # the model's display name
    roll: int
    target: int
    passed: bool
    since_ms: int


@dataclass(frozen=True)
class WhatIfShown:
    """The spot asked about, the base's radius, and the sight segment of each enemy that sees it."""

    spot: tuple[float, float]
    radius: float
    seen: tuple[Segment, ...]
    shooters: int = 0  # of those, how many could shoot it there


@dataclass(frozen=True)
class Shown:
    banner: Banner | None = None
    colour: theme.Colour = theme.TEXT  # the side to act's colour, for the banner
    card: DiceCard | None = None  # while it is on the board
    pinned: tuple[TextLine, ...] = ()
    what_if: WhatIfShown | None = None
    log: tuple[str, ...] = ()
    side: SideView | None = None  # the F6 side view of the shot shown (issue 34)
    test: AgiCard | None = None  # an AGI test's card while it is on the board


def pinned_rows(rect: Rect, pinned: Sequence[TextLine]) -> list[tuple[str, theme.Colour]]:
    rows = [(part, line.colour) for line in pinned
            for part in wrap(line.text, PIN_SIZE, rect.w - 14)]
    if len(rows) > MAX_PINNED:
        rows = [*rows[: MAX_PINNED - 1], (f"... {len(rows) - MAX_PINNED + 1} more", theme.TEXT_DIM)]
    return rows


def scrolled_rect(rect: Rect, pinned: Sequence[TextLine]) -> Rect:
    """The part of the Details box under the pinned rows (what the wheel scrolls)."""
    n = len(pinned_rows(rect, pinned))
    if not n:
        return rect
    top = 24 + n * int(theme.font(PIN_SIZE).get_linesize()) + 6
    return Rect(rect.x, rect.y + top - 22, rect.w, max(30, rect.h - top + 22))


def draw_details(surface: Any, rect: Rect, pinned: Sequence[TextLine],
                 lines: Sequence[TextLine], scroll: int) -> None:
    """Details with ``pinned`` rows fixed at its top and ``lines`` scrolled below them."""
    rows = pinned_rows(rect, pinned)
    if not rows:
        draw_lines(surface, rect, "Details", lines, scroll=scroll)
        return
    below = scrolled_rect(rect, pinned)
    draw_lines(surface, below, "", lines, scroll=scroll)
    head = pygame.Rect(rect.x, rect.y, rect.w, below.y - rect.y + 20)
    pygame.draw.rect(surface, theme.PANEL, head, border_radius=4)
    pygame.draw.rect(surface, theme.PANEL_EDGE, rect.as_tuple(), 1, border_radius=4)
    surface.blit(theme.text("Details", 18, theme.TEXT, bold=True), (rect.x + 6, rect.y + 4))
    y = rect.y + 24
    step = int(theme.font(PIN_SIZE).get_linesize())
    for text, colour in rows:
        surface.blit(theme.text(text, PIN_SIZE, colour, bold=True), (rect.x + 6, y))
        y += step
    pygame.draw.line(surface, theme.PANEL_EDGE, (rect.x + 4, y + 2), (rect.right - 4, y + 2))


def draw_what_if(surface: Any, t: BoardTransform, w: WhatIfShown,
                 placer: Placer | None = None) -> None:
    """The base at the spot (dashed ring) and a thin line from each enemy that would see it;
    its count above the ring, or beside it where ``placer`` finds room (off names, pips
    and the other labels: the tape's, issue 34)."""
    cx, cy = t.to_screen(*w.spot)
    r = max(3, round(t.length(w.radius)))
    for (a, b) in w.seen:
        pygame.draw.line(surface, theme.SIGHT_LINE, t.to_screen(*a), t.to_screen(*b), 1)
    pygame.draw.circle(surface, (255, 255, 255), (cx, cy), r, 1)
    words = f"seen by {len(w.seen)}" + (f", {w.shooters} could shoot" if w.shooters else "")
    n = theme.text(words, 14, (255, 255, 255), bold=True)
    box = n.get_rect(midbottom=(cx, cy - r - 3))  # above: names and pips sit below bases
    clip = surface.get_clip()
    placer = placer or Placer(clip=clip if clip.w else None)
    bw, bh = box.inflate(4, 2).size
    box = placer.place((bw, bh), [box.center, (cx, cy + r + 3 + bh / 2),
                                  (cx + r + 3 + bw / 2, cy), (cx - r - 3 - bw / 2, cy)])
    box = box.inflate(-4, -2)
    pygame.draw.rect(surface, (20, 20, 20), box.inflate(4, 2))
    surface.blit(n, box)
