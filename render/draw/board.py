"""The board: table, terrain by class, heights, significant edges, legend.

Terrain is drawn by class (R-TER-1): the fill says how it moves (normal,
difficult hatched, impassable dark), translucent green marks area terrain
(darker when dense), a thick black outline marks sight-blocking pieces, a
dashed orange outline climbable faces, a yellow dot cover, and a label the
height. A ``*`` after the height says the piece differs for some models
(R-TER-2). The same table, :data:`render.draw.theme.TERRAIN_LEGEND`, draws the
legend.

The terrain never changes during a game, so it is drawn once per window size
into a surface (:func:`board_layer`) that the window's :class:`BoardLayers`
keeps; a frame only blits it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import pygame
import shapely
from shapely.geometry.base import BaseGeometry

from render.draw import theme
from render.draw.areas import display_area
from render.draw.labels import Placer
from render.draw.layout import Rect
from render.draw.theme import LegendEntry
from render.draw.transform import BoardTransform
from sim.scenario.objects import Scenario, TerrainPiece

HATCH_PX = 9.0  # spacing of the difficult-ground hatching, pixels


def rings_of(
    geom: BaseGeometry,
) -> list[tuple[list[tuple[float, float]], list[list[tuple[float, float]]]]]:
    """Exterior and interior rings of every polygon in ``geom``."""
    out = []
    for poly in getattr(geom, "geoms", [geom]):
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        out.append((list(poly.exterior.coords), [list(r.coords) for r in poly.interiors]))
    return out


def screen_points(
    t: BoardTransform, coords: Iterable[tuple[float, ...]]
) -> list[tuple[float, float]]:
    return [t.to_screen_f(c[0], c[1]) for c in coords]


def fill_geometry(
    surface: Any, colour: Sequence[int], geom: BaseGeometry, t: BoardTransform
) -> None:
    """Fill polygons (holes included) with ``colour``; alpha is honoured."""
    if len(colour) == 4 and colour[3] < 255:
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        fill_geometry(layer, (*colour[:3], 255), geom, t)
        layer.set_alpha(colour[3])
        surface.blit(layer, (0, 0))
        return
    for ext, holes in rings_of(geom):
        if not holes:
            pygame.draw.polygon(surface, colour[:3], screen_points(t, ext))
            continue
        # pygame has no holes: draw the polygon on a mask surface, cut holes out.
        mask = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(mask, (*colour[:3], 255), screen_points(t, ext))
        for hole in holes:
            pygame.draw.polygon(mask, (0, 0, 0, 0), screen_points(t, hole))
        surface.blit(mask, (0, 0))


def outline_geometry(
    surface: Any, colour: Sequence[int], geom: BaseGeometry, t: BoardTransform, width: int
) -> None:
    """Draw every ring (or line) of ``geom``."""
    for part in getattr(geom, "geoms", [geom]):
        if part.is_empty:
            continue
        if part.geom_type == "Polygon":
            for ring in [part.exterior, *part.interiors]:
                pygame.draw.lines(surface, colour, True, screen_points(t, ring.coords), width)
        elif part.geom_type in ("LineString", "LinearRing"):
            pygame.draw.lines(surface, colour, False, screen_points(t, part.coords), width)
        elif part.geom_type == "Point":
            pygame.draw.circle(surface, colour, t.to_screen(part.x, part.y), max(2, width))
        else:
            outline_geometry(surface, colour, part, t, width)


def dashed_polyline(
    surface: Any,
    colour: Sequence[int],
    pts: Sequence[tuple[float, float]],
    width: int,
    dash: float = 7.0,
    gap: float = 5.0,
) -> None:
    """A dashed line through screen points ``pts``."""
    on, left = True, dash
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        seg = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        pos = 0.0
        while seg > 0 and pos < seg:
            step = min(left, seg - pos)
            a = (x0 + (x1 - x0) * pos / seg, y0 + (y1 - y0) * pos / seg)
            b = (x0 + (x1 - x0) * (pos + step) / seg, y0 + (y1 - y0) * (pos + step) / seg)
            if on:
                pygame.draw.line(surface, colour, a, b, width)
            pos += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap


def hatch_lines(geom: BaseGeometry, spacing: float) -> BaseGeometry:
    """Diagonal hatching lines clipped exactly to ``geom`` (board inches)."""
    minx, miny, maxx, maxy = geom.bounds
    span = (maxx - minx) + (maxy - miny)
    lines = []
    c = -span
    while c <= span:
        lines.append([(minx + c, miny), (minx + c + span, miny + span)])
        c += spacing
    return shapely.MultiLineString(lines).intersection(geom)


def draw_table(surface: Any, board: tuple[float, float], t: BoardTransform) -> None:
    """The bare table with a light 1-inch grid and a stronger 6-inch grid."""
    w, h = board
    tl, br = t.to_screen(0, 0), t.to_screen(w, h)
    pygame.draw.rect(surface, theme.TABLE, (*tl, br[0] - tl[0], br[1] - tl[1]))
    step = 1 if t.scale >= 8 else 6
    for i in range(0, int(w) + 1, step):
        colour = theme.TABLE_GRID if i % 6 else (165, 152, 118)
        pygame.draw.line(surface, colour, t.to_screen(i, 0), t.to_screen(i, h))
    for j in range(0, int(h) + 1, step):
        colour = theme.TABLE_GRID if j % 6 else (165, 152, 118)
        pygame.draw.line(surface, colour, t.to_screen(0, j), t.to_screen(w, j))
    pygame.draw.rect(surface, (60, 50, 35), (*tl, br[0] - tl[0], br[1] - tl[1]), 2)


TERRAIN_FILLS: dict[str, theme.Colour] = {  # by how a piece moves (R-TER-1)
    "normal": theme.TERRAIN_NORMAL,
    "difficult": theme.TERRAIN_DIFFICULT,
    "impassable": theme.TERRAIN_IMPASSABLE,
}
STOREY_LIGHT: theme.Colour = (235, 230, 220)  # what a very high roof's fill tends to
STOREY_SPAN = 12.0  # inches of height over which the fill lightens


def storey_shade(colour: theme.Colour, height: float) -> theme.Colour:
    """The fill of a piece lightened with its height, so storeys at different
    heights never share one grey (issue 16); the label still gives the height."""
    k = 0.5 * min(1.0, max(0.0, height) / STOREY_SPAN)
    r, g, b = (round(c + (light - c) * k) for c, light in zip(colour, STOREY_LIGHT, strict=True))
    return (r, g, b)


def draw_piece(surface: Any, piece: TerrainPiece, t: BoardTransform) -> None:
    """One terrain piece, by class (see the module docstring)."""
    p, geom = piece.props, piece.footprint
    if not p.area or p.movement != "normal":
        fill_geometry(surface, storey_shade(TERRAIN_FILLS[p.movement], p.height), geom, t)
    if p.area:
        fill_geometry(surface, theme.TERRAIN_DENSE if p.dense else theme.TERRAIN_AREA, geom, t)
    if p.movement == "difficult":
        hatch = hatch_lines(geom, HATCH_PX / t.scale)
        outline_geometry(surface, (95, 70, 40), hatch, t, 1)
    if p.blocks_los:
        outline_geometry(surface, theme.TERRAIN_LOS_EDGE, geom, t, 4)
    else:
        outline_geometry(surface, (80, 70, 55), geom, t, 1)
    if p.climbable:
        inner = geom.buffer(-2.5 / t.scale)
        target = inner if not inner.is_empty else geom
        for ext, holes in rings_of(target):
            for ring in [ext, *holes]:
                dashed_polyline(surface, theme.TERRAIN_CLIMBABLE, screen_points(t, ring), 2)


def piece_label_text(piece: TerrainPiece) -> str:
    """A piece's height label: its height, ``*`` when it differs for some models (R-TER-2)."""
    text = f'{piece.props.height:g}"' if piece.props.height > 0 else ""
    return text + ("*" if piece.overrides else "")


