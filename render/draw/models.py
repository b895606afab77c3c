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
from render.draw.labels import Placer
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


def _base(surface: Any, scene: Scene, m: ModelView, t: BoardTransform, selected: bool) -> None:
    """The base itself: a disc (or a dashed ring while climbing) and the white ring."""
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


def _marks(surface: Any, m: ModelView, t: BoardTransform, name_box: pygame.Rect) -> None:
    """Name, readiness tag, height tag, health pips and the climbing tag, over every base."""
    cx, cy = t.to_screen(m.x, m.y)
    r = max(3, round(t.length(m.radius)))
    size = label_size(t)
    surface.blit(theme.text(m.id, size, (0, 0, 0), bold=True), name_box.move(1, 1))
    surface.blit(theme.text(m.id, size, (255, 255, 255), bold=True), name_box)
    if m.readiness == "ready":
        _tag(surface, "R", theme.READY_MARK, (cx + r, cy - r), size)
    elif m.readiness == "used":
        _tag(surface, "U", theme.USED_MARK, (cx + r, cy - r), size)
    if m.z > 0:
        # Up and left of the base, clear of the id label across its middle.
        _tag(surface, f'^{m.z:g}"', (240, 240, 240), (cx - r, cy - r - 4), max(14, size))
    clip = surface.get_clip()
    _draw_health(surface, m, pip_row(m, t, clip if clip.w else None))
    if m.climbing:
        _tag(surface, "climbing", (240, 200, 120), (cx, cy + r + 16), max(12, size - 2))


def draw_model(
    surface: Any, scene: Scene, m: ModelView, t: BoardTransform, selected: bool = False,
    label_at: tuple[int, int] | None = None,
) -> None:
    """One model; ``selected`` adds a white ring (the active or picked model);
    ``label_at`` moves its id label (see :func:`label_spots`)."""
    if not m.on_board:
        return
    _base(surface, scene, m, t, selected)
    w, h = theme.font(label_size(t), bold=True).size(m.id)
    box = pygame.Rect(0, 0, w, h)
    box.center = label_at if label_at is not None else t.to_screen(m.x, m.y)
    _marks(surface, m, t, box)


def pip_row(m: ModelView, t: BoardTransform, clip: pygame.Rect | None = None) -> pygame.Rect:
    """The box of a model's health pips: under its base, or over it when the board's
    edge (``clip``) would cut them, moved sideways inside the board (issue 34, bug 3)."""
    cx, cy = t.to_screen(m.x, m.y)
    r = max(3, round(t.length(m.radius)))
    n = max(1, m.max_health)
    row = pygame.Rect(cx - n * (pip_width(m) + 1) // 2, cy + r + 5, n * (pip_width(m) + 1), 4)
    if clip is None:
        return row
    if row.bottom > clip.bottom - 1:
        row.y = cy - r - 9
    return row.clamp(clip) if clip.w >= row.w and clip.h >= row.h else row


def pip_width(m: ModelView) -> int:
    return 6 if max(1, m.max_health) <= 8 else 4


def _draw_health(surface: Any, m: ModelView, row: pygame.Rect) -> None:
    """Health pips in ``row``: green for each point left, dark for each lost."""
    pip = pip_width(m)
    for i in range(max(1, m.max_health)):
        colour = (70, 210, 90) if i < m.health else (60, 30, 30)
        pygame.draw.rect(surface, colour, (row.x + i * (pip + 1), row.y, pip, 4))


def mark_boxes(m: ModelView, t: BoardTransform, clip: pygame.Rect | None = None
               ) -> list[pygame.Rect]:
    """Screen boxes of a model's pips and tags, which no label may cover."""
    cx, cy = t.to_screen(m.x, m.y)
    r = max(3, round(t.length(m.radius)))
    out = [pip_row(m, t, clip)]
    size = label_size(t)
    if m.readiness != "unready":
        out.append(pygame.Rect(cx + r - size // 2, cy - r - size // 2, size, size))
    if m.z > 0:
        out.append(pygame.Rect(cx - r - 2 * size, cy - r - 4 - size // 2, 2 * size, size))
    return out


def draw_models(
    surface: Any, scene: Scene, t: BoardTransform, highlight: frozenset[str] = frozenset(),
    placer: Placer | None = None,
) -> Placer:
    """Every model on the board, the active one and ``highlight`` ringed.

    Every base first, then every mark over them, so pips and names of a base
    in contact with another are never hidden under it (issue 16, bug 8).
    Names go where ``placer`` finds room (terrain labels, pips and other
    names taken); the placer is handed back for the overlays' labels.
    """
    draw_bases(surface, scene, t, highlight)
    return draw_marks(surface, scene, t, placer)


def draw_bases(surface: Any, scene: Scene, t: BoardTransform,
               highlight: frozenset[str] = frozenset()) -> list[pygame.Rect]:
    """Every base on the board; their screen boxes."""
    out = []
    for m in scene.models:
        if m.on_board:
            _base(surface, scene, m, t, m.id == scene.active_model or m.id in highlight)
            cx, cy = t.to_screen(m.x, m.y)
            r = max(3, round(t.length(m.radius)))
            out.append(pygame.Rect(cx - r, cy - r, 2 * r, 2 * r))
    return out


def draw_marks(surface: Any, scene: Scene, t: BoardTransform, placer: Placer | None = None
               ) -> Placer:
    """Names, tags and pips of every model, over every base (see :func:`draw_models`)."""
    placer = placer or Placer()
    boxes = label_boxes(scene, t, placer)
    for m in scene.models:
        if m.on_board:
            _marks(surface, m, t, boxes[m.id])
    return placer


def label_boxes(scene: Scene, t: BoardTransform, placer: Placer) -> dict[str, pygame.Rect]:
    """Each model's name box: on its base, else under its pips, above it, beside it.

    The pips and tags of every model are taken first; each name then takes
    the first free spot (a gap of :data:`LABEL_GAP` kept between names).
    """
    shown = [m for m in scene.models if m.on_board]
    for m in shown:
        for box in mark_boxes(m, t, placer.clip):
            placer.block(box)
    size = label_size(t)
    out: dict[str, pygame.Rect] = {}
    for m in shown:
        cx, cy = t.to_screen(m.x, m.y)
        r = max(3, round(t.length(m.radius)))
        w, h = theme.font(size, bold=True).size(m.id)
        spots = [(cx, cy), (cx, cy + r + 11 + h // 2), (cx, cy - r - 4 - h // 2),
                 (cx + r + 4 + w // 2, cy), (cx - r - 4 - w // 2, cy),
                 *((cx, cy + r + 11 + h // 2 + k * h) for k in (1, 2))]
        out[m.id] = placer.place((w, h), spots, pad=LABEL_GAP // 2)
    return out


def label_spots(scene: Scene, t: BoardTransform) -> dict[str, tuple[int, int]]:
    """Label centres as :func:`draw_models` places them (no terrain labels taken)."""
    return {i: box.center for i, box in label_boxes(scene, t, Placer()).items()}


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
