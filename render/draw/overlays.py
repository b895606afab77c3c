"""Overlays drawn over the board: sight, cover, range, reach, path ruler.

Each overlay is a frozen value holding geometry already computed by the
engine and the geometry modules (:mod:`render.explain.answers` builds the shot
overlay from :func:`sim.shooting.analysis.analyse`); drawing never decides a rule.

Colours (render/draw/theme.py, docs/window.md): the sight segment found green;
pieces blocking every sight line red; the line of cover white; cover
objects counted orange, ignored light blue, each with its reason as a label;
range bands as rings around the attacker's base (short green, long yellow);
the reachable area blue; a path white when legal, red when not.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import pygame
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from render.draw import theme
from render.draw.areas import display_area
from render.draw.board import dashed_polyline, fill_geometry, outline_geometry
from render.draw.labels import Placer
from render.draw.transform import BoardTransform

Shape: TypeAlias = BaseGeometry | Disc
Segment: TypeAlias = tuple[tuple[float, float], tuple[float, float]]


def draw_shape_outline(
    surface: Any, colour: Sequence[int], shape: Shape, t: BoardTransform, width: int
) -> None:
    """Outline a terrain footprint, an edge, or a base (an exact circle)."""
    if isinstance(shape, Disc):
        centre = t.to_screen(shape.x, shape.y)
        pygame.draw.circle(surface, colour, centre, max(3, round(t.length(shape.r))) + 3, width)
    else:
        outline_geometry(surface, colour, shape, t, width)


def label_box(size: tuple[int, int], pos: tuple[float, float], clip: Any) -> Any:
    """Where a label of ``size`` centred on ``pos`` goes: moved inside ``clip`` (the
    board) when it would stick out, so no label is cut at the board's edge."""
    box = pygame.Rect(0, 0, *size)
    box.center = (round(pos[0]), round(pos[1]))
    if clip is not None and clip.w > box.w + 6 and clip.h > box.h + 2:
        box = box.clamp(pygame.Rect(clip).inflate(-6, -2))
    return box


def _label(surface: Any, text: str, pos: tuple[float, float], colour: Sequence[int],
           size: int = 16) -> Any:
    """Draw a label centred on ``pos`` (kept inside the clip); returns its box."""
    img = theme.text(text, size, colour, bold=True)
    box = label_box(img.get_size(), pos, surface.get_clip())
    bg = pygame.Surface(box.inflate(6, 2).size, pygame.SRCALPHA)
    bg.fill((0, 0, 0, 170))
    surface.blit(bg, box.inflate(6, 2))
    surface.blit(img, box)
    return box.inflate(6, 2)


def _anchors(shape: Shape, t: BoardTransform) -> list[tuple[float, float]]:
    """Where a shape's label may go: just above it, else just below it."""
    if isinstance(shape, Disc):
        x, top = t.to_screen_f(shape.x, shape.y - shape.r)
        bottom = t.to_screen_f(shape.x, shape.y + shape.r)[1]
    else:
        minx, miny, maxx, maxy = shape.bounds
        x, top = t.to_screen_f((minx + maxx) / 2, miny)
        bottom = t.to_screen_f(minx, maxy)[1]
    return [(x, top - 12), (x, bottom + 12)]


def label_clear_of(surface: Any, text: str, shape: Shape, t: BoardTransform,
                   colour: Sequence[int], avoid: tuple[tuple[float, float], ...],
                   taken: list[Any] | None = None, placer: Placer | None = None) -> None:
    """Label a shape above it, or below it, or stacked further up, where the label
    covers neither ``avoid`` (a line), a label in ``taken`` nor anything ``placer`` holds
    (model names and pips, terrain labels: issue 16, bug 8)."""
    clip = surface.get_clip()
    placer = placer or Placer(clip=clip if clip.w else None)
    for box in taken or ():
        placer.block(box)
    if len(avoid) >= 2:
        placer.keep_clear(avoid[0], avoid[1])
    w, h = theme.font(16, bold=True).size(text)
    above, below = _anchors(shape, t)
    spots = [above, below, *((above[0], above[1] - k * (h + 4)) for k in (1, 2, 3)),
             *((below[0], below[1] + k * (h + 4)) for k in (1, 2))]
    box = placer.place((w + 6, h + 2), spots)
    drawn = _label(surface, text, box.center, colour)
    if taken is not None:
        taken.append(drawn)


@dataclass(frozen=True)
class CoverMark:
    """A cover object met by the line of cover, counted or not, and why."""

    id: str
    shape: Shape
    counts: bool
    reason: str


