"""Objectives and the running score (R-OBJ-1..6): zones, markers and cargo on the board,
each tinted by the side that holds it now, and the score in the board's corner.

A pure function of the scene (render.scene.ObjectiveView), like the rest of drawing.
"""

from __future__ import annotations

from typing import Any

import pygame

from render.draw import theme
from render.draw.layout import Rect
from render.draw.transform import BoardTransform
from render.scene import ObjectiveView, Scene
from sim.scenario.names import display_names

#: Objectives held by nobody are drawn in this colour.
FREE = theme.OBJECTIVE_FREE
ZONE_ALPHA = 55
INK = (30, 30, 30)
TAB = (245, 235, 205)
EXIT_BAND = 5  # px: a side's cargo exit drawn along its board edge


def _colour(scene: Scene, side: str | None) -> tuple[int, int, int]:
    if side is None:
        return FREE
    r, g, b = theme.side_colour(scene.side_index(side), False)[:3]
    return (r, g, b)


def draw_objectives(surface: Any, scene: Scene, t: BoardTransform) -> None:
    """Every objective under the bases: a zone's circle, a marker's ring of reach, a
    cargo crate (on its carrier when carried), each with its id and points; and each
    side's cargo exit, a band in its colour along that edge (R-OBJ-4)."""
    _draw_exits(surface, scene, t)
    for o in scene.objectives:
        side, cx, cy = o.holder, *t.to_screen(o.x, o.y)
        carrier = next((m for m in scene.models if m.id == o.carrier), None)
        if carrier is not None:  # beside its carrier's base, clear of it
            side, lean = carrier.side, round(t.length(carrier.radius))
            cx, cy = cx + lean, cy - lean
        colour = _colour(scene, side)
        reach = max(2, round(t.length(o.reach)))
        if o.kind == "zone":
            _disc(surface, colour, (cx, cy), reach)
            pygame.draw.circle(surface, colour, (cx, cy), reach, 2)
        elif o.kind == "marker":
            pygame.draw.circle(surface, colour, (cx, cy), reach, 2)
            _diamond(surface, colour, cx, cy, max(5, round(t.length(0.45))))
        else:
            _crate(surface, colour, cx, cy, max(5, round(t.length(0.4))))
        _label(surface, o, cx, cy - (reach if o.kind == "zone" else 10) - 8)


def cargo_exits(scene: Scene) -> list[tuple[str, str]]:
    """Each (side, edge) some cargo may be carried off by (R-OBJ-4), once, in order."""
    out: list[tuple[str, str]] = []
    for o in scene.scenario.objectives:
        for side, edge in o.exits.items() if o.kind == "cargo" else ():
            if (side, edge) not in out:
                out.append((side, edge))
    return out


def _draw_exits(surface: Any, scene: Scene, t: BoardTransform) -> None:
    w, h = scene.scenario.board
    ends = {"north": ((0.0, 0.0), (w, 0.0)), "south": ((0.0, h), (w, h)),
            "west": ((0.0, 0.0), (0.0, h)), "east": ((w, 0.0), (w, h))}
    for side, edge in cargo_exits(scene):
        a, b = (t.to_screen(*p) for p in ends[edge])
        band = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(b[0] - a[0]) or EXIT_BAND,
                           abs(b[1] - a[1]) or EXIT_BAND)  # just inside the edge
        if edge == "south":
            band.bottom = a[1]
        elif edge == "east":
            band.right = a[0]
        pygame.draw.rect(surface, _colour(scene, side), band)


def _disc(surface: Any, colour: tuple[int, int, int], at: tuple[int, int], r: int) -> None:
    """A translucent filled circle (the zone's area)."""
    tile = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(tile, (*colour, ZONE_ALPHA), (r + 1, r + 1), r)
    surface.blit(tile, (at[0] - r - 1, at[1] - r - 1))


def _diamond(surface: Any, colour: tuple[int, int, int], x: int, y: int, r: int) -> None:
    points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, theme.TEXT, points, 1)


def _crate(surface: Any, colour: tuple[int, int, int], x: int, y: int, r: int) -> None:
    """A square crate with a cross."""
    box = pygame.Rect(x - r, y - r, 2 * r, 2 * r)
    pygame.draw.rect(surface, colour, box)
    pygame.draw.rect(surface, theme.TEXT, box, 1)
    pygame.draw.line(surface, theme.TEXT, box.topleft, box.bottomright, 1)
    pygame.draw.line(surface, theme.TEXT, box.topright, box.bottomleft, 1)


def _label(surface: Any, o: ObjectiveView, x: int, y: int) -> None:
    """The id and points, dark on a light tab (readable on the board's sand)."""
    img = theme.text(f"{o.id} ({o.points})", 14, INK, bold=True)
    box = pygame.Rect(0, 0, img.get_width() + 6, img.get_height() + 2)
    box.center = (x, y)
    pygame.draw.rect(surface, TAB, box)
    surface.blit(img, (box.x + 3, box.y + 1))


def draw_score(surface: Any, board: Rect, scene: Scene) -> None:
    """The running score (R-OBJ-6) in the board's top-right corner, side by side."""
    if not scene.scores:
        return
    name = display_names(scene.scenario).side
    parts = [theme.text(f"{name(side)} {n}", 16, _colour(scene, side), bold=True)
             for side, n in scene.scores]
    title = theme.text("Score", 16, theme.TEXT, bold=True)
    width = title.get_width() + sum(p.get_width() + 12 for p in parts) + 12
    height = title.get_height() + 8
    x, y = board.x + board.w - width - 6, board.y + 6
    pygame.draw.rect(surface, theme.BACKGROUND, (x, y, width, height))
    pygame.draw.rect(surface, theme.TEXT_DIM, (x, y, width, height), 1)
    x += 6
    for img in (title, *parts):
        surface.blit(img, (x, y + 4))
        x += img.get_width() + 12
