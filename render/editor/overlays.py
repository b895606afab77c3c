"""What the editor draws over the board: the selection, the problems, a shape being drawn.

Drawn with the board's own functions (render.draw.board, render.draw.overlays):
the selected piece gets a white outline, a piece or model the loader finds
a problem on a red one with a ``!``, and a shape being drawn a dashed white
outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame
import shapely

from geometry.discs import Disc
from render.draw import theme
from render.draw.board import dashed_polyline, draw_piece, screen_points
from render.draw.labels import Placer
from render.draw.overlays import Shape, draw_shape_outline, label_box
from render.draw.transform import BoardTransform
from sim.scenario.objects import Point, Scenario, TerrainPiece

PROBLEM = (230, 40, 40)
PENDING = (255, 255, 255)


def shape_of(s: Scenario, ident: str) -> Shape | None:
    """The outline of the piece or the base of the model ``ident``."""
    if ident in s.model_ids:
        m = s.model(ident)
        try:
            return Disc(m.at[0], m.at[1], s.radius_of(ident))
        except KeyError:  # a unit the draft does not have (the loader says so)
            return None
    try:
        return s.piece(ident).footprint
    except (KeyError, ValueError, shapely.errors.GEOSException):
        return None


@dataclass(frozen=True)
class Outlined:
    """Shapes outlined in one colour, a tag beside each when ``tag`` is set."""

    shapes: tuple[Shape, ...]
    colour: tuple[int, int, int]
    width: int = 3
    tag: str = ""

    def draw(self, surface: Any, t: BoardTransform) -> None:
        for shape in self.shapes:
            draw_shape_outline(surface, self.colour, shape, t, self.width)

    def draw_top(self, surface: Any, t: BoardTransform, placer: Placer | None = None) -> None:
        """The tag beside each shape (not placed: it names the shape it sits on)."""
        if not self.tag:
            return
        for shape in self.shapes:
            if isinstance(shape, Disc):
                x, y = shape.x + shape.r, shape.y - shape.r
            else:
                x, y = shape.bounds[2], shape.bounds[1]
            img = theme.text(self.tag, 18, (255, 255, 255), bold=True)
            size = img.get_rect().inflate(8, 2).size
            box = label_box(size, t.to_screen(x, y), surface.get_clip())  # kept on the board
            pygame.draw.rect(surface, self.colour, box, border_radius=4)
            surface.blit(img, img.get_rect(center=box.center))


@dataclass(frozen=True)
class Ghost:
    """A piece being dragged, drawn where it would land (the board's own piece drawing)."""

    piece: TerrainPiece

    def draw(self, surface: Any, t: BoardTransform) -> None:
        draw_piece(surface, self.piece, t)
        draw_shape_outline(surface, PENDING, self.piece.footprint, t, 2)


@dataclass(frozen=True)
class Pending:
    """A shape being drawn: the polygon's points so far (and the pointer), or a preview."""

    points: tuple[Point, ...] = ()
    pointer: Point | None = None
    preview: Shape | None = None

    def draw(self, surface: Any, t: BoardTransform) -> None:
        if self.preview is not None:
            draw_shape_outline(surface, PENDING, self.preview, t, 2)
        pts = [*self.points, *([self.pointer] if self.pointer and self.points else [])]
        if len(pts) >= 2:
            dashed_polyline(surface, PENDING, screen_points(t, pts), 2)
        for p in self.points:
            pygame.draw.circle(surface, PENDING, t.to_screen(*p), 4)


def outlined(s: Scenario, idents: Sequence[str], colour: tuple[int, int, int], width: int = 3,
             tag: str = "") -> Outlined:
    shapes = tuple(sh for i in idents if (sh := shape_of(s, i)) is not None)
    return Outlined(shapes, colour, width, tag)