@dataclass(frozen=True)
class ShotOverlay:
    """Sight, line of cover, cover marks and range rings for one attacker/target."""

    attacker: Disc
    target: Disc
    witness: Segment | None
    blocked: tuple[tuple[str, Shape], ...]
    loc: Segment
    cover: tuple[CoverMark, ...]
    rings: tuple[tuple[float, theme.Colour, str], ...]  # radius from centre, colour, label
    labels: bool = True
    pair: tuple[str, str] | None = None  # the attacker's and target's ids (the F6 side view)

    def draw(self, surface: Any, t: BoardTransform) -> None:
        for radius, colour, _ in self.rings:
            c = t.to_screen(self.attacker.x, self.attacker.y)
            pygame.draw.circle(surface, colour, c, round(t.length(radius)), 2)
        for mark in self.cover:
            colour = theme.COVER_COUNTED if mark.counts else theme.COVER_IGNORED
            draw_shape_outline(surface, colour, mark.shape, t, 4 if mark.counts else 3)
        for _, shape in self.blocked:
            draw_shape_outline(surface, theme.SIGHT_BLOCKED, self.blocking_part(shape), t, 4)
        a, b = (t.to_screen_f(*p) for p in self.loc)
        dashed_polyline(surface, theme.LINE_OF_COVER, [a, b], 2, dash=8, gap=5)
        self._draw_witness(surface, t)

    def blocking_part(self, shape: Shape) -> Shape:
        """The stretch of a piece's outline between the two bases (issue 16): a storey
        that blocks with one face is drawn red on that face, not all round."""
        if isinstance(shape, Disc):
            return shape
        a, b = self.attacker, self.target
        corridor = shapely.union_all([shapely.Point(a.x, a.y).buffer(a.r),
                                      shapely.Point(b.x, b.y).buffer(b.r)]).convex_hull
        lines = shape.boundary if shape.geom_type in ("Polygon", "MultiPolygon") else shape
        part = lines.intersection(corridor)
        return part if not part.is_empty else shape

    def draw_top(self, surface: Any, t: BoardTransform, placer: Placer | None = None) -> None:
        """The labels of rings and objects, each where ``placer`` finds room: off the sight
        line and the line of cover, off model names, pips and terrain labels (issue 16)."""
        if not self.labels:
            return
        clip = surface.get_clip()
        if not clip.w:
            clip = surface.get_rect()
        placer = placer or Placer(clip=clip)
        sight = tuple(t.to_screen_f(*p) for p in self.witness) if self.witness else ()
        if sight:
            placer.keep_clear(sight[0], sight[1])
        a, b = (t.to_screen_f(*p) for p in self.loc)
        placer.keep_clear(a, b)
        inner = clip.inflate(-190, -30)
        ax, ay = t.to_screen_f(self.attacker.x, self.attacker.y)
        # Label each ring on a visible stretch, starting from the direction of
        # the board's middle turned aside, at the first spot clear of the lines.
        base = math.atan2(clip.centery - ay, clip.centerx - ax) + 0.6 - math.pi / 2
        for k, (radius, colour, text) in enumerate(self.rings):
            rpx = t.length(radius)
            spots = [(ax + rpx * math.cos(base + 0.2 * k + j * math.tau / 64),
                      ay + rpx * math.sin(base + 0.2 * k + j * math.tau / 64))
                     for j in range(64)]
            spots = [p for p in spots if inner.collidepoint(p)]
            if spots:
                w, h = theme.font(15, bold=True).size(text)
                box = placer.place((w + 6, h + 2), spots)
                _label(surface, text, box.center, colour, 15)
        # One label per object: a piece can block sight and count as cover.
        labels: dict[str, tuple[list[str], Shape, Sequence[int]]] = {}
        for ident, shape in self.blocked:
            labels[ident] = (["blocks sight"], shape, theme.SIGHT_BLOCKED)
        for mark in self.cover:
            colour = theme.COVER_COUNTED if mark.counts else theme.COVER_IGNORED
            words, shape, first = labels.get(mark.id, ([], mark.shape, colour))
            words.append("cover" if mark.counts else "not cover")  # never "ignored" (issue 16)
            labels[mark.id] = (words, shape, first)
        for ident, (words, shape, tint) in labels.items():
            label_clear_of(surface, f"{ident}: {', '.join(words)}", shape, t, tint, (), None,
                           placer)
        self._draw_witness(surface, t)  # over the labels: the sight line is never hidden

    def _draw_witness(self, surface: Any, t: BoardTransform) -> None:
        if self.witness is not None:
            p, q = (t.to_screen_f(*pt) for pt in self.witness)
            pygame.draw.line(surface, theme.SIGHT_LINE, p, q, 4)
            pygame.draw.circle(surface, theme.SIGHT_LINE, p, 4)
            pygame.draw.circle(surface, theme.SIGHT_LINE, q, 4)


@dataclass(frozen=True)
class SightWeb:
    """Debug: every sight segment found (green) or the pair's centres (red, none)."""

    lines: tuple[tuple[Segment, bool], ...]

    def still_key(self) -> Hashable:
        """What its picture depends on: itself (render.draw.board.BoardLayers.still)."""
        return self

    def draw(self, surface: Any, t: BoardTransform) -> None:
        for (p, q), seen in self.lines:
            a, b = t.to_screen_f(*p), t.to_screen_f(*q)
            if seen:
                pygame.draw.line(surface, theme.SIGHT_LINE, a, b, 2)
            else:
                dashed_polyline(surface, theme.SIGHT_BLOCKED, [a, b], 1, dash=4, gap=6)


