"""Models: bases to scale in side colours, labels, readiness, health, states.

A base is drawn as its exact circle scaled to the board (R-BASE-1). Marks:
a yellow ``R`` tag for Ready, a grey ``U`` tag for Used (none for Unready,
R-TURN-1); health as pips under the base; a climbing model (R-CLIMB-3) as
a dashed hollow ring at its marked position; a model's height above the
table as ``^6"``. Models off the table or removed are not drawn on the
board; the side panel lists them.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from render.draw import theme
from render.draw.board import dashed_polyline
from render.draw.transform import BoardTransform
from render.scene import ModelView, Scene


def model_colour(scene: Scene, m: ModelView) -> theme.Colour:
    side = scene.scenario.sides.get(m.side)
    return theme.side_colour(scene.side_index(m.side), bool(side and side.neutral))


def _tag(surface: Any, text: str, colour: theme.Colour, centre: tuple[int, int], size: int) -> None:
    img = theme.text(text, size, (0, 0, 0), bold=True)
    box = img.get_rect(center=centre).inflate(4, 0)
    pygame.draw.rect(surface, colour, box, border_radius=3)
    pygame.draw.rect(surface, (0, 0, 0), box, 1, border_radius=3)
    surface.blit(img, img.get_rect(center=box.center))


LABEL_GAP = 10  # pixels kept between two model labels on one line


def label_size(t: BoardTransform) -> int:
    """Font size of the model labels at this scale."""
    return max(13, min(20, int(t.scale * 0.6)))


def draw_model(
    surface: Any, scene: Scene, m: ModelView, t: BoardTransform, selected: bool = False,
    label_at: tuple[int, int] | None = None,
) -> None:
    """One model; ``selected`` adds a white ring (the active or picked model);
    ``label_at`` moves its id label (see :func:`label_spots`)."""
    if not m.on_board:
        return
    cx, cy = t.to_screen(m.x, m.y)
    r = max(3, round(t.length(m.radius)))
    colour = model_colour(scene, m)
    if m.climbing:
        ring = [
            (cx + r * math.cos(a / 24 * math.tau), cy + r * math.sin(a / 24 * math.tau))
            for a in range(25)
        ]
        dashed_polyline(surface, colour, ring, 3, dash=5, gap=4)
    else:
        pygame.draw.circle(surface, colour, (cx, cy), r)
        pygame.draw.circle(surface, (10, 10, 10), (cx, cy), r, 2)
    if selected:
        pygame.draw.circle(surface, theme.SELECTED, (cx, cy), r + 4, 2)
    size = label_size(t)
    label = theme.text(m.id, size, (255, 255, 255), bold=True)
    box = label.get_rect(center=label_at if label_at is not None else (cx, cy))
    shadow = theme.text(m.id, size, (0, 0, 0), bold=True)
    surface.blit(shadow, box.move(1, 1))
    surface.blit(label, box)
    if m.readiness == "ready":
        _tag(surface, "R", theme.READY_MARK, (cx + r, cy - r), size)
    elif m.readiness == "used":
        _tag(surface, "U", theme.USED_MARK, (cx + r, cy - r), size)
    if m.z > 0:
        # Up and left of the base, clear of the id label across its middle.
        _tag(surface, f'^{m.z:g}"', (240, 240, 240), (cx - r, cy - r - 4), max(14, size))
    _draw_health(surface, m, cx, cy + r + 5)
    if m.climbing:
        _tag(surface, "climbing", (240, 200, 120), (cx, cy + r + 16), max(12, size - 2))


def _draw_health(surface: Any, m: ModelView, cx: int, y: int) -> None:
    """Health pips: green for each point left, dark for each lost."""
    n = max(1, m.max_health)
    pip = 6 if n <= 8 else 4
    w = n * (pip + 1)
    x0 = cx - w // 2
    for i in range(n):
        colour = (70, 210, 90) if i < m.health else (60, 30, 30)
        pygame.draw.rect(surface, colour, (x0 + i * (pip + 1), y, pip, 4))


def draw_models(
    surface: Any, scene: Scene, t: BoardTransform, highlight: frozenset[str] = frozenset()
) -> None:
    """Every model on the board, the active one and ``highlight`` ringed."""
    spots = label_spots(scene, t)
    for m in scene.models:
        draw_model(surface, scene, m, t, m.id == scene.active_model or m.id in highlight,
                   spots.get(m.id))


def label_spots(scene: Scene, t: BoardTransform) -> dict[str, tuple[int, int]]:
    """Label centres: on the base, or under it when that would overlap an earlier label.

    Close bases (a sniper at a roof's edge and the mutant below) would print
    their ids over one another; a later label drops under its base, then
    further down, until it is clear.
    """
    size = label_size(t)
    placed: list[Any] = []
    out: dict[str, tuple[int, int]] = {}
    for m in scene.models:
        if not m.on_board:
            continue
        cx, cy = t.to_screen(m.x, m.y)
        r = max(3, round(t.length(m.radius)))
        w, h = theme.font(size, bold=True).size(m.id)
        spot = (cx, cy)
        for k in range(4):
            box = pygame.Rect(0, 0, w + LABEL_GAP, h)  # a gap: ids must not run together
            box.center = spot
            if box.collidelist(placed) < 0:
                break
            spot = (cx, cy + r + 11 + h // 2 + k * h)  # under the health pips
        placed.append(pygame.Rect(0, 0, w + LABEL_GAP, h).move(
            spot[0] - (w + LABEL_GAP) // 2, spot[1] - h // 2))
        out[m.id] = spot
    return out


def model_at(scene: Scene, x: float, y: float, slack: float = 0.0) -> str | None:
    """The id of the model whose base covers board point ``(x, y)``, if any.

    ``slack`` (inches) widens bases so small ones can be clicked; the nearest
    centre wins when several match.
    """
    best: tuple[float, str] | None = None
    for m in scene.models:
        if not m.on_board:
            continue
        d = math.hypot(m.x - x, m.y - y)
        if d <= m.radius + slack and (best is None or d < best[0]):
            best = (d, m.id)
    return None if best is None else best[1]