def label_anchor(piece: TerrainPiece, higher: Sequence[TerrainPiece]) -> tuple[float, float]:
    """Where a piece's label goes: inside the part no higher piece covers (a lower
    storey's label is not hidden by, or printed on, the storey above it)."""
    geom = piece.footprint
    over = [h.footprint for h in higher if h.footprint.intersects(geom)]
    if over:
        rest = geom.difference(shapely.union_all(over))
        if not rest.is_empty and rest.area > 0.05 * geom.area:
            geom = rest
    p = geom.representative_point()
    return (p.x, p.y)


PieceLabel = tuple[TerrainPiece, str, Any]  # a piece, its label text, its screen box


def piece_label_boxes(scenario: Scenario, t: BoardTransform) -> list[PieceLabel]:
    """Each labelled piece, its text and its screen box (the cover dot to its right),
    placed so no two labels overlap."""
    pieces = sorted(scenario.terrain, key=lambda pc: (pc.props.area, pc.props.height))
    placer = Placer()
    size = max(13, int(t.scale * 0.55))
    out = []
    for i, piece in enumerate(pieces):
        text = piece_label_text(piece)
        if not text and not piece.props.cover:
            continue
        higher = [h for h in pieces[i + 1:] if h.props.height > piece.props.height]
        x, y = t.to_screen_f(*label_anchor(piece, higher))
        w, h = theme.font(size).size(text) if text else (0, 0)
        w += 4 + (2 * _dot(t) + 6 if piece.props.cover else 0)
        spots = [(x, y), (x, y - h - 3), (x, y + h + 3), (x + w, y), (x - w, y)]
        out.append((piece, text, placer.place((w, h + 2), spots)))
    return out