@dataclass(frozen=True)
class AreaOverlay:
    """A shaded area (the reachable area of a move) with its outline."""

    area: BaseGeometry
    fill: theme.RGBA = theme.REACH_FILL
    edge: theme.Colour = theme.REACH_EDGE

    def still_key(self) -> Hashable:
        """What its picture depends on: itself (render.draw.board.BoardLayers.still)."""
        return self

    def draw(self, surface: Any, t: BoardTransform) -> None:
        """Drawn cleaned at display resolution (render.draw.areas); the window's frame
        blits the same picture kept in its BoardLayers instead."""
        clean = display_area(self.area, t.scale)
        fill_geometry(surface, self.fill, clean, t)
        outline_geometry(surface, self.edge, clean, t, 1)


@dataclass(frozen=True)
class EdgesOverlay:
    """Lines to emphasise (significant edges in the debug view)."""

    edges: tuple[BaseGeometry, ...]
    colour: theme.Colour = theme.SIGNIFICANT_EDGE

    def still_key(self) -> Hashable:
        """What its picture depends on: itself (render.draw.board.BoardLayers.still)."""
        return self

    def draw(self, surface: Any, t: BoardTransform) -> None:
        for e in self.edges:
            outline_geometry(surface, self.colour, e, t, 4)


@dataclass(frozen=True)
class PathOverlay:
    """A move path being set up: legs, the ruler readout, the end base preview."""

    points: tuple[tuple[float, float], ...]
    radius: float
    ok: bool
    text: str  # e.g. '5.20 / 6 in (red, shorter: difficult rubble)'
    reason: str = ""  # the engine's reason when the path is not legal
    steps: tuple[tuple[float, float, str], ...] = ()  # climbs and jumps: where, what
    # The pointer: the next waypoint if clicked, drawn apart (dashed, an empty
    # ring) from the committed path Enter would apply (issue 16, bug 1).
    pointer: tuple[float, float] | None = None
    pointer_ok: bool = True
    pointer_via: tuple[tuple[float, float], ...] = ()  # a click's route bends (issue 34)

    def draw(self, surface: Any, t: BoardTransform) -> None:
        colour = theme.PATH_OK if self.ok else theme.PATH_BAD
        if self.pointer is not None and self.points:
            tip = theme.PATH_OK if self.pointer_ok else theme.PATH_BAD
            seg = [t.to_screen_f(*p) for p in (self.points[-1], *self.pointer_via, self.pointer)]
            dashed_polyline(surface, tip, seg, 1, dash=6, gap=5)
            pygame.draw.circle(surface, tip, seg[-1], max(3, round(t.length(self.radius))), 1)
        for x, y, _ in self.steps:
            pygame.draw.circle(surface, colour, t.to_screen(x, y), 6, 2)
        if len(self.points) < 2:
            return
        pts = [t.to_screen_f(*p) for p in self.points]
        pygame.draw.lines(surface, colour, False, pts, 3)
        for p in pts[1:-1]:
            pygame.draw.circle(surface, colour, p, 4)
        end = pts[-1]
        r = max(3, round(t.length(self.radius)))
        ghost = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)  # the base's box only
        pygame.draw.circle(ghost, (*colour, 90), (r + 1, r + 1), r)
        surface.blit(ghost, (round(end[0]) - r - 1, round(end[1]) - r - 1))
        pygame.draw.circle(surface, colour, end, max(3, round(t.length(self.radius))), 2)

    def draw_top(self, surface: Any, t: BoardTransform, placer: Placer | None = None) -> None:
        """The ghost base's ring over the bases (a climb in place ends under the model's
        own base: issue 34, bug 6), then step labels under their spots and the ruler over
        the path's end, each where ``placer`` finds room (off model names and pips)."""
        clip = surface.get_clip()
        placer = placer or Placer(clip=clip if clip.w else None)
        if len(self.points) >= 2 or self.steps:
            end = t.to_screen_f(*(self.points[-1] if self.points else self.steps[-1][:2]))
            ring = max(3, round(t.length(self.radius))) + 3
            colour = theme.PATH_OK if self.ok else theme.PATH_BAD
            dashed_polyline(surface, colour, [(end[0] + ring * math.cos(a * math.tau / 24),
                                               end[1] + ring * math.sin(a * math.tau / 24))
                                              for a in range(25)], 2, dash=5, gap=4)
        for i, (x, y, words) in enumerate(self.steps):
            sx, sy = t.to_screen_f(x, y)
            w, h = theme.font(15, bold=True).size(words)
            box = placer.place((w + 6, h + 2), [(sx, sy + 14 + 16 * i), (sx, sy - 14 - 16 * i)])
            _label(surface, words, box.center, theme.PATH_OK, 15)
        if self.points and self.text:
            x, y = t.to_screen_f(*self.points[-1])
            r = t.length(self.radius)
            w, h = theme.font(16, bold=True).size(self.text)
            side = w / 2 + r + 8
            spots = [(x + dx, y + sign * (r + 14 + k * (h + 4)))
                     for k in range(5) for dx in (0.0, side, -side) for sign in (-1, 1)]
            box = placer.place((w + 6, h + 2), spots)
            _label(surface, self.text, box.center, theme.PATH_OK if self.ok else theme.PATH_BAD)
