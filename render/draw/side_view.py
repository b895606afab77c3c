"""The side view of a shot drawn in a box over the board (issue 34; F6).

Distance along the line of cover runs left to right (the attacker on the
left) across the box, height upwards to the highest top, each axis to its own
scale (a shot is long and low); labels give the heights in inches.
Pieces are drawn as blocks to their tops: red where the analysis says the
piece blocks sight, orange where it gives cover, pale where the shot passes
over it (R-ELEV-5), grey otherwise; significant edges as magenta faces
(R-ELEV-2); the bases in their sides' colours at their heights. The box goes
in the half of the board away from the two bases. The values drawn are made
by :mod:`render.explain.side_view`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from render.draw import theme
from render.draw.board import dashed_polyline
from render.draw.labels import Placer
from render.draw.layout import Rect

BLOCKS, COVER, OVER, NOTHING = "blocks sight", "cover", "shot over", ""


@dataclass(frozen=True)
class Span:
    """A piece (or a significant edge: ``s0 == s1``) on the line, and what it does."""

    id: str
    s0: float  # inches from the attacker's centre along the line
    s1: float
    top: float  # the height of its top
    verdict: str  # BLOCKS, COVER, OVER or NOTHING


@dataclass(frozen=True)
class Base:
    id: str
    name: str
    s: float
    radius: float
    z: float


@dataclass(frozen=True)
class SideView:
    """One shot seen from the side (see the module docstring)."""

    attacker: Base
    target: Base
    pieces: tuple[Span, ...]
    edges: tuple[Span, ...]
    visible: bool
    depends_on_height: bool  # a verdict changes with the heights (R-ELEV-1..5)
    models: tuple[Span, ...] = ()  # other bases on the line (``top``: where they stand)

    @property
    def length(self) -> float:
        return self.target.s

    @property
    def highest(self) -> float:
        tops = [p.top for p in (*self.pieces, *self.edges, *self.models)]
        return max([*tops, self.attacker.z, self.target.z, 0.0])


BOX_H = 190  # pixels
FILLS = {BLOCKS: theme.SIGHT_BLOCKED, COVER: theme.COVER_COUNTED, OVER: (215, 210, 190)}
PLAIN = (120, 116, 108)
FIGURE = 1.2  # inches: how tall a base's marker is drawn (the rules give models no height)


def box_rect(board: Rect, bases_y: tuple[float, float]) -> pygame.Rect:
    """The box: across the board, at its top or bottom, whichever is further from the
    two bases (their screen ``y``)."""
    h = min(BOX_H, board.h // 2)
    top = pygame.Rect(board.x + 8, board.y + 8, board.w - 16, h)
    bottom = pygame.Rect(board.x + 8, board.bottom - h - 8, board.w - 16, h)
    mid = sum(bases_y) / 2
    return bottom if mid < board.y + board.h / 2 else top


def draw_side_view(surface: Any, box: pygame.Rect, sv: SideView,
                   colours: tuple[theme.Colour, theme.Colour]) -> None:
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((18, 20, 24, 235))
    surface.blit(shade, box)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1)
    verdict = "sees" if sv.visible else "does NOT see"
    height = "the verdict depends on height (R-ELEV-1..5)" if sv.depends_on_height else (
        "nothing here depends on height")
    title = f"Side view: {sv.attacker.name} {verdict} {sv.target.name}; {height}"
    surface.blit(theme.text(title, 15, theme.TEXT_GOOD if sv.visible else theme.TEXT_BAD,
                            bold=True), (box.x + 8, box.y + 5))
    pad = 24
    inner = pygame.Rect(box.x + pad, box.y + 30, box.w - 2 * pad, box.h - 52)
    span = sv.length + sv.attacker.radius + sv.target.radius
    # Each axis to its own scale: a shot is long and low; the board's inches across,
    # the heights up to the highest top (the title and labels say the numbers).
    across = inner.w / max(span, 1e-6)
    up = inner.h / (sv.highest + FIGURE + 0.5)
    x0 = inner.x + sv.attacker.radius * across
    ground = inner.bottom

    def at(s: float, z: float) -> tuple[float, float]:
        return (x0 + s * across, ground - z * up)

    pygame.draw.line(surface, theme.TABLE, (inner.x - 8, ground), (inner.right + 8, ground), 2)
    placer = Placer(clip=box.inflate(-4, -4))
    for p in sv.pieces:
        (left, top), (right, _) = at(p.s0, p.top), at(p.s1, 0.0)
        rect = pygame.Rect(round(left), round(top), max(2, round(right - left)),
                           max(2, round(ground - top)))
        pygame.draw.rect(surface, FILLS.get(p.verdict, PLAIN), rect)
        pygame.draw.rect(surface, (20, 20, 20), rect, 1)
        _label(surface, placer, f"{p.id} {p.top:g}\"" + (f": {p.verdict}" if p.verdict else ""),
               (rect.centerx, rect.y - 9), FILLS.get(p.verdict, theme.TEXT_DIM))
    for e in sv.edges:
        x, top = at(e.s0, e.top)
        colour = FILLS.get(e.verdict, theme.SIGNIFICANT_EDGE)
        pygame.draw.line(surface, colour, (x, top), (x, ground), 5 if e.verdict else 3)
        if e.verdict:
            _label(surface, placer, f"{e.id}: {e.verdict}", (x, top - 9), colour)
    for m in sv.models:
        (left, top), (right, bottom) = at(m.s0, m.top + FIGURE), at(m.s1, m.top)
        rect = pygame.Rect(round(left), round(top), max(3, round(right - left)),
                           max(3, round(bottom - top)))
        pygame.draw.rect(surface, theme.NEUTRAL, rect, border_radius=3)
        pygame.draw.rect(surface, FILLS.get(m.verdict, (10, 10, 10)), rect, 2, border_radius=3)
        _label(surface, placer, m.id + (f": {m.verdict}" if m.verdict else ""),
               (rect.centerx, rect.y - 9), FILLS.get(m.verdict, theme.TEXT_DIM))
    for base, colour in zip((sv.attacker, sv.target), colours, strict=True):
        (left, top), (right, bottom) = (at(base.s - base.radius, base.z + FIGURE),
                                        at(base.s + base.radius, base.z))
        rect = pygame.Rect(round(left), round(top), max(3, round(right - left)),
                           max(3, round(bottom - top)))
        pygame.draw.rect(surface, colour, rect, border_radius=3)
        pygame.draw.rect(surface, (10, 10, 10), rect, 1, border_radius=3)
        placer.block(rect)
        _label(surface, placer, f"{base.name} {base.z:g}\"", (rect.centerx, ground + 11),
               theme.TEXT)
    a, b = at(0.0, sv.attacker.z + FIGURE / 2), at(sv.length, sv.target.z + FIGURE / 2)
    dashed_polyline(surface, theme.SIGHT_LINE if sv.visible else theme.SIGHT_BLOCKED, [a, b], 2)


def _label(surface: Any, placer: Placer, text: str, centre: tuple[float, float],
           colour: tuple[int, ...]) -> None:
    img = theme.text(text, 13, colour)
    box = placer.place(img.get_size(), [centre, (centre[0], centre[1] - 14),
                                        (centre[0], centre[1] - 28)])
    surface.blit(img, box)