def _dot(t: BoardTransform) -> int:
    return 5 if t.scale >= 10 else 3


def draw_piece_label(surface: Any, piece: TerrainPiece, text: str, box: Any,
                     t: BoardTransform) -> None:
    """Height label (with ``*`` when overridden per model) and the cover dot, in ``box``."""
    dot = _dot(t)
    x, y = box.x, box.centery
    if text:
        img = theme.text(text, max(13, int(t.scale * 0.55)), theme.HEIGHT_LABEL)  # kept
        tag = img.get_rect(midleft=(x + 2, y))
        pygame.draw.rect(surface, (245, 245, 235), tag.inflate(4, 2))
        surface.blit(img, tag)
        x = tag.right + dot + 4
    else:
        x += dot + 2
    if piece.props.cover:
        pygame.draw.circle(surface, theme.TERRAIN_COVER, (x, y), dot)
        pygame.draw.circle(surface, (40, 30, 0), (x, y), dot, 1)


def draw_significant_edges(surface: Any, edges: Iterable[BaseGeometry], t: BoardTransform) -> None:
    """Terrain edges that drop by Orange or more (R-ELEV-2), as magenta lines."""
    for edge in edges:
        outline_geometry(surface, theme.SIGNIFICANT_EDGE, edge, t, 2)


def draw_terrain(surface: Any, scenario: Scenario, t: BoardTransform,
                 edges: Sequence[BaseGeometry] = (), labels: bool = True) -> None:
    """Table, every piece (lowest first so roofs cover the ground), edges, labels
    (``labels`` False: the frame places them over the bases, render.draw.frame)."""
    draw_table(surface, scenario.board, t)
    pieces = sorted(scenario.terrain, key=lambda pc: (pc.props.area, pc.props.height))
    for piece in pieces:
        draw_piece(surface, piece, t)
    draw_significant_edges(surface, edges, t)
    for piece, text, box in piece_label_boxes(scenario, t) if labels else ():
        draw_piece_label(surface, piece, text, box, t)


def place_piece_labels(labels: Sequence[PieceLabel], bases: Sequence[Any]) -> list[PieceLabel]:
    """The terrain labels moved off the bases (``bases``: their screen boxes): a label a
    model stands on goes beside it, so no height reads under a name (issue 16, bug 8)."""
    placer = Placer(bases)
    out = []
    for piece, text, box in labels:
        w, h = box.size
        x, y = box.center
        spots = [(x, y), (x, y - h - 2), (x, y + h + 2), (x + w + 2, y), (x - w - 2, y),
                 (x, y - 2 * h - 4), (x, y + 2 * h + 4)]
        out.append((piece, text, placer.place(box.size, spots)))
    return out


def board_layer(scenario: Scenario, rect: Rect, t: BoardTransform,
                edges: Sequence[BaseGeometry] = ()) -> Any:
    """The terrain drawn into a new surface covering ``rect``.

    ``edges`` are the board's significant edges (R-ELEV-2); they never change
    for a scenario, so they are part of the layer (:class:`BoardLayers` keeps it).
    """
    layer = pygame.Surface((rect.w, rect.h))
    layer.fill(theme.BACKGROUND)
    draw_terrain(layer, scenario, t.shifted(rect.x, rect.y), edges, labels=False)
    return layer


class BoardLayers:
    """The drawn terrain of one window, kept per board rectangle and scale.

    Held by the window (:class:`render.app.App`), which clears it on a resize.
    A window shows one scenario; another scenario drops every layer first.
    """

    KEPT = 8  # layers kept at most (a window being resized asks for many sizes)
    KEPT_AREAS = 16  # drawn reachable areas kept (one per model and kind of move)

    def __init__(self) -> None:
        self._scenario: Scenario | None = None
        self._layers: dict[tuple[object, ...], Any] = {}
        self._areas: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
        self._labels: dict[tuple[float, tuple[int, int]], list[PieceLabel]] = {}
        self._kept: tuple[Hashable, Any] | None = None
        self._still: tuple[Hashable, Any, tuple[Any, ...]] | None = None

    def layer(self, scenario: Scenario, rect: Rect, t: BoardTransform,
              edges: Sequence[BaseGeometry] = ()) -> Any:
        """:func:`board_layer`, drawn once per ``rect``, scale and origin."""
        if scenario is not self._scenario:
            self._scenario = scenario
            self.clear()
        key = (rect.as_tuple(), t.scale, t.to_screen(0, 0))  # zoomed and panned too
        if key not in self._layers:
            if len(self._layers) >= self.KEPT:
                self.clear()
            self._layers[key] = board_layer(scenario, rect, t, edges)
        return self._layers[key]

    def area(self, surface: Any, geom: BaseGeometry, fill: Sequence[int], edge: Sequence[int],
             t: BoardTransform) -> None:
        """A shaded area (reachable), cleaned for display and drawn once per value and scale."""
        key = (geom.wkb, tuple(fill), tuple(edge), t.scale, t.to_screen(0, 0))
        hit = self._areas.get(key)
        if hit is None:
            if len(self._areas) >= self.KEPT_AREAS:
                self._areas.clear()
            hit = area_layer(geom, fill, edge, t)
            self._areas[key] = hit
        if hit[0] is not None:
            surface.blit(*hit)

    def label_boxes(self, scenario: Scenario, t: BoardTransform) -> list[PieceLabel]:
        """The terrain labels and their screen boxes (:func:`piece_label_boxes`), kept."""
        if scenario is not self._scenario:
            self._scenario = scenario
            self.clear()
        key = (t.scale, t.to_screen(0, 0))
        if key not in self._labels:
            self._labels[key] = piece_label_boxes(scenario, t)
        return self._labels[key]

    def still(self, layer: Any, overlays: Sequence[Any], draw: Callable[[Any], None]) -> Any:
        """``layer`` with the still overlays (``still_key``: a map's shading, every sight
        line, edges, reachable areas) drawn over it by ``draw``, kept while they stay
        the same: a frame blits one picture, not a map and 1,750 dashes (issue 34, bug 7).
        The overlays are held with the picture, so the ids in their keys stay theirs."""
        key = (id(layer), tuple(o.still_key() for o in overlays))
        if self._still is None or self._still[0] != key:
            img = layer.copy()
            draw(img)
            self._still = (key, img, (layer, *overlays))
        return self._still[1]

    def kept(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The surface ``make`` draws, kept while ``key`` stays the same (the frame's
        steady panels: header, legend, log, strip)."""
        if self._kept is None or self._kept[0] != key:
            self._kept = (key, make())
        return self._kept[1]

    def clear(self) -> None:
        self._layers.clear()
        self._areas.clear()
        self._labels.clear()
        self._kept = None
        self._still = None


def area_layer(geom: BaseGeometry, fill: Sequence[int], edge: Sequence[int], t: BoardTransform
               ) -> tuple[Any, tuple[int, int]]:
    """The area as drawn (:func:`render.draw.areas.display_area`) in a surface the size of
    its bounding box, and where that goes on the screen."""
    clean = display_area(geom, t.scale)
    if clean.is_empty:
        return None, (0, 0)
    minx, miny, maxx, maxy = clean.bounds
    (x0, y0), (x1, y1) = t.to_screen(minx, miny), t.to_screen(maxx, maxy)
    left, top = x0 - 2, y0 - 2
    size = (x1 - x0 + 5, y1 - y0 + 5)
    local = t.shifted(left, top)
    img = pygame.Surface(size, pygame.SRCALPHA)
    fill_geometry(img, (*fill[:3], 255), clean, local)
    if len(fill) == 4:  # the fill's alpha on every pixel drawn
        img.fill((255, 255, 255, fill[3]), special_flags=pygame.BLEND_RGBA_MULT)
    outline_geometry(img, edge, clean, local, 1)
    return img, (left, top)


def draw_swatch(surface: Any, entry: LegendEntry, box: pygame.Rect) -> None:
    """The small sample of one legend entry."""
    c = entry.colour
    if entry.style == "fill":
        pygame.draw.rect(surface, theme.TABLE, box)
        tmp = pygame.Surface(box.size, pygame.SRCALPHA)
        tmp.fill((*c[:3], c[3] if len(c) == 4 else 255))
        surface.blit(tmp, box)
    elif entry.style == "hatch":
        pygame.draw.rect(surface, c[:3], box)
        for i in range(-box.h, box.w, 6):
            pygame.draw.line(
                surface,
                (95, 70, 40),
                (box.x + max(i, 0), box.y + max(-i, 0)),
                (box.x + min(i + box.h, box.w), box.y + min(box.h, box.w - i)),
            )
    elif entry.style == "outline":
        pygame.draw.rect(surface, theme.TABLE, box)
        pygame.draw.rect(surface, c[:3], box, 3)
    elif entry.style == "dashed":
        pygame.draw.rect(surface, theme.TABLE, box)
        pts = [box.topleft, box.topright, box.bottomright, box.bottomleft, box.topleft]
        dashed_polyline(surface, c[:3], pts, 2, dash=4, gap=3)
    elif entry.style == "line":
        pygame.draw.line(surface, c[:3], box.midleft, box.midright, 3)
    elif entry.style == "dot":
        pygame.draw.rect(surface, theme.TABLE, box)
        pygame.draw.circle(surface, c[:3], box.center, 5)
    elif entry.style == "text":
        img = theme.text(entry.glyph, 18, c[:3], bold=True)
        surface.blit(img, img.get_rect(center=box.center))
    elif entry.style == "tag":
        img = theme.text(entry.glyph, 13, (0, 0, 0), bold=True)
        tag = img.get_rect(center=box.center).inflate(4, 0)
        pygame.draw.rect(surface, c[:3], tag, border_radius=3)
        surface.blit(img, img.get_rect(center=tag.center))
    elif entry.style == "pips":
        for i in range(4):
            pygame.draw.rect(surface, c[:3] if i < 3 else (60, 30, 30),
                             (box.x + i * 6, box.centery - 2, 5, 4))
    elif entry.style == "ring":
        pygame.draw.circle(surface, c[:3], box.center, box.h // 2, 2)
    elif entry.style in ("diamond", "crate"):  # as render.draw.objectives draws them
        pygame.draw.rect(surface, theme.TABLE, box)
        x, y, r = box.centerx, box.centery, box.h // 2
        if entry.style == "diamond":
            points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
            pygame.draw.polygon(surface, c[:3], points)
            pygame.draw.polygon(surface, theme.TEXT, points, 1)
        else:
            crate = pygame.Rect(x - r, y - r, 2 * r, 2 * r)
            pygame.draw.rect(surface, c[:3], crate)
            pygame.draw.line(surface, theme.TEXT, crate.topleft, crate.bottomright, 1)
            pygame.draw.line(surface, theme.TEXT, crate.topright, crate.bottomleft, 1)


def draw_legend(surface: Any, rect: Rect, entries: Sequence[LegendEntry], title: str) -> None:
    """A legend of ``entries`` in two columns inside ``rect``."""
    if rect.h < 40:
        return
    surface.blit(
        theme.text(title, 18, theme.TEXT, bold=True), (rect.x + 4, rect.y + 2)
    )
    col_w = rect.w // 2
    # Rows shrink (to 14 px) before any entry is left out of a short box.
    need = -(-len(entries) // 2)
    row_h = max(14, min(18, (rect.h - 22) // max(1, need)))
    size = 17 if row_h >= 18 else 15
    rows = max(1, (rect.h - 22) // row_h)
    for i, entry in enumerate(entries):
        col, row = divmod(i, rows)
        if col > 1:
            break
        x, y = rect.x + 4 + col * col_w, rect.y + 22 + row * row_h
        draw_swatch(surface, entry, pygame.Rect(x, y + (row_h - 12) // 2, 22, 12))
        surface.blit(theme.text(entry.label, size, theme.TEXT), (x + 28, y))
